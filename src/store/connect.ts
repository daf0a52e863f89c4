// Connecting to Redis, as the Redis store and Discord's budget in Redis do.
import type { Redis } from 'ioredis';

/** Connects to Redis at `url` through herald's one Redis factory (src/redis.ts). */
export async function connectStoreRedis(
  url: string,
  opts: { connectTimeoutMs?: number | undefined; verifyTls?: boolean | undefined } = {},
): Promise<Redis> {
  // Loaded here, not at the top: an idle bot without Redis should not hold ioredis (about 2 MB of
  // heap and 8 MB of resident memory).
  // Only these two: the store's own options (its clock, key prefix) are passed in here too.
  const { connectTimeoutMs, verifyTls } = opts;
  return (await import('../redis.ts')).connectRedis(url, { connectTimeoutMs, verifyTls });
}
