// Turns a Reply into a Discord webhook message within every documented limit
// (https://discord.com/developers/docs/resources/message#embed-object-embed-limits and
// https://discord.com/developers/docs/reference#uploading-files), clamping with an ellipsis rather
// than letting Discord refuse the post with a 400. Attachments become files of the same post (an
// embed shows one through `attachment://name`); buttons cannot ride on a webhook message, so each
// becomes a line naming the command to type. Mentions never ping: the client sends parse [].
import { actionToCommandLine, COLOR_HEX, type Embed, type Reply } from '../src/core/reply.ts';
import { DISCORD_LIMITS, discordLength, webhookUsernameProblem } from '../src/domain/discord.ts';
import { truncate } from '../src/domain/text.ts';
import type { WebhookEmbed, WebhookFile, WebhookMessage } from '../src/services/webhook/client.ts';

/** Command hints for left-out buttons: at most this many lines. */
const MAX_ACTION_HINTS = 5;

/** Discord's count of a text it receives (src/domain/discord.ts says how herald counts). */
export function charCount(text: string | undefined): number {
  return discordLength(text);
}

function clip(text: string, max: number): string {
  return max <= 0 ? '' : truncate(text.trim(), max);
}

/**
 * A username Discord accepts for a webhook, else undefined (the webhook's own name is used).
 * Webhook names follow the nickname rules: no `@`, `#`, `:` or triple backtick, not "everyone" or
 * "here", never "discord" or "clyde"; 1–80 characters once whitespace is collapsed.
 */
export function webhookUsername(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (trimmed === '' || webhookUsernameProblem(trimmed) !== undefined) return undefined;
  return clip(trimmed, DISCORD_LIMITS.username);
}

/** A plain, unique file name Discord keeps as it is (no path, no spaces). */
function safeFilename(name: string, taken: ReadonlySet<string>): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  const plain = clip(base === '' ? 'file' : base, DISCORD_LIMITS.filename);
  let unique = plain;
  for (let i = 2; taken.has(unique); i++) unique = `${i}-${plain}`;
  return unique;
}

interface RenderedFiles {
  files: WebhookFile[];
  /** Reply filename to the name it is uploaded under. */
  names: Map<string, string>;
  dropped: string[];
}

function renderFiles(reply: Reply, maxFileBytes: number): RenderedFiles {
  const L = DISCORD_LIMITS;
  const out: RenderedFiles = { files: [], names: new Map(), dropped: [] };
  const taken = new Set<string>();
  let total = 0;
  for (const a of reply.attachments ?? []) {
    const size = a.bytes.byteLength;
    if (out.files.length >= L.files || size > maxFileBytes || total + size > L.uploadBytes) {
      out.dropped.push(a.filename);
      continue;
    }
    const name = safeFilename(a.filename, taken);
    taken.add(name);
    total += size;
    if (!out.names.has(a.filename)) out.names.set(a.filename, name);
    const file: WebhookFile = { name, contentType: a.contentType, bytes: a.bytes };
    if (a.description !== undefined && a.description.trim() !== '')
      file.description = clip(a.description, L.fileDescription);
    out.files.push(file);
  }
  return out;
}

function httpsUrl(value: string | undefined): string | undefined {
  return value !== undefined && /^https?:\/\//i.test(value) ? value : undefined;
}

/** The embed's picture: an attached file by its uploaded name, or a web address. */
function imageUrl(image: string | undefined, names: ReadonlyMap<string, string>): string | undefined {
  if (image === undefined) return undefined;
  const file = names.get(image.replace(/^attachment:\/\//, ''));
  return file === undefined ? httpsUrl(image) : `attachment://${file}`;
}

/** Embeds within each limit and the 6000 characters all embeds share. */
function renderEmbeds(embeds: readonly Embed[], names: ReadonlyMap<string, string>): WebhookEmbed[] {
  const L = DISCORD_LIMITS;
  let budget = L.embedsTotal;
  /** Clips to the field's own limit and to what is left of the 6000 shared by all embeds. */
  const take = (text: string | undefined, limit: number): string | undefined => {
    if (text === undefined || charCount(text) === 0) return undefined;
    const room = Math.min(limit, budget);
    if (room < 1) return undefined;
    const out = clip(text, room);
    budget -= charCount(out);
    return out;
  };
  const out: WebhookEmbed[] = [];
  for (const e of embeds.slice(0, L.embeds)) {
    if (budget < 2) break;
    const embed: WebhookEmbed = {};
    const title = take(e.title, L.title);
    if (title !== undefined) embed.title = title;
    const footerText = e.footer === undefined ? undefined : clip(e.footer, Math.min(L.footer, 200));
    // The footer is small and last; hold room for it so that long fields do not squeeze it out.
    const footerRoom = charCount(footerText);
    budget -= footerRoom;
    const description = take(e.description, L.description);
    if (description !== undefined) embed.description = description;
    const fields: NonNullable<WebhookEmbed['fields']> = [];
    for (const f of (e.fields ?? []).slice(0, L.fields)) {
      if (budget < 8 || charCount(f.name) === 0 || charCount(f.value) === 0) break;
      const name = take(f.name, Math.min(L.fieldName, Math.floor(budget / 2)));
      const value = take(f.value, L.fieldValue);
      if (name === undefined || value === undefined) break;
      fields.push(f.inline === undefined ? { name, value } : { name, value, inline: f.inline });
    }
    if (fields.length > 0) embed.fields = fields;
    budget += footerRoom;
    const footer = take(footerText, L.footer);
    if (footer !== undefined) embed.footer = { text: footer };
    if (e.color !== undefined) embed.color = COLOR_HEX[e.color];
    if (httpsUrl(e.url) !== undefined) embed.url = e.url!;
    if (e.timestamp !== undefined) embed.timestamp = e.timestamp;
    const image = imageUrl(e.image, names);
    if (image !== undefined) embed.image = { url: image };
    const thumbnail = httpsUrl(e.thumbnail);
    if (thumbnail !== undefined) embed.thumbnail = { url: thumbnail };
    if (embed.title !== undefined || embed.description !== undefined || embed.fields !== undefined)
      out.push(embed);
  }
  return out;
}

/** Lines under the text: what could not be attached, and the commands the left-out buttons ran. */
function noteLines(reply: Reply, dropped: readonly string[]): string[] {
  const lines: string[] = [];
  if (dropped.length > 0) lines.push(`-# Not attached (too large or too many): ${dropped.join(', ')}`);
  for (const action of (reply.actions ?? []).slice(0, MAX_ACTION_HINTS)) {
    // "-# " is Discord's subtext markdown: a small grey line.
    lines.push(`-# ${action.label.trim() || 'More'}: \`${actionToCommandLine(action)}\``);
  }
  return lines;
}

/** Notes may take this much of the content when the text shares it; the text keeps the rest. */
const NOTES_SHARE = 600;

/** The message content: the reply's text when no embed carries it, then the notes, within 2000. */
function renderContent(text: string | undefined, notes: readonly string[]): string | undefined {
  const max = DISCORD_LIMITS.content;
  const notesRoom = text === undefined ? max : NOTES_SHARE;
  const kept: string[] = [];
  let used = 0;
  for (const line of notes) {
    const n = charCount(line) + (kept.length > 0 ? 1 : 0);
    if (used + n > notesRoom) break;
    kept.push(line.trim());
    used += n;
  }
  const textRoom = max - used - (kept.length > 0 ? 1 : 0);
  const head = text === undefined ? undefined : clip(text, textRoom);
  const content = [head, ...kept].filter((p) => p !== undefined && p !== '').join('\n');
  return content === '' ? undefined : content;
}

export interface WebhookRenderOptions {
  username?: string | undefined;
  /** Per-file upload limit; Discord's default without boosts when unset. */
  maxFileBytes?: number;
}

export function renderWebhookMessage(reply: Reply, opts: WebhookRenderOptions = {}): WebhookMessage {
  const { files, names, dropped } = renderFiles(reply, opts.maxFileBytes ?? DISCORD_LIMITS.fileBytes);
  const embeds = renderEmbeds(reply.embeds ?? [], names);
  // With embeds, the embeds carry the answer and `text` stays the notification fallback.
  const text = embeds.length > 0 ? undefined : charCount(reply.text) > 0 ? reply.text : undefined;
  let content = renderContent(text, noteLines(reply, dropped));
  if (content === undefined && embeds.length === 0 && files.length === 0) content = '(empty report)';
  const message: WebhookMessage = {};
  const username = webhookUsername(opts.username);
  if (username !== undefined) message.username = username;
  if (content !== undefined) message.content = content;
  if (embeds.length > 0) message.embeds = embeds;
  if (files.length > 0) message.files = files;
  return message;
}
