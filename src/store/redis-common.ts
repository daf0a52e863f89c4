// What the Redis store and the budget in Redis (rate-budget-redis.ts) share: the key prefix with
// the `{sched}` hash tag (every key a script touches in one Cluster slot), the one-time rename of
// keys written before the tag, a SCAN by prefix, and running a Lua script by its hash.
import type { Redis } from 'ioredis';

/** Where the store's keys are in Redis, and how it is reached. */
export interface RedisPlace {
  /** Defaults to "herald:". Tests use a unique one per run. */
  keyPrefix?: string;
  connectTimeoutMs?: number;
  /** Whether a rediss:// server's certificate is checked (REDIS_TLS_VERIFY). */
  verifyTls?: boolean | undefined;
}

export function storeKeyPrefix(prefix: string): string {
  return `${prefix}{sched}:`;
}

/** The kinds of key the store wrote before its keys carried the hash tag. */
const LEGACY_KINDS = ['slot:', 'outbox:', 'kv:', 'schedules'];

/**
 * Renames the store's keys written before the hash tag (`herald:slot:…` → `herald:{sched}:slot:…`),
 * once per key prefix (a marker key records it): claims, pending posts and watch memories carry
 * over an upgrade. Stop the replicas of the older version first: they still write the old names.
 */
export async function moveLegacyKeys(redis: Redis, prefix: string): Promise<void> {
  const tagged = storeKeyPrefix(prefix);
  const marker = `${tagged}moved`;
  if ((await redis.exists(marker)) === 1) return;
  await scanKeys(redis, prefix, async (found) => {
    for (const key of found.filter((k) => LEGACY_KINDS.some((kind) => k.startsWith(prefix + kind))))
      await redis.renamenx(key, tagged + key.slice(prefix.length));
  });
  await redis.set(marker, '1');
}

/** Hands `each` the keys that start with `keyPrefix`, a SCAN batch at a time. */
export async function scanKeys(redis: Redis, keyPrefix: string, each: (keys: string[]) => Promise<void>) {
  const pattern = `${keyPrefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  let cursor = '0';
  do {
    const [nextCursor, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = nextCursor;
    if (found.length > 0) await each(found);
  } while (cursor !== '0');
}

/** Runs a Lua script with its number of keys first, as EVAL takes them. */
export type RunScript = (lua: string, numKeys: number, ...args: (string | number)[]) => Promise<unknown>;

/**
 * Scripts sent once, then run by their hash: ioredis's defineCommand
 * (https://github.com/redis/ioredis#lua-scripting) runs EVALSHA and loads the script on NOSCRIPT.
 */
export function scriptsOf(redis: Redis): RunScript {
  const names = new Map<string, string>();
  const commands = redis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return (lua, numKeys, ...args) => {
    let name = names.get(lua);
    if (name === undefined) {
      name = `heraldScript${names.size}`;
      redis.defineCommand(name, { lua });
      names.set(lua, name);
    }
    return commands[name]!(numKeys, ...args);
  };
}
