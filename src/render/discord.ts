// Reply -> Discord message, pure: the one Discord renderer, for an interaction's answer, a bot post
// in a channel and a webhook post alike (renderDiscordWebhook), so a reply reads the same and is
// defused the same on every path. Every limit of Discord's message and embed objects is a named
// constant below; a reply that would break one is shortened with an ellipsis or cut, and a note
// says so, so Discord never rejects the message.
// Limits: https://discord.com/developers/docs/resources/message#embed-object-embed-limits
// Files: https://discord.com/developers/docs/reference#uploading-files (described as data here; the
// caller uploads them as multipart).
import {
  actionToCommandLine,
  COLOR_HEX,
  mapReplyText,
  type Action,
  type Choice,
  type Embed,
  type Reply,
} from '../core/reply.ts';
import { DISCORD_LIMITS, webhookUsernameProblem } from '../domain/discord.ts';
import { truncate } from '../domain/text.ts';
import { withoutBidiControls } from './text-safety.ts';
import { httpUrl, maskedLink, withLink } from './discord-link.ts';

// Discord's limits are domain facts (src/domain/discord.ts); the names below are this renderer's.
const L = DISCORD_LIMITS;
export const CONTENT_MAX = L.content;
export const EMBEDS_MAX = L.embeds;
export const EMBED_TITLE_MAX = L.title;
export const EMBED_DESCRIPTION_MAX = L.description;
export const EMBED_FIELDS_MAX = L.fields;
export const FIELD_NAME_MAX = L.fieldName;
export const FIELD_VALUE_MAX = L.fieldValue;
export const FOOTER_MAX = L.footer;
export const EMBEDS_TOTAL_MAX = L.embedsTotal;
export const BUTTONS_PER_ROW = L.buttonsPerRow;
export const ROWS_MAX = L.rows;
export const BUTTON_LABEL_MAX = L.buttonLabel;
export const FILES_MAX = L.files;
export const FILE_BYTES_MAX = L.fileBytes;
export const UPLOAD_BYTES_MAX = L.uploadBytes;
export const AUTOCOMPLETE_CHOICES_MAX = L.autocompleteChoices;
export const CHOICE_NAME_MAX = L.choiceName;
export const CHOICE_VALUE_MAX = L.choiceValue;

export { truncate };
/** Discord rejects empty or blank names and values; a zero-width space renders as nothing. */
export const EMPTY_PLACEHOLDER = '\u200b';
/** Smallest useful remainder when an embed is shortened to fit the 6000 total. */
const MIN_TRUNCATED_TEXT = 16;
/** The most of a footer an embed shortened to fit the 6000 total keeps. */
const FOOTER_HELD_MAX = 200;

// Discord's wire numbers (https://discord.com/developers/docs/components/reference): no SDK here.
const ACTION_ROW = 1;
const BUTTON = 2;
const SECONDARY = 2;
/** Message flag: only the invoker sees the message. */
const EPHEMERAL = 1 << 6;

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

/** Discord's embed object, the fields herald sets. */
export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: DiscordEmbedField[];
  footer?: { text: string };
  /** ISO 8601. */
  timestamp?: string;
  /** `attachment://<name>` of a file of the same message. */
  image?: { url: string };
  thumbnail?: { url: string };
}

export interface DiscordButton {
  type: typeof BUTTON;
  style: typeof SECONDARY;
  label: string;
  custom_id: string;
}

export interface DiscordActionRow {
  type: typeof ACTION_ROW;
  components: DiscordButton[];
}

/** A file sent with the message (multipart `files[n]`), under a plain name unique in the message. */
export interface DiscordFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
  /** Alt text. */
  description?: string;
}

export interface DiscordMessage {
  content: string;
  embeds: DiscordEmbed[];
  components: DiscordActionRow[];
  files: DiscordFile[];
  allowed_mentions: { parse: [] };
  flags: number;
}

/** A webhook post: the same message without buttons (a webhook's clicks reach no one), empty parts left out. */
export interface DiscordWebhookMessage {
  content?: string;
  /** The name the post is shown under; the webhook's own when absent. */
  username?: string;
  embeds?: DiscordEmbed[];
  files?: DiscordFile[];
}

export interface RenderOptions {
  /**
   * Turns an Action into a button custom_id (the adapter remembers long ones). Without it (a post
   * no one can click for herald, such as a webhook's) each action becomes a line naming the command.
   */
  customIdFor?: (action: Action) => string;
  /** Per-file upload limit; defaults to FILE_BYTES_MAX. */
  maxFileBytes?: number;
}

/** Command lines for actions that cannot be buttons: at most this many. */
const MAX_ACTION_HINTS = 5;

function nonBlank(text: string | undefined): string {
  return text === undefined || text.trim() === '' ? EMPTY_PLACEHOLDER : text;
}

interface Notes {
  shortened: boolean;
  droppedEmbeds: number;
  droppedFields: number;
  droppedButtons: number;
  droppedFiles: string[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function noteLine(notes: Notes): string | undefined {
  const parts: string[] = [];
  if (notes.shortened) parts.push('Some text was shortened to fit Discord’s limits.');
  if (notes.droppedEmbeds > 0) parts.push(`${plural(notes.droppedEmbeds, 'more section')} left out.`);
  if (notes.droppedFields > 0) parts.push(`${plural(notes.droppedFields, 'field')} left out.`);
  if (notes.droppedButtons > 0) parts.push(`${plural(notes.droppedButtons, 'button')} left out.`);
  if (notes.droppedFiles.length > 0) parts.push(`Not attached: ${notes.droppedFiles.join(', ')}.`);
  // "-# " is Discord's subtext markdown: the note reads as a small grey line.
  return parts.length === 0 ? undefined : truncate(`-# ${parts.join(' ')}`, 500);
}

/**
 * Masked links (`[label](url)`) render as a clickable label in content, descriptions and field
 * values, so text from a user or an upstream could hide any address behind any words. herald
 * writes them only from a field's `link` (discord-link.ts): each one in text is shown as typed (its
 * `[` escaped), except inside code, where Discord renders no markdown and a backslash would show.
 */
export function defuseMaskedLinks(text: string): string {
  if (!text.includes('](')) return text;
  return text
    .split(/(```[\s\S]*?```|`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(?<!\\)\[(?=[^\]\n]*\]\()/g, '\\[')))
    .join('');
}

function clip(text: string, max: number, notes: Notes): string {
  if (text.length > max) notes.shortened = true;
  return truncate(text, max);
}

function renderEmbed(
  embed: Embed,
  seenUrls: Set<string>,
  names: ReadonlyMap<string, string>,
  notes: Notes,
): DiscordEmbed {
  const out: DiscordEmbed = {};
  if (embed.title !== undefined && embed.title.trim() !== '')
    out.title = clip(embed.title, EMBED_TITLE_MAX, notes);
  const url = httpUrl(embed.url);
  // Discord merges embeds that share a URL into one gallery; only the first keeps it.
  if (url !== undefined && out.title !== undefined && !seenUrls.has(url)) {
    out.url = url;
    seenUrls.add(url);
  }
  if (embed.description !== undefined && embed.description.trim() !== '') {
    out.description = clip(defuseMaskedLinks(embed.description), EMBED_DESCRIPTION_MAX, notes);
  }
  if (embed.color !== undefined) out.color = COLOR_HEX[embed.color];
  const fields = embed.fields ?? [];
  if (fields.length > EMBED_FIELDS_MAX) notes.droppedFields += fields.length - EMBED_FIELDS_MAX;
  if (fields.length > 0) {
    out.fields = fields.slice(0, EMBED_FIELDS_MAX).map((f) => {
      const field: DiscordEmbedField = {
        name: clip(nonBlank(f.name), FIELD_NAME_MAX, notes),
        value: withLink(
          nonBlank(defuseMaskedLinks(f.value)),
          f.link && maskedLink(f.link),
          FIELD_VALUE_MAX,
          (t, max) => clip(t, max, notes),
        ),
      };
      if (f.inline) field.inline = true;
      return field;
    });
  }
  if (embed.footer !== undefined && embed.footer.trim() !== '') {
    out.footer = { text: clip(embed.footer, FOOTER_MAX, notes) };
  }
  if (embed.timestamp !== undefined) {
    const at = new Date(embed.timestamp);
    if (!Number.isNaN(at.getTime())) out.timestamp = at.toISOString();
  }
  const thumbnail = httpUrl(embed.thumbnail);
  if (thumbnail !== undefined) out.thumbnail = { url: thumbnail };
  // An embed shows its image only when that file is in the message (attachment://name).
  const image = embed.image === undefined ? undefined : names.get(embed.image);
  if (image !== undefined) out.image = { url: `attachment://${image}` };
  return out;
}

function hasText(embed: DiscordEmbed): boolean {
  return (
    embed.title !== undefined ||
    embed.description !== undefined ||
    (embed.fields?.length ?? 0) > 0 ||
    embed.footer !== undefined
  );
}

/** The characters Discord counts towards the 6000 total for one embed. */
export function embedLength(embed: DiscordEmbed): number {
  let n = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  for (const f of embed.fields ?? []) n += f.name.length + f.value.length;
  n += embed.footer?.text.length ?? 0;
  return n;
}

/** The embed cut down to at most `budget` counted characters, or undefined if nothing useful fits. */
function shrinkEmbed(embed: DiscordEmbed, budget: number, notes: Notes): DiscordEmbed | undefined {
  const { title, description, fields, footer, ...rest } = embed;
  const out: DiscordEmbed = { ...rest };
  // The footer is last and usually small (a report's period, a source): room is held for it first,
  // at most FOOTER_HELD_MAX of it, so that a long description cannot squeeze it out.
  const held =
    footer === undefined || budget < 2 * FOOTER_HELD_MAX
      ? undefined
      : { text: truncate(footer.text, FOOTER_HELD_MAX) };
  if (held !== undefined && held.text !== footer?.text) notes.shortened = true;
  let left = budget - (held?.text.length ?? 0);
  const take = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    if (text.length <= left) {
      left -= text.length;
      return text;
    }
    if (left < MIN_TRUNCATED_TEXT) return undefined;
    const cut = truncate(text, left);
    left -= cut.length;
    notes.shortened = true;
    return cut;
  };
  out.title = take(title);
  if (out.title === undefined) delete out.url;
  out.description = take(description);
  const kept: DiscordEmbedField[] = [];
  for (const field of fields ?? []) {
    const room = left - field.name.length;
    if (field.value.length <= room) {
      kept.push(field);
      left = room - field.value.length;
    } else if (room >= MIN_TRUNCATED_TEXT) {
      kept.push({ ...field, value: withLink(field.value, undefined, room, truncate) });
      notes.shortened = true;
      left = 0;
    } else {
      break;
    }
  }
  notes.droppedFields += (fields?.length ?? 0) - kept.length;
  if (kept.length > 0) out.fields = kept;
  if (held !== undefined) out.footer = held;
  for (const key of ['title', 'description'] as const) if (out[key] === undefined) delete out[key];
  return hasText(out) ? out : undefined;
}

function renderEmbeds(
  embeds: readonly Embed[],
  names: ReadonlyMap<string, string>,
  notes: Notes,
): DiscordEmbed[] {
  const seenUrls = new Set<string>();
  const rendered = embeds.map((e) => renderEmbed(e, seenUrls, names, notes)).filter(hasText);
  if (rendered.length > EMBEDS_MAX) notes.droppedEmbeds += rendered.length - EMBEDS_MAX;
  const out: DiscordEmbed[] = [];
  let budget = EMBEDS_TOTAL_MAX;
  const candidates = rendered.slice(0, EMBEDS_MAX);
  for (const [index, embed] of candidates.entries()) {
    const length = embedLength(embed);
    if (length <= budget) {
      out.push(embed);
      budget -= length;
      continue;
    }
    const shrunk = shrinkEmbed(embed, budget, notes);
    if (shrunk) out.push(shrunk);
    notes.droppedEmbeds += candidates.length - index - (shrunk ? 1 : 0);
    break;
  }
  return out;
}

function renderButtons(
  actions: readonly Action[],
  customIdFor: (action: Action) => string,
  notes: Notes,
): DiscordActionRow[] {
  const buttons: DiscordButton[] = [];
  const seen = new Set<string>();
  for (const action of actions) {
    const customId = customIdFor(action);
    // Custom ids must be unique within a message; the same action twice is one button.
    if (seen.has(customId)) continue;
    seen.add(customId);
    const label = action.label.trim() === '' ? actionToCommandLine(action) : action.label;
    buttons.push({
      type: BUTTON,
      style: SECONDARY,
      label: clip(label, BUTTON_LABEL_MAX, notes),
      custom_id: customId,
    });
  }
  const max = BUTTONS_PER_ROW * ROWS_MAX;
  if (buttons.length > max) notes.droppedButtons += buttons.length - max;
  const rows: DiscordActionRow[] = [];
  for (let i = 0; i < Math.min(buttons.length, max); i += BUTTONS_PER_ROW) {
    rows.push({ type: ACTION_ROW, components: buttons.slice(i, i + BUTTONS_PER_ROW) });
  }
  return rows;
}

/** Actions as lines naming the command to type, for a message that carries no buttons. */
function actionHints(actions: readonly Action[], notes: Notes): string[] {
  if (actions.length > MAX_ACTION_HINTS) notes.droppedButtons += actions.length - MAX_ACTION_HINTS;
  return actions.slice(0, MAX_ACTION_HINTS).map((action) =>
    // "-# " is Discord's subtext markdown: a small grey line.
    defuseMaskedLinks(
      `-# ${action.label.replace(/\s+/g, ' ').trim() || 'More'}: \`${actionToCommandLine(action).replaceAll('`', "'")}\``,
    ),
  );
}

/** A plain file name Discord keeps as it is (no path, no spaces), unique among `taken`. */
function safeFilename(name: string, taken: ReadonlySet<string>): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  const plain = truncate(cleaned === '' ? 'file' : cleaned, L.filename - 4);
  let unique = plain;
  for (let i = 2; taken.has(unique); i++) unique = `${i}-${plain}`;
  return unique;
}

interface RenderedFiles {
  files: DiscordFile[];
  /** The reply's filename to the name it is sent under (what an embed's `image` refers to). */
  names: Map<string, string>;
}

function renderFiles(reply: Reply, maxFileBytes: number, notes: Notes): RenderedFiles {
  const out: RenderedFiles = { files: [], names: new Map() };
  const taken = new Set<string>();
  let total = 0;
  for (const attachment of reply.attachments ?? []) {
    const size = attachment.bytes.byteLength;
    if (out.files.length >= FILES_MAX || size > maxFileBytes || total + size > UPLOAD_BYTES_MAX) {
      notes.droppedFiles.push(safeFilename(attachment.filename, new Set()));
      continue;
    }
    const name = safeFilename(attachment.filename, taken);
    taken.add(name);
    total += size;
    if (!out.names.has(attachment.filename)) out.names.set(attachment.filename, name);
    const file: DiscordFile = { name, contentType: attachment.contentType, bytes: attachment.bytes };
    const description = attachment.description?.trim();
    if (description) file.description = truncate(description, L.fileDescription);
    out.files.push(file);
  }
  return out;
}

/** Notes may take this much of the content when the reply's text shares it; the text keeps the rest. */
const NOTES_SHARE = 600;

/**
 * Renders a Reply as a Discord message; never produces a payload Discord would reject. Buttons
 * need `customIdFor`; without it the actions are listed as commands to type.
 */
export function renderDiscord(shown: Reply, options: RenderOptions = {}): DiscordMessage {
  // Bidi controls could reorder what readers see: gone from every piece of text.
  const reply = mapReplyText(shown, withoutBidiControls);
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
  let text = embeds.length > 0 ? '' : defuseMaskedLinks(reply.text.trim());
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
    content,
    embeds,
    components,
    files,
    // Nothing herald sends may ping anyone, whatever the text contains.
    allowed_mentions: { parse: [] },
    flags: reply.ephemeral ? EPHEMERAL : 0,
  };
}

/**
 * A username Discord accepts for a webhook post, else undefined (the webhook's own name is used).
 * Webhook names follow the nickname rules: no `@`, `#`, `:` or triple backtick, not "everyone" or
 * "here", never "discord" or "clyde"; 1–80 characters once whitespace is collapsed.
 */
export function webhookUsername(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = withoutBidiControls(name).trim().replace(/\s+/g, ' ');
  if (trimmed === '' || webhookUsernameProblem(trimmed) !== undefined) return undefined;
  return truncate(trimmed, L.username);
}

export interface WebhookRenderOptions {
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
    const shown = withoutBidiControls(choice.name);
    const name = shown.trim() === '' ? choice.value : shown;
    out.push({ name: truncate(name, CHOICE_NAME_MAX), value: choice.value });
  }
  return out;
}
