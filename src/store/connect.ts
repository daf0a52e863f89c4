// What the store implementations share: opening a node:sqlite file (WAL, so several connections
// and processes can share it) with its write-lock transaction, and connecting to Redis.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Redis } from 'ioredis';

/** Opens (creating its folder) the SQLite file at `path`, or an in-memory database for `:memory:`. */
export function openSqlite(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 5_000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  return db;
}

/** Runs `fn` holding the write lock (BEGIN IMMEDIATE), so its reads and writes are one atomic step. */
export function immediateTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** Connects to Redis at `url` through herald's one Redis factory (src/redis.ts). */
export async function connectStoreRedis(
  url: string,
  opts: { connectTimeoutMs?: number | undefined; verifyTls?: boolean | undefined } = {},
): Promise<Redis> {
  // Loaded here, not at the top: the SQLite store imports this file too, and an idle bot without
  // Redis should not hold ioredis (about 2 MB of heap and 8 MB of resident memory).
  // Only these two: the store's own options (its clock, key prefix) are passed in here too.
  const { connectTimeoutMs, verifyTls } = opts;
  return (await import('../redis.ts')).connectRedis(url, { connectTimeoutMs, verifyTls });
}
