// Store.claimOnce on the three stores: the first of several handles on one store (replicas) wins
// a key; the others lose it while it lives; once it has expired it can be won again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalClaims } from '../../src/core/claims.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';

const prefix = testKeyPrefix();
const dir = mkdtempSync(join(tmpdir(), 'herald-claims-'));
const opened: Store[] = [];

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
  await deleteKeys(prefix);
});

describe.each([
  [
    'sqlite',
    (now: () => number) => {
      const file = join(dir, 'claims.sqlite');
      return Promise.resolve([createSqliteStore(file, { now }), createSqliteStore(file, { now })]);
    },
  ],
  [
    'memory',
    (now: () => number) => {
      const store = createMemoryStore({ now });
      return Promise.resolve([store, store]);
    },
  ],
] as const)('claimOnce, %s, on a fake clock', (_name, open) => {
  it('lets one of two handles win, and the key be won again once expired', async () => {
    let t = 1_700_000_000_000;
    const [a, b] = await open(() => t);
    opened.push(a!, b!);
    const results = await Promise.all([
      a!.claimOnce('discord:interaction:1', 60_000),
      b!.claimOnce('discord:interaction:1', 60_000),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect(await b!.claimOnce('discord:interaction:2', 60_000)).toBe(true);
    t += 59_999;
    expect(await a!.claimOnce('discord:interaction:1', 60_000)).toBe(false);
    t += 1;
    expect(await a!.claimOnce('discord:interaction:1', 60_000)).toBe(true);
    expect(await b!.claimOnce('discord:interaction:1', 60_000)).toBe(false);
  });
});

describe('claimOnce, a SQLite file of an older herald', () => {
  it('keeps its live claims as the claims table becomes one B-tree (WITHOUT ROWID)', async () => {
    const t = 1_700_000_000_000;
    const file = join(dir, 'older-claims.sqlite');
    const old = new DatabaseSync(file);
    old.exec('CREATE TABLE claims (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) STRICT');
    old.prepare('INSERT INTO claims VALUES (?, ?)').run('discord:interaction:7', t + 60_000);
    old.close();
    const store = createSqliteStore(file, { now: () => t });
    opened.push(store);
    expect(await store.claimOnce('discord:interaction:7', 60_000)).toBe(false);
    expect(await store.claimOnce('discord:interaction:8', 60_000)).toBe(true);
    const check = new DatabaseSync(file);
    const { sql } = check.prepare("SELECT sql FROM sqlite_master WHERE name = 'claims'").get() as {
      sql: string;
    };
    check.close();
    expect(sql).toMatch(/WITHOUT ROWID/);
  });
});

describe('claimOnce, redis', () => {
  it('lets one of two connections win, with the claim expiring in Redis after its ttl', async () => {
    const stores = await Promise.all([0, 1].map(() => createRedisStore(REDIS_URL, { keyPrefix: prefix })));
    opened.push(...stores);
    const results = await Promise.all(stores.map((s) => s.claimOnce('slack:trigger:7000.1.ab', 900_000)));
    expect(results.sort()).toEqual([false, true]);
    const redis = new Redis(REDIS_URL);
    try {
      const ttl = await redis.pttl(`${prefix}claim:slack:trigger:7000.1.ab`);
      expect(ttl).toBeGreaterThan(890_000);
      expect(ttl).toBeLessThanOrEqual(900_000);
      // Gone (as at expiry), the key can be claimed again.
      await redis.del(`${prefix}claim:slack:trigger:7000.1.ab`);
      expect(await stores[1]!.claimOnce('slack:trigger:7000.1.ab', 900_000)).toBe(true);
    } finally {
      await redis.quit();
    }
  });
});

describe('createLocalClaims', () => {
  it('keeps about one window of claims, dropping expired ones as new ones come', async () => {
    let t = 0;
    const claims = createLocalClaims(() => t);
    for (let i = 0; i < 1_000; i++) {
      expect(await claims.claimOnce(`k${i}`, 1_000)).toBe(true);
      t += 10;
    }
    // Keys claimed more than 1 s ago are free again; the last second's are still held.
    expect(await claims.claimOnce('k0', 1_000)).toBe(true);
    expect(await claims.claimOnce('k999', 1_000)).toBe(false);
  });
});
