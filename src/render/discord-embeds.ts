// A reply's embeds as Discord embeds: each field within its limit, a URL shared by two embeds kept
// on the first only (Discord would merge them), images only from files of the same message, and
// all of them within the 6000 characters Discord counts across a message's embeds.
import { COLOR_HEX, embedTime, type Embed } from '../core/reply.ts';
import { truncate } from '../domain/text.ts';
import {
  EMBED_DESCRIPTION_MAX,
  EMBED_FIELDS_MAX,
  EMBED_TITLE_MAX,
  EMBEDS_MAX,
  EMBEDS_TOTAL_MAX,
  FIELD_NAME_MAX,
  FIELD_VALUE_MAX,
  FOOTER_MAX,
  type DiscordEmbed,
  type DiscordEmbedField,
} from './discord-payload.ts';
import { clip, defuseMaskedLinks, nonBlank, type Notes } from './discord-text.ts';
import { maskedLink, withLink } from './discord-link.ts';
import { httpUrl } from './text-safety.ts';

/** Smallest useful remainder when an embed is shortened to fit the 6000 total. */
const MIN_TRUNCATED_TEXT = 16;
/** The most of a footer an embed shortened to fit the 6000 total keeps. */
const FOOTER_HELD_MAX = 200;

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
    const at = embedTime(embed.timestamp);
    if (at !== undefined) out.timestamp = new Date(at.unix * 1000).toISOString();
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

export function renderEmbeds(
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
