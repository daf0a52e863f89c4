// Text rules shared by every surface: HTML escaping for emails, and shortening with an ellipsis.

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes the five characters that can change HTML structure, in text and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

export const ELLIPSIS = '…';

interface TruncateOptions {
  /**
   * Each run of white space becomes one space first (user or upstream text shown on one line:
   * a quote, a field name). The words are read only until the line is full, so a 1 MB text costs
   * what its first `max` characters do.
   */
  oneLine?: boolean;
  /**
   * The text is escaped with `&amp;`, `&lt;` and `&gt;` (Slack's mrkdwn and plain text): an entity
   * is kept whole or left out, never cut into something that reads as other text.
   */
  entities?: boolean;
}

const ENTITY_RE = /^&(?:amp|lt|gt);/;

/** Each run of white space one space, read only as far as a line of `max` characters goes. */
function oneLineOf(text: string, max: number): string {
  let line = '';
  // A word longer than the line is read only as far as the line goes.
  for (const [word] of text.matchAll(new RegExp(`\\S{1,${Math.max(1, max + 1)}}`, 'g'))) {
    line += line === '' ? word : ` ${word}`;
    if (line.length > max) break;
  }
  return line;
}

/**
 * The one way herald shortens text: to at most `max` UTF-16 code units, the ellipsis counted
 * among them, never splitting a surrogate pair (nor, with `entities`, an entity). Text within
 * `max` is returned as it is (after `oneLine`, when asked).
 */
export function truncate(text: string, max: number, opts: TruncateOptions = {}): string {
  const source = opts.oneLine ? oneLineOf(text, max) : text;
  if (source.length <= max) return source;
  let end = Math.max(0, max - ELLIPSIS.length);
  if (opts.entities) {
    const amp = source.lastIndexOf('&', end - 1);
    const entity = amp === -1 ? null : ENTITY_RE.exec(source.slice(amp, amp + 5));
    if (entity && amp + entity[0].length > end) end = amp;
  }
  const last = source.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return source.slice(0, end) + ELLIPSIS;
}

/** The most characters of any text a user typed that one log line keeps. */
const LOGGED_TEXT_MAX = 100;

/** User text as a log line may hold it: cut to LOGGED_TEXT_MAX. */
export function loggedText(text: string): string {
  return truncate(text, LOGGED_TEXT_MAX);
}
