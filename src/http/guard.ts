// Upstream protection for one service: a concurrency limit, the provider's rate limit
// (rate-limiter-flexible: in memory, or in Redis so that every replica spends one plan), and a
// circuit breaker so that a dead upstream answers fast instead of stacking timeouts. The breaker is
// a consecutive-failure counter (a library such as opossum wraps one function with its own timeout
// and fallback, which our client already owns).
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RateQuotaError, type ServiceName } from '../errors.ts';
import { RateLimiterRes } from './limiter-classes.ts';
import { createCounter } from './provider-quota.ts';

export interface RateLimit {
  /** At most this many requests start in one window of `durationS` seconds. */
  points: number;
  durationS: number;
}

/**
 * The providers' free tiers, applied to real upstreams, not the simulator. A paid plan sets its
 * own per minute (`rateLimitPerMinute`). Adzuna's limits are calendar quotas, refused rather than
 * waited for (provider-quota.ts).
 */
const PROVIDER_RATE_LIMITS: Readonly<Partial<Record<ServiceName, RateLimit>>> = {
  email: { points: 2, durationS: 1 },
  weather: { points: 60, durationS: 60 },
  geocoding: { points: 600, durationS: 60 },
  hostscan: { points: 1, durationS: 1 },
  webhook: { points: 5, durationS: 2 },
};

/** The plan's rate when one is configured per minute, else the free tier's. */
export function rateLimitFor(service: ServiceName, perMinute: number | undefined): RateLimit | undefined {
  return perMinute === undefined ? PROVIDER_RATE_LIMITS[service] : { points: perMinute, durationS: 60 };
}

interface BreakerOptions {
  /** Consecutive failed attempts (network, timeout, 5xx) that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one trial request is let through. */
  cooldownMs: number;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface Breaker {
  /** undefined when a request may go; else the ms until the circuit lets one through. */
  blockedForMs(): number | undefined;
  success(): void;
  failure(): void;
  /** The request ended telling nothing about the upstream: a half-open trial may be tried again. */
  release(): void;
  state(): BreakerState;
}

export function createBreaker(opts: BreakerOptions, now: () => number = Date.now): Breaker {
  let failures = 0;
  let openedAt: number | undefined;
  let trialInFlight = false;
  return {
    blockedForMs() {
      if (openedAt === undefined) return undefined;
      const remaining = openedAt + opts.cooldownMs - now();
      if (remaining > 0) return remaining;
      if (trialInFlight) return 1_000;
      trialInFlight = true; // half-open: exactly one trial
      return undefined;
    },
    success() {
      failures = 0;
      openedAt = undefined;
      trialInFlight = false;
    },
    failure() {
      failures++;
      if (trialInFlight || failures >= opts.failureThreshold) {
        openedAt = now();
        trialInFlight = false;
      }
    },
    release() {
      trialInFlight = false;
    },
    state() {
      if (openedAt === undefined) return 'closed';
      return openedAt + opts.cooldownMs - now() > 0 ? 'open' : 'half-open';
    },
  };
}

export interface Limiter {
  run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T>;
  /** Requests waiting for a slot. */
  pending(): number;
}

/**
 * At most `maxConcurrent` requests in flight; the others wait in arrival order, and a waiter leaves
 * the queue when its signal fires. A counter and a list of waiters rather than p-queue: every
 * request of every client passes here, nearly always with a slot free, and p-queue costs several
 * times more CPU and garbage on each task even then (its events, options copy, async context and
 * abort race; bench/client-steps.ts, "the concurrency limit, a slot free"; docs/PERFORMANCE.md).
 */
export function createLimiter(opts: { maxConcurrent: number }): Limiter {
  let running = 0;
  // Insertion-ordered: the first is the longest waiting; an abort deletes its own at once.
  const waiting = new Set<() => void>();
  const release = (): void => {
    const next = waiting.size === 0 ? undefined : waiting.values().next().value;
    if (next === undefined) {
      running--;
      return;
    }
    // The slot passes straight to the longest waiting: `running` stays as it is.
    waiting.delete(next);
    next();
  };
  const slot = (signal: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      const onAbort = (): void => {
        waiting.delete(start);
        const reason: unknown = signal.reason;
        reject(reason instanceof Error ? reason : new Error(String(reason)));
      };
      const start = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      waiting.add(start);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  return {
    async run(task, signal) {
      signal.throwIfAborted();
      if (running < opts.maxConcurrent && waiting.size === 0) running++;
      else await slot(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
    pending: () => waiting.size,
  };
}

export interface ProviderRate {
  /**
   * Takes one request of the rate, waiting for the next window while the request's deadline allows;
   * a RateQuotaError when the window's requests are used up past it.
   */
  take(operation: string, signal: AbortSignal): Promise<void>;
}

export function createProviderRate(opts: {
  service: ServiceName;
  rate: RateLimit;
  /** Counts in Redis when given, so that replicas share one plan. */
  redis?: Redis | undefined;
  /** Redis key prefix; tests give each file its own. */
  prefix?: string | undefined;
  /** The upstream's address: each webhook (or other upstream) has its own count. */
  baseUrl: string;
  /** The longest wait worth starting: the whole-request deadline. */
  maxWaitMs: number;
  wait?: (ms: number, signal: AbortSignal) => Promise<unknown>;
}): ProviderRate {
  const { service, rate } = opts;
  // The address may hold a credential (a webhook token): the key holds a digest of it.
  const upstream = createHash('sha256').update(opts.baseUrl).digest('hex').slice(0, 16);
  const keyPrefix = `${opts.prefix ?? 'herald:quota:'}rate:${service}`;
  const limiter = createCounter({
    points: rate.points,
    durationS: rate.durationS,
    keyPrefix,
    redis: opts.redis,
  });
  const wait = opts.wait ?? ((ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }));
  const usedUp = (operation: string, retryAfterMs: number) =>
    new RateQuotaError({
      service,
      operation,
      limit: rate.points,
      window: rate.durationS >= 60 ? 'minute' : 'second',
      retryAfterMs,
    });
  return {
    async take(operation, signal) {
      for (;;) {
        try {
          await limiter.consume(upstream, 1);
          return;
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) throw err;
          if (err.msBeforeNext >= opts.maxWaitMs) throw usedUp(operation, err.msBeforeNext);
          try {
            await wait(err.msBeforeNext, signal);
          } catch {
            throw usedUp(operation, err.msBeforeNext);
          }
        }
      }
    },
  };
}
