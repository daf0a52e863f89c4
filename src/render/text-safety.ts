// What a user typed or a provider sent must not steer how it is shown. Shared by the renderers and
// the console, pure; applied to every piece of a reply's text by src/core/reply.ts's mapReplyText.
// A link is kept only when it is http(s) (httpUrl). Two kinds of invisible characters matter:
// - terminal controls (C0, DEL, C1: ESC starts every ANSI sequence, BEL ends OSC titles), which a
//   terminal obeys; the console shows them as visible escapes (`\x1b`);
// - Unicode's bidirectional controls (the Bidi_Control property: U+061C, U+200E/F, U+202A–E,
//   U+2066–9), which reorder what a reader sees ("Trojan Source").
// Chat replies drop both kinds (but newlines and tabs); the console shows them as escapes.

// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL_RE = /^[\u0000-\u0008\u000b-\u001f\u007f-\u009f]$/;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Bidi_Control}/gu;
// A carriage return ends a line too (alone, or before a newline): it becomes one newline rather
// than being dropped as a control, which would join the two lines' words.
const LINE_BREAK_RE = /\r\n?/g;

function hex(char: string, width: 2 | 4): string {
  return char.codePointAt(0)!.toString(16).padStart(width, '0');
}

/**
 * Text without control characters (newlines and tabs kept, carriage returns made newlines) or
 * bidi controls: what Discord and Slack replies carry.
 */
export function withoutControls(text: string): string {
  return text.replace(LINE_BREAK_RE, '\n').replace(ANY_CONTROL_RE, '');
}

/**
 * Text for a terminal: every control character but newline and tab, and every bidi control, as a
 * visible escape (`ESC [2J` → `\x1b[2J`, U+202E → `\u202e`). Carriage returns become newlines.
 */
export function visibleControls(text: string): string {
  return text
    .replace(LINE_BREAK_RE, '\n')
    .replace(ANY_CONTROL_RE, (c) => (TERMINAL_CONTROL_RE.test(c) ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * An http(s) address, normalised (`URL.href`), or undefined for anything else (`javascript:`,
 * `file:`, not an address): the only links a reply may carry to Discord or Slack.
 */
export function httpUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
