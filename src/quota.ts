// Per-user limits shared across replicas when Redis is configured (rate-limiter-flexible):
// the per-minute command rate limit and the /say daily character budget. With Redis down, each
// falls back to an in-process limiter (insuranceLimiter) rather than failing every command.
import type { Redis } from 'ioredis';
import type { CommandContext } from './core/command.ts';
import { UserError } from './errors.ts';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface LimitResult {
  allowed: boolean;
  /** Points left in the current window. */
  remaining: number;
  /** Until the window resets (or until the next point is free). */
  retryAfterMs: number;
}

export interface PerUserLimiter {
  /**
   * Takes `amount` points for `key`; a denied request takes nothing. The in-process limiter
   * answers at once (no promise, so a command reaches its upstream in the tick it arrived: issue
   * 16); the one shared through Redis answers with a promise.
   */
  consume(key: string, amount?: number): LimitResult | Promise<LimitResult>;
  /** Gives back points taken for work that then failed. */
  refund(key: string, amount: number): Promise<void>;
}

/** Past this many keys, a new window first drops the ended ones (memory stays bounded by users). */
const SWEEP_AT = 10_000;

/**
 * The in-process limiter: `points` per key in a fixed window of `durationMs` that starts at the
 * key's first point, the rule rate-limiter-flexible's memory limiter keeps (it still backs the
 * Redis one when Redis is down), answered synchronously and without a timer per key.
 */
export function createWindowLimiter(
  points: number,
  durationMs: number,
  now: () => number = Date.now,
): PerUserLimiter & { consume(key: string, amount?: number): LimitResult } {
  const windows = new Map<string, { used: number; endsAt: number }>();
  /** The key's window while it has not ended. */
  const live = (key: string, at: number) => {
    const w = windows.get(key);
    return w !== undefined && w.endsAt > at ? w : undefined;
  };
  /** The key's window after adding `delta` points (a new window when the last one has ended). */
  const add = (key: string, delta: number) => {
    const at = now();
    let w = live(key, at);
    if (w === undefined) {
      if (windows.size >= SWEEP_AT) for (const [k, old] of windows) if (old.endsAt <= at) windows.delete(k);
      windows.delete(key);
      w = { used: 0, endsAt: at + durationMs };
      windows.set(key, w);
    }
    w.used += delta;
    return { used: w.used, retryAfterMs: w.endsAt - at };
  };
  return {
    consume(key, amount = 1) {
      const at = now();
      const w = live(key, at);
      const used = w?.used ?? 0;
      if (used + amount > points) {
        return { allowed: false, remaining: Math.max(0, points - used), retryAfterMs: w ? w.endsAt - at : 0 };
      }
      const after = add(key, amount);
      return { allowed: true, remaining: Math.max(0, points - after.used), retryAfterMs: after.retryAfterMs };
    },
    refund(key, amount) {
      add(key, -amount);
      return Promise.resolve();
    },
  };
}

/** Shared by every replica through Redis, with an in-process limiter while Redis is down. */
function shared(opts: {
  points: number;
  durationS: number;
  prefix: string;
  redis: Redis;
}): RateLimiterAbstract {
  return new RateLimiterRedis({
    storeClient: opts.redis,
    points: opts.points,
    duration: opts.durationS,
    keyPrefix: opts.prefix,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({
      points: opts.points,
      duration: opts.durationS,
      keyPrefix: opts.prefix,
    }),
  });
}

function build(opts: {
  points: number;
  durationS: number;
  prefix: string;
  redis?: Redis | undefined;
  keyOf: (key: string) => string;
}): PerUserLimiter {
  if (!opts.redis) {
    const local = createWindowLimiter(opts.points, opts.durationS * 1000);
    return {
      consume: (key, amount) => local.consume(opts.keyOf(key), amount),
      refund: (key, amount) => local.refund(opts.keyOf(key), amount),
    };
  }
  return wrap(shared({ ...opts, redis: opts.redis }), opts.points, opts.keyOf);
}

function wrap(
  limiter: RateLimiterAbstract,
  maxPoints: number,
  keyOf: (key: string) => string,
): PerUserLimiter {
  return {
    async refund(key, amount) {
      await limiter.reward(keyOf(key), amount);
    },
    async consume(key, amount = 1) {
      const k = keyOf(key);
      if (amount > maxPoints) {
        const state = await limiter.get(k);
        return {
          allowed: false,
          remaining: state ? Math.max(0, state.remainingPoints) : maxPoints,
          retryAfterMs: state?.msBeforeNext ?? 0,
        };
      }
      try {
        const res = await limiter.consume(k, amount);
        return { allowed: true, remaining: res.remainingPoints, retryAfterMs: res.msBeforeNext };
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        // rate-limiter-flexible counts a refused request too; give the points back so that a
        // refused 500-character /say does not eat the rest of the day's budget.
        const back = await limiter.reward(k, amount);
        return {
          allowed: false,
          remaining: Math.max(0, back.remainingPoints),
          retryAfterMs: err.msBeforeNext,
        };
      }
    },
  };
}

export interface Quotas {
  /** Commands per user per minute. */
  commands: PerUserLimiter;
  /** /say characters per user per UTC day. */
  sayChars: PerUserLimiter;
}

export function createQuotas(opts: {
  perUserPerMinute: number;
  sayDailyChars: number;
  redis?: Redis | undefined;
  now?: () => Date;
}): Quotas {
  const now = opts.now ?? (() => new Date());
  const commands = build({
    points: opts.perUserPerMinute,
    durationS: 60,
    prefix: 'herald:rl:cmd',
    redis: opts.redis,
    keyOf: (k) => k,
  });
  // Keyed by the UTC day so the budget resets at midnight UTC; the 25 h window only expires keys.
  const sayChars = build({
    points: opts.sayDailyChars,
    durationS: 25 * 3600,
    prefix: 'herald:rl:say',
    redis: opts.redis,
    keyOf: (k) => `${now().toISOString().slice(0, 10)}:${k}`,
  });
  return { commands, sayChars };
}

/**
 * The UTC day each command's /say charge went to. A refund goes back to that day only: the budget
 * is kept per day, so characters charged at 23:59:59 and refunded after midnight would otherwise
 * be credited to a day that never paid them.
 */
const chargedOn = new WeakMap<CommandContext, string>();
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Gives /say characters back to the invoker when the synthesis failed, on the day they were
 * charged; once that day is over the refund is dropped (its budget has already reset).
 */
export function createSayRefund(
  quotas: Quotas,
  now: () => Date = () => new Date(),
): (chars: number, ctx: CommandContext) => Promise<void> {
  return async (chars, ctx) => {
    const day = chargedOn.get(ctx);
    chargedOn.delete(ctx);
    if (ctx.actor.isOperator || day === undefined) return;
    if (day !== utcDay(now())) {
      ctx.log.info({ userId: ctx.actor.id, chars, day }, 'say.refund_dropped');
      return;
    }
    await quotas.sayChars.refund(`${ctx.actor.platform}:${ctx.actor.id}`, chars);
  };
}

/** The /say budget as the command's charge hook: spends the text's characters, or refuses. */
export function createSayCharge(
  quotas: Quotas,
  now: () => Date = () => new Date(),
): (chars: number, ctx: CommandContext) => Promise<UserError | undefined> {
  return async (chars, ctx) => {
    // The console user is the local operator: no budget.
    if (ctx.actor.isOperator) return undefined;
    const day = utcDay(now());
    const result = await quotas.sayChars.consume(`${ctx.actor.platform}:${ctx.actor.id}`, chars);
    if (result.allowed) {
      chargedOn.set(ctx, day);
      return undefined;
    }
    ctx.log.info({ userId: ctx.actor.id, chars, remaining: result.remaining }, 'say.budget_exceeded');
    return new UserError({
      code: 'rate_limited',
      message: `That needs ${chars} characters, but your /say budget has ${result.remaining} left today; it resets at midnight UTC.`,
    });
  };
}
