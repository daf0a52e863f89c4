// Picks the store: Redis when STORE_URL or REDIS_URL is a redis:// URL (STORE_URL's first), else
// the node:sqlite file at STORE_URL (`:memory:` for none).
import type { Config } from '../config/index.ts';
import type { RedisStoreOptions } from './redis-store.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { Store, StoreOptions } from './store.ts';
import { createMemoryRateBudget, type OpenRateBudget } from './rate-budget.ts';
import type { RedisRateBudgetOptions } from './rate-budget-redis.ts';

export type * from './store.ts';
export { RETENTION_MS } from './store.ts';
export { createSqliteStore };

/** A store that keeps nothing past the process: SQLite in memory, the same code as the file's. */
export function createMemoryStore(opts: StoreOptions = {}): Store {
  // Closing it would lose what it holds; a test's handles close it one after another.
  return { ...createSqliteStore(':memory:', opts), kind: 'memory', close: () => Promise.resolve() };
}

const redisUrlOf = (config: Pick<Config, 'storeUrl' | 'redisUrl'>): string | undefined =>
  [config.storeUrl, config.redisUrl].find((url) => url !== undefined && /^rediss?:\/\//.test(url));

/** Where the store lives, without credentials: for the startup log line. */
export function describeStore(config: Pick<Config, 'storeUrl' | 'redisUrl'>): string {
  const url = redisUrlOf(config);
  if (url === undefined) return config.storeUrl === ':memory:' ? 'memory' : `sqlite ${config.storeUrl}`;
  const u = new URL(url);
  return `redis ${u.hostname}:${u.port || '6379'}`;
}

/** Where the store is, and whether a rediss:// certificate is checked (unset: it is). */
type StorePlace = Pick<Config, 'storeUrl' | 'redisUrl'> & Partial<Pick<Config, 'redisTlsVerify'>>;

export async function openStore(config: StorePlace, opts: RedisStoreOptions = {}): Promise<Store> {
  // ioredis is loaded only when a redis:// URL is configured (about 8 MB of idle memory otherwise).
  const redisUrl = redisUrlOf(config);
  if (redisUrl !== undefined)
    return (await import('./redis-store.ts')).createRedisStore(redisUrl, {
      ...opts,
      verifyTls: config.redisTlsVerify,
    });
  if (config.storeUrl === ':memory:') return createMemoryStore(opts);
  return createSqliteStore(config.storeUrl, opts);
}

/** The platforms' request budgets where the store is: in Redis for every replica, else this process's own. */
export async function openRateBudget(
  config: StorePlace & Pick<Config, 'discordBudget'>,
  hooks: Pick<RedisRateBudgetOptions, 'onLimitReached' | 'onRedisFailure'>,
): Promise<OpenRateBudget> {
  const settings = { ...hooks, ...config.discordBudget };
  const redisUrl = redisUrlOf(config);
  if (redisUrl === undefined) return createMemoryRateBudget(settings);
  return (await import('./rate-budget-redis.ts')).createRedisRateBudget(redisUrl, {
    ...settings,
    verifyTls: config.redisTlsVerify,
  });
}
