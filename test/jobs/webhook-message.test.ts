import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Embed, Reply } from '../../src/core/reply.ts';
import { fetchSummary, renderSummaryReply, summarize } from '../../src/analytics-summary/summary.ts';
import { renderDiscordWebhook, webhookUsername } from '../../src/render/discord.ts';
import { discordLength as charCount } from '../../src/domain/discord.ts';
import { METRICS, fakeAnalytics } from './fixtures.ts';
import { expectWithinDiscordLimits } from './discord-limits.ts';
import { startWebhookFake, type WebhookFake } from './harness.ts';

const long = (c: string, count: number) => c.repeat(count);

describe('renderDiscordWebhook', () => {
  it('renders the summary embed with the palette colour, username and no content line', async () => {
    const now = new Date('2025-11-22T08:00:01Z');
    const request = { range: 'yesterday', metrics: METRICS, dimension: 'country' };
    const data = await fetchSummary(fakeAnalytics(), request, now);
    const reply = renderSummaryReply(summarize(data, request, now), 'UTC');
    const message = renderDiscordWebhook(reply, { username: 'herald reports' });
    expect(message.username).toBe('herald reports');
    expect(message.content).toBeUndefined();
    expect(message.embeds).toHaveLength(1);
    expect(message.embeds![0]).toMatchObject({
      title: 'Analytics summary: yesterday',
      color: 0x3b82f6,
      footer: { text: 'Trend: daily values, 15–21 Nov 2025; days in Europe/Berlin' },
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
    const message = renderDiscordWebhook(reply, { username: long('h', 120) });
    expectWithinDiscordLimits(message);
    const first = message.embeds![0]!;
    expect(charCount(first.title)).toBe(256);
    expect(first.title!.endsWith('…')).toBe(true);
    expect(first.footer!.text.endsWith('…')).toBe(true);
    expect(charCount(message.username)).toBe(80);
  });

  it('counts UTF-16 code units, never more than Discord counts, and keeps emoji whole', () => {
    const reply: Reply = { text: 't', embeds: [{ title: long('📈', 300), description: 'ok' }] };
    const message = renderDiscordWebhook(reply);
    const title = message.embeds![0]!.title!;
    expect(title).toBe(`${long('📈', 127)}…`);
    expect(title.length).toBeLessThanOrEqual(256);
    expectWithinDiscordLimits(message);
  });

  it('falls back to the text as content when there is no embed', () => {
    expect(renderDiscordWebhook({ text: 'No data.' })).toEqual({ content: 'No data.' });
    expect(charCount(renderDiscordWebhook({ text: long('x', 2500) }).content)).toBe(2000);
  });

  it('drops a username Discord would refuse rather than losing the post', () => {
    expect(webhookUsername('Discord Reports')).toBeUndefined();
    expect(webhookUsername('clyde')).toBeUndefined();
    expect(webhookUsername('ops@team')).toBeUndefined();
    expect(webhookUsername('everyone')).toBeUndefined();
    expect(webhookUsername(' Here ')).toBeUndefined();
    expect(webhookUsername('team#1')).toBeUndefined();
    expect(webhookUsername('a:b')).toBeUndefined();
    expect(webhookUsername('x```y')).toBeUndefined();
    expect(webhookUsername('here and there')).toBe('here and there');
    expect(webhookUsername('   ')).toBeUndefined();
    expect(webhookUsername('  herald   daily ')).toBe('herald daily');
    expect(renderDiscordWebhook({ text: 'x' }, { username: 'discord' })).toEqual({ content: 'x' });
  });
});

describe('a Reply posted as a webhook message, through the real client to the loopback fake', () => {
  let fake: WebhookFake;
  beforeAll(async () => {
    fake = await startWebhookFake();
  });
  afterAll(() => fake.close());
  afterEach(() => fake.inbox.clear());

  const png = (size: number) => new Uint8Array(size).map((_, i) => (i * 13 + 7) & 0xff);

  it('uploads the /say mp3 as a file of the same post, with the text and no ping', async () => {
    const mp3 = png(48_000);
    const reply: Reply = {
      text: 'Spoke 12 words as Rachel @everyone <@123>',
      attachments: [{ filename: 'say 2025-11-22.mp3', contentType: 'audio/mpeg', bytes: mp3 }],
    };
    const posted = await fake.client().post(renderDiscordWebhook(reply, { username: 'herald' }));
    const [message] = fake.inbox.messages;
    expect(posted.id).toBe(message!.id);
    expect(message!.body).toMatchObject({
      content: 'Spoke 12 words as Rachel @everyone <@123>',
      username: 'herald',
      allowed_mentions: { parse: [] },
      attachments: [{ id: 0, filename: 'say_2025-11-22.mp3' }],
    });
    expect(message!.files).toEqual([
      { field: 'files[0]', filename: 'say_2025-11-22.mp3', contentType: 'audio/mpeg', bytes: mp3 },
    ]);
    expectWithinDiscordLimits(message!.body);
  });

  it('shows an attached chart as the embed image by attachment:// name, and keeps the numbers in the text', async () => {
    const chart = png(20_000);
    const reply: Reply = {
      text: 'Sessions 1,204 (↑ 12%)',
      embeds: [
        {
          title: 'Analytics summary: last 7 days',
          fields: [{ name: 'Sessions', value: '1,204 (↑ 12%)' }],
          image: 'sessions chart.png',
        },
      ],
      attachments: [
        {
          filename: 'sessions chart.png',
          contentType: 'image/png',
          bytes: chart,
          description: 'Sessions per day',
        },
      ],
    };
    await fake.client().post(renderDiscordWebhook(reply));
    const [message] = fake.inbox.messages;
    expect(message!.embeds[0]).toMatchObject({
      image: { url: 'attachment://sessions_chart.png' },
      fields: [{ name: 'Sessions', value: '1,204 (↑ 12%)' }],
    });
    expect(message!.body.attachments).toEqual([
      { id: 0, filename: 'sessions_chart.png', description: 'Sessions per day' },
    ]);
    expect(message!.files.map((f) => f.bytes)).toEqual([chart]);
    expectWithinDiscordLimits(message!.body);
  });

  it('fits /jobs listings to every limit, leaves out the buttons and names their commands instead', async () => {
    const listing = (i: number): Embed => ({
      title: `${i}. Senior Rust developer ${'x'.repeat(300)}`,
      description: 'd'.repeat(900),
      fields: [
        { name: 'Company', value: 'Acme GmbH', inline: true },
        { name: 'Salary', value: '€70,000–€85,000', inline: true },
      ],
      footer: 'Posted 2 days ago',
      url: `https://www.adzuna.de/jobs/land/ad/${5470132083 + i}`,
    });
    const reply: Reply = {
      text: '1,204 listings for rust developer in Berlin',
      embeds: Array.from({ length: 12 }, (_, i) => listing(i + 1)),
      actions: [{ label: 'Next page', command: 'jobs', input: { what: 'rust developer', page: 2 } }],
      attachments: [
        {
          filename: 'huge.bin',
          contentType: 'application/octet-stream',
          bytes: new Uint8Array(11 * 1024 * 1024),
        },
      ],
    };
    const message = renderDiscordWebhook(reply);
    expect(message.embeds!.length).toBeLessThanOrEqual(10);
    expect(message.content).toBe(
      '-# Some text was shortened to fit Discord’s limits. 7 more sections left out. 2 fields left out. Not attached: huge.bin.\n' +
        '-# Next page: `/jobs what:"rust developer" page:2`',
    );
    expect(message.files).toBeUndefined();
    await fake.client().post(message);
    const [received] = fake.inbox.messages;
    expect(received!.body).not.toHaveProperty('components');
    expect(received!.files).toEqual([]);
    expectWithinDiscordLimits(received!.body);
  });

  it('keeps at most 10 files and 25 MiB in one post, naming the ones left out', async () => {
    const reply: Reply = {
      text: 'many files',
      attachments: Array.from({ length: 12 }, (_, i) => ({
        filename: 'same.png',
        contentType: 'image/png',
        bytes: png(i < 3 ? 9 * 1024 * 1024 : 100),
      })),
    };
    const message = renderDiscordWebhook(reply);
    expect(message.files!.map((f) => f.name)).toEqual([
      'same.png',
      '2-same.png',
      ...Array.from({ length: 8 }, (_, i) => `${i + 3}-same.png`),
    ]);
    expect(message.files!.reduce((n, f) => n + f.bytes.byteLength, 0)).toBeLessThanOrEqual(25 * 1024 * 1024);
    expect(message.content).toContain('Not attached: same.png, same.png.');
    // 25 MiB through the simulated Discord's multipart parser: seconds on a busy machine.
    await fake.client({}, 20_000).post(message);
    expect(fake.inbox.messages[0]!.files).toHaveLength(10);
  });

  it('posts any reply the renderer makes, and the simulated Discord (which enforces every limit) takes it', async () => {
    const text = fc.string({ maxLength: 2500, unit: 'binary' });
    const embed = fc.record(
      {
        title: fc.string({ maxLength: 300, unit: 'binary' }),
        description: fc.string({ maxLength: 4500 }),
        fields: fc.array(
          fc.record({ name: fc.string({ maxLength: 300 }), value: fc.string({ maxLength: 1100 }) }),
          {
            maxLength: 30,
          },
        ),
        footer: fc.string({ maxLength: 2100 }),
        url: fc.constantFrom('https://example.com/a', 'javascript:alert(1)', 'not a url'),
      },
      { requiredKeys: [] },
    );
    const reply = fc.record({
      text,
      embeds: fc.array(embed, { maxLength: 12 }),
      actions: fc.array(
        fc.record({
          label: fc.string({ maxLength: 100 }),
          command: fc.constant('jobs'),
          input: fc.constant({ page: 2 }),
        }),
        { maxLength: 8 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(reply, fc.string({ maxLength: 100 }), async (r, username) => {
        const before = fake.inbox.messages.length;
        await fake.client().post(renderDiscordWebhook(r, { username }));
        expect(fake.inbox.messages).toHaveLength(before + 1);
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
