// Slack's pace across replicas: two processes' Slack channel clients, each with its own rate
// budget on one Redis (as two replicas with REDIS_URL), post to the contract fake of Slack on one
// fake clock. A channel's posts keep one a second together (the fake's burst is five, so two
// replicas bursting three each apart would meet its 429), and a 429 to chat.postMessage on one
// replica holds every channel's posts on the other for its Retry-After, each post made once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { slackChannelMessage } from '../../src/destinations.ts';
import { ServiceError } from '../../src/errors.ts';
import { createSlackChannelClient } from '../../src/services/webhook/slack-web-api.ts';
import { createRedisRateBudget } from '../../src/store/rate-budget-redis.ts';
import type { OpenRateBudget } from '../../src/store/rate-budget.ts';
import { BOT_TOKEN, startSlackFake, type SlackFake } from '../adapters/slack/fake-slack.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../support/redis.ts';

const prefix = testKeyPrefix();
const clock = { t: Date.parse('2026-11-29T08:00:00Z') };
let slack: SlackFake;
beforeAll(async () => {
  slack = await startSlackFake({ now: () => clock.t });
});
afterAll(async () => {
  await slack.server.close();
  await deleteKeys(prefix);
});

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  clock.t += 3_600_000;
});

/** Two replicas: each its own budget on the one Redis, and its own Slack client with the one token. */
async function replicas() {
  const keyPrefix = `${prefix}${Math.random().toString(36).slice(2)}:`;
  const sleep = (ms: number) => {
    clock.t += ms;
    return Promise.resolve();
  };
  const one = async () => {
    const budget: OpenRateBudget = await createRedisRateBudget(REDIS_URL, {
      perSecond: 50,
      invalidLimit: 1_000,
      keyPrefix,
      now: () => clock.t,
      sleep,
    });
    const client = createSlackChannelClient(
      { apiUrl: `${slack.server.url}/api`, botToken: BOT_TOKEN },
      { now: () => clock.t, rateBudget: budget },
    );
    opened.push(client, budget);
    return client;
  };
  return [await one(), await one()] as const;
}

const message = (text: string) => slackChannelMessage({ text });

/** The fake's chat.postMessage answers from here on: HTTP statuses, in order. */
function watch() {
  const mark = slack.server.requests.length;
  return {
    posts: () => slack.server.requests.slice(mark).filter((r) => r.pathname === '/api/chat.postMessage'),
  };
}

describe('Slack posts across two replicas sharing Redis', () => {
  it("keep a channel's one a second together: three at once, then one a second, no 429", async () => {
    const [a, b] = await replicas();
    const start = clock.t;
    const at: number[] = [];
    for (let i = 0; i < 8; i++) {
      await (i % 2 === 0 ? a : b).post('C0SHARED', message(`post ${i}`));
      at.push(clock.t - start);
    }
    expect(at).toEqual([0, 0, 0, 1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(slack.posted.get('C0SHARED')).toHaveLength(8);
  });

  it("hold every channel's posts on the other replica for a 429's Retry-After, each post made once", async () => {
    const [a, b] = await replicas();
    const seen = watch();
    slack.next('chat.postMessage', {
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '30' },
    });
    const start = clock.t;
    const refused = await a.post('C0FIRST', message('first')).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfterMs: 30_000 });
    expect(clock.t).toBe(start);
    // Another channel, another replica: its post waits out the workspace's Retry-After first.
    const before = slack.posted.get('C0SECOND')?.length ?? 0;
    await b.post('C0SECOND', message('second'));
    expect(clock.t - start).toBe(30_000);
    expect(slack.posted.get('C0SECOND')).toHaveLength(before + 1);
    // The refused post, sent again by its replica (the outbox's retry), goes once, at once now.
    await a.post('C0FIRST', message('first'));
    expect(clock.t - start).toBe(30_000);
    expect(seen.posts().length).toBe(3);
    expect(slack.posted.get('C0FIRST')).toHaveLength(1);
  });

  it('after a 429, sends its posts one at a time, so that the next 429 holds the posts behind it', async () => {
    const [a] = await replicas();
    const limited = (seconds: number) => ({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': String(seconds) },
    });
    slack.next('chat.postMessage', limited(1));
    const start = clock.t;
    await expect(a.post('C0LANE0', message('first'))).rejects.toMatchObject({ code: 'rate_limited' });
    // Three posts at once: the first waits out the 1 s and draws a 429 of 5 s, which the other two
    // then wait out before they go (sent together, both would have gone inside it).
    slack.next('chat.postMessage', limited(5));
    const outcomes = await Promise.allSettled(
      ['C0LANE1', 'C0LANE2', 'C0LANE3'].map((channel) => a.post(channel, message(channel))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(clock.t - start).toBe(6_000);
    expect(slack.posted.get('C0LANE1')).toBeUndefined();
  });
});
