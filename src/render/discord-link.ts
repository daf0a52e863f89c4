// The only links herald writes into Discord text: a field's `link` as a masked link `[label](url)`
// after its value (clickable in embed field values), kept whole whenever the value is cut. Every
// other `[label](url)` is defused by the renderer (discord.ts).
import type { Link } from '../core/reply.ts';
import { httpUrl } from './text-safety.ts';

/**
 * `link` as a masked link, or undefined when its address is not http(s). Brackets in the label and
 * parentheses in the address are escaped, so neither can end the link early.
 */
export function maskedLink(link: Link): string | undefined {
  const url = httpUrl(link.url);
  if (url === undefined) return undefined;
  const label = link.label.replace(/[\\[\]]/g, (c) => `\\${c}`);
  return `[${label}](${url.replaceAll('(', '%28').replaceAll(')', '%29')})`;
}

/** A masked link herald wrote at the end of a value (one in text is defused: `\[`). */
const TRAILING_LINK_RE = / (?<!\\)\[[^[\]\n]*\]\(https?:\/\/[^\s()]+\)$/;

/**
 * `value`, then ` ` and `link` when there is one, within `max`: the value is cut by `cut` before
 * the link, so the link stays whole; a link that leaves the value no room is left out, never cut.
 * A value that already ends in herald's link (a rendered field cut again to fit the 6000 total)
 * keeps it the same way.
 */
export function withLink(
  value: string,
  link: string | undefined,
  max: number,
  cut: (text: string, max: number) => string,
): string {
  const trailing = link === undefined ? TRAILING_LINK_RE.exec(value) : null;
  const text = trailing ? value.slice(0, trailing.index) : value;
  const href = link ?? trailing?.[0].slice(1);
  if (href === undefined || max - href.length < 2) return cut(text, max);
  if (link === undefined && value.length <= max) return value;
  return `${cut(text, max - href.length - 1)} ${href}`;
}
