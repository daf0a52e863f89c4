// An independent check of Discord's message and embed limits, written from Discord's docs rather
// than from the renderer, for the job tests.
// https://discord.com/developers/docs/resources/message#embed-object-embed-limits
import { expect } from 'vitest';

const n = (v: unknown): number => (typeof v === 'string' ? [...v.trim()].length : 0);

interface Embed {
  title?: string;
  description?: string;
  fields?: { name?: string; value?: string }[];
  footer?: { text?: string };
  author?: { name?: string };
  color?: number;
}

export function expectWithinDiscordLimits(message: {
  content?: unknown;
  username?: unknown;
  embeds?: unknown;
}): void {
  const embeds = (message.embeds ?? []) as Embed[];
  expect(n(message.content) > 0 || embeds.length > 0, 'content or embeds').toBe(true);
  expect(n(message.content)).toBeLessThanOrEqual(2000);
  if (message.username !== undefined) {
    expect(n(message.username)).toBeGreaterThanOrEqual(1);
    expect(n(message.username)).toBeLessThanOrEqual(80);
    expect(message.username as string).not.toMatch(/discord|clyde/i);
  }
  expect(embeds.length).toBeLessThanOrEqual(10);
  let total = 0;
  for (const e of embeds) {
    expect(n(e.title)).toBeLessThanOrEqual(256);
    expect(n(e.description)).toBeLessThanOrEqual(4096);
    expect((e.fields ?? []).length).toBeLessThanOrEqual(25);
    for (const f of e.fields ?? []) {
      expect(n(f.name)).toBeGreaterThan(0);
      expect(n(f.name)).toBeLessThanOrEqual(256);
      expect(n(f.value)).toBeGreaterThan(0);
      expect(n(f.value)).toBeLessThanOrEqual(1024);
      total += n(f.name) + n(f.value);
    }
    expect(n(e.footer?.text)).toBeLessThanOrEqual(2048);
    if (e.color !== undefined)
      expect(Number.isInteger(e.color) && e.color >= 0 && e.color <= 0xffffff).toBe(true);
    total += n(e.title) + n(e.description) + n(e.footer?.text) + n(e.author?.name);
  }
  expect(total).toBeLessThanOrEqual(6000);
}
