// Escaped Slack text cut to a limit: shortened with a visible ellipsis or split into pieces, never
// through an entity (`&amp;`) or a surrogate pair, and a code block a cut would leave open closed.
import { hasOpenFence } from './slack-escape.ts';
import { truncate } from '../domain/text.ts';

/** Splits escaped text into pieces of at most `max`, preferring line and word breaks. */
export function splitText(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut < max / 2) cut = rest.lastIndexOf(' ', max);
    if (cut < max / 2) cut = max;
    const amp = rest.lastIndexOf('&', cut - 1);
    if (
      amp !== -1 &&
      amp > cut - 5 &&
      /^&(?:amp|lt|gt);/.test(rest.slice(amp)) &&
      !rest.startsWith(';', cut - 1)
    ) {
      cut = amp;
    }
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^[ \n]/, '');
  }
  if (rest.length > 0) out.push(rest);
  return out;
}

const FENCE = '```';

/** Escaped mrkdwn shortened (truncate with `entities`), and a code block the cut would leave open closed. */
export function truncateMrkdwn(text: string, max: number): string {
  const cut = truncate(text, max, { entities: true });
  if (cut === text || !hasOpenFence(cut)) return cut;
  const shorter = truncate(text, max - FENCE.length - 1, { entities: true });
  return hasOpenFence(shorter) ? `${shorter}\n${FENCE}` : shorter;
}

/** splitText for mrkdwn: a code block crossing a split is closed and reopened. */
export function splitMrkdwn(text: string, max: number): string[] {
  if (!text.includes(FENCE)) return splitText(text, max);
  let isOpen = false;
  return splitText(text, max - 2 * (FENCE.length + 1)).map((piece) => {
    let out = isOpen ? `${FENCE}\n${piece}` : piece;
    isOpen = hasOpenFence(out);
    if (isOpen) out = `${out}\n${FENCE}`;
    return out;
  });
}
