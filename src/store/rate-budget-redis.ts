// The request budgets shared by every replica through Redis (rate-budget.ts has the rules): one
// Lua script per step that writes, on the caller's clock. Keys, under the store's prefix and hash tag:
// <p>rate:<scope>:tat, <p>rate:<scope>:pause, <p>rate:invalid; each expires once it says nothing.
// With Redis down the budget is this process's own until it is back (withFallback).
import type { Redis } from 'ioredis';
import type { RateScope } from '../domain/rate-budget.ts';
import { connectRedis } from '../redis.ts';
import { scriptsOf, storeKeyPrefix, type RedisPlace } from './redis-common.ts';
import {
  INVALID_WINDOW_MS,
  budgetOn,
  memorySteps,
  withFallback,
  type BudgetSteps,
  type OpenRateBudget,
  type RateBudgetOptions,
} from './rate-budget.ts';

// KEYS: the scope's tat, the pause it waits out. ARGV: now, interval, tolerance. As memorySteps'
// reserve in rate-budget.ts. Times go back as text: a Lua number returned to Redis would lose its fraction.
const RESERVE = `
local now = tonumber(ARGV[1])
local pauseEnd = tonumber(redis.call('GET', KEYS[2]) or '0')
local start = math.max(now, pauseEnd)
local due = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), start)
local at = math.max(start, due - tonumber(ARGV[3]))
local tat = due + tonumber(ARGV[2])
redis.call('SET', KEYS[1], string.format('%.3f', tat), 'PX', math.ceil(tat - now) + 1000)
return string.format('%.3f', at - now)
`;

// KEYS: pause. ARGV: now, ms. A later end wins; the key lives as long as the pause.
const PAUSE = `
local ends = tonumber(ARGV[1]) + tonumber(ARGV[2])
if ends > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], string.format('%.0f', ends), 'PX', math.ceil(tonumber(ARGV[2])))
end
return 1
`;

// KEYS: invalid. ARGV: now, window. A count outside its window starts a new one at now.
const COUNT_INVALID = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local start = tonumber(redis.call('HGET', KEYS[1], 'start') or '-1')
if start < 0 or now >= start + window then
  start = now
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'count', 1)
else
  redis.call('HINCRBY', KEYS[1], 'count', 1)
end
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil(start + window - now)))
return 1
`;

export interface RedisRateBudgetOptions extends RateBudgetOptions, RedisPlace {
  /** Told when Redis failed a step and this process's own budget answered instead. */
  onRedisFailure?: (err: unknown) => void;
}

function redisSteps(redis: Redis, prefix: string): BudgetSteps {
  const p = `${storeKeyPrefix(prefix)}rate:`;
  const script = scriptsOf(redis);
  const keysOf = (scope: RateScope) => [`${p}${scope}:tat`, `${p}${scope}:pause`] as const;
  const invalid = `${p}invalid`;
  return {
    async reserve(scope, t, { interval, tolerance, pausedBy }) {
      return Number(await script(RESERVE, 2, keysOf(scope)[0], keysOf(pausedBy)[1], t, interval, tolerance));
    },
    async pausedFor(scope, t) {
      const ends = Number((await redis.get(keysOf(scope)[1])) ?? 0);
      return Number.isFinite(ends) ? Math.max(0, ends - t) : 0;
    },
    async pause(scope, t, ms) {
      await script(PAUSE, 1, keysOf(scope)[1], t, ms);
    },
    async countInvalid(t) {
      await script(COUNT_INVALID, 1, invalid, t, INVALID_WINDOW_MS);
    },
    async invalidCount(t) {
      const [start, count] = await redis.hmget(invalid, 'start', 'count');
      return start === null || t >= Number(start) + INVALID_WINDOW_MS ? 0 : Number(count ?? 0);
    },
  };
}

/** Rejects when Redis cannot be reached. */
export async function createRedisRateBudget(
  url: string,
  opts: RedisRateBudgetOptions,
): Promise<OpenRateBudget> {
  const redis = await connectRedis(url, opts);
  const shared = redisSteps(redis, opts.keyPrefix ?? 'herald:');
  return {
    ...budgetOn(withFallback(shared, memorySteps(), opts.onRedisFailure), opts),
    close: async () => void (await redis.quit()),
  };
}
