// Mention and markup injection payloads, and what "safe" means for each place herald echoes text:
// Discord (allowed_mentions empty), Slack (every text object escaped, no live sequence), the
// console (plain text, no terminal control) and HTML email (every payload escaped).
import { expect } from 'vitest';
import type { DiscordMessage } from '../../src/render/discord.ts';
import type { SlackMessage } from '../../src/render/slack.ts';

/** What people (and upstream data) type to ping everyone, link somewhere or inject markup. */
export const INJECTIONS = [
  '@everyone',
  '@here',
  '<@&123456789012345678>',
  '<@123456789012345678>',
  '<#123>',
  '<!channel>',
  '<!here>',
  '<!subteam^S123>',
  '<https://evil.example|click>',
  '[click](https://evil.example)',
  '<script>',
  '"><img src=x onerror=alert(1)>',
  // Clears a terminal and paints it red: the console must print it as plain text.
  '\u001b[2J\u001b[31m@here',
] as const;

/** [title, payload] rows for it.each: the title shows control characters escaped. */
export const INJECTION_ROWS = INJECTIONS.map((payload) => [JSON.stringify(payload), payload] as const);

/** Every piece of text a Discord message shows. */
export function discordTexts(message: DiscordMessage): string[] {
  const out = [message.content];
  for (const embed of message.embeds) {
    out.push(embed.title ?? '', embed.description ?? '', embed.footer?.text ?? '');
    for (const field of embed.fields ?? []) out.push(field.name, field.value);
  }
  for (const row of message.components) for (const button of row.components) out.push(button.label ?? '');
  return out.filter((text) => text !== '');
}

/** Nothing herald sends may ping: no parse types, and no `users` or `roles` lists either. */
export function expectDiscordSilent(message: { allowed_mentions?: unknown }): void {
  expect(message.allowed_mentions).toStrictEqual({ parse: [] });
}

/** The mrkdwn and plain_text strings of a Slack message: its fallback and every text object. */
export function slackTexts(message: SlackMessage): string[] {
  const out = [message.text];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if ((record.type === 'mrkdwn' || record.type === 'plain_text') && typeof record.text === 'string') {
      out.push(record.text);
    }
    // A button's `value` is data Slack hands back on click; it is never shown or parsed.
    for (const [key, value] of Object.entries(record)) if (key !== 'value') visit(value);
  };
  visit(message.blocks);
  return out;
}

// herald's own markup, which no payload can produce: date tokens around a timestamp it formats, and
// links to the map URL it builds itself.
const OWN_MARKUP = [
  /<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>]*>/g,
  /<https:\/\/www\.openstreetmap\.org\/[^<>|\s]*\|[^<>]*>/g,
];

/**
 * Slack parses `<…>` sequences and entities in text objects: no raw `<`, `>` or bare `&` may come
 * from data, and no broadcast word may stay intact.
 */
export function expectSlackEscaped(message: SlackMessage): void {
  for (const text of slackTexts(message)) {
    const stripped = OWN_MARKUP.reduce((t, re) => t.replace(re, ''), text);
    expect(stripped, text).not.toMatch(/[<>]/);
    expect(stripped.replace(/&(?:amp|lt|gt);/g, ''), text).not.toContain('&');
    expect(text).not.toMatch(/@(everyone|here|channel)\b/i);
  }
}

/** Slack's text as a reader sees it: entities decoded, the invisible word joiner gone. */
export function slackVisible(message: SlackMessage): string {
  return slackTexts(message)
    .join('\n')
    .replaceAll('\u2060', '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROL_RE_ALL = new RegExp(CONTROL_RE.source, 'g');

/** How a chat shows a payload: its control characters (but newline and tab) dropped. */
export function chatForm(payload: string): string {
  return payload.replace(CONTROL_RE_ALL, '');
}

/** Chat text: no control character but newline and tab, whatever the data held. */
export function expectNoControls(text: string): void {
  expect(text).not.toMatch(CONTROL_RE);
}

/** Terminal output: no ANSI escape or other control character, whatever the data held. */
export function expectConsolePlain(output: string): void {
  expect(output).not.toMatch(CONTROL_RE);
}

/**
 * How the console spells a payload out: control characters dropped, markdown links as "label (url)".
 * A reply shows a control character as a visible escape (`\x1b`) and an error sentence drops it, so
 * compare with `withoutVisibleEscapes(terminal)`.
 */
export function withoutVisibleEscapes(terminal: string): string {
  return terminal.replace(/\\x[0-9a-f]{2}/g, '');
}

export function consoleForm(payload: string): string {
  return payload.replace(CONTROL_RE_ALL, '').replace(/\[([^\]\n]+)\]\((\S+?)\)/g, '$1 ($2)');
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function htmlEscaped(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** The payload appears in the HTML only escaped: no tag or attribute of it survives. */
export function expectHtmlEscaped(html: string, payload: string): void {
  expect(html).toContain(htmlEscaped(payload));
  expect(html).not.toMatch(/<script|<img/i);
  if (/[<>"]/.test(payload)) expect(html).not.toContain(payload);
}
