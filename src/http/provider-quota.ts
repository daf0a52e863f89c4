// Providers' call quotas over calendar windows (UTC minute, day, ISO week, month), counted with
// rate-limiter-flexible: in Redis when one is given, so that every replica spends one budget, and
// in memory otherwise (and as Redis' insurance while it is down, as src/user-limits.ts does).
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { QuotaExhausted, QuotaWindow, ServiceName } from '../errors.ts';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from './limiter-classes.ts';

interface QuotaLimit {
  limit: number;
  per: QuotaWindow;
}

/**
 * Adzuna's terms of service: 25 calls a minute, 250 a day, 1,000 a week and
 * 2,500 a month. Applied to the real provider only, like PROVIDER_RATE_LIMITS.
 */
export const PROVIDER_QUOTAS: Readonly<Partial<Record<ServiceName, readonly QuotaLimit[]>>> = {
  jobSearch: [
    { limit: 25, per: 'minute' },
    { limit: 250, per: 'day' },
    { limit: 1_000, per: 'week' },
    { limit: 2_500, per: 'month' },
  ],
};

const DAY_MS = 86_400_000;

/** The UTC start of the window that holds `at` (weeks start on Monday, as ISO 8601's). */
export function windowStart(per: QuotaWindow, at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  switch (per) {
    case 'minute':
      return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
    case 'day':
      return new Date(Date.UTC(y, m, d));
    case 'week':
      return new Date(Date.UTC(y, m, d) - ((at.getUTCDay() + 6) % 7) * DAY_MS);
    case 'month':
      return new Date(Date.UTC(y, m, 1));
  }
}

/** The start of the next window: when a call refused in this one becomes possible. */
export function windowEnd(per: QuotaWindow, at: Date): Date {
  const start = windowStart(per, at);
  switch (per) {
    case 'minute':
      return new Date(start.getTime() + 60_000);
    case 'day':
      return new Date(start.getTime() + DAY_MS);
    case 'week':
      return new Date(start.getTime() + 7 * DAY_MS);
    case 'month':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  }
}

/** Key lifetimes: a little longer than the window, so a key outlives it and then goes. */
const KEEP_S: Readonly<Record<QuotaWindow, number>> = {
  minute: 120,
  day: 2 * 86_400,
  week: 8 * 86_400,
  month: 32 * 86_400,
};
// Node's timers cannot wait more than 24.8 days, and a longer memory expiry fires at once: the
// in-memory month count never expires instead (one small record per calendar month).
const MAX_MEMORY_KEEP_S = 20 * 86_400;

export interface ProviderQuota {
  /** Spends one call in every window, or spends nothing and says which window is used up. */
  take(): Promise<QuotaExhausted | undefined>;
}

interface Counter {
  quota: QuotaLimit;
  limiter: RateLimiterAbstract;
}

/**
 * `points` per window of `durationS`: counted in Redis when one is given, so that every replica
 * spends one budget, with an in-memory count standing in while Redis is down; in memory otherwise.
 * `memoryDurationS`: the in-memory count's window where it differs (0: it never expires).
 */
export function createCounter(opts: {
  points: number;
  durationS: number;
  keyPrefix: string;
  redis: Redis | undefined;
  memoryDurationS?: number;
}): RateLimiterAbstract {
  const { points, durationS, keyPrefix, redis } = opts;
  const memory = new RateLimiterMemory({ points, duration: opts.memoryDurationS ?? durationS, keyPrefix });
  return redis
    ? new RateLimiterRedis({
        storeClient: redis,
        points,
        duration: durationS,
        keyPrefix,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
    : memory;
}

function counterFor(quota: QuotaLimit, keyPrefix: string, redis: Redis | undefined): Counter {
  const keep = KEEP_S[quota.per];
  const memoryDurationS = keep > MAX_MEMORY_KEEP_S ? 0 : keep;
  return {
    quota,
    limiter: createCounter({ points: quota.limit, durationS: keep, keyPrefix, redis, memoryDurationS }),
  };
}

export function createProviderQuota(opts: {
  service: ServiceName;
  limits: readonly QuotaLimit[];
  redis?: Redis | undefined;
  now?: () => number;
  /** Redis key prefix; tests give each file its own. */
  prefix?: string;
}): ProviderQuota {
  const now = opts.now ?? Date.now;
  const prefix = opts.prefix ?? 'herald:quota:';
  const counters = opts.limits.map((q) => counterFor(q, `${prefix}${opts.service}:${q.per}`, opts.redis));
  const keyOf = (c: Counter, at: Date) => windowStart(c.quota.per, at).toISOString();

  /** Of the windows from `from` on, the used-up one that frees up last. */
  async function latestExhausted(from: number, at: Date): Promise<QuotaExhausted> {
    let worst: QuotaExhausted | undefined;
    for (const c of counters.slice(from)) {
      const state = await c.limiter.get(keyOf(c, at));
      if (c !== counters[from] && (state?.consumedPoints ?? 0) < c.quota.limit) continue;
      const nextAt = windowEnd(c.quota.per, at);
      if (!worst || nextAt > worst.nextAt) worst = { ...c.quota, nextAt };
    }
    return worst!;
  }

  return {
    async take() {
      const at = new Date(now());
      const taken: Counter[] = [];
      const giveBack = (list: Counter[]) => Promise.all(list.map((c) => c.limiter.reward(keyOf(c, at), 1)));
      for (const [i, c] of counters.entries()) {
        try {
          await c.limiter.consume(keyOf(c, at), 1);
          taken.push(c);
        } catch (err) {
          // A refused call is counted too: give it back, with the windows already spent.
          await giveBack(err instanceof RateLimiterRes ? [...taken, c] : taken);
          if (!(err instanceof RateLimiterRes)) throw err;
          return latestExhausted(i, at);
        }
      }
      return undefined;
    },
  };
}
