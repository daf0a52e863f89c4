// Discord's documented limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits),
// kept once for the gateway adapter's renderer, the webhook job renderer and the webhook client.
//
// Counting: herald counts every Discord limit in UTF-16 code units (JavaScript's `String#length`).
// Discord counts code points after trimming leading and trailing whitespace; a code-unit count is
// never smaller, so text that fits by herald's count always fits by Discord's (an emoji costs two).

export const DISCORD_LIMITS = Object.freeze({
  /** Message `content`. */
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
  /** Title, description, field names and values, footer and author across all embeds of a message. */
  embedsTotal: 6000,
  /** A webhook's username override (nicknames are 32; webhook names may be 80). */
  username: 80,
  color: 0xffffff,
  buttonsPerRow: 5,
  rows: 5,
  buttonLabel: 80,
  customId: 100,
  files: 10,
  /** Per-file upload limit without boosts; an interaction may report a higher `attachment_size_limit`. */
  fileBytes: 10 * 1024 * 1024,
  /** The whole multipart request. */
  uploadBytes: 25 * 1024 * 1024,
  /** An uploaded file's name. */
  filename: 100,
  /** An uploaded file's description (its alt text). */
  fileDescription: 1024,
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
  /** Slash command definitions: description, options, choices, and a string option's max_length. */
  commandDescription: 100,
  commandOptions: 25,
  subcommands: 25,
  choices: 25,
  stringOptionLength: 6000,
  /** Names and descriptions of one command together. */
  commandChars: 8000,
  /** Follow-up messages to one interaction that a user install alone authorised (no guild install). */
  userInstallFollowUps: 5,
  /**
   * A modal (interaction response type 9): its title, and 1 to 5 action rows of one text input each.
   * https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal
   */
  modalTitle: 45,
  modalInputs: 5,
  /** A text input (https://discord.com/developers/docs/components/reference#text-input). */
  inputLabel: 45,
  inputPlaceholder: 100,
  inputLength: 4000,
});

/** The length herald measures against a Discord limit: UTF-16 code units of the trimmed text. */
export function discordLength(text: string | undefined): number {
  return text === undefined ? 0 : text.trim().length;
}

/**
 * Why Discord would refuse `name` as a webhook username whatever its length, or undefined. Webhook
 * names follow the nickname rules (no `@`, `#`, `:` or triple backtick; not "everyone" or "here")
 * and may not contain "discord" or "clyde". Pass the name trimmed, whitespace collapsed.
 */
export function webhookUsernameProblem(name: string): string | undefined {
  if (/discord|clyde/i.test(name)) return 'username must not contain "discord" or "clyde"';
  if (/[@#:]|```/.test(name)) return 'username must not contain @, #, : or ```';
  if (/^(everyone|here)$/i.test(name)) return `username must not be "${name}"`;
  return undefined;
}

const SNOWFLAKE_RE = /^\d{1,20}$/;

/**
 * A message's address in Discord (`https://discord.com/channels/<guild>/<channel>/<message>`, the
 * form the app's "Copy Message Link" gives), or undefined unless all three are snowflakes.
 */
export function discordMessageUrl(guildId: string, channelId: string, messageId: string): string | undefined {
  if (![guildId, channelId, messageId].every((id) => SNOWFLAKE_RE.test(id))) return undefined;
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
}

/** Discord's REST base without the version, where DISCORD_API_URL does not name another. */
export const DISCORD_API_URL = 'https://discord.com/api';

/** `allowed_mentions` that pings nobody: text from users or providers never notifies anyone. */
export const NO_MENTIONS = Object.freeze({ parse: [] as [] });

/** Discord's permission bits (https://discord.com/developers/docs/topics/permissions). */
const DISCORD_PERMISSIONS = Object.freeze({
  administrator: 1n << 3n,
  viewChannel: 1n << 10n,
  sendMessages: 1n << 11n,
});

/** Whether a permissions bitfield (decimal, as Discord sends it) may view the channel and send there. */
export function maySendMessages(bitfield: string): boolean {
  if (!/^\d{1,30}$/.test(bitfield)) return false;
  const bits = BigInt(bitfield);
  const { administrator, viewChannel, sendMessages } = DISCORD_PERMISSIONS;
  return (
    (bits & administrator) !== 0n || (bits & (viewChannel | sendMessages)) === (viewChannel | sendMessages)
  );
}
