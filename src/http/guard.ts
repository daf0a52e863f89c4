// Upstream protection for one service: a concurrency limit and the provider's documented rate
// limit, both by queueing (p-queue), and a circuit breaker so that a dead upstream answers fast
// instead of stacking timeouts. The breaker is a consecutive-failure counter (a library such as
// opossum wraps one function with its own timeout and fallback, which our client already owns).
import PQueue from 'p-queue';
import type { ServiceName } from '../errors.ts';

export interface RateLimit {
  /** At most this many requests start in any window of intervalMs (sliding). */
  intervalCap: number;
  intervalMs: number;
}

/**
 * Documented provider limits (API-NOTES.md), applied to real upstreams, not the simulator, as a
 * queue. Adzuna's limits are calendar quotas, refused rather than queued (quota.ts).
 */
export const PROVIDER_RATE_LIMITS: Readonly<Partial<Record<ServiceName, RateLimit>>> = {
  email: { intervalCap: 2, intervalMs: 1_000 },
  weather: { intervalCap: 60, intervalMs: 60_000 },
  geocoding: { intervalCap: 600, intervalMs: 60_000 },
  hostscan: { intervalCap: 1, intervalMs: 1_000 },
  webhook: { intervalCap: 5, intervalMs: 2_000 },
};

export interface BreakerOptions {
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
 * The concurrency limit alone (no provider rate): a counter and a FIFO of waiters, so the happy
 * path (a free slot) allocates nothing (issue 16). A waiter leaves the queue when its signal fires.
 */
function createSemaphore(maxConcurrent: number): Limiter {
  let active = 0;
  const waiting = new Set<() => void>();
  // A finished task hands its slot to the first waiter, or frees it.
  const release = () => {
    const first = waiting.values().next();
    if (first.done) active--;
    else {
      waiting.delete(first.value);
      first.value();
    }
  };
  const slot = (signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        waiting.delete(go);
        reject(signal.reason as Error);
      };
      const go = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      waiting.add(go);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  return {
    async run(task, signal) {
      signal.throwIfAborted();
      if (active < maxConcurrent) active++;
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

export function createLimiter(opts: { maxConcurrent: number; rate?: RateLimit | undefined }): Limiter {
  if (!opts.rate) return createSemaphore(opts.maxConcurrent);
  const queue = new PQueue({
    concurrency: opts.maxConcurrent,
    intervalCap: opts.rate.intervalCap,
    interval: opts.rate.intervalMs,
    strict: true,
  });
  return {
    run: (task, signal) => queue.add(task, { signal }),
    pending: () => queue.size,
  };
}
