// The one writer of a reply's time values (timeValue in src/core/reply.ts), for every renderer:
// Discord's timestamp token (https://discord.com/developers/docs/reference#message-formatting),
// Slack's date token with its plain-text fallback
// (https://docs.slack.dev/messaging/formatting-message-text#date-formatting),
// or the plain text in the reader's zone where no token renders (titles, footers, plain_text, the
// console). A value a cut left half-written loses its markers and keeps its words.

import { TIME_VALUE_RE } from '../core/reply.ts';

/** How a piece of text is shown: with Discord's or Slack's tokens, or as plain text. */
type TimeForm = 'discord' | 'slack' | 'plain';

const MARKER_RE = /[\uE000-\uE002]/g;
const HAS_MARKER_RE = /[\uE000-\uE002]/;

function written(form: TimeForm, unix: string, style: string, fallback: string): string {
  if (form === 'plain') return fallback;
  if (form === 'slack') return `<!date^${unix}^{date_short_pretty} {time}|${fallback}>`;
  return style === 'fR' ? `<t:${unix}:f> (<t:${unix}:R>)` : `<t:${unix}:f>`;
}

/** `text` with each time value written for `form`. */
export function writeTimes(text: string, form: TimeForm): string {
  if (!HAS_MARKER_RE.test(text)) return text;
  return text
    .replace(TIME_VALUE_RE, (_, unix: string, style: string, fallback: string) =>
      written(form, unix, style, fallback),
    )
    .replace(MARKER_RE, '');
}
