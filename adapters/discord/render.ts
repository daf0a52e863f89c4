// Reply -> Discord message payload, pure. Every limit of Discord's message and embed objects is a
// named constant below; a reply that would break one is shortened with an ellipsis or cut, and a
// note says so, so Discord never rejects the message. Limits: https://discord.com/developers/docs/resources/message#embed-object-embed-limits
import {
  ButtonStyle,
  ComponentType,
  MessageFlags,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIEmbed,
  type APIEmbedField,
} from 'discord.js';
import type { Choice } from '../../src/core/command.ts';
import { actionToCommandLine, COLOR_HEX, type Action, type Embed, type Reply } from '../../src/core/reply.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { truncate } from '../../src/domain/text.ts';
import { mapReplyText, withoutBidiControls } from '../text-safety.ts';
import { customIdFor as defaultCustomIdFor } from './custom-id.ts';

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

export interface DiscordFile {
  name: string;
  contentType: string;
  data: Uint8Array;
  /** Alt text. */
  description?: string;
}

export interface DiscordMessage {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponentWithCustomId>[];
  files: DiscordFile[];
  allowed_mentions: { parse: [] };
  flags: number;
}

export interface RenderOptions {
  /** Turns an Action into a button custom_id (the adapter remembers long ones). */
  customIdFor?: (action: Action) => string;
  /** Per-file upload limit; defaults to FILE_BYTES_MAX. */
  maxFileBytes?: number;
}

function nonBlank(text: string | undefined): string {
  return text === undefined || text.trim() === '' ? EMPTY_PLACEHOLDER : text;
}

function httpUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
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
 * writes none itself: each one is shown as typed (its `[` escaped), except inside code, where
 * Discord renders no markdown and a backslash would show.
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

function renderEmbed(embed: Embed, seenUrls: Set<string>, notes: Notes): APIEmbed {
  const out: APIEmbed = {};
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
      const field: APIEmbedField = {
        name: clip(nonBlank(f.name), FIELD_NAME_MAX, notes),
        value: clip(nonBlank(defuseMaskedLinks(f.value)), FIELD_VALUE_MAX, notes),
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
  if (embed.image !== undefined) out.image = { url: `attachment://${safeFilename(embed.image)}` };
  return out;
}

function hasText(embed: APIEmbed): boolean {
  return (
    embed.title !== undefined ||
    embed.description !== undefined ||
    (embed.fields?.length ?? 0) > 0 ||
    embed.footer !== undefined
  );
}

/** The characters Discord counts towards the 6000 total for one embed. */
export function embedLength(embed: APIEmbed): number {
  let n = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  for (const f of embed.fields ?? []) n += f.name.length + f.value.length;
  n += (embed.footer?.text.length ?? 0) + (embed.author?.name.length ?? 0);
  return n;
}

/** The embed cut down to at most `budget` counted characters, or undefined if nothing useful fits. */
function shrinkEmbed(embed: APIEmbed, budget: number, notes: Notes): APIEmbed | undefined {
  const { title, description, fields, footer, ...rest } = embed;
  const out: APIEmbed = { ...rest };
  let left = budget;
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
  const kept: APIEmbedField[] = [];
  for (const field of fields ?? []) {
    const room = left - field.name.length;
    if (field.value.length <= room) {
      kept.push(field);
      left = room - field.value.length;
    } else if (room >= MIN_TRUNCATED_TEXT) {
      kept.push({ ...field, value: truncate(field.value, room) });
      notes.shortened = true;
      left = 0;
    } else {
      break;
    }
  }
  notes.droppedFields += (fields?.length ?? 0) - kept.length;
  if (kept.length > 0) out.fields = kept;
  if (footer !== undefined && footer.text.length <= left) out.footer = footer;
  for (const key of ['title', 'description'] as const) if (out[key] === undefined) delete out[key];
  return hasText(out) ? out : undefined;
}

function renderEmbeds(embeds: readonly Embed[], notes: Notes): APIEmbed[] {
  const seenUrls = new Set<string>();
  const rendered = embeds.map((e) => renderEmbed(e, seenUrls, notes)).filter(hasText);
  if (rendered.length > EMBEDS_MAX) notes.droppedEmbeds += rendered.length - EMBEDS_MAX;
  const out: APIEmbed[] = [];
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
): APIActionRowComponent<APIButtonComponentWithCustomId>[] {
  const buttons: APIButtonComponentWithCustomId[] = [];
  const seen = new Set<string>();
  for (const action of actions) {
    const customId = customIdFor(action);
    // Custom ids must be unique within a message; the same action twice is one button.
    if (seen.has(customId)) continue;
    seen.add(customId);
    const label = action.label.trim() === '' ? actionToCommandLine(action) : action.label;
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      label: clip(label, BUTTON_LABEL_MAX, notes),
      custom_id: customId,
    });
  }
  const max = BUTTONS_PER_ROW * ROWS_MAX;
  if (buttons.length > max) notes.droppedButtons += buttons.length - max;
  const rows: APIActionRowComponent<APIButtonComponentWithCustomId>[] = [];
  for (let i = 0; i < Math.min(buttons.length, max); i += BUTTONS_PER_ROW) {
    rows.push({ type: ComponentType.ActionRow, components: buttons.slice(i, i + BUTTONS_PER_ROW) });
  }
  return rows;
}

function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return truncate(cleaned === '' ? 'file' : cleaned, 100);
}

function renderFiles(reply: Reply, maxFileBytes: number, notes: Notes): DiscordFile[] {
  const files: DiscordFile[] = [];
  let total = 0;
  for (const attachment of reply.attachments ?? []) {
    const name = safeFilename(attachment.filename);
    const size = attachment.bytes.byteLength;
    if (files.length >= FILES_MAX || size > maxFileBytes || total + size > UPLOAD_BYTES_MAX) {
      notes.droppedFiles.push(name);
      continue;
    }
    total += size;
    const file: DiscordFile = { name, contentType: attachment.contentType, data: attachment.bytes };
    if (attachment.description) file.description = truncate(attachment.description, L.fileDescription);
    files.push(file);
  }
  return files;
}

/** Renders a Reply as a Discord message; never produces a payload Discord would reject. */
export function renderDiscord(shown: Reply, options: RenderOptions = {}): DiscordMessage {
  // Bidi controls could reorder what readers see (issue 14): gone from every piece of text.
  const reply = mapReplyText(shown, withoutBidiControls);
  const notes: Notes = {
    shortened: false,
    droppedEmbeds: 0,
    droppedFields: 0,
    droppedButtons: 0,
    droppedFiles: [],
  };
  const embeds = renderEmbeds(reply.embeds ?? [], notes);
  const components = renderButtons(reply.actions ?? [], options.customIdFor ?? defaultCustomIdFor, notes);
  const files = renderFiles(reply, options.maxFileBytes ?? FILE_BYTES_MAX, notes);
  // An embed shows its image only when that file is in the message (attachment://name).
  for (const embed of embeds) {
    if (embed.image && !files.some((f) => embed.image?.url === `attachment://${f.name}`)) delete embed.image;
  }

  // With embeds, the embeds carry the answer and `text` stays the notification fallback.
  let text = embeds.length > 0 ? '' : defuseMaskedLinks(reply.text);
  let note = noteLine(notes);
  const room = () => CONTENT_MAX - (note === undefined ? 0 : note.length + (text === '' ? 0 : 1));
  if (text.length > room()) {
    notes.shortened = true;
    note = noteLine(notes);
    text = truncate(text, room());
  }
  let content = [text, note].filter((part) => part !== undefined && part !== '').join('\n');
  if (content === '' && embeds.length === 0 && files.length === 0) content = EMPTY_PLACEHOLDER;

  return {
    content,
    embeds,
    components,
    files,
    // Nothing herald sends may ping anyone, whatever the text contains.
    allowed_mentions: { parse: [] },
    flags: reply.ephemeral ? MessageFlags.Ephemeral : 0,
  };
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
