// The platforms' request budgets (src/store/rate-budget*.ts) in memory and in Redis, on a fake
// clock: the token bucket's arithmetic, scopes kept apart, one bucket and one pause shared by two
// budgets on one Redis (a pause set by one holds the other, even a request already waiting for its
// turn), Slack's channel pace and workspace pause, and the invalid-request window with its limit
// told once.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  INVALID_WINDOW_MS,
  createMemoryRateBudget,
  type OpenRateBudget,
  type RateBudgetOptions,
} from '../../src/store/rate-budget.ts';
import { createRedisRateBudget } from '../../src/store/rate-budget-redis.ts';
import {
  SLACK_POST_PACE,
  slackChannelScope,
  slackMethodScope,
  type RateBudget,
} from '../../src/domain/rate-budget.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../support/redis.ts';

const prefix = testKeyPrefix();
afterAll(() => deleteKeys(prefix));

/** A clock that moves only when a budget sleeps (or the test moves it). */
function fakeTime() {
  const time = { ms: Date.parse('2026-11-29T08:00:00Z'), sleeps: [] as number[] };
  const sleep = (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    time.sleeps.push(ms);
    time.ms += ms;
    return Promise.resolve();
  };
  return { time, now: () => time.ms, sleep };
}

type Clocked = Pick<RateBudgetOptions, 'now' | 'sleep' | 'onLimitReached'> & Partial<RateBudgetOptions>;

const opened: OpenRateBudget[] = [];

const WORKSPACE = 'ws1';
/** A Slack post's turn, as the Slack channel client takes it. */
const slackPost = (budget: RateBudget, channel: string) =>
  budget.take(slackChannelScope(WORKSPACE, channel), undefined, {
    pace: SLACK_POST_PACE,
    pausedBy: slackMethodScope(WORKSPACE, 'chat.postMessage'),
  });
afterEach(async () => {
  for (const budget of opened.splice(0)) await budget.close();
});

/** Budgets of each backend; `shared` says where a second budget opened the same way meets the first. */
const backends = [
  {
    name: 'memory',
    // One process, one budget: "two budgets" in memory are the same object.
    open(opts: Clocked, shared: { one?: OpenRateBudget }) {
      shared.one ??= createMemoryRateBudget({ perSecond: 50, invalidLimit: 1_000, ...opts });
      opened.push(shared.one);
      return Promise.resolve(shared.one);
    },
  },
  {
    name: 'Redis',
    async open(opts: Clocked, shared: { key?: string }) {
      shared.key ??= `${prefix}${Math.random().toString(36).slice(2)}:`;
      const budget = await createRedisRateBudget(REDIS_URL, {
        perSecond: 50,
        invalidLimit: 1_000,
        keyPrefix: shared.key,
        ...opts,
      });
      opened.push(budget);
      return budget;
    },
  },
];

describe.each(backends)('the rate budget in $name', (backend) => {
  it('lets a tenth of a second of requests go at once, then one each 1/limit of a second', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = await backend.open({ now, sleep }, {});
    const start = time.ms;
    for (let i = 0; i < 5; i++) await budget.take('discord:bot');
    expect(time.sleeps).toEqual([]);
    await budget.take('discord:bot');
    expect(time.ms - start).toBeCloseTo(20, 6);
    for (let i = 0; i < 94; i++) await budget.take('discord:bot');
    // 100 requests: 5 at once, then 95 at 20 ms each.
    expect(time.ms - start).toBeCloseTo(1_900, 3);
  });

  it('keeps at most the limit in every second, however long it runs', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = await backend.open({ now, sleep, perSecond: 50 }, {});
    const at: number[] = [];
    for (let i = 0; i < 300; i++) {
      await budget.take('discord:bot');
      at.push(time.ms);
    }
    // Discord's bucket of a second's requests, refilled continuously, never runs dry.
    let tokens = 50;
    let last = at[0]!;
    for (const t of at) {
      tokens = Math.min(50, tokens + ((t - last) * 50) / 1000) - 1;
      last = t;
      expect(tokens).toBeGreaterThanOrEqual(44 - 1e-6);
    }
  });

  it('fills again while idle, up to a tenth of a second of requests', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = await backend.open({ now, sleep }, {});
    for (let i = 0; i < 40; i++) await budget.take('discord:bot');
    time.ms += 10_000;
    time.sleeps.length = 0;
    for (let i = 0; i < 5; i++) await budget.take('discord:bot');
    expect(time.sleeps).toEqual([]);
    await budget.take('discord:bot');
    expect(time.sleeps).toHaveLength(1);
  });

  it('keeps each scope apart: the bot token and each webhook host', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = await backend.open({ now, sleep }, {});
    for (let i = 0; i < 5; i++) await budget.take('discord:bot');
    for (let i = 0; i < 5; i++) await budget.take('discord:webhook-host:discord.com');
    await budget.pause('discord:bot', 5_000);
    await budget.take('discord:webhook-host:canary.discord.com');
    expect(time.sleeps).toEqual([]);
  });

  it('holds every request of a paused scope until the pause ends, and a shorter pause never shortens it', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = await backend.open({ now, sleep }, {});
    const start = time.ms;
    await budget.pause('discord:bot', 3_000);
    await budget.pause('discord:bot', 1_000);
    await budget.take('discord:bot');
    expect(time.ms - start).toBe(3_000);
  });

  it('shares one bucket and one pause between two budgets on one store', async () => {
    const { time, now, sleep } = fakeTime();
    const shared = {};
    const one = await backend.open({ now, sleep }, shared);
    const two = await backend.open({ now, sleep }, shared);
    for (let i = 0; i < 5; i++) await one.take('discord:bot');
    const start = time.ms;
    await two.take('discord:bot');
    expect(time.ms - start).toBeCloseTo(20, 6);
    await one.pause('discord:bot', 2_000);
    const paused = time.ms;
    await two.take('discord:bot');
    expect(time.ms - paused).toBeGreaterThanOrEqual(2_000);
  });

  it('voids a turn already waited for when the other budget pauses the scope meanwhile', async () => {
    const { time, now } = fakeTime();
    const shared = {};
    const peer: { other?: OpenRateBudget } = {};
    // The waiting budget's sleep is where the other replica's global 429 lands.
    const sleep = async (ms: number) => {
      time.ms += ms;
      if (peer.other && time.ms < start + 1_000) await peer.other.pause('discord:bot', 4_000);
    };
    const waiting = await backend.open({ now, sleep }, shared);
    peer.other = await backend.open({ now, sleep: () => Promise.resolve() }, shared);
    for (let i = 0; i < 5; i++) await waiting.take('discord:bot');
    const start = time.ms;
    await waiting.take('discord:bot');
    // Its turn was 20 ms away; the pause, set then, ends 4 s after it.
    expect(time.ms - start).toBeGreaterThanOrEqual(4_020);
  });

  it('gives up waiting when the signal aborts', async () => {
    const { now } = fakeTime();
    const budget = await backend.open({ now, sleep: fakeTime().sleep }, {});
    await budget.pause('discord:bot', 60_000);
    await expect(budget.take('discord:bot', AbortSignal.abort(new Error('stopping')))).rejects.toThrow(
      'stopping',
    );
  });

  it('paces a Slack channel at its own pace, three at once then one a second, each channel apart', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = await backend.open({ now, sleep }, {});
    const start = time.ms;
    const at: Record<string, number[]> = { C1: [], C2: [] };
    for (let i = 0; i < 5; i++)
      for (const channel of ['C1', 'C2'] as const) {
        await slackPost(budget, channel);
        at[channel]!.push(time.ms - start);
      }
    // C2's first three went at once beside C1's; both then wait one second a post.
    expect(at).toEqual({ C1: [0, 0, 0, 1_000, 2_000], C2: [0, 0, 0, 1_000, 2_000] });
  });

  it("shares a Slack channel's pace between two budgets on one store", async () => {
    const { time, now, sleep } = fakeTime();
    const shared = {};
    const one = await backend.open({ now, sleep }, shared);
    const two = await backend.open({ now, sleep }, shared);
    const start = time.ms;
    const at: number[] = [];
    for (let i = 0; i < 6; i++) {
      await slackPost(i % 2 === 0 ? one : two, 'C1');
      at.push(time.ms - start);
    }
    expect(at).toEqual([0, 0, 0, 1_000, 2_000, 3_000]);
  });

  it("holds every channel's posts on both budgets for a workspace 429's Retry-After, and nothing of Discord's", async () => {
    const { time, now, sleep } = fakeTime();
    const shared = {};
    const one = await backend.open({ now, sleep }, shared);
    const two = await backend.open({ now, sleep }, shared);
    await one.pause(slackMethodScope(WORKSPACE, 'chat.postMessage'), 30_000);
    const start = time.ms;
    await two.take('discord:bot');
    expect(time.ms).toBe(start);
    await slackPost(two, 'C9');
    expect(time.ms - start).toBe(30_000);
    // Another workspace (another installation's token) is its own.
    await two.take(slackChannelScope('other', 'C9'), undefined, {
      pace: SLACK_POST_PACE,
      pausedBy: slackMethodScope('other', 'chat.postMessage'),
    });
    expect(time.ms - start).toBe(30_000);
  });

  it('reaches the invalid-request limit at its count, tells it once, and lets go when the window ends', async () => {
    const { time, now, sleep } = fakeTime();
    const told: number[] = [];
    const shared = {};
    const opts = { now, sleep, invalidLimit: 3, onLimitReached: (n: number) => void told.push(n) };
    const one = await backend.open(opts, shared);
    const two = await backend.open(opts, shared);
    await one.countInvalid();
    await two.countInvalid();
    expect(await one.invalidLimitReached()).toBe(false);
    time.ms += 60_000;
    await two.countInvalid();
    expect(await one.invalidLimitReached()).toBe(true);
    expect(await one.invalidLimitReached()).toBe(true);
    expect(await two.invalidLimitReached()).toBe(true);
    // Told once per budget that finds it (each replica logs it once).
    expect(told).toEqual(backend.name === 'memory' ? [3] : [3, 3]);
    // The window runs 10 minutes from its first invalid request.
    time.ms += INVALID_WINDOW_MS - 60_000 - 1;
    expect(await one.invalidLimitReached()).toBe(true);
    time.ms += 1;
    expect(await one.invalidLimitReached()).toBe(false);
    for (let i = 0; i < 3; i++) await one.countInvalid();
    expect(await one.invalidLimitReached()).toBe(true);
    expect(told.length).toBe(backend.name === 'memory' ? 2 : 3);
  });
});

describe('the rate budget in Redis, with Redis gone', () => {
  it("answers from this process's own budget and says so", async () => {
    const { now, sleep } = fakeTime();
    const failures: unknown[] = [];
    const budget = await createRedisRateBudget(REDIS_URL, {
      perSecond: 50,
      invalidLimit: 2,
      keyPrefix: `${prefix}gone:`,
      now,
      sleep,
      onRedisFailure: (err) => void failures.push(err),
    });
    await budget.close();
    await budget.take('discord:bot');
    await budget.countInvalid();
    await budget.countInvalid();
    expect(await budget.invalidLimitReached()).toBe(true);
    expect(failures.length).toBeGreaterThan(0);
  });
});
