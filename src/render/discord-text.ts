// How a piece of text goes into a Discord message: blank parts filled, links checked, masked links
// defused, and anything shortened or left out to keep a limit noted, so that one small line at the
// end of the message can say so.
import { truncate } from '../domain/text.ts';
import { EMPTY_PLACEHOLDER } from './discord-payload.ts';

export function nonBlank(text: string | undefined): string {
  return text === undefined || text.trim() === '' ? EMPTY_PLACEHOLDER : text;
}

/** What the renderer shortened or left out of one message, for its closing note. */
export interface Notes {
  shortened: boolean;
  droppedEmbeds: number;
  droppedFields: number;
  droppedButtons: number;
  droppedFiles: string[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function noteLine(notes: Notes): string | undefined {
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
 * `[` escaped), except inside code, where
 * Discord renders no markdown and a backslash would show.
 */
export function defuseMaskedLinks(text: string): string {
  if (!text.includes('](')) return text;
  return text
    .split(/(```[\s\S]*?```|`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(?<!\\)\[(?=[^\]\n]*\]\()/g, '\\[')))
    .join('');
}

/** `text` cut to `max` with an ellipsis, noted when it was. */
export function clip(text: string, max: number, notes: Notes): string {
  if (text.length > max) notes.shortened = true;
  return truncate(text, max);
}
