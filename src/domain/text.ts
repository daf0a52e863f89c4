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

/** Shortens text to max UTF-16 code units, ending in an ellipsis, without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

/** The most characters of any text a user typed that one log line keeps. */
const LOGGED_TEXT_MAX = 100;

/** User text as a log line may hold it: cut to LOGGED_TEXT_MAX. */
export function loggedText(text: string): string {
  return truncate(text, LOGGED_TEXT_MAX);
}
