// The platforms' request budgets (src/domain/rate-budget.ts) as herald keeps them: in this process
// (one replica, and the SQLite store's), or in Redis for every replica (rate-budget-redis.ts). Each
// scope is a token bucket. At the budget's own pace (Discord's), `perSecond` requests a second
// holding a tenth of a second's requests (5 at 50 a second); a turn may bring its own pace (a Slack
// channel's: SLACK_POST_PACE) and name the scope whose pause it waits out (the Slack workspace's
// chat.postMessage). Discord documents the number, not how it counts
// (https://discord.com/developers/docs/topics/rate-limits): a small bucket leaves Discord's own
// nine tenths of a second of slack for requests that reach it late and bunched (a busy event loop,
// the network), and costs a burst nothing but its first tenth of a second.
// A request takes its turn at once (the bucket keeps the time its next token is free, GCRA), so a
// thousand waiters cost a thousand reservations, not a thousand polls; a pause set meanwhile is
// read again when the turn comes. Invalid requests are counted in a fixed 10-minute window from
// the first one; past the limit, scheduled posting stops until the window ends.
// rate-limiter-flexible counts fixed windows, which let two windows' requests through back to back
// (twice the limit in a moment): not Discord's bucket, so the arithmetic is herald's own.
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
  /**
   * Told once each time this process finds the invalid-request limit reached (a log line, a
   * metric), and not again until a window in which it is not.
   */
  onLimitReached?: (count: number) => void;
}

/** A budget herald opened, closed with the store. */
export interface OpenRateBudget extends RateBudget {
  close(): Promise<void>;
}

/** The bucket's arithmetic: one token every `interval` ms, `tolerance` ms of them ahead at most. */
interface BucketShape {
  interval: number;
  tolerance: number;
}

/** How much of a second's requests may go at once. */
const BURST_SECONDS = 0.1;

function bucketShape(perSecond: number): BucketShape {
  return paceShape({ perSecond, burst: Math.max(1, Math.ceil(perSecond * BURST_SECONDS)) });
}

/** A pace as a bucket: `burst` requests at once (all but the first ahead of time), then its rate. */
function paceShape({ perSecond, burst }: RatePace): BucketShape {
  const interval = 1000 / perSecond;
  return { interval, tolerance: (Math.max(1, burst) - 1) * interval };
}

/** One turn as a step sees it: the bucket's shape and the scope whose pause it waits out. */
interface Turn {
  shape: BucketShape;
  pausedBy: RateScope;
}

/**
 * One request's turn: the bucket's next free time `tat` (0: full) and the pause's end; answers how
 * long the request waits and the bucket's next free time after it. The Redis script is the same.
 */
function reserve(
  shape: BucketShape,
  t: number,
  tat: number,
  pauseEnd: number,
): { waitMs: number; tat: number } {
  const start = Math.max(t, pauseEnd);
  const due = Math.max(tat, start);
  const at = Math.max(start, due - shape.tolerance);
  return { waitMs: at - t, tat: due + shape.interval };
}

/** What each backend does in one atomic step; `take` and the limit's notice are built on it. */
export interface BudgetSteps {
  /** Reserves a turn in `scope`'s bucket, after `turn.pausedBy`'s pause: how long until it (0: now). */
  reserve(scope: RateScope, t: number, turn: Turn): Promise<number>;
  /** How long `scope` is still paused (0: not). */
  pausedFor(scope: RateScope, t: number): Promise<number>;
  pause(scope: RateScope, t: number, ms: number): Promise<void>;
  countInvalid(t: number): Promise<void>;
  /** Invalid requests counted in the window running at `t` (0 when none runs). */
  invalidCount(t: number): Promise<number>;
  close(): Promise<void>;
}

/** The budget on `steps`: a turn waited for, a pause read again at the turn, the limit told once. */
export function budgetOn(steps: BudgetSteps, opts: RateBudgetOptions): OpenRateBudget {
  const now = opts.now ?? Date.now;
  const sleep =
    opts.sleep ??
    ((ms: number, signal?: AbortSignal) => sleepFor(ms, undefined, signal ? { signal } : undefined));
  const ownShape = bucketShape(opts.perSecond);
  let wasReached = false;
  return {
    async take(scope, signal, turnOpts = {}) {
      const turn: Turn = {
        shape: turnOpts.pace ? paceShape(turnOpts.pace) : ownShape,
        pausedBy: turnOpts.pausedBy ?? scope,
      };
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
    close: () => steps.close(),
  };
}

/** Buckets kept in memory: a bucket whose time has passed is the same as none, so old ones go first. */
const BUCKETS_KEPT = 10_000;

/** The steps in this process's memory. */
export function memorySteps(): BudgetSteps {
  const buckets = new Map<RateScope, number>();
  const pauses = new Map<RateScope, number>();
  let invalid = { start: -Infinity, count: 0 };
  return {
    reserve(scope, t, { shape, pausedBy }) {
      const turn = reserve(shape, t, buckets.get(scope) ?? 0, pauses.get(pausedBy) ?? 0);
      buckets.delete(scope);
      if (buckets.size >= BUCKETS_KEPT) buckets.delete(buckets.keys().next().value ?? '');
      buckets.set(scope, turn.tat);
      return Promise.resolve(turn.waitMs);
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
    close: () => Promise.resolve(),
  };
}

/** A budget for one process: a single replica, or the SQLite store's. */
export function createMemoryRateBudget(opts: RateBudgetOptions): OpenRateBudget {
  return budgetOn(memorySteps(), opts);
}

/** Steps that use `fallback` whenever `primary` fails (Redis down): a budget in this process then. */
export function withFallback(
  primary: BudgetSteps,
  fallback: BudgetSteps,
  onFailure: (err: unknown) => void,
): BudgetSteps {
  const attempt = async <R>(step: (s: BudgetSteps) => Promise<R>): Promise<R> => {
    try {
      return await step(primary);
    } catch (err) {
      onFailure(err);
      return step(fallback);
    }
  };
  return {
    reserve: (scope, t, turn) => attempt((s) => s.reserve(scope, t, turn)),
    pausedFor: (scope, t) => attempt((s) => s.pausedFor(scope, t)),
    pause: (scope, t, ms) => attempt((s) => s.pause(scope, t, ms)),
    countInvalid: (t) => attempt((s) => s.countInvalid(t)),
    invalidCount: (t) => attempt((s) => s.invalidCount(t)),
    close: async () => void (await Promise.allSettled([primary.close(), fallback.close()])),
  };
}
