// The fake Discord refuses what Discord refuses (contract.ts, each rule with its page), and herald's
// Discord clients (src/services/webhook/ on @discordjs/rest) obey it: no Content-Type on
// a request without a body, the DiscordBot User-Agent, Discord's buckets and global limit, the
// nonce of a channel post, the refusals that say a destination is gone, and the shared budget.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateBudget } from '../../../src/domain/rate-budget.ts';
import { ServiceError } from '../../../src/errors.ts';
import { createDiscordChannelClient, discordNonce } from '../../../src/services/webhook/discord-channel.ts';
import { createWebhookClient } from '../../../src/services/webhook/discord-webhook.ts';
import { createInteractionWebhookClient } from '../../../src/services/webhook/discord-interaction.ts';
import { rateLimited } from './discord-answers.ts';
import {
  APP_ID,
  BOT_TOKEN,
  CHANNEL_ID,
  dmChannelOf,
  startFakeDiscord,
  USER_ID,
  type FakeDiscord,
} from './fake-discord.ts';

const UA = 'DiscordBot (https://example.org/herald-tests, 1.0.0)';
const OTHER_CHANNEL = '1187421520894746799';
const HOOK_ID = '1349081729583431690';
const HOOK_TOKEN = 'contract-test-webhook-token-7e1f';

let fake: FakeDiscord;
let clock = 1_767_225_600_000;
beforeEach(async () => {
  clock = 1_767_225_600_000;
  fake = await startFakeDiscord({ now: () => clock, globalPerSecond: 8, invalidLimit: 6 });
  fake.webhooks.set(HOOK_ID, HOOK_TOKEN);
});
afterEach(() => fake.close());

/** A raw request to the fake, as any client could send it. */
function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  return fetch(`${fake.apiUrl}${path}`, {
    method,
    headers: { 'user-agent': UA, authorization: `Bot ${BOT_TOKEN}`, ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}
const post = (channel: string, body: object, headers: Record<string, string> = {}) =>
  raw('POST', `/v10/channels/${channel}/messages`, {
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const channelClient = (budget?: RateBudget) =>
  createDiscordChannelClient({ apiUrl: fake.apiUrl, token: BOT_TOKEN }, budget ? { rateBudget: budget } : {});

/** A RateBudget that records what it is asked and never waits. */
function recordingBudget() {
  const calls: string[] = [];
  const budget: RateBudget = {
    take: (scope) => (calls.push(`take ${scope}`), Promise.resolve()),
    pause: (scope, ms) => (calls.push(`pause ${scope} ${ms}`), Promise.resolve()),
    countInvalid: () => (calls.push('invalid'), Promise.resolve()),
    invalidLimitReached: () => Promise.resolve(false),
  };
  return { budget, calls };
}

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(err)}`);
  return err;
}

describe('the fake Discord enforces the contract', () => {
  it('refuses a JSON content type with an empty body: 400, code 50109', async () => {
    const answer = await raw('GET', `/v10/channels/${CHANNEL_ID}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ message: 'The request body contains invalid JSON.', code: 50109 });
    // The same request without the content type is answered.
    expect((await raw('GET', `/v10/channels/${CHANNEL_ID}`)).status).toBe(200);
  });

  it('refuses a request whose User-Agent is not "DiscordBot ($url, $versionNumber)": 403, code 40333', async () => {
    for (const agent of ['herald/0.1', 'Mozilla/5.0', 'DiscordBot']) {
      const answer = await raw('GET', `/v10/channels/${CHANNEL_ID}`, { headers: { 'user-agent': agent } });
      expect(answer.status, agent).toBe(403);
      expect(await answer.json()).toMatchObject({ code: 40333 });
    }
  });

  it("answers every request with its bucket's X-RateLimit-* headers, and a 429 of scope user past it", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post(CHANNEL_ID, { content: `post ${i}` }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual([
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
    ]);
    for (const a of answers) {
      expect(a.headers.get('x-ratelimit-limit')).toBe('5');
      expect(Number(a.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
      expect(Number(a.headers.get('x-ratelimit-reset'))).toBeGreaterThan(clock / 1000);
      expect(a.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    }
    const refused = answers[5]!;
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    expect(await refused.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 2,
      global: false,
    });
    // Another channel is another bucket; the bucket refills when its window ends.
    expect((await post(OTHER_CHANNEL, { content: 'elsewhere' })).status).toBe(200);
    clock += 2_000;
    expect((await post(CHANNEL_ID, { content: 'later' })).status).toBe(200);
  });

  it('holds a bot token to its global limit (scaled to 8 a second here), interaction responses exempt', async () => {
    const channels = Array.from({ length: 9 }, (_, i) => `11874215208947468${String(10 + i)}`);
    const statuses = [];
    for (const channel of channels) statuses.push((await post(channel, { content: 'hi' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    const refused = await post(OTHER_CHANNEL, { content: 'one more' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-global')).toBe('true');
    expect(refused.headers.get('x-ratelimit-scope')).toBe('global');
    expect(await refused.json()).toMatchObject({ global: true, retry_after: 1 });
    // An interaction's follow-up is outside the global limit.
    const followUp = await raw('POST', `/v10/webhooks/${APP_ID}/interaction-token-1`, {
      headers: { 'content-type': 'application/json', authorization: '' },
      body: JSON.stringify({ content: 'still answered' }),
    });
    expect(followUp.status).toBe(200);
    expect(fake.contract.counts.globalRefusals).toBe(2);
    clock += 1_000;
    expect((await post(OTHER_CHANNEL, { content: 'next second' })).status).toBe(200);
  });

  it('counts 401, 403 and 429 as invalid, and past the limit (scaled to 6) refuses everything', async () => {
    fake.hiddenChannels.add(OTHER_CHANNEL);
    for (let i = 0; i < 3; i++) expect((await raw('GET', `/v10/channels/${OTHER_CHANNEL}`)).status).toBe(403);
    for (let i = 0; i < 2; i++)
      expect(
        (await raw('GET', `/v10/channels/${CHANNEL_ID}`, { headers: { authorization: 'Bot wrong' } })).status,
      ).toBe(401);
    expect(fake.contract.counts).toMatchObject({ invalid: 5, banned: false });
    expect((await raw('GET', `/v10/channels/${CHANNEL_ID}`)).status).toBe(200);
    expect((await raw('GET', `/v10/channels/${OTHER_CHANNEL}`)).status).toBe(403);
    expect(fake.contract.counts.banned).toBe(true);
    const banned = await raw('GET', `/v10/channels/${CHANNEL_ID}`);
    expect(banned.status).toBe(429);
    expect(await banned.text()).toBe('error code: 1015');
  });

  it('answers the codes of a destination that is gone, and 50035 with the nested field errors', async () => {
    fake.deletedChannels.add('1187421520894746901');
    fake.hiddenChannels.add('1187421520894746902');
    fake.mutedChannels.add('1187421520894746903');
    const codes = [];
    for (const channel of ['1187421520894746901', '1187421520894746902', '1187421520894746903']) {
      const answer = await post(channel, { content: 'hi' });
      codes.push([answer.status, ((await answer.json()) as { code: number }).code]);
    }
    const hook = await raw('POST', `/webhooks/${HOOK_ID}/wrong-token?wait=true`, {
      headers: { 'content-type': 'application/json', authorization: '' },
      body: JSON.stringify({ content: 'hi' }),
    });
    codes.push([hook.status, ((await hook.json()) as { code: number }).code]);
    expect(codes).toEqual([
      [404, 10003],
      [403, 50001],
      [403, 50013],
      [404, 10015],
    ]);
    const tooLong = await post(CHANNEL_ID, { content: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      message: 'Invalid Form Body',
      code: 50035,
      errors: {
        content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
      },
    });
  });
});

describe("herald's Discord clients obey it", () => {
  const message = (content: string) => ({ content, embeds: [] });

  it('checks a channel with a bodiless GET and no Content-Type, as "DiscordBot (…)"', async () => {
    const client = channelClient();
    expect(await client.check(CHANNEL_ID)).toBeUndefined();
    const sent = fake.rest.requests.filter((r) => r.pathname === `/api/v10/channels/${CHANNEL_ID}`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['content-type']).toBeUndefined();
    expect(sent[0]!.headers['user-agent']).toMatch(
      /^DiscordBot \(https:\/\/discord\.js\.org, [\d.]+\) herald$/,
    );
    await client.close();
  });

  it('waits for a bucket Discord announced as empty instead of sending into a 429', async () => {
    await fake.close();
    // The fake's real clock here: the SDK waits the bucket's Reset-After out in real time.
    fake = await startFakeDiscord({ bucket: { limit: 2, windowMs: 300 } });
    const client = channelClient();
    for (let i = 0; i < 5; i++) await client.post(CHANNEL_ID, message(`post ${i}`));
    expect(fake.calls.filter((c) => c.created !== undefined)).toHaveLength(5);
    expect(fake.contract.counts).toMatchObject({ routeRefusals: 0, invalid: 0 });
    await client.close();
  });

  it('posts into a channel with a nonce of at most 25 characters and enforce_nonce; a resend creates nothing', async () => {
    const client = channelClient();
    const key = 'outbox-entry-0193a4b2-7c1d-7e3f-9a55-2f0c4d6e8b10';
    const first = await client.post(CHANNEL_ID, message('07:30 report'), { idempotencyKey: key });
    const again = await client.post(CHANNEL_ID, message('07:30 report'), { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    const posts = fake.calls.filter((c) => c.kind === 'message');
    expect(posts).toHaveLength(2);
    expect(posts.filter((c) => c.created !== undefined)).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({
      nonce: discordNonce(key),
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
    });
    expect(discordNonce(key).length).toBeLessThanOrEqual(25);
    expect(discordNonce(key)).toBe(discordNonce(key));
    await client.close();
  });

  it.each([
    ['deleted channel', 'deletedChannels', '10003', 'not_found'],
    ['channel the bot cannot see', 'hiddenChannels', '50001', 'forbidden'],
    ['channel the bot may not post in', 'mutedChannels', '50013', 'forbidden'],
  ] as const)('says a %s refuses herald for good (refusal %s)', async (_name, set, code, errorCode) => {
    fake[set].add(OTHER_CHANNEL);
    const client = channelClient();
    const err = await failureOf(client.post(OTHER_CHANNEL, message('hi')));
    expect(err).toMatchObject({ code: errorCode, refusal: { platform: 'discord', code } });
    // The sentence a schedule's history shows names the channel as Discord shows it.
    expect(err.message).toMatch(new RegExp(`^herald cannot post to <#${OTHER_CHANNEL}>: Discord says `));
    expect(err.message).not.toMatch(/webhook service|check the input|channel:discord:/);
    await client.close();
  });

  it('says a deleted webhook refuses herald for good (refusal 10015)', async () => {
    const hook = createWebhookClient({
      baseUrl: `${fake.apiUrl}/webhooks`,
      id: HOOK_ID,
      token: 'reset-token-0000',
    });
    const err = await failureOf(hook.post(message('hi')));
    expect(err).toMatchObject({ code: 'not_found', refusal: { platform: 'discord', code: '10015' } });
    expect(err.message).toBe(
      'herald cannot post to the webhook: Discord says the webhook was deleted or its token reset',
    );
    expect(JSON.stringify(err)).not.toContain('reset-token-0000');
    await hook.close();
  });

  it('takes every bot and webhook request from the shared budget; a global 429 pauses it, invalid answers are counted', async () => {
    const { budget, calls } = recordingBudget();
    const client = channelClient(budget);
    await client.post(CHANNEL_ID, message('one'));
    fake.hiddenChannels.add(OTHER_CHANNEL);
    await failureOf(client.post(OTHER_CHANNEL, message('two')));
    // Last, as the SDK then holds this client's requests for the wait, as Discord asks.
    fake.nextMessageAnswers.push({
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 1.5, global: true },
      headers: { 'retry-after': '2', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
    });
    const limited = await failureOf(client.post(CHANNEL_ID, message('three')));
    expect(limited).toMatchObject({ code: 'rate_limited', retryAfterMs: 1_500 });
    const hook = createWebhookClient(
      { baseUrl: `${fake.apiUrl}/webhooks`, id: HOOK_ID, token: HOOK_TOKEN },
      { rateBudget: budget },
    );
    await hook.post(message('four'));
    const host = new URL(fake.apiUrl).host;
    expect(calls).toEqual([
      'take discord:bot',
      'take discord:bot',
      'invalid',
      'take discord:bot',
      'invalid',
      'pause discord:bot 1500',
      `take discord:webhook-host:${host}`,
    ]);
    await Promise.all([client.close(), hook.close()]);
  });

  it("hands a route's 429 back with its retry_after, and counts it invalid; interaction answers never take from the budget", async () => {
    const { budget, calls } = recordingBudget();
    const client = channelClient(budget);
    fake.nextMessageAnswers.push(rateLimited(0.25));
    expect(await failureOf(client.post(CHANNEL_ID, message('one')))).toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 250,
    });
    expect(calls).toEqual(['take discord:bot', 'invalid']);
    const interactions = createInteractionWebhookClient(
      { apiUrl: fake.apiUrl, applicationId: APP_ID },
      { rateBudget: budget },
    );
    await interactions.followUp('interaction-token-2', {
      content: 'answer',
      embeds: [],
      components: [],
      files: [],
      allowed_mentions: { parse: [] },
      flags: 0,
    });
    await interactions.deleteOriginal('interaction-token-2');
    expect(calls).toEqual(['take discord:bot', 'invalid']);
    const deleted = fake.rest.requests.find((r) => r.method === 'DELETE');
    expect(deleted?.headers['content-type']).toBeUndefined();
    await Promise.all([client.close(), interactions.close()]);
  });

  it('sends a user a DM with the bot token: Create DM, then a message in that DM', async () => {
    const client = channelClient();
    const sent = await client.directMessage(USER_ID, 'Your schedule in <#1187421520894746711> is paused.');
    expect(sent.channelId).toBe(dmChannelOf(USER_ID));
    const [dm, msg] = fake.calls.filter((c) => c.kind === 'dm' || c.kind === 'message');
    expect(dm!.json).toEqual({ recipient_id: USER_ID });
    expect(msg!.path).toBe(`/api/v10/channels/${dmChannelOf(USER_ID)}/messages`);
    expect(msg!.json).toMatchObject({
      content: 'Your schedule in <#1187421520894746711> is paused.',
      allowed_mentions: { parse: [] },
    });
    await client.close();
  });
});
