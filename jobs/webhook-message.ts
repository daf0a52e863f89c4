// Renders a job's Reply as a Discord webhook message within every documented limit
// (https://discord.com/developers/docs/resources/message#embed-object-embed-limits), clamping with
// an ellipsis rather than letting Discord refuse the post with a 400.
import { COLOR_HEX, type Reply } from '../src/core/reply.ts';
import type { WebhookEmbed, WebhookMessage } from '../src/services/webhook/client.ts';

export const DISCORD_LIMITS = Object.freeze({
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** Titles, descriptions, field names and values and footers of all embeds together. */
  total: 6000,
  username: 80,
});

/** Discord counts characters after trimming; code points, so an emoji is one. */
export function charCount(text: string | undefined): number {
  return text === undefined ? 0 : [...text.trim()].length;
}

function clip(text: string, max: number): string {
  const chars = [...text.trim()];
  if (chars.length <= max) return chars.join('');
  return max <= 0 ? '' : `${chars.slice(0, max - 1).join('')}…`;
}

/** A username Discord accepts for a webhook (1–80 characters, never "discord" or "clyde"), else undefined. */
export function webhookUsername(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (trimmed === '' || /discord|clyde/i.test(trimmed) || /[@#:]|```/.test(trimmed)) return undefined;
  return clip(trimmed, DISCORD_LIMITS.username);
}

export function renderWebhookMessage(
  reply: Reply,
  opts: { username?: string | undefined } = {},
): WebhookMessage {
  const L = DISCORD_LIMITS;
  let budget = L.total;
  /** Clips to the field's own limit and to what is left of the 6000 shared by all embeds. */
  const take = (text: string | undefined, limit: number, min = 1): string | undefined => {
    if (text === undefined || charCount(text) === 0) return undefined;
    const room = Math.min(limit, budget);
    if (room < min) return undefined;
    const out = clip(text, room);
    budget -= charCount(out);
    return out;
  };
  const embeds: WebhookEmbed[] = [];
  for (const e of (reply.embeds ?? []).slice(0, L.embeds)) {
    if (budget < 2) break;
    const embed: WebhookEmbed = {};
    const title = take(e.title, L.title);
    if (title !== undefined) embed.title = title;
    const footerText = e.footer === undefined ? undefined : clip(e.footer, Math.min(L.footer, 200));
    // The footer is small and last; hold room for it so that long fields do not squeeze it out.
    const footerRoom = charCount(footerText);
    budget -= footerRoom;
    const description = take(e.description, L.description);
    if (description !== undefined) embed.description = description;
    const fields: NonNullable<WebhookEmbed['fields']> = [];
    for (const f of (e.fields ?? []).slice(0, L.fields)) {
      if (budget < 8 || charCount(f.name) === 0 || charCount(f.value) === 0) break;
      const name = take(f.name, Math.min(L.fieldName, Math.floor(budget / 2)));
      const value = take(f.value, L.fieldValue);
      if (name === undefined || value === undefined) break;
      fields.push(f.inline === undefined ? { name, value } : { name, value, inline: f.inline });
    }
    if (fields.length > 0) embed.fields = fields;
    budget += footerRoom;
    const footer = take(footerText, L.footer);
    if (footer !== undefined) embed.footer = { text: footer };
    if (e.color !== undefined) embed.color = COLOR_HEX[e.color];
    if (e.url !== undefined) embed.url = e.url;
    if (e.timestamp !== undefined) embed.timestamp = e.timestamp;
    if (embed.title !== undefined || embed.description !== undefined || embed.fields !== undefined)
      embeds.push(embed);
  }
  const message: WebhookMessage = {};
  const username = webhookUsername(opts.username);
  if (username !== undefined) message.username = username;
  if (embeds.length > 0) message.embeds = embeds;
  else message.content = clip(reply.text, L.content) || '(empty report)';
  return message;
}
