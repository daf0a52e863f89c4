// Discord's budgets in the outbox's delivery (src/store/rate-budget*.ts, src/schedule/delivery.ts),
// with the store and the budget in memory (one process) and in Redis (two replicas): a global 429
// answered to one replica holds the other's requests of that token or webhook host for its
// retry_after; Discord's invalid-request safety limit stops scheduled posts to Discord (Slack's go
// on) with one log line, until its window ends. Real clients post to loopback fakes answering as
// Discord and Slack do; every sleep moves a fake clock.
import { describe, expect, it } from 'vitest';
import { rateBudgetHooks } from '../../src/app.ts';
import { createMetrics } from '../../src/metrics.ts';
import {
  createMemoryRateBudget,
  INVALID_WINDOW_MS,
  type OpenRateBudget,
} from '../../src/store/rate-budget.ts';
import { createRedisRateBudget } from '../../src/store/rate-budget-redis.ts';
import { captureLog, fakeSleep } from '../jobs/harness.ts';
import { REDIS_URL } from '../support/redis.ts';
import { bucketHeaders, CHANNELS, outboxWorld, type Scripted } from './outbox-world.ts';

const { backends, scripted, arrivals, clock, replica, post, open } = outboxWorld('herald-budget-', () =>
  bucketHeaders(clock, 4, 2),
);

/** Discord's global 429 (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit). */
const global429 = (retryAfterS: number): Scripted => ({
  status: 429,
  body: { message: 'You are being rate limited.', retry_after: retryAfterS, global: true },
  headers: {
    'retry-after': String(Math.ceil(retryAfterS)),
    'x-ratelimit-global': 'true',
    'x-ratelimit-scope': 'global',
  },
});
/** Discord's 403 Missing Permissions: an invalid request. */
const missingPermissions: Scripted = {
  status: 403,
  body: { message: 'Missing Permissions', code: 50013 },
  headers: {},
};
const sharedLimit: Scripted = {
  status: 429,
  body: { message: 'The resource is being rate limited.', retry_after: 0.5, global: false },
  headers: { ...bucketHeaders(clock, 0, 0.5), 'retry-after': '1', 'x-ratelimit-scope': 'shared' },
};

/** Budgets as the store's backend opens them: one in the process (memory), or each replica's on one Redis. */
function budgetsFor(
  name: string,
  limits: { invalidLimit?: number } = {},
  onLimitReached?: (n: number) => void,
) {
  const { sleeps, sleep } = fakeSleep((ms) => clock.advance(ms));
  const opts = {
    perSecond: 50,
    invalidLimit: limits.invalidLimit ?? 1_000,
    now: clock.nowMs,
    sleep,
    ...(onLimitReached ? { onLimitReached } : {}),
  };
  const keyPrefix = `herald:test-budget-${Math.random().toString(36).slice(2)}:`;
  const memory = name === 'memory' ? createMemoryRateBudget(opts) : undefined;
  const opened: OpenRateBudget[] = [];
  return {
    sleeps,
    async budget(): Promise<OpenRateBudget> {
      const budget = memory ?? (await createRedisRateBudget(REDIS_URL, { ...opts, keyPrefix }));
      opened.push(budget);
      return budget;
    },
    close: () => Promise.all(opened.map((b) => b.close())),
  };
}

const shared = backends.filter((b) => b.name !== 'node:sqlite');

describe.each(shared)("Discord's budget in the delivery, $name", (backend) => {
  it("holds the other replica's webhooks of the same host for a webhook's global 429", async () => {
    const store = await open(backend);
    const budgets = budgetsFor(backend.name);
    const one = replica(store, { rateBudget: await budgets.budget() });
    const two = replica(store, { rateBudget: await budgets.budget() });
    scripted.push(global429(30));
    await post(store, 'default', 'answered 429');
    const at = clock.ms;
    expect((await one.deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    await post(store, 'ops', 'another webhook, other replica');
    // The other replica's post waits its turn for the 30 s (its sleep moves the clock), then goes;
    // the post answered 429 is due by then, and follows.
    await two.deliverer.drain();
    expect(arrivals.map((a) => a.content)).toEqual(['another webhook, other replica', 'answered 429']);
    expect(arrivals[0]!.at).toBeGreaterThanOrEqual(at + 30_000);
    await budgets.close();
  });

  it("holds the other replica's channel posts for the bot token's global 429, and not the webhooks", async () => {
    const store = await open(backend);
    const budgets = budgetsFor(backend.name);
    const one = replica(store, { rateBudget: await budgets.budget() });
    const two = replica(store, { rateBudget: await budgets.budget() });
    scripted.push(global429(30));
    await post(store, `channel:discord:${CHANNELS[0]}`, 'answered 429');
    const at = clock.ms;
    await one.deliverer.drain();
    await post(store, 'ops', 'a webhook');
    await two.deliverer.drain();
    expect(arrivals.map((a) => [a.content, a.at - at < 30_000])).toEqual([['a webhook', true]]);
    await post(store, `channel:discord:${CHANNELS[1]}`, 'same token, other replica');
    await two.deliverer.drain();
    expect(arrivals).toHaveLength(1);
    clock.advance(30_000);
    await two.deliverer.drain();
    expect(arrivals.map((a) => a.content).sort()).toEqual([
      'a webhook',
      'answered 429',
      'same token, other replica',
    ]);
    expect(arrivals[1]!.at).toBeGreaterThanOrEqual(at + 30_000);
    await budgets.close();
  });

  it('stops scheduled posts to Discord past the invalid-request limit, logged once, until the window ends', async () => {
    const store = await open(backend);
    const { log, lines } = captureLog();
    // As src/main.ts wires it: each stop told is counted in herald's metrics too.
    const metrics = createMetrics({ defaultMetrics: false });
    const hooks = rateBudgetHooks({ discordBudget: { perSecond: 50, invalidLimit: 2 } }, log, () =>
      metrics.postingStopped('discord_invalid_requests'),
    );
    const budgets = budgetsFor(backend.name, { invalidLimit: 2 }, hooks.onLimitReached);
    const one = replica(store, { rateBudget: await budgets.budget(), log });
    const two = replica(store, { rateBudget: await budgets.budget(), log });
    // A shared-scope 429 is no invalid request; two 403s are.
    scripted.push(sharedLimit, missingPermissions, missingPermissions);
    await post(store, `channel:discord:${CHANNELS[0]}`, 'refused once');
    await post(store, `channel:discord:${CHANNELS[1]}`, 'refused twice');
    await one.deliverer.drain();
    expect(arrivals).toEqual([]);

    await post(store, 'default', 'a webhook post');
    await post(store, `channel:discord:${CHANNELS[0]}`, 'a channel post');
    await post(store, `channel:slack:C0HERALD01`, 'a Slack post');
    const first = await two.deliverer.drain();
    await one.deliverer.drain({ includeBackingOff: true });
    expect(arrivals.map((a) => a.content)).toEqual(['a Slack post']);
    expect(first.filter((r) => r.outcome !== 'delivered').map((r) => r.failure?.reason)).toEqual([
      expect.stringContaining("Discord's invalid-request safety limit is reached"),
      expect.stringContaining("Discord's invalid-request safety limit is reached"),
    ]);
    const told = lines.filter((l) => String(l.msg).includes('invalid-request safety limit is reached'));
    // Once per budget that found it: the one in memory, or each replica's own on Redis.
    expect(told).toHaveLength(backend.name === 'memory' ? 1 : 2);
    expect(told[0]).toMatchObject({ count: 2, limit: 2 });
    expect(await metrics.registry.metrics()).toContain(
      `herald_scheduled_posting_stopped_total{reason="discord_invalid_requests"} ${told.length}`,
    );

    clock.advance(INVALID_WINDOW_MS);
    await two.deliverer.drain({ includeBackingOff: true });
    expect(arrivals.map((a) => a.content).sort()).toEqual([
      'a Slack post',
      'a channel post',
      'a webhook post',
    ]);
    await budgets.close();
  });
});
