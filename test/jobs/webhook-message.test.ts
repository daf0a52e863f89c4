import { describe, expect, it } from 'vitest';
import type { Embed, Reply } from '../../src/core/reply.ts';
import { buildAnalyticsSummary, resolveRanges } from '../../jobs/analytics-summary-build.ts';
import { charCount, renderWebhookMessage, webhookUsername } from '../../jobs/webhook-message.ts';
import { COUNTRIES, CURRENT_TOTALS, DAILY, METRICS, PREVIOUS_TOTALS, domainReport } from './fixtures.ts';
import { expectWithinDiscordLimits } from './discord-limits.ts';

const long = (c: string, count: number) => c.repeat(count);

describe('renderWebhookMessage', () => {
  it('renders the summary embed with the palette colour, username and no content line', () => {
    const reply = buildAnalyticsSummary({
      current: domainReport([], CURRENT_TOTALS),
      previous: domainReport([], PREVIOUS_TOTALS),
      trend: domainReport(['date'], DAILY),
      top: domainReport(['country'], COUNTRIES),
      ranges: resolveRanges('yesterday', new Date('2025-11-22T08:00:00Z'), 'UTC'),
      metrics: METRICS,
      dimension: 'country',
      now: new Date('2025-11-22T08:00:01Z'),
    });
    const message = renderWebhookMessage(reply, { username: 'herald reports' });
    expect(message.username).toBe('herald reports');
    expect(message.content).toBeUndefined();
    expect(message.embeds).toHaveLength(1);
    expect(message.embeds![0]).toMatchObject({
      title: 'Analytics summary: yesterday',
      color: 0x3b82f6,
      footer: { text: 'Trend: daily values, 15–21 Nov 2025' },
      timestamp: '2025-11-22T08:00:01.000Z',
    });
    expect(message.embeds![0]!.fields).toHaveLength(6);
    expectWithinDiscordLimits(message);
  });

  it('clamps every oversized part with an ellipsis instead of letting Discord refuse the post', () => {
    const embed: Embed = {
      title: long('T', 400),
      description: long('D', 5000),
      fields: Array.from({ length: 40 }, (_, i) => ({
        name: `${i}${long('n', 300)}`,
        value: long('v', 2000),
      })),
      footer: long('F', 3000),
      color: 'warning',
    };
    const reply: Reply = { text: long('x', 3000), embeds: Array.from({ length: 12 }, () => embed) };
    const message = renderWebhookMessage(reply, { username: long('h', 120) });
    expectWithinDiscordLimits(message);
    const first = message.embeds![0]!;
    expect(charCount(first.title)).toBe(256);
    expect(first.title!.endsWith('…')).toBe(true);
    expect(first.footer!.text.endsWith('…')).toBe(true);
    expect(charCount(message.username)).toBe(80);
  });

  it('counts characters as Discord does, so emoji near a limit do not break it', () => {
    const reply: Reply = { text: 't', embeds: [{ title: long('📈', 300), description: 'ok' }] };
    const message = renderWebhookMessage(reply);
    expect([...message.embeds![0]!.title!]).toHaveLength(256);
    expectWithinDiscordLimits(message);
  });

  it('falls back to the text as content when there is no embed', () => {
    expect(renderWebhookMessage({ text: 'No data.' })).toEqual({ content: 'No data.' });
    expect(charCount(renderWebhookMessage({ text: long('x', 2500) }).content)).toBe(2000);
  });

  it('drops a username Discord would refuse rather than losing the post', () => {
    expect(webhookUsername('Discord Reports')).toBeUndefined();
    expect(webhookUsername('clyde')).toBeUndefined();
    expect(webhookUsername('ops@team')).toBeUndefined();
    expect(webhookUsername('   ')).toBeUndefined();
    expect(webhookUsername('  herald   daily ')).toBe('herald daily');
    expect(renderWebhookMessage({ text: 'x' }, { username: 'discord' })).toEqual({ content: 'x' });
  });
});
