// Slack text safety for what herald sends: every piece of reply text is escaped so that no input
// becomes a mention, a channel ping, a link or stray formatting; only the code marks and **bold**
// that commands write for every platform survive
// (https://docs.slack.dev/messaging/formatting-message-text#escaping). Incoming text is decoded by
// the Slack adapter (adapters/slack/escape.ts).
import type { Link } from '../core/reply.ts';
import { httpUrl } from './text-safety.ts';

const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Slack's three control characters. This alone neutralises `<!channel>`, `<!here>`, `<@U123>`,
 * `<!subteam^S1>` and `<http://x|y>`: without a raw `<` Slack parses no special sequence.
 */
export function escapeControl(text: string): string {
  return text.replace(/[&<>]/g, (c) => ENTITY[c] ?? c);
}

// U+2060 WORD JOINER: invisible, and `@channel` no longer reads as the broadcast word when a
// message is sent with link_names or parse=full somewhere along the way.
const WORD_JOINER = '\u2060';
const BROADCAST_RE = /@(channel|here|everyone)\b/gi;

function defuseBroadcasts(text: string): string {
  return text.replace(BROADCAST_RE, `@${WORD_JOINER}$1`);
}

// Slack has no escape for its formatting markers, so they are swapped for look-alikes where they
// could act as markers (the approach of jsx-slack's <Escape>).
// Underscores inside a word (snake_case, first_last@example.com) never format and are kept.
const LOOKALIKE: Readonly<Record<string, string>> = {
  '*': '\u2217', // ∗ ASTERISK OPERATOR
  '~': '\u223C', // ∼ TILDE OPERATOR
  '`': '\u02CB', // ˋ MODIFIER LETTER GRAVE ACCENT
  _: '\u02CD', // ˍ MODIFIER LETTER LOW MACRON
};

const WORD_CHAR_RE = /[\p{L}\p{N}]/u;

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && WORD_CHAR_RE.test(c);
}

function defuseFormatting(text: string): string {
  return text
    .replace(/[*~`]/g, (c) => LOOKALIKE[c] ?? c)
    .replace(/_/g, (c, offset: number, all: string) =>
      isWordChar(all[offset - 1]) && isWordChar(all[offset + 1]) ? c : (LOOKALIKE._ ?? c),
    )
    .replace(/^(\s*)>/gm, '$1\uFF1E'); // a leading > would start a block quote
}

/** For user-derived text inside a mrkdwn text object: no mention, ping, link or formatting. */
export function escapeMrkdwn(text: string): string {
  return escapeControl(defuseFormatting(defuseBroadcasts(text)));
}

// Code the way commands write it for every platform: ```fences``` (a Discord-style language tag on
// the first line is dropped; Slack has none) and `spans`. **bold** becomes Slack's *bold*.
const MARKUP_RE = /```(?:[A-Za-z0-9_+-]+\n)?([\s\S]*?)```|`([^`\n]+)`|\*\*([^*\n]+?)\*\*/g;

/**
 * For reply text and field values: escapeMrkdwn, except that code fences, code spans and
 * **bold** keep working. Inside code only the control characters and broadcast words are
 * escaped, so nothing in it can mention, ping or link either.
 */
export function formatMrkdwn(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(MARKUP_RE)) {
    out += escapeMrkdwn(text.slice(last, m.index));
    const [, fence, span, bold] = m;
    if (fence !== undefined) out += `\`\`\`${escapeControl(defuseBroadcasts(fence))}\`\`\``;
    else if (span !== undefined) out += `\`${escapeControl(defuseBroadcasts(span))}\``;
    else out += `*${escapeMrkdwn(bold ?? '')}*`;
    last = m.index + m[0].length;
  }
  return out + escapeMrkdwn(text.slice(last));
}

/** Count of ``` in mrkdwn: odd means a code block is left open. */
export function hasOpenFence(mrkdwn: string): boolean {
  return (mrkdwn.match(/```/g)?.length ?? 0) % 2 === 1;
}

/**
 * For plain_text objects (header, button label). Slack applies no formatting there, but `&`, `<`
 * and `>` are control characters in every text object and are decoded for display, so they are
 * escaped too (https://docs.slack.dev/messaging/formatting-message-text#escaping).
 */
export function escapePlainText(text: string): string {
  return escapeControl(defuseBroadcasts(text));
}

/** The URL as Slack's `<url|label>` markup wants it, or undefined for anything but http(s). */
export function safeLinkUrl(raw: string): string | undefined {
  // `|` would end the URL part and `>` the link; & must be an entity like everywhere else.
  return httpUrl(raw)
    ?.replaceAll('|', '%7C')
    .replaceAll('<', '%3C')
    .replaceAll('>', '%3E')
    .replaceAll('&', '&amp;');
}

/** A mrkdwn link whose label is escaped; plain escaped text when the URL is not http(s). */
export function mrkdwnLink(rawUrl: string, label: string): string {
  const url = safeLinkUrl(rawUrl);
  const text = escapeMrkdwn(label);
  return url === undefined ? text : `<${url}|${text}>`;
}

/**
 * `value` (mrkdwn) then a field's link, ` <url|label>`, the value cut by `cut` so that both fit
 * `max` with the link whole; the value alone where the link is not http(s) or leaves no room.
 */
export function withFieldLink(
  value: string,
  link: Link | undefined,
  max: number,
  cut: (text: string, max: number) => string,
): string {
  const href = link && safeLinkUrl(link.url) !== undefined ? ` ${mrkdwnLink(link.url, link.label)}` : '';
  if (href === '' || max - href.length < 2) return cut(value, max);
  return cut(value, max - href.length) + href;
}
