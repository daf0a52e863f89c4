// Reply -> Discord message, pure: the one Discord renderer, for an interaction's answer, a bot post
// in a channel and a webhook post alike (renderDiscordWebhook), so a reply reads the same and is
// defused the same on every path. Every limit of Discord's message objects is a named constant
// (discord-payload.ts); a reply that would break one is shortened with an ellipsis or cut, and a
// note says so, so Discord never rejects the message. The parts: discord-embeds.ts,
// discord-actions.ts (buttons or command lines), discord-files.ts, discord-text.ts (defusing, notes).
import { mapReplyText, type Action, type Choice, type Reply } from '../core/reply.ts';
import { DISCORD_LIMITS, webhookUsernameProblem } from '../domain/discord.ts';
import { mentionToken, type Mention } from '../domain/mentions.ts';
import { truncate } from '../domain/text.ts';
import { withoutControls } from './text-safety.ts';
import {
  AUTOCOMPLETE_CHOICES_MAX,
  CHOICE_NAME_MAX,
  CHOICE_VALUE_MAX,
  CONTENT_MAX,
  EMPTY_PLACEHOLDER,
  EPHEMERAL,
  FILE_BYTES_MAX,
  type AllowedMentions,
  type DiscordEmbed,
  type DiscordMessage,
  type DiscordWebhookMessage,
} from './discord-payload.ts';
import { defuseMaskedLinks, noteLine, type Notes } from './discord-text.ts';
import { renderEmbeds } from './discord-embeds.ts';
import { actionHints, renderButtons } from './discord-actions.ts';
import { renderFiles } from './discord-files.ts';
import { writeTimes } from './time.ts';

// The message types callers send on; the limits and the parts are imported from their own modules.
export type { DiscordEmbed, DiscordFile, DiscordMessage, DiscordWebhookMessage } from './discord-payload.ts';

interface RenderOptions {
  /**
   * Turns an Action into a button custom_id (the adapter remembers long ones). Without it (a post
   * no one can click for herald, such as a webhook's) each action becomes a line naming the command.
   */
  customIdFor?: (action: Action) => string;
  /** Per-file upload limit; defaults to FILE_BYTES_MAX. */
  maxFileBytes?: number;
}

/** Notes may take this much of the content when the reply's text shares it; the text keeps the rest. */
const NOTES_SHARE = 600;

/**
 * The embeds' time values written: Discord's timestamp token in descriptions and field values, which
 * render markdown; plain text in the reader's zone in titles, field names and footers, which do not.
 * A token is never longer than the value it replaces, so no limit is crossed.
 */
function embedTimes(embed: DiscordEmbed): DiscordEmbed {
  const out: DiscordEmbed = { ...embed };
  if (embed.title !== undefined) out.title = writeTimes(embed.title, 'plain');
  if (embed.description !== undefined) out.description = writeTimes(embed.description, 'discord');
  if (embed.footer) out.footer = { text: writeTimes(embed.footer.text, 'plain') };
  if (embed.fields)
    out.fields = embed.fields.map((f) => ({
      ...f,
      name: writeTimes(f.name, 'plain'),
      value: writeTimes(f.value, 'discord'),
    }));
  return out;
}

/**
 * Renders a Reply as a Discord message; never produces a payload Discord would reject. Buttons
 * need `customIdFor`; without it the actions are listed as commands to type.
 */
export function renderDiscord(shown: Reply, options: RenderOptions = {}): DiscordMessage {
  // Control characters could hide or reorder what readers see: gone from every piece of text.
  const reply = mapReplyText(shown, withoutControls);
  const notes: Notes = {
    shortened: false,
    droppedEmbeds: 0,
    droppedFields: 0,
    droppedButtons: 0,
    droppedFiles: [],
  };
  const { files, names } = renderFiles(reply, options.maxFileBytes ?? FILE_BYTES_MAX, notes);
  const embeds = renderEmbeds(reply.embeds ?? [], names, notes);
  const actions = reply.actions ?? [];
  const components = options.customIdFor ? renderButtons(actions, options.customIdFor, notes) : [];
  const hints = options.customIdFor ? [] : actionHints(actions, notes);

  // With embeds, the embeds carry the answer and `text` stays the notification fallback.
  const body = [reply.heading, embeds.length > 0 ? '' : reply.text].map((t) => t?.trim());
  const pinged = (reply.mentions ?? []).filter((m) => m.platform === 'discord');
  const pings = pinged.map(mentionToken).join(' ');
  let text = [pings, defuseMaskedLinks(body.filter((t) => t).join('\n'))].filter((t) => t).join('\n');
  const tail = (): string => {
    const lines = [noteLine(notes), ...hints].filter((line) => line !== undefined);
    return truncate(lines.join('\n'), text === '' ? CONTENT_MAX : NOTES_SHARE);
  };
  const room = () => CONTENT_MAX - (tail() === '' ? 0 : tail().length + (text === '' ? 0 : 1));
  if (text.length > room()) {
    notes.shortened = true;
    text = truncate(text, room());
  }
  let content = [text, tail()].filter((part) => part !== '').join('\n');
  if (content === '' && embeds.length === 0 && files.length === 0) content = EMPTY_PLACEHOLDER;

  return {
    content: writeTimes(content, 'discord'),
    embeds: embeds.map(embedTimes),
    components,
    files,
    // Nothing herald sends may ping anyone, whatever the text contains, but a post's own mentions.
    allowed_mentions: reply.ephemeral ? { parse: [] } : allowedMentions(pinged),
    flags: reply.ephemeral ? EPHEMERAL : 0,
  };
}

/** `allowed_mentions` listing exactly `mentions`' roles and users, and parsing nothing. */
function allowedMentions(mentions: readonly Mention[]): AllowedMentions {
  const ids = (kind: Mention['kind']) => mentions.filter((m) => m.kind === kind).map((m) => m.id);
  const [roles, users] = [ids('role'), ids('user')];
  return { parse: [], ...(roles.length > 0 ? { roles } : {}), ...(users.length > 0 ? { users } : {}) };
}

/**
 * A username Discord accepts for a webhook post, else undefined (the webhook's own name is used).
 * Webhook names follow the nickname rules: no `@`, `#`, `:` or triple backtick, not "everyone" or
 * "here", never "discord" or "clyde"; 1–80 characters once whitespace is collapsed.
 */
export function webhookUsername(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = withoutControls(name).trim().replace(/\s+/g, ' ');
  if (trimmed === '' || webhookUsernameProblem(trimmed) !== undefined) return undefined;
  return truncate(trimmed, DISCORD_LIMITS.username);
}

interface WebhookRenderOptions {
  /** The name to post under (WEBHOOK_USERNAME); one Discord refuses is left out. */
  username?: string | undefined;
  /** Per-file upload limit; Discord's default without boosts when unset. */
  maxFileBytes?: number;
}

/** The Reply as a webhook post: renderDiscord's message, actions as command lines, empty parts left out. */
export function renderDiscordWebhook(reply: Reply, opts: WebhookRenderOptions = {}): DiscordWebhookMessage {
  const rendered = renderDiscord(
    { ...reply, ephemeral: false },
    opts.maxFileBytes === undefined ? {} : { maxFileBytes: opts.maxFileBytes },
  );
  const message: DiscordWebhookMessage = {};
  const username = webhookUsername(opts.username);
  if (username !== undefined) message.username = username;
  if (rendered.content !== '') message.content = rendered.content;
  if (rendered.embeds.length > 0) message.embeds = rendered.embeds;
  if (rendered.files.length > 0) message.files = rendered.files;
  const { allowed_mentions: allowed } = rendered;
  if (allowed.roles || allowed.users) message.allowed_mentions = allowed;
  return message;
}

/** Autocomplete choices within Discord's limits: at most 25, names ≤100, values ≤100 (others dropped). */
export function renderChoices(choices: readonly Choice[]): Choice[] {
  const out: Choice[] = [];
  const seen = new Set<string>();
  for (const choice of choices) {
    if (out.length >= AUTOCOMPLETE_CHOICES_MAX) break;
    if (choice.value === '' || choice.value.length > CHOICE_VALUE_MAX || seen.has(choice.value)) continue;
    seen.add(choice.value);
    const shown = withoutControls(choice.name);
    const name = shown.trim() === '' ? choice.value : shown;
    out.push({ name: truncate(name, CHOICE_NAME_MAX), value: choice.value });
  }
  return out;
}
