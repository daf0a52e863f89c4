// What Discord accepts in an execute-webhook post (API-NOTES.md "S7 JSON params and documented
// limits"; https://discord.com/developers/docs/resources/webhook#execute-webhook and
// https://discord.com/developers/docs/resources/message#embed-object-embed-limits). The client
// refuses a message that breaks one; jobs/webhook-message.ts clamps a Reply so that none does.

/** Discord's documented message, embed and upload limits; characters are counted after trimming. */
export const WEBHOOK_LIMITS = Object.freeze({
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** Title, description, field names and values and footers of all embeds together. */
  total: 6000,
  username: 80,
  color: 0xffffff,
  /** Attachments per message (error 30015). */
  files: 10,
  /** Per file without boosts (10 MiB). */
  fileBytes: 10 * 1024 * 1024,
  /** The whole multipart request (25 MiB). */
  uploadBytes: 25 * 1024 * 1024,
  /** Attachment file names are kept short and plain. */
  filename: 100,
});

/** Discord counts characters after trimming, by code point, so an emoji is one. */
export function charCount(text: string | undefined): number {
  return text === undefined ? 0 : [...text.trim()].length;
}

/** Names Discord refuses for a webhook, whatever their case (the nickname rules plus its own brands). */
const RESERVED_USERNAMES = new Set(['everyone', 'here']);

/**
 * Why Discord would refuse `name` as a webhook username, or undefined. Webhook names follow the
 * nickname rules (no `@`, `#`, `:` or triple backtick; not "everyone" or "here"), may not contain
 * "discord" or "clyde", and may be 1 to 80 characters once trimmed and whitespace-collapsed.
 */
export function usernameProblem(name: string): string | undefined {
  const collapsed = name.trim().replace(/\s+/g, ' ');
  const n = charCount(collapsed);
  if (n < 1 || n > WEBHOOK_LIMITS.username)
    return `username must be 1 to ${WEBHOOK_LIMITS.username} characters`;
  if (/discord|clyde/i.test(collapsed)) return 'username must not contain "discord" or "clyde"';
  if (/[@#:]|```/.test(collapsed)) return 'username must not contain @, #, : or ```';
  if (RESERVED_USERNAMES.has(collapsed.toLowerCase())) return `username must not be "${collapsed}"`;
  return undefined;
}
