// The rate-limit facts of every answer, as the chat platforms send them: Discord's X-RateLimit-*
// headers on every answer (Remaining, Reset, Reset-After, Bucket; on a 429 also Global and Scope,
// and retry_after in the body), Slack's 429 with Retry-After. Read by each of the four posting
// clients (Discord webhook, Slack incoming webhook, Discord channel, Slack chat.postMessage).
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { createDiscordChannelClient } from '../../src/services/webhook/discord-channel.ts';
import { readRateLimit, type RateLimitFacts } from '../../src/services/webhook/rate-limit.ts';
import { createSlackChannelClient } from '../../src/services/webhook/slack-web-api.ts';
import { createSlackWebhookClient } from '../../src/services/webhook/slack.ts';
import { ServiceError } from '../../src/errors.ts';
import { closeAfterEach, useFakeServer } from '../support/service-harness.ts';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const BUCKET = 'd0f3e8c7a1b24c5e9f6a7b8c9d0e1f2a';

/** Discord's headers on an answer that left `remaining` posts in a bucket refilling in `resetAfterS`. */
function discordHeaders(remaining: number, resetAfterS: number): Record<string, string> {
  return {
    'x-ratelimit-bucket': BUCKET,
    'x-ratelimit-limit': '5',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': ((NOW + resetAfterS * 1000) / 1000).toFixed(3),
    'x-ratelimit-reset-after': resetAfterS.toFixed(3),
  };
}

const head = (status: number, headers: Record<string, string>) => ({ status, headers });

describe('reading the rate-limit facts of an answer', () => {
  it('asks for no wait while the bucket has posts left, and says how many', () => {
    expect(readRateLimit(head(200, discordHeaders(3, 1.2)), NOW)).toEqual({
      waitMs: 0,
      isGlobal: false,
      remaining: 3,
    });
  });

  it('asks to wait until Reset-After when Remaining is 0, on a success too', () => {
    expect(readRateLimit(head(200, discordHeaders(0, 1.337)), NOW)).toEqual({
      waitMs: 1_337,
      isGlobal: false,
      remaining: 0,
    });
  });

  it('falls back to X-RateLimit-Reset (epoch seconds) when Reset-After is absent', () => {
    const { 'x-ratelimit-reset-after': _, ...headers } = discordHeaders(0, 2.5);
    expect(readRateLimit(head(200, headers), NOW).waitMs).toBe(2_500);
  });

  it("takes a per-route 429's Reset-After, scoped to the destination", () => {
    const headers = { ...discordHeaders(0, 0.75), 'retry-after': '1', 'x-ratelimit-scope': 'user' };
    expect(readRateLimit(head(429, headers), NOW)).toEqual({ waitMs: 750, isGlobal: false, remaining: 0 });
  });

  it("marks Discord's global 429 (X-RateLimit-Global, or Scope global) as global", () => {
    const global = { 'retry-after': '2', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' };
    expect(readRateLimit(head(429, global), NOW)).toEqual({ waitMs: 2_000, isGlobal: true });
    expect(
      readRateLimit(head(429, { 'retry-after': '2', 'x-ratelimit-scope': 'global' }), NOW).isGlobal,
    ).toBe(true);
    // Only a 429 is a global limit; the header on another answer says nothing.
    expect(readRateLimit(head(200, { 'x-ratelimit-global': 'true' }), NOW).isGlobal).toBe(false);
  });

  it("takes Slack's 429 Retry-After (whole seconds, no bucket headers)", () => {
    expect(readRateLimit(head(429, { 'retry-after': '30' }), NOW)).toEqual({
      waitMs: 30_000,
      isGlobal: false,
    });
  });

  it('ignores missing, empty, negative and garbage headers', () => {
    expect(readRateLimit(head(200, {}), NOW)).toEqual({ waitMs: 0, isGlobal: false });
    for (const bad of ['', ' ', 'soon', '-1', 'NaN', 'Infinity', '1e400', '0x1g']) {
      const headers = {
        'x-ratelimit-remaining': bad,
        'x-ratelimit-reset-after': bad,
        'x-ratelimit-reset': bad,
        'retry-after': bad,
      };
      expect(readRateLimit(head(200, headers), NOW), bad).toEqual({ waitMs: 0, isGlobal: false });
      expect(readRateLimit(head(429, headers), NOW).waitMs, bad).toBe(0);
    }
    // Remaining 0 with a garbage reset: no wait can be read from it.
    const garbageReset = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': 'later' };
    expect(readRateLimit(head(200, garbageReset), NOW)).toEqual({ waitMs: 0, isGlobal: false, remaining: 0 });
  });

  it('reads a huge wait as it is: the deliverer bounds it', () => {
    expect(readRateLimit(head(200, discordHeaders(0, 9_999_999)), NOW).waitMs).toBe(9_999_999_000);
  });
});

/** The next answers of the fake, per route, in order; without one it answers success. */
const scripted: Record<string, { status: number; body: unknown; headers: Record<string, string> }[]> = {
  webhook: [],
  hook: [],
  channel: [],
  postMessage: [],
};
const answer = (route: string, success: () => Response) => () => {
  const next = scripted[route]!.shift();
  return next
    ? HttpResponse.json(next.body as Record<string, unknown>, { status: next.status, headers: next.headers })
    : success();
};

const WEBHOOK_ID = '1349081729583431690';
const CHANNEL_ID = '1187421520894746711';
const discordMessage = (webhookId?: string) => ({
  id: '1300000000000000001',
  type: 0,
  content: 'daily report',
  channel_id: CHANNEL_ID,
  author: { id: webhookId ?? '1187421520894746600', username: 'herald', bot: true, discriminator: '0000' },
  attachments: [],
  embeds: [],
  mentions: [],
  mention_roles: [],
  pinned: false,
  mention_everyone: false,
  tts: false,
  timestamp: '2026-11-27T12:00:00.000000+00:00',
  edited_timestamp: null,
  flags: 0,
  components: [],
  ...(webhookId ? { webhook_id: webhookId } : {}),
});

const server = useFakeServer(() => [
  http.post(
    '*/api/webhooks/:id/:token',
    answer('webhook', () => HttpResponse.json(discordMessage(WEBHOOK_ID), { headers: discordHeaders(4, 2) })),
  ),
  http.post(
    '*/services/:team/:hook/:secret',
    answer('hook', () => new HttpResponse('ok', { headers: { 'content-type': 'text/html' } })),
  ),
  http.post(
    '*/api/v10/channels/:channel/messages',
    answer('channel', () => HttpResponse.json(discordMessage(), { headers: discordHeaders(0, 1.5) })),
  ),
  http.post(
    '*/api/chat.postMessage',
    answer('postMessage', () =>
      HttpResponse.json({
        ok: true,
        channel: 'C0GENERAL',
        ts: '1714560000.000200',
        message: { type: 'message', subtype: 'bot_message', text: 'daily report', bot_id: 'B0HERALDBOT' },
      }),
    ),
  ),
]);
const clients = closeAfterEach<{ close(): Promise<void> }>();
const deps = { now: () => NOW, httpOptions: { requestTimeoutMs: 2_000 } };

/** Each client's post, told its facts: the facts of every answer, and the post's outcome. */
const posters: Record<string, (onRateLimit: (f: RateLimitFacts) => void) => Promise<unknown>> = {
  webhook: (onRateLimit) => {
    const c = createWebhookClient(
      { baseUrl: `${server.url}/api/webhooks`, id: WEBHOOK_ID, token: 'fake-webhook-token-for-tests-1' },
      deps,
    );
    clients.track(c);
    return c.post({ content: 'daily report' }, { onRateLimit });
  },
  hook: (onRateLimit) => {
    const c = createSlackWebhookClient(
      { baseUrl: `${server.url}/services/T0HERALD`, id: 'B0HOOK', token: 'fake-slack-hook-secret-for-tests' },
      deps,
    );
    clients.track(c);
    return c.post({ platform: 'slack', text: 'daily report', blocks: [] }, { onRateLimit });
  },
  channel: (onRateLimit) => {
    const c = createDiscordChannelClient(
      { apiUrl: `${server.url}/api`, token: 'fake-bot-token-for-tests-2' },
      deps,
    );
    clients.track(c);
    return c.post(CHANNEL_ID, { content: 'daily report' }, { onRateLimit });
  },
  postMessage: (onRateLimit) => {
    const c = createSlackChannelClient(
      { apiUrl: `${server.url}/api`, botToken: 'fake-slack-bot-token-3' },
      deps,
    );
    clients.track(c);
    return c.post('C0GENERAL', { platform: 'slack', text: 'daily report', blocks: [] }, { onRateLimit });
  },
};

async function postTold(route: string): Promise<{ facts: RateLimitFacts[]; outcome: unknown }> {
  const facts: RateLimitFacts[] = [];
  const outcome = await posters[route]!((f) => facts.push(f)).catch((err: unknown) => err);
  return { facts, outcome };
}

describe('each posting client tells the facts of every answer', () => {
  it("Discord webhook: a success's bucket, and a 429's retry_after with its global flag", async () => {
    expect((await postTold('webhook')).facts).toEqual([{ waitMs: 0, isGlobal: false, remaining: 4 }]);
    scripted.webhook!.push({
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 1.25, global: true },
      headers: { 'retry-after': '2', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
    });
    const limited = await postTold('webhook');
    expect(limited.facts).toEqual([{ waitMs: 2_000, isGlobal: true }]);
    expect(limited.outcome).toBeInstanceOf(ServiceError);
    expect(limited.outcome).toMatchObject({ code: 'rate_limited', retryAfterMs: 1_250 });
  });

  it('Slack incoming webhook: a 429 with Retry-After', async () => {
    expect((await postTold('hook')).facts).toEqual([{ waitMs: 0, isGlobal: false }]);
    scripted.hook!.push({ status: 429, body: {}, headers: { 'retry-after': '3' } });
    const limited = await postTold('hook');
    expect(limited.facts).toEqual([{ waitMs: 3_000, isGlobal: false }]);
    expect(limited.outcome).toMatchObject({ code: 'rate_limited', retryAfterMs: 3_000 });
  });

  it('Discord channel message: Remaining 0 on a success asks to wait until Reset-After', async () => {
    const posted = await postTold('channel');
    expect(posted.outcome).toMatchObject({ id: '1300000000000000001', channelId: CHANNEL_ID });
    expect(posted.facts).toEqual([{ waitMs: 1_500, isGlobal: false, remaining: 0 }]);
    scripted.channel!.push({
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 0.9, global: false },
      headers: { ...discordHeaders(0, 0.9), 'retry-after': '1', 'x-ratelimit-scope': 'user' },
    });
    expect((await postTold('channel')).facts).toEqual([{ waitMs: 900, isGlobal: false, remaining: 0 }]);
  });

  it("Slack chat.postMessage: a 429's Retry-After, and nothing asked of a success", async () => {
    expect((await postTold('postMessage')).facts).toEqual([{ waitMs: 0, isGlobal: false }]);
    scripted.postMessage!.push({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '1' },
    });
    const limited = await postTold('postMessage');
    expect(limited.facts).toEqual([{ waitMs: 1_000, isGlobal: false }]);
    expect(limited.outcome).toMatchObject({ code: 'rate_limited', retryAfterMs: 1_000 });
  });
});
