// Adzuna's quotas (25 a minute, 250 a day, 1,000 a week, 2,500 a month) are all
// enforced, shared across replicas through Redis, and a refusal says when the next call is possible.
import { Redis } from 'ioredis';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceError, userMessageFor } from '../../src/errors.ts';
import { createHttpClient, type HttpClient, type QuotaStore } from '../../src/http/client.ts';
import {
  createProviderQuota,
  PROVIDER_QUOTAS,
  windowEnd,
  windowStart,
} from '../../src/http/provider-quota.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const Page = z.looseObject({ count: z.number() });
const ADZUNA = PROVIDER_QUOTAS.jobSearch!;
/** Tuesday 24 November 2026, 10:00:30 UTC. */
const START = Date.UTC(2026, 10, 24, 10, 0, 30);

let server: SandboxServer;
const prefix = testKeyPrefix();
let redis: Redis;

beforeAll(async () => {
  server = await startFake([
    http.get('*/jobs/gb/search/:page', () => HttpResponse.json({ count: 3, mean: 1 })),
  ]);
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await server.close();
  await redis.quit();
  await deleteKeys(prefix);
});
afterEach(() => {
  server.requests.length = 0;
});

function adzuna(clock: { now: number }, quotaStore?: QuotaStore, providerRateLimit = true): HttpClient {
  return createHttpClient({
    service: 'jobSearch',
    baseUrl: `${server.url}/jobs`,
    options: { providerRateLimit, retryBaseMs: 1 },
    now: () => clock.now,
    ...(quotaStore ? { quotaStore } : {}),
  });
}

let page = 0;
/** One search; a new page each time, so that no answer comes from the cache or a shared request. */
function search(c: HttpClient) {
  page += 1;
  return c.send(
    { service: 'jobSearch', operation: 'search', method: 'GET', path: `/gb/search/${page}` },
    Page,
  );
}

async function refusal(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

describe('calendar windows', () => {
  it.each([
    ['minute', '2026-11-24T10:00:00.000Z', '2026-11-24T10:01:00.000Z'],
    ['day', '2026-11-24T00:00:00.000Z', '2026-11-25T00:00:00.000Z'],
    ['week', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ['month', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
  ] as const)('a %s runs in UTC from %s to %s', (per, start, end) => {
    expect(windowStart(per, new Date(START)).toISOString()).toBe(start);
    expect(windowEnd(per, new Date(START)).toISOString()).toBe(end);
  });

  it('starts a week on Monday even on a Sunday, and a month ends across a year', () => {
    const sunday = new Date(Date.UTC(2026, 10, 29, 23, 59));
    expect(windowStart('week', sunday).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(windowEnd('month', new Date(Date.UTC(2026, 11, 31, 23))).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
});

describe("Adzuna's quotas through the real client", () => {
  it('sends 25 calls in a minute, refuses the 26th without sending it, and says when to try again', async () => {
    const clock = { now: START };
    const c = adzuna(clock);
    for (let i = 0; i < 25; i++) await search(c);
    const err = await refusal(search(c));
    expect(server.requests).toHaveLength(25);
    expect(err.code).toBe('rate_limited');
    expect(err.quota).toMatchObject({ limit: 25, per: 'minute' });
    expect(err.retryAfterMs).toBe(30_000);
    expect(userMessageFor(err)).toBe(
      'The job search service allows herald 25 calls a minute, all used; the next is possible in 30 seconds.',
    );
    // Refused calls spend nothing, and the breaker does not count them.
    expect((await refusal(search(c))).code).toBe('rate_limited');
    expect(c.health().breaker).toBe('closed');
    clock.now = START + 30_000;
    await search(c);
    expect(server.requests).toHaveLength(26);
    await c.close();
  });

  it('refuses the 251st call of a UTC day until midnight, in one sentence', async () => {
    const clock = { now: START };
    const c = adzuna(clock);
    for (let i = 0; i < 250; i++) {
      await search(c);
      clock.now += 3_000; // 20 a minute: the minute quota never bites
    }
    const err = await refusal(search(c));
    expect(server.requests).toHaveLength(250);
    expect(err.quota).toMatchObject({ limit: 250, per: 'day' });
    expect(userMessageFor(err)).toBe(
      'The job search service allows herald 250 calls a day, all used; the next is possible on 25 Nov 2026, 00:00 UTC.',
    );
    clock.now = Date.UTC(2026, 10, 25);
    await search(c);
    expect(server.requests).toHaveLength(251);
    await c.close();
  });

  it('has no quota for the simulator (providerRateLimit off)', async () => {
    const c = adzuna({ now: START }, undefined, false);
    for (let i = 0; i < 30; i++) await search(c);
    expect(server.requests).toHaveLength(30);
    await c.close();
  });
});

describe("Adzuna's week and month", () => {
  /** Spends `calls` a day, 20 a minute, from `day` on; returns the first refusal. */
  async function spend(take: () => Promise<unknown>, clock: { now: number }, perDay: number, days: number) {
    for (let d = 0; d < days; d++) {
      const morning = windowStart('day', new Date(clock.now)).getTime() + 8 * 3_600_000;
      for (let i = 0; i < perDay; i++) {
        clock.now = morning + i * 3_000;
        expect(await take()).toBeUndefined();
      }
      clock.now = morning + 86_400_000;
    }
  }

  it('refuses the 1,001st call of an ISO week until Monday, though the day has room', async () => {
    const clock = { now: Date.UTC(2026, 10, 23) };
    const quota = createProviderQuota({ service: 'jobSearch', limits: ADZUNA, now: () => clock.now });
    await spend(() => quota.take(), clock, 250, 4); // Monday to Thursday
    expect(await quota.take()).toEqual({
      limit: 1_000,
      per: 'week',
      nextAt: new Date('2026-11-30T00:00:00.000Z'),
    });
    clock.now = Date.UTC(2026, 10, 30, 8);
    expect(await quota.take()).toBeUndefined();
  });

  it('refuses the 2,501st call of a month until the first, and names the window that frees up last', async () => {
    const clock = { now: Date.UTC(2026, 9, 5) }; // Monday 5 October
    const quota = createProviderQuota({ service: 'jobSearch', limits: ADZUNA, now: () => clock.now });
    for (let week = 0; week < 2; week++) {
      await spend(() => quota.take(), clock, 250, 4);
      clock.now = windowEnd('week', new Date(clock.now)).getTime();
    }
    await spend(() => quota.take(), clock, 250, 1);
    // Tuesday of the third week: its 250 calls fill the day and the month at once.
    for (let i = 0; i < 250; i++) {
      expect(await quota.take()).toBeUndefined();
      clock.now += 3_000;
    }
    const refused = await quota.take();
    expect(refused).toEqual({ limit: 2_500, per: 'month', nextAt: new Date('2026-11-01T00:00:00.000Z') });
    clock.now = Date.UTC(2026, 10, 2, 8);
    expect(await quota.take()).toBeUndefined();
  }, 20_000);
});

describe("Adzuna's quotas shared by two replicas through Redis", () => {
  it('lets two replicas together make 25 calls a minute and 250 a day, not each', async () => {
    const clock = { now: START };
    const store = { redis, prefix: `${prefix}shared:` };
    const a = adzuna(clock, store);
    const b = adzuna(clock, store);
    for (let i = 0; i < 15; i++) await search(a);
    for (let i = 0; i < 10; i++) await search(b);
    const fromA = await refusal(search(a));
    const fromB = await refusal(search(b));
    expect(server.requests).toHaveLength(25);
    expect([fromA.quota?.per, fromB.quota?.per]).toEqual(['minute', 'minute']);

    // The rest of the day, alternating replicas at 20 calls a minute.
    clock.now = START + 60_000;
    for (let i = 25; i < 250; i++) {
      await search(i % 2 === 0 ? a : b);
      clock.now += 3_000;
    }
    expect((await refusal(search(a))).quota?.per).toBe('day');
    expect((await refusal(search(b))).quota?.per).toBe('day');
    expect(server.requests).toHaveLength(250);
    await Promise.all([a.close(), b.close()]);
  }, 20_000);

  it('keeps counting in memory when Redis is down, rather than failing every call', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const clock = { now: START };
    const c = adzuna(clock, { redis: down, prefix: `${prefix}down:` });
    for (let i = 0; i < 25; i++) await search(c);
    expect((await refusal(search(c))).quota?.per).toBe('minute');
    expect(server.requests).toHaveLength(25);
    await c.close();
    down.disconnect();
  });
});
