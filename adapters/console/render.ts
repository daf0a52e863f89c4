// Renders a Reply as plain terminal text: the text, each embed as an indented card with aligned
// fields, saved attachments as paths and buttons as the console line that runs them. Pure.
import { mentionToken } from '../../src/domain/mentions.ts';
import {
  actionToCommandLine,
  embedTime,
  mapReplyText,
  type Color,
  type Embed,
  type Reply,
} from '../../src/core/reply.ts';
import { formatBytes } from '../../src/format.ts';
import { visibleControls } from '../../src/render/text-safety.ts';
import { writeTimes } from '../../src/render/time.ts';

/** Field names up to this wide are aligned as a table; a wider one turns the fields into a list. */
const MAX_FIELD_NAME_WIDTH = 24;
const LIST_INDENT = '  ';
const BAR = '│';
const ANSI: Readonly<Record<Color | 'bold' | 'dim' | 'reset', string>> = {
  info: '\u001b[34m',
  success: '\u001b[32m',
  warning: '\u001b[33m',
  error: '\u001b[31m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  reset: '\u001b[0m',
};

interface ConsoleRenderOptions {
  /** Where each attachment was saved, by index; undefined when it could not be saved. */
  savedPaths?: readonly (string | undefined)[];
  /** ANSI colours (only on a terminal). */
  isColor?: boolean;
}

/** Reply text must not drive the terminal: its control characters are shown as escapes. */
const clean = visibleControls;

/** Chat markdown read as plain text: code fences dropped, **bold**, __underline__ and `code`
 * unwrapped, [label](url) spelled out. */
function plain(text: string): string {
  return clean(text)
    .replace(/^```[\w-]*\n?/gm, '')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/\*\*(.+?)\*\*/gs, '$1')
    .replace(/__(.+?)__/gs, '$1')
    .replace(/\[([^\]\n]+)\]\((\S+?)\)/g, (_, label: string, url: string) =>
      label === url ? url : `${label} (${url})`,
    )
    .replace(/\s+$/, '');
}

function width(text: string): number {
  return Array.from(text).length;
}

function renderEmbed(embed: Embed, paint: (code: keyof typeof ANSI, text: string) => string): string[] {
  const lines: string[] = [];
  const bar = paint(embed.color ?? 'info', BAR);
  const push = (text: string): void => {
    for (const line of text.split('\n')) lines.push(line === '' ? bar : `${bar} ${line}`);
  };
  if (embed.title) push(paint('bold', plain(embed.title)));
  if (embed.url) push(clean(embed.url));
  if (embed.description) push(plain(embed.description));
  const fields = embed.fields ?? [];
  if (fields.length > 0) {
    if (lines.length > 0) lines.push(bar);
    const names = fields.map((f) => plain(f.name));
    const widest = Math.max(...names.map(width));
    // A table while the names are short; a list (name, then its value indented) once one is long.
    const isTable = widest <= MAX_FIELD_NAME_WIDTH;
    fields.forEach((field, index) => {
      const name = names[index]!;
      // A link is spelled out the way a [label](url) in text is.
      const link = field.link ? ` ${clean(field.link.label)} (${clean(field.link.url)})` : '';
      const [first = '', ...rest] = `${plain(field.value)}${link}`.split('\n');
      if (isTable) {
        push(`${name}${' '.repeat(widest - width(name))}  ${first}`);
        for (const line of rest) push(`${' '.repeat(widest)}  ${line}`);
      } else {
        push(name);
        for (const line of [first, ...rest]) push(`${LIST_INDENT}${line}`);
      }
    });
  }
  if (embed.thumbnail) push(paint('dim', `image: ${clean(embed.thumbnail)}`));
  const footer = [
    embed.footer ? plain(embed.footer) : '',
    embed.timestamp ? (embedTime(embed.timestamp)?.text ?? plain(embed.timestamp)) : '',
  ]
    .filter((part) => part !== '')
    .join(' · ');
  if (footer) push(paint('dim', footer));
  return lines;
}

export function renderConsole(shown: Reply, opts: ConsoleRenderOptions = {}): string {
  // A terminal renders no time token: each time value reads in the operator's zone.
  const reply = mapReplyText(shown, (text) => writeTimes(text, 'plain'));
  const paint = (code: keyof typeof ANSI, text: string): string =>
    opts.isColor ? `${ANSI[code]}${text}${ANSI.reset}` : text;
  const sections: string[] = [];
  // With embeds, `text` is the notification fallback that repeats them (Discord omits it too).
  const embeds = reply.embeds ?? [];
  const text = embeds.length > 0 ? '' : plain(reply.text).trim();
  if (reply.mentions?.length) sections.push(reply.mentions.map(mentionToken).join(' '));
  if (reply.heading?.trim()) sections.push(plain(reply.heading).trim());
  if (text) sections.push(text);
  for (const embed of embeds) sections.push(renderEmbed(embed, paint).join('\n'));
  const files = (reply.attachments ?? []).map((attachment, index) => {
    const about = `${attachment.contentType}, ${formatBytes(attachment.bytes.byteLength)}`;
    const path = opts.savedPaths?.[index];
    return path === undefined
      ? `Could not save ${clean(attachment.filename)} (${about}).`
      : `Saved ${clean(attachment.filename)} (${about}) to ${path}`;
  });
  if (files.length > 0) sections.push(files.join('\n'));
  const actions = (reply.actions ?? []).map(
    (action) => `${paint('dim', `[${clean(action.label)}]`)} ${clean(actionToCommandLine(action))}`,
  );
  if (actions.length > 0) sections.push(actions.join('\n'));
  return sections.length > 0 ? sections.join('\n\n') : '(empty reply)';
}
