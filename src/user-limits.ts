// Per-user limits shared across replicas when Redis is configured (rate-limiter-flexible):
// the per-minute command rate limit and the /say daily character budget. With Redis down, each
// falls back to an in-process limiter (insuranceLimiter) rather than failing every command.
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { CommandContext } from './core/command.ts';
import { UserError } from './errors.ts';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from './http/limiter-classes.ts';

export interface LimitResult {
  allowed: boolean;
  /** Points left in the current window. */
  remaining: number;
  /** Until the window resets (or until the next point is free). */
  retryAfterMs: number;
}

export interface PerUserLimiter {
  /** Takes `amount` points for `key`; a denied request takes nothing. */
  consume(key: string, amount?: number): Promise<LimitResult>;
  /** Gives back points taken for work that then failed. */
  refund(key: string, amount: number): Promise<void>;
}

/**
 * One limiter: in memory for a single process, shared by every replica through Redis when it is
 * set, with an in-memory limiter while Redis is down.
 */
function build(opts: {
  points: number;
  durationS: number;
  prefix: string;
  redis?: Redis | undefined;
  keyOf: (key: string) => string;
}): PerUserLimiter {
  const memory = new RateLimiterMemory({
    points: opts.points,
    duration: opts.durationS,
    keyPrefix: opts.prefix,
  });
  const limiter = opts.redis
    ? new RateLimiterRedis({
        storeClient: opts.redis,
        points: opts.points,
        duration: opts.durationS,
        keyPrefix: opts.prefix,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
    : memory;
  return wrap(limiter, opts.points, opts.keyOf);
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
