// The Redis the tests share (REDIS_URL, by default a local server on 127.0.0.1:6379) and the
// clean-up of the keys a test file wrote under its own prefix.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The parent's REDIS_URL (herald's own variable; spawned herald children never inherit it). */
export const REDIS_URL = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

/** A key prefix unique to one test file's run, so files running in parallel never meet. */
export function testKeyPrefix(): string {
  return `herald:test-${randomUUID()}:`;
}

/** Deletes every key under `prefix`, SCANning rather than blocking the server with KEYS. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}
