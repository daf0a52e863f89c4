// The platforms' request budgets (src/domain/rate-budget.ts) in this process, or in Redis for every
// replica (rate-budget-redis.ts). Each scope is a token bucket (GCRA: it keeps the time its next
// token is free, so a waiter costs a reservation, not polls); the budget's own pace lets a tenth of a
// second's requests go at once, which leaves Discord's slack for requests that reach it late and
// bunched. rate-limiter-flexible's fixed windows let two windows' requests through back to back,
// which is not Discord's bucket.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { RateBudget, RatePace, RateScope } from '../domain/rate-budget.ts';

/** Discord counts invalid requests over 10 minutes (its ban: 10,000 in that time). */
export const INVALID_WINDOW_MS = 10 * 60_000;

export interface RateBudgetOptions {
  /** Requests a second per scope (DISCORD_GLOBAL_RATE_LIMIT, 50 unless Discord raised the bot's). */
  perSecond: number;
  /** Invalid requests in the window past which scheduled posting stops (DISCORD_INVALID_REQUEST_LIMIT). */
  invalidLimit: number;
  now?: () => number;
  /** Waits `ms` unless `signal` fires first (rejects then); tests pass one that moves a fake clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told once each time this process finds the invalid-request limit reached. */
  onLimitReached?: (count: number) => void;
}

export interface OpenRateBudget extends RateBudget {
  close(): Promise<void>;
}

/** A turn: its bucket (a token every `interval` ms, `tolerance` ms ahead at most), whose pause it waits out. */
interface Turn {
  interval: number;
  tolerance: number;
  pausedBy: RateScope;
}

/** What each backend does in one atomic step. */
export interface BudgetSteps {
  /** Reserves a turn in `scope`'s bucket, after `turn.pausedBy`'s pause: how long until it (0: now). */
  reserve(scope: RateScope, t: number, turn: Turn): Promise<number>;
  /** How long `scope` is still paused (0: not). */
  pausedFor(scope: RateScope, t: number): Promise<number>;
  pause(scope: RateScope, t: number, ms: number): Promise<void>;
  countInvalid(t: number): Promise<void>;
  /** Invalid requests counted in the window running at `t` (0 when none runs). */
  invalidCount(t: number): Promise<number>;
}

/** Waits `ms` unless `signal` fires first (rejects then): the budget's and the deliverer's own sleep. */
export const sleepUnlessAborted = (ms: number, signal?: AbortSignal) =>
  sleepFor<void>(ms, undefined, { signal });

/** The budget on `steps`: a turn waited for, a pause read again at the turn, the limit told once. */
export function budgetOn(steps: BudgetSteps, opts: RateBudgetOptions): RateBudget {
  const { now = Date.now, sleep = sleepUnlessAborted } = opts;
  const ownPace: RatePace = { perSecond: opts.perSecond, burst: Math.ceil(opts.perSecond * 0.1) };
  let wasReached = false;
  return {
    async take(scope, signal, turnOpts = {}) {
      // `burst` requests at once (all but the first ahead of time), then `perSecond`.
      const { perSecond, burst } = turnOpts.pace ?? ownPace;
      const interval = 1000 / perSecond;
      const tolerance = (Math.max(1, burst) - 1) * interval;
      const turn = { interval, tolerance, pausedBy: turnOpts.pausedBy ?? scope };
      for (;;) {
        signal?.throwIfAborted();
        const waitMs = await steps.reserve(scope, now(), turn);
        if (waitMs <= 0) return;
        await sleep(waitMs, signal);
        // A pause set while this request waited (a 429 on any replica) voids its turn.
        if ((await steps.pausedFor(turn.pausedBy, now())) <= 0) return;
      }
    },
    pause: (scope, ms) => (ms > 0 ? steps.pause(scope, now(), ms) : Promise.resolve()),
    countInvalid: () => steps.countInvalid(now()),
    async invalidLimitReached() {
      const count = await steps.invalidCount(now());
      const isReached = count >= opts.invalidLimit;
      if (isReached && !wasReached) opts.onLimitReached?.(count);
      wasReached = isReached;
      return isReached;
    },
  };
}

/** Buckets kept in memory: a bucket whose time has passed is as none, so the oldest go first. */
const BUCKETS_KEPT = 10_000;

export function memorySteps(): BudgetSteps {
  const buckets = new Map<RateScope, number>();
  const pauses = new Map<RateScope, number>();
  let invalid = { start: -Infinity, count: 0 };
  return {
    // One request's turn, from the bucket's next free time and the pause's end (the Redis script is the same).
    reserve(scope, t, { interval, tolerance, pausedBy }) {
      const start = Math.max(t, pauses.get(pausedBy) ?? 0);
      const due = Math.max(buckets.get(scope) ?? 0, start);
      buckets.delete(scope);
      if (buckets.size >= BUCKETS_KEPT) buckets.delete(buckets.keys().next().value ?? '');
      buckets.set(scope, due + interval);
      return Promise.resolve(Math.max(start, due - tolerance) - t);
    },
    pausedFor: (scope, t) => Promise.resolve(Math.max(0, (pauses.get(scope) ?? 0) - t)),
    pause(scope, t, ms) {
      pauses.set(scope, Math.max(pauses.get(scope) ?? 0, t + ms));
      return Promise.resolve();
    },
    countInvalid(t) {
      if (t >= invalid.start + INVALID_WINDOW_MS) invalid = { start: t, count: 0 };
      invalid.count++;
      return Promise.resolve();
    },
    invalidCount: (t) => Promise.resolve(t < invalid.start + INVALID_WINDOW_MS ? invalid.count : 0),
  };
}

export function createMemoryRateBudget(opts: RateBudgetOptions): OpenRateBudget {
  return { ...budgetOn(memorySteps(), opts), close: () => Promise.resolve() };
}

/** Steps that use `fallback` whenever `primary` fails (Redis down): a budget in this process then. */
export function withFallback(
  primary: BudgetSteps,
  fallback: BudgetSteps,
  onFailure?: (err: unknown) => void,
): BudgetSteps {
  const attempt = async <R>(step: (s: BudgetSteps) => Promise<R>): Promise<R> => {
    try {
      return await step(primary);
    } catch (err) {
      onFailure?.(err);
      return step(fallback);
    }
  };
  return {
    reserve: (scope, t, turn) => attempt((s) => s.reserve(scope, t, turn)),
    pausedFor: (scope, t) => attempt((s) => s.pausedFor(scope, t)),
    pause: (scope, t, ms) => attempt((s) => s.pause(scope, t, ms)),
    countInvalid: (t) => attempt((s) => s.countInvalid(t)),
    invalidCount: (t) => attempt((s) => s.invalidCount(t)),
  };
}
