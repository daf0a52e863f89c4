// One contract, three stores: node:sqlite (a temp file), the real Redis on 127.0.0.1:6379 (a
// unique key prefix per run, deleted afterwards) and memory. Leases run on a fake clock.
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createSqliteStore,
  openStore,
  type ClaimResult,
  type NewOutboxEntry,
  type Store,
} from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';
import { enqueue } from '../support/enqueue.ts';

const { dir, runPrefix } = storeScratch('herald-store-');

interface Backend {
  name: string;
  /** Opens `count` handles on one shared store, as separate processes or replicas would. */
  open(count: number, now: () => number): Promise<Store[]>;
}

const backends: Backend[] = [
  {
    name: 'sqlite',
    open: async (count, now) => {
      const file = join(dir, `${randomUUID()}`, 'store.sqlite');
      return Array.from({ length: count }, () => createSqliteStore(file, { now }));
    },
  },
  {
    name: 'redis',
    open: async (count, now) => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      return Promise.all(
        Array.from({ length: count }, () => createRedisStore(REDIS_URL, { now, keyPrefix })),
      );
    },
  },
  {
    name: 'memory',
    open: async (count, now) => {
      const store = createMemoryStore({ now });
      return Array.from({ length: count }, () => store);
    },
  },
];

const entry = (id: string, slotId = 'slot-1'): NewOutboxEntry => ({
  id,
  job: 'analytics-summary',
  slotId,
  kind: 'webhook',
  payload: { username: 'herald', embeds: [{ title: `report ${id}`, color: 3_900_150 }] },
});

describe.each(backends)('$name store', (backend) => {
  let t = 1_763_800_000_000;
  const now = () => t;
  let stores: Store[] = [];
  let store: Store;

  beforeEach(async () => {
    t = 1_763_800_000_000;
    stores = await backend.open(3, now);
    store = stores[0]!;
  });

  afterEach(async () => {
    for (const s of new Set(stores)) await s.close();
  });

  it('claims a fresh slot once and reports it held to another owner until the lease ends', async () => {
    expect(await store.claimSlot('job', 's1', 'a', 60_000)).toEqual({ status: 'claimed', attempt: 1 });
    expect(await stores[1]!.claimSlot('job', 's1', 'b', 60_000)).toEqual({
      status: 'held',
      owner: 'a',
      leaseUntil: t + 60_000,
    });
    const slot = await store.getSlot('job', 's1');
    expect(slot).toMatchObject({ job: 'job', slotId: 's1', status: 'claimed', owner: 'a', attempts: 1 });
  });

  it('lets exactly one of many concurrent claimers win a slot', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => stores[i % 3]!.claimSlot('job', 'race', `owner-${i}`, 60_000)),
    );
    expect(results.filter((r) => r.status === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'held')).toHaveLength(29);
  });

  it('never claims a posted slot again, even long after its lease', async () => {
    await store.claimSlot('job', 's1', 'a', 1_000);
    expect(await store.markPosted('job', 's1', 'a', [])).toBe(true);
    t += 10 * 60_000;
    expect(await stores[1]!.claimSlot('job', 's1', 'b', 1_000)).toEqual({ status: 'already-posted' });
    expect(await store.claimSlot('job', 's1', 'a', 1_000)).toEqual({ status: 'already-posted' });
    expect((await store.getSlot('job', 's1'))?.status).toBe('posted');
  });

  it('lets another owner take over a claim whose lease expired without a post', async () => {
    await store.claimSlot('job', 's1', 'crashed', 1_000);
    t += 1_001;
    expect(await stores[1]!.claimSlot('job', 's1', 'b', 1_000)).toEqual({ status: 'claimed', attempt: 2 });
    // The first owner woke up late: its claim is gone, so it cannot post.
    expect(await store.markPosted('job', 's1', 'crashed', [entry('late')])).toBe(false);
    expect(await stores[1]!.markPosted('job', 's1', 'b', [entry('fresh')])).toBe(true);
    expect((await store.listOutbox('pending')).map((e) => e.id)).toEqual(['fresh']);
  });

  it('holds a slot against its own owner too while the lease lives: one run at a time', async () => {
    await store.claimSlot('job', 's1', 'a', 5_000);
    const leaseUntil = t + 5_000;
    t += 1_000;
    expect(await store.claimSlot('job', 's1', 'a', 5_000)).toEqual({
      status: 'held',
      owner: 'a',
      leaseUntil,
    });
    expect((await store.getSlot('job', 's1'))?.attempts).toBe(1);
  });

  it('lets a failed slot be claimed again and keeps the error until then', async () => {
    await store.claimSlot('job', 's1', 'a', 60_000);
    expect(await stores[1]!.markFailed('job', 's1', 'b', 'not the holder')).toBe(false);
    expect(await store.markFailed('job', 's1', 'a', 'analytics.runReport failed: upstream (HTTP 503)')).toBe(
      true,
    );
    expect(await store.getSlot('job', 's1')).toMatchObject({
      status: 'failed',
      error: 'analytics.runReport failed: upstream (HTTP 503)',
    });
    expect(await stores[2]!.claimSlot('job', 's1', 'c', 60_000)).toEqual({ status: 'claimed', attempt: 2 });
    expect((await store.getSlot('job', 's1'))?.error).toBeUndefined();
  });

  it('hands deliveries to the outbox with the post, once even when given twice', async () => {
    await store.claimSlot('job', 's1', 'a', 60_000);
    await store.markPosted('job', 's1', 'a', [entry('e1'), entry('e2')]);
    await store.claimSlot('job', 's2', 'a', 60_000);
    await store.markPosted('job', 's2', 'a', [entry('e1', 's2')]);
    const list = await store.listOutbox('pending');
    expect(list.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(list[0]).toMatchObject({
      job: 'analytics-summary',
      kind: 'webhook',
      attempts: 0,
      nextAttemptAt: t,
      createdAt: t,
      payload: { username: 'herald', embeds: [{ title: 'report e1', color: 3_900_150 }] },
    });
  });

  it('leases due entries to one owner, counting attempts, and hides them until the lease ends', async () => {
    await enqueue(store, entry('e1'));
    const [first] = await store.claimDueOutbox('a', 30_000, 10);
    expect(first).toMatchObject({ id: 'e1', attempts: 1, nextAttemptAt: t + 30_000 });
    expect(await stores[1]!.claimDueOutbox('b', 30_000, 10)).toEqual([]);
    t += 30_000;
    const [again] = await stores[1]!.claimDueOutbox('b', 30_000, 10);
    expect(again).toMatchObject({ id: 'e1', attempts: 2 });
    // The first owner's lease is over: it may no longer reschedule or give up the entry.
    expect(await store.updateHeld(['e1'], 'a', { retryAt: t + 1, error: 'late' })).toEqual([]);
    expect(await store.updateHeld(['e1'], 'a', { giveUp: 'late' })).toEqual([]);
  });

  it('spreads concurrent drains so that each due entry goes to exactly one owner', async () => {
    await enqueue(store, ...Array.from({ length: 12 }, (_, i) => entry(`e${i}`)));
    const batches = await Promise.all(stores.map((s, i) => s.claimDueOutbox(`owner-${i}`, 30_000, 5)));
    const ids = batches.flat().map((e) => e.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('renews the lease of entries the owner still holds, and refuses those another owner took over', async () => {
    await enqueue(store, entry('e1'), entry('e2'), entry('e3'));
    expect((await store.claimDueOutbox('a', 1_000, 10)).map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    t += 600;
    expect(await store.updateHeld(['e1', 'e2'], 'a', { leaseMs: 1_000 })).toEqual(['e1', 'e2']);
    t += 600;
    // e3's lease ran out unrenewed: another owner's pass takes it; e1 and e2 are still a's.
    expect((await stores[1]!.claimDueOutbox('b', 1_000, 10)).map((e) => e.id)).toEqual(['e3']);
    expect(await store.markDelivered('e2', 'm2')).toBe(true);
    expect(await store.updateHeld(['e1', 'e2', 'e3'], 'a', { leaseMs: 1_000 })).toEqual(['e1']);
    expect(await store.updateHeld(['e3'], 'a', { inFlight: true })).toEqual([]);
    expect(await stores[1]!.updateHeld(['e3'], 'b', { leaseMs: 1_000 })).toEqual(['e3']);
    expect(await store.updateHeld([], 'a', { leaseMs: 1_000 })).toEqual([]);
  });

  it('makes one change to several entries in one step, only to those the owner holds', async () => {
    await enqueue(store, entry('e1'), entry('e2'));
    await store.claimDueOutbox('a', 1_000, 1);
    await stores[1]!.claimDueOutbox('b', 1_000, 1);
    expect(await store.updateHeld(['e1', 'e2'], 'a', { giveUp: 'unauthorized' })).toEqual(['e1']);
    expect((await store.listOutbox('given_up')).map((e) => e.id)).toEqual(['e1']);
    expect((await store.listOutbox('pending')).map((e) => [e.id, e.status])).toEqual([['e2', 'pending']]);
  });

  it('reschedules a failed delivery with its error and serves it again when due', async () => {
    await enqueue(store, entry('e1'));
    await store.claimDueOutbox('a', 30_000, 10);
    const error = 'webhook.post failed: upstream (HTTP 502)';
    expect(await store.updateHeld(['e1'], 'a', { retryAt: t + 60_000, error })).toEqual(['e1']);
    t += 59_999;
    expect(await store.claimDueOutbox('a', 30_000, 10)).toEqual([]);
    t += 1;
    const [due] = await store.claimDueOutbox('a', 30_000, 10);
    expect(due).toMatchObject({
      id: 'e1',
      attempts: 2,
      lastError: 'webhook.post failed: upstream (HTTP 502)',
    });
  });

  it('serves entries waiting out a backoff at once when asked, but never ones leased to another owner', async () => {
    await enqueue(store, entry('backing-off'), entry('leased'));
    await store.claimDueOutbox('a', 30_000, 1);
    await store.updateHeld(['backing-off'], 'a', {
      retryAt: t + 3_600_000,
      error: 'webhook.post failed: network',
    });
    await store.claimDueOutbox('b', 30_000, 1);
    expect(await store.claimDueOutbox('c', 30_000, 10)).toEqual([]);
    const restarted = await stores[2]!.claimDueOutbox('c', 30_000, 10, { includeBackingOff: true });
    expect(restarted.map((e) => e.id)).toEqual(['backing-off']);
  });

  it('keeps delivered and given-up entries out of the queue, with the reason', async () => {
    await enqueue(store, entry('ok'), entry('bad'));
    await store.claimDueOutbox('a', 30_000, 10);
    expect(await store.markDelivered('ok')).toBe(true);
    expect(await store.markDelivered('ok')).toBe(false);
    const giveUp = 'unauthorized: the webhook was revoked';
    expect(await store.updateHeld(['bad'], 'a', { giveUp })).toEqual(['bad']);
    t += 60 * 60_000;
    expect(await store.claimDueOutbox('a', 30_000, 10)).toEqual([]);
    expect((await store.listOutbox('delivered')).map((e) => e.id)).toEqual(['ok']);
    expect(await store.listOutbox('given_up')).toEqual([
      expect.objectContaining({ id: 'bad', reason: 'unauthorized: the webhook was revoked' }),
    ]);
  });

  it("leases a slot's posts to the owner that marked it posted, so no other drain takes them meanwhile", async () => {
    await store.claimSlot('job', 's1', 'a', 60_000);
    expect(await store.markPosted('job', 's1', 'a', [entry('e1')], { leaseMs: 30_000 })).toBe(true);
    expect(await stores[1]!.claimDueOutbox('b', 30_000, 10, { includeBackingOff: true })).toEqual([]);
    expect(await store.listOutbox('pending')).toEqual([
      expect.objectContaining({ id: 'e1', attempts: 1, nextAttemptAt: t + 30_000 }),
    ]);
    // The owner settles it without a claim of its own; after the lease another owner may take it.
    t += 30_001;
    expect(await stores[1]!.claimDueOutbox('b', 30_000, 10)).toEqual([
      expect.objectContaining({ id: 'e1', attempts: 2 }),
    ]);
  });

  it("saves a watch's memory only in the step that marks its post delivered, and keeps only the receipt", async () => {
    await store.claimSlot('job', 's1', 'a', 60_000);
    const memory = { key: 'watch:k7p2mx', value: '["A","B"]' };
    await store.markPosted('job', 's1', 'a', [{ ...entry('e1'), memory }], { leaseMs: 30_000 });
    // Recorded and even in flight, the post has not changed what the watch remembers.
    expect(await store.getValue('watch:k7p2mx')).toBeUndefined();
    expect(await stores[1]!.markDelivered('e1', '1575644545423507458', memory.key)).toBe(true);
    expect(await stores[2]!.getValue('watch:k7p2mx')).toBe('["A","B"]');
    const [delivered] = await store.listOutbox('delivered');
    expect(delivered).toMatchObject({ id: 'e1', receipt: '1575644545423507458', payload: null });
    expect(delivered!.memory).toBeUndefined();
  });

  it('keeps the receipt of a part already posted on a pending entry, for whichever owner claims it next', async () => {
    expect(await enqueue(store, entry('e1'))).toBe(true);
    expect(await store.claimDueOutbox('a', 30_000, 10)).toHaveLength(1);
    const started = { inFlight: true, receipt: '1714560000.000200' };
    expect(await stores[1]!.updateHeld(['e1'], 'b', started)).toEqual([]);
    expect(await store.updateHeld(['e1'], 'a', started)).toEqual(['e1']);
    expect(await store.updateHeld(['e1'], 'a', { inFlight: false })).toEqual(['e1']);
    expect(await store.updateHeld(['e1'], 'a', { retryAt: t, error: 'rate_limited' })).toEqual(['e1']);
    const [again] = await stores[2]!.claimDueOutbox('c', 30_000, 10);
    expect(again).toMatchObject({ id: 'e1', status: 'pending', receipt: '1714560000.000200' });
    expect(again!.inFlightAt).toBeUndefined();
  });

  it("leaves a watch's memory as it was when its post is refused", async () => {
    await store.setValue('watch:k7p2mx', '["A"]');
    await store.claimSlot('job', 's1', 'a', 60_000);
    const memory = { key: 'watch:k7p2mx', value: '["A","B"]' };
    await store.markPosted('job', 's1', 'a', [{ ...entry('e1'), memory }], { leaseMs: 30_000 });
    const giveUp = 'not_found: the webhook was deleted';
    expect(await store.updateHeld(['e1'], 'a', { giveUp })).toEqual(['e1']);
    expect(await store.getValue('watch:k7p2mx')).toBe('["A"]');
  });

  it('hands back a post and writes its memories as given, whatever their characters', async () => {
    const payload = {
      content: 'Oslo: 4 °C, «clear» 😀 "quoted" \\ / \u2028 \ud800',
      at: 1_763_800_000_000.5,
    };
    const memory = { key: 'watch:k7p2mx', value: '{"v":2,"facts":[["d1","Zürich 😀"]]}' };
    await store.claimSlot('job', 's1', 'a', 60_000);
    const posted = { memory: { key: 'watch:w2n6tz', value: '{"v":2,"facts":[["d2","Åre"]]}' } };
    expect(await store.markPosted('job', 's1', 'a', [{ ...entry('e1'), payload, memory }], posted)).toBe(
      true,
    );
    expect(await stores[1]!.claimDueOutbox('b', 30_000, 10)).toEqual([
      expect.objectContaining({ id: 'e1', payload, memory }),
    ]);
    expect(await store.getValue('watch:w2n6tz')).toBe(posted.memory.value);
  });

  it('writes the memory of a run with nothing to post with its "posted" mark', async () => {
    await store.claimSlot('job', 's1', 'a', 60_000);
    await stores[1]!.claimSlot('job', 's1', 'b', 60_000);
    const memory = { key: 'watch:k7p2mx', value: '["A"]' };
    expect(await stores[1]!.markPosted('job', 's1', 'b', [], { memory })).toBe(false);
    expect(await store.getValue('watch:k7p2mx')).toBeUndefined();
    expect(await store.markPosted('job', 's1', 'a', [], { memory })).toBe(true);
    expect(await store.getValue('watch:k7p2mx')).toBe('["A"]');
  });

  it('stores small values, writing only absent ones when asked', async () => {
    expect(await store.getValue('k')).toBeUndefined();
    expect(await store.setValue('k', 'one', { ifAbsent: true })).toBe(true);
    expect(await stores[1]!.setValue('k', 'two', { ifAbsent: true })).toBe(false);
    expect(await store.getValue('k')).toBe('one');
    expect(await store.setValue('k', 'three')).toBe(true);
    expect(await stores[2]!.getValue('k')).toBe('three');
  });

  it('keeps a value with a ttl on every handle until it expires, and deletes values by key prefix', async () => {
    expect(await store.setValue('button:k7p2mx:a', 'A', { ttlMs: 60_000 })).toBe(true);
    await store.setValue('button:k7p2mx:b', 'B');
    await store.setValue('button:k7p2mxz:c', 'C');
    expect(await stores[1]!.getValue('button:k7p2mx:a')).toBe('A');
    expect(await stores[1]!.deleteValues('button:k7p2mx:')).toBe(2);
    expect(await stores[2]!.getValue('button:k7p2mx:a')).toBeUndefined();
    expect(await stores[2]!.getValue('button:k7p2mx:b')).toBeUndefined();
    expect(await stores[2]!.getValue('button:k7p2mxz:c')).toBe('C');
    // A whole key is a prefix too; glob characters in it are plain characters.
    await store.setValue('a*[b]?', 'x');
    await store.setValue('a*[b]?z', 'y');
    await store.setValue('aXbz', 'z');
    expect(await store.deleteValues('a*[b]?z')).toBe(1);
    expect(await store.getValue('a*[b]?')).toBe('x');
    expect(await store.getValue('aXbz')).toBe('z');
  });

  it('lists every value kept until deleted, on every handle, and none that expires or was claimed', async () => {
    await store.setValue('watch:k7p2mx', '{"v":2,"facts":{"seen":["A"]}}');
    await stores[1]!.setValue('delivery-pause:1100000000000000001', '1763800060000');
    await store.setValue('component:k7p2mx:Qm9vdHN0cmFwIGJ1dHRvbg', '{"command":"schedule run"}');
    await store.setValue('component:QWxsIGFib2FyZCB0aGUgYnV0', '{"command":"weather"}', { ttlMs: 60_000 });
    await store.setValue('heartbeat', '{"owner":"web-1:41","at":1763800000000}', { ttlMs: 30_000 });
    await store.claimOnce('discord:interaction:1300000000000000001', 60_000);
    await store.setValue('a*[b]?', 'glob characters are plain');
    const values = async (s: Store) => new Map(await s.durableValues());
    expect(await values(stores[2]!)).toEqual(
      new Map([
        ['watch:k7p2mx', '{"v":2,"facts":{"seen":["A"]}}'],
        ['delivery-pause:1100000000000000001', '1763800060000'],
        ['component:k7p2mx:Qm9vdHN0cmFwIGJ1dHRvbg', '{"command":"schedule run"}'],
        ['a*[b]?', 'glob characters are plain'],
      ]),
    );
    // A value written again with a ttl leaves the list; one deleted too.
    await store.setValue('watch:k7p2mx', 'x', { ttlMs: 60_000 });
    await store.deleteValues('delivery-pause:');
    expect([...(await values(store)).keys()].sort()).toEqual([
      'a*[b]?',
      'component:k7p2mx:Qm9vdHN0cmFwIGJ1dHRvbg',
    ]);
  });

  // Redis expires finished keys by itself (PEXPIRE), checked in openStore below.
  it.runIf(backend.name !== 'redis')(
    'prunes finished records but keeps pending entries and live claims',
    async () => {
      await store.claimSlot('job', 'old', 'a', 1_000);
      await store.markPosted('job', 'old', 'a', [entry('done', 'old'), entry('waiting', 'old')]);
      await store.claimDueOutbox('a', 1_000, 1);
      await store.markDelivered('done');
      await store.claimSlot('job', 'live', 'a', 10 * 24 * 3_600_000);
      t += 8 * 24 * 3_600_000;
      expect(await store.prune(7 * 24 * 3_600_000)).toBe(2);
      expect(await store.getSlot('job', 'old')).toBeUndefined();
      expect(await store.getSlot('job', 'live')).toBeDefined();
      expect((await store.listOutbox('pending')).map((e) => e.id)).toEqual(['waiting']);
      expect(await store.listOutbox('delivered')).toEqual([]);
    },
  );
});

describe('values with a ttl', () => {
  it('node:sqlite: a value expires on the store clock, counts as absent, and is pruned', async () => {
    let t = 1_763_800_000_000;
    const store = createSqliteStore(join(dir, `${randomUUID()}`, 'store.sqlite'), { now: () => t });
    await store.setValue('button:x', 'A', { ttlMs: 60_000 });
    await store.setValue('kept', 'K');
    t += 59_999;
    expect(await store.getValue('button:x')).toBe('A');
    expect(await store.setValue('button:x', 'B', { ifAbsent: true })).toBe(false);
    t += 1;
    expect(await store.getValue('button:x')).toBeUndefined();
    expect(await store.prune(0)).toBe(1);
    // Written again without a ttl, it is kept.
    expect(await store.setValue('button:x', 'C', { ifAbsent: true, ttlMs: 1_000 })).toBe(true);
    await store.setValue('button:x', 'D');
    t += 10 * 365 * 24 * 3_600_000;
    expect(await store.getValue('button:x')).toBe('D');
    expect(await store.getValue('kept')).toBe('K');
    await store.close();
  });

  it('node:sqlite: a file written before values could expire gains the column, its values kept', async () => {
    const file = join(dir, `${randomUUID()}`, 'store.sqlite');
    await createSqliteStore(file).close();
    const db = new DatabaseSync(file);
    db.exec(
      'DROP TABLE kv; CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL) STRICT',
    );
    db.prepare('INSERT INTO kv VALUES (?, ?, ?)').run('watch:k7p2mx', '["A"]', 1);
    db.close();
    const store = createSqliteStore(file);
    expect(await store.getValue('watch:k7p2mx')).toBe('["A"]');
    await store.setValue('button:x', 'A', { ttlMs: 60_000 });
    expect(await store.getValue('button:x')).toBe('A');
    await store.close();
  });

  it('Redis: the key carries the ttl (PX) and loses it when written again without one', async () => {
    const keyPrefix = `${runPrefix}${randomUUID()}:`;
    const store = await createRedisStore(REDIS_URL, { keyPrefix });
    const redis = new Redis(REDIS_URL);
    const key = `${keyPrefix}{sched}:kv:button:x`;
    await store.setValue('button:x', 'A', { ttlMs: 60_000 });
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await store.setValue('button:x', 'B', { ifAbsent: true, ttlMs: 60_000 })).toBe(false);
    await store.setValue('button:x', 'C');
    expect(await redis.pttl(key)).toBe(-1);
    await redis.del(key);
    await redis.quit();
    await store.close();
  });
});

describe('redis keys on Cluster', () => {
  it('every key a script touches carries the {sched} hash tag, so one script never spans slots', async () => {
    const keyPrefix = `${runPrefix}${randomUUID()}:`;
    const store = await createRedisStore(REDIS_URL, { keyPrefix });
    await store.claimSlot('job', 's1', 'a', 60_000);
    const memory = { key: 'watch:abc', value: 'seen' };
    await store.markPosted('job', 's1', 'a', [{ ...entry('e1', 's1'), memory }], { leaseMs: 1 });
    await enqueue(store, entry('e2'));
    expect(await store.claimDueOutbox('b', 60_000, 10, { includeBackingOff: true })).not.toEqual([]);
    await store.markDelivered('e1', 'm1', memory.key);
    await store.setValue('other', 'x');
    await store.claimOnce('interaction-1', 60_000);
    const redis = new Redis(REDIS_URL);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
    await store.close();
    // The one-key claims of claimOnce need no tag; every other key has it.
    const untagged = keys.filter((k) => !k.startsWith(`${keyPrefix}{sched}:`) && !k.includes(':claim:'));
    expect(untagged).toEqual([]);
    expect(keys).toContain(`${keyPrefix}{sched}:kv:watch:abc`);
  });
});

describe('openStore', () => {
  it('opens a node:sqlite file in WAL mode, creating its directories', async () => {
    const file = join(dir, 'nested', 'deeper', 'herald.sqlite');
    const store = await openStore({ storeUrl: file, redisUrl: undefined });
    expect(store.kind).toBe('sqlite');
    await store.close();
    const db = new DatabaseSync(file);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
  });

  it('uses Redis when STORE_URL or REDIS_URL is redis://, with keys under herald:{sched}:', async () => {
    const store = await openStore({ storeUrl: join(dir, 'unused.sqlite'), redisUrl: REDIS_URL });
    expect(store.kind).toBe('redis');
    const slotId = `prefix-check-${randomUUID()}`;
    await store.claimSlot('job', slotId, 'a', 60_000);
    await store.markPosted('job', slotId, 'a', []);
    await store.close();
    const redis = new Redis(REDIS_URL);
    // The hash tag keeps every key a script touches in one Cluster slot.
    const key = `herald:{sched}:slot:job:${slotId}`;
    expect(await redis.hget(key, 'status')).toBe('posted');
    // A posted slot is kept for the retention period, then expires by itself.
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(29 * 24 * 3_600_000);
    await redis.del(key);
    await redis.quit();
    const viaStoreUrl = await openStore({ storeUrl: REDIS_URL, redisUrl: undefined });
    expect(viaStoreUrl.kind).toBe('redis');
    await viaStoreUrl.close();
  });

  it('fails clearly when Redis cannot be reached', async () => {
    await expect(createRedisStore('redis://127.0.0.1:1', { connectTimeoutMs: 500 })).rejects.toThrow(
      'could not connect to Redis at 127.0.0.1:1',
    );
  });
});

describe.each(backends)('$name store: what a claim checks in its one step', (backend) => {
  let t = 1_763_800_000_000;
  const now = () => t;
  let stores: Store[] = [];
  let store: Store;
  const schedule = (paused = false) => ({
    id: 'k7p2mx',
    when: 'every day at 08:00',
    cron: '0 8 * * *',
    words: 'every day at 08:00',
    timezone: 'UTC',
    destination: 'default',
    command: '/jobs what:rust',
    creator: { platform: 'discord' as const, id: 'U1', displayName: 'Ada', roles: [] },
    paused,
    onlyNew: true,
    createdAt: t,
  });

  beforeEach(async () => {
    t = 1_763_800_000_000;
    stores = await backend.open(2, now);
    store = stores[0]!;
  });
  afterEach(async () => {
    for (const s of new Set(stores)) await s.close();
  });

  // The claim's decision on the slot's own record, one table for both backends (sqlite-store.ts's
  // `refusal` and its Lua twin in CLAIM): what another owner finds after each history, at start + 0.
  const rules = { maxAttempts: 2, retryDelayMs: 60_000 };
  const failedBy = async (s: Store, owner: string) => {
    await s.claimSlot('job', 's1', owner, 10_000, rules);
    await s.markFailed('job', 's1', owner, 'upstream (HTTP 503)');
  };
  const decisions: [string, (s: Store) => Promise<unknown>, (start: number) => ClaimResult][] = [
    ['no record', async () => {}, () => ({ status: 'claimed', attempt: 1 })],
    [
      'posted',
      async (s) => {
        await s.claimSlot('job', 's1', 'b', 10_000);
        await s.markPosted('job', 's1', 'b', []);
      },
      () => ({ status: 'already-posted' }),
    ],
    [
      'claimed, its lease live',
      (s) => s.claimSlot('job', 's1', 'b', 10_000),
      (start) => ({ status: 'held', owner: 'b', leaseUntil: start + 10_000 }),
    ],
    [
      'claimed, its lease over',
      async (s) => {
        await s.claimSlot('job', 's1', 'b', 10_000);
        t += 10_000;
      },
      () => ({ status: 'claimed', attempt: 2 }),
    ],
    [
      'failed, within its retry delay',
      (s) => failedBy(s, 'b'),
      (start) => ({ status: 'waiting', until: start + 60_000 }),
    ],
    [
      'failed, its retry delay passed',
      async (s) => {
        await failedBy(s, 'b');
        t += 60_000;
      },
      () => ({ status: 'claimed', attempt: 2 }),
    ],
    [
      'failed maxAttempts times',
      async (s) => {
        for (const _ of [1, 2]) {
          await failedBy(s, 'b');
          t += 60_000;
        }
      },
      () => ({ status: 'given-up' }),
    ],
    [
      'missed',
      (s) => s.markFailed('job', 's1', '', 'Missed.'),
      (start) => ({ status: 'waiting', until: start + 60_000 }),
    ],
  ];
  it.each(decisions)('decides a claim on a slot %s', async (_history, setup, expected) => {
    const start = t;
    await setup(stores[1]!);
    expect(await store.claimSlot('job', 's1', 'a', 5_000, rules)).toEqual(expected(start));
  });

  it('refuses a slot failed for good, and one waiting for its retry until the delay has passed', async () => {
    const rules = { maxAttempts: 2, retryDelayMs: 60_000 };
    await store.claimSlot('job', 's1', 'a', 5_000, rules);
    await store.markFailed('job', 's1', 'a', 'upstream (HTTP 503)');
    expect(await stores[1]!.claimSlot('job', 's1', 'b', 5_000, rules)).toEqual({
      status: 'waiting',
      until: t + 60_000,
    });
    t += 60_000;
    expect(await stores[1]!.claimSlot('job', 's1', 'b', 5_000, rules)).toEqual({
      status: 'claimed',
      attempt: 2,
    });
    await stores[1]!.markFailed('job', 's1', 'b', 'upstream (HTTP 503)');
    t += 60_000;
    expect(await store.claimSlot('job', 's1', 'a', 5_000, rules)).toEqual({ status: 'given-up' });
  });

  it('hands back the schedule and its watch memory, and refuses a schedule removed or paused', async () => {
    await store.addSchedule(schedule(), 10);
    await store.setValue('watch:k7p2mx', 'remembered');
    const rule = { schedule: { id: 'k7p2mx', memoryKey: 'watch:k7p2mx' } };
    const claim = await stores[1]!.claimSlot('schedule-k7p2mx', 's1', 'b', 5_000, rule);
    expect(claim).toMatchObject({ status: 'claimed', attempt: 1, memory: 'remembered' });
    expect(claim.status === 'claimed' && claim.schedule).toMatchObject({
      id: 'k7p2mx',
      command: '/jobs what:rust',
    });
    await store.setPaused('k7p2mx', true);
    expect(await store.claimSlot('schedule-k7p2mx', 's2', 'a', 5_000, rule)).toEqual({ status: 'gone' });
    // A manual run of a paused schedule is its asker's to make.
    const manual = { schedule: { ...rule.schedule, manual: true } };
    expect(await store.claimSlot('schedule-k7p2mx', 'manual:1', 'a', 5_000, manual)).toMatchObject({
      status: 'claimed',
    });
    await store.removeSchedule('k7p2mx');
    expect(await store.claimSlot('schedule-k7p2mx', 's3', 'a', 5_000, rule)).toEqual({ status: 'gone' });
  });

  it('runs one slot of an exclusive job at a time, on any replica, until that slot settles', async () => {
    const rules = { exclusive: true };
    expect(await store.claimSlot('schedule-w', 's1', 'a', 5_000, rules)).toMatchObject({ status: 'claimed' });
    expect(await stores[1]!.claimSlot('schedule-w', 'manual:2', 'b', 5_000, rules)).toMatchObject({
      status: 'held',
      owner: 'a',
    });
    // Another job is not held by it.
    expect(await stores[1]!.claimSlot('schedule-x', 's1', 'b', 5_000, rules)).toMatchObject({
      status: 'claimed',
    });
    await store.markPosted('schedule-w', 's1', 'a', []);
    expect(await stores[1]!.claimSlot('schedule-w', 'manual:2', 'b', 5_000, rules)).toMatchObject({
      status: 'claimed',
    });
  });

  it('records a missed slot once, and never over a slot that has a record', async () => {
    expect(await store.markFailed('job', 's1', '', 'Missed.')).toBe(true);
    expect(await stores[1]!.markFailed('job', 's1', '', 'Missed.')).toBe(false);
    expect(await store.getSlot('job', 's1')).toMatchObject({
      status: 'failed',
      owner: '',
      attempts: 1,
      error: 'Missed.',
    });
    await store.claimSlot('job', 's2', 'a', 5_000);
    expect(await store.markFailed('job', 's2', '', 'Missed.')).toBe(false);
  });
});
