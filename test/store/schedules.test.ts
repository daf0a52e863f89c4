// One contract, three schedule stores: node:sqlite (a temp file, several handles as several
// processes), the real Redis on 127.0.0.1:6379 (several clients as several replicas) and memory.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spawn-herald.ts';
import { newScheduleId, RUN_HISTORY, type ScheduleRecord } from '../../src/schedule/schedules.ts';
import { createMemoryStore, createSqliteStore, openStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';

const { dir, runPrefix } = storeScratch('herald-schedules-');

interface Backend {
  name: string;
  /** Opens `count` handles on one shared store; `reopen` opens one more later (a restart). */
  open(count: number): Promise<{ handles: Store[]; reopen(): Promise<Store> }>;
}

const backends: Backend[] = [
  {
    name: 'sqlite',
    open: async (count) => {
      const file = join(dir, randomUUID(), 'store.sqlite');
      const reopen = () => Promise.resolve(createSqliteStore(file));
      return { handles: await Promise.all(Array.from({ length: count }, reopen)), reopen };
    },
  },
  {
    name: 'redis',
    open: async (count) => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      const reopen = () => createRedisStore(REDIS_URL, { keyPrefix });
      return { handles: await Promise.all(Array.from({ length: count }, reopen)), reopen };
    },
  },
  {
    name: 'memory',
    open: async (count) => {
      const store = createMemoryStore();
      return { handles: Array.from({ length: count }, () => store), reopen: () => Promise.resolve(store) };
    },
  },
];

let clock = 1_700_000_000_000;
function record(overrides: Partial<ScheduleRecord> = {}): ScheduleRecord {
  clock += 1000;
  return {
    id: newScheduleId(),
    when: 'every weekday at 07:30',
    cron: '30 7 * * 1-5',
    words: 'every weekday (Monday to Friday) at 07:30',
    timezone: 'Europe/Berlin',
    destination: 'default',
    command: '/weather Oslo units:imperial',
    creator: { platform: 'discord', id: 'U1', displayName: 'Ada', roles: [] },
    paused: false,
    createdAt: clock,
    ...overrides,
  };
}

describe.each(backends)('schedule store: $name', (backend) => {
  it('adds, gets and lists in the order added, with every field kept', async () => {
    const { handles } = await backend.open(1);
    const s = handles[0]!;
    const a = record();
    const b = record({ creator: { platform: 'discord', id: 'U2', displayName: 'Bo', roles: ['R1'] } });
    expect(await s.addSchedule(a, 50)).toBe('added');
    expect(await s.addSchedule(b, 50)).toBe('added');
    expect(await s.getSchedule(a.id)).toEqual(a);
    expect(await s.listSchedules()).toEqual([a, b]);
    expect(await s.addSchedule(a, 50)).toBe('exists');
    expect(await s.getSchedule('nope00')).toBeUndefined();
    await s.close();
  });

  it("keeps a Discord channel destination's guild across a reopen, and loads one added without it", async () => {
    const { handles, reopen } = await backend.open(1);
    const s = handles[0]!;
    const destination = 'channel:discord:1187421520894746711';
    const withGuild = record({ destination, guildId: '1187421520894746700' });
    const before = record({ destination });
    expect(await s.addSchedule(withGuild, 50)).toBe('added');
    expect(await s.addSchedule(before, 50)).toBe('added');
    const again = await reopen();
    expect(await again.getSchedule(withGuild.id)).toEqual(withGuild);
    expect(await again.getSchedule(before.id)).toEqual(before);
    expect((await again.getSchedule(before.id))?.guildId).toBeUndefined();
    await again.close();
    if (again !== s) await s.close();
  });

  it('pauses, resumes, records runs and removes; a removed schedule stays removed', async () => {
    const { handles } = await backend.open(1);
    const s = handles[0]!;
    const a = record();
    await s.addSchedule(a, 50);
    expect(await s.setPaused(a.id, true)).toBe(true);
    expect((await s.getSchedule(a.id))?.paused).toBe(true);
    expect(await s.setPaused(a.id, false)).toBe(true);
    const run = {
      slotId: '2026-03-30T05:30:00.000Z',
      at: clock,
      outcome: 'posted' as const,
      messageId: '123',
    };
    await s.recordRuns(a.id, [run]);
    expect(await s.getSchedule(a.id)).toEqual({ ...a, paused: false, lastRun: run });
    expect(await s.removeSchedule(a.id)).toBe(true);
    expect(await s.removeSchedule(a.id)).toBe(false);
    expect(await s.setPaused(a.id, true)).toBe(false);
    await s.recordRuns(a.id, [run]);
    expect(await s.getSchedule(a.id)).toBeUndefined();
    expect(await s.listSchedules()).toEqual([]);
    await s.close();
  });

  it('keeps the last 20 runs, newest first; a slot recorded again replaces its record', async () => {
    const { handles, reopen } = await backend.open(2);
    const [s, t] = handles as [Store, Store];
    const a = record();
    const other = record();
    await s.addSchedule(a, 10);
    await s.addSchedule(other, 10);
    const base = Date.parse('2026-03-27T12:00:00Z');
    for (let i = 0; i < 25; i++) {
      const slotId = new Date(base + i * 60_000).toISOString();
      await (i % 2 ? s : t).recordRuns(a.id, [
        {
          slotId,
          at: base + i * 60_000 + 300,
          outcome: 'posted',
          durationMs: 40,
        },
      ]);
    }
    await s.recordRuns(other.id, [{ slotId: 'manual:x', at: base, outcome: 'failed', error: 'It failed.' }]);
    let runs = await t.history(a.id);
    expect(runs).toHaveLength(RUN_HISTORY);
    expect(runs[0]!.slotId).toBe(new Date(base + 24 * 60_000).toISOString());
    expect(runs.at(-1)!.slotId).toBe(new Date(base + 5 * 60_000).toISOString());
    // A pending post delivered later: the same slot, now posted, in place.
    const slotId = new Date(base + 20 * 60_000).toISOString();
    await s.recordRuns(a.id, [
      { slotId, at: base + 20 * 60_000 + 300, outcome: 'pending', error: 'Not yet.' },
    ]);
    await t.recordRuns(a.id, [
      {
        slotId,
        at: base + 30 * 60_000,
        outcome: 'posted',
        messageId: '1',
        channelId: '2',
      },
    ]);
    runs = await (await reopen()).history(a.id);
    expect(runs).toHaveLength(RUN_HISTORY);
    expect(runs.filter((r) => r.slotId === slotId)).toEqual([
      { slotId, at: base + 30 * 60_000, outcome: 'posted', messageId: '1', channelId: '2' },
    ]);
    expect((await s.getSchedule(a.id))?.lastRun).toEqual(runs[0]);
    expect(await s.history(other.id)).toEqual([
      { slotId: 'manual:x', at: base, outcome: 'failed', error: 'It failed.' },
    ]);
    await s.removeSchedule(a.id);
    expect(await t.history(a.id)).toEqual([]);
    await s.recordRuns(a.id, [{ slotId, at: base, outcome: 'posted' }]);
    expect(await t.history(a.id)).toEqual([]);
  });

  it('records several runs in one step as one by one, the index left as it is', async () => {
    const { handles } = await backend.open(2);
    const [s, t] = handles as [Store, Store];
    const [a, b] = [record(), record()];
    await s.addSchedule(a, 10);
    await s.addSchedule(b, 10);
    const base = Date.parse('2026-03-27T07:30:00Z');
    const runs = Array.from({ length: 24 }, (_, i) => ({
      slotId: new Date(base + i * 86_400_000).toISOString(),
      at: base + i * 86_400_000 + 900,
      outcome: 'posted' as const,
      messageId: String(1_300_000_000_000_000_000n + BigInt(i)),
    }));
    await s.recordRuns(a.id, runs.slice(0, 12));
    await t.recordRuns(a.id, runs.slice(10));
    for (const run of runs) await s.recordRuns(b.id, [run]);
    expect(await t.history(a.id)).toEqual(await s.history(b.id));
    expect(await t.history(a.id)).toHaveLength(RUN_HISTORY);
    expect((await t.getSchedule(a.id))?.lastRun).toEqual(runs.at(-1));
    // Again: the same store (a slot's run replaces its record).
    await s.recordRuns(a.id, runs);
    expect(await t.history(a.id)).toEqual(await s.history(b.id));
    expect((await t.dueSchedules(b.createdAt, 10)).map((r) => r.id)).toEqual([a.id, b.id]);
    await s.recordRuns(a.id, []);
    expect(await t.history(a.id)).toHaveLength(RUN_HISTORY);
    await s.removeSchedule(b.id);
    await s.recordRuns(b.id, runs);
    expect(await t.history(b.id)).toEqual([]);
  });

  it('every handle sees the others’ changes, and a reopened store has them all', async () => {
    const { handles, reopen } = await backend.open(2);
    const [one, two] = handles as [Store, Store];
    const a = record();
    const b = record();
    await one.addSchedule(a, 50);
    await two.addSchedule(b, 50);
    await two.setPaused(a.id, true);
    expect((await one.getSchedule(a.id))?.paused).toBe(true);
    await one.removeSchedule(b.id);
    expect((await two.listSchedules()).map((r) => r.id)).toEqual([a.id]);
    await Promise.all(handles.map((h) => h.close()));
    const again = await reopen();
    expect(await again.listSchedules()).toEqual([{ ...a, paused: true }]);
    await again.close();
  });

  it('never holds more than max, even when handles add at the same time', async () => {
    const { handles } = await backend.open(2);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => handles[i % 2]!.addSchedule(record(), 3)),
    );
    expect(results.filter((r) => r === 'added')).toHaveLength(3);
    expect(results.filter((r) => r === 'full')).toHaveLength(7);
    expect(await handles[0]!.listSchedules()).toHaveLength(3);
    await Promise.all(handles.map((h) => h.close()));
  });
});

describe.each(backends)('the next-fire index: $name', (backend) => {
  it('gives the schedules due by a time, soonest first, and follows add, pause, resume, run and remove', async () => {
    const { handles } = await backend.open(2);
    const [one, two] = handles as [Store, Store];
    const a = record();
    const b = record();
    const paused = record({ paused: true });
    for (const r of [a, b, paused]) await one.addSchedule(r, 50);
    // Added: looked at once from its creation.
    expect(await two.dueSchedules(a.createdAt - 1, 10)).toEqual([]);
    expect((await two.dueSchedules(b.createdAt, 10)).map((r) => r.id)).toEqual([a.id, b.id]);
    expect(await two.dueSchedules(b.createdAt, 1)).toEqual([a]);
    // Run: moved on to its next fire time.
    await two.setNextRuns(
      new Map([
        [a.id, b.createdAt + 60_000],
        [b.id, b.createdAt + 30_000],
      ]),
    );
    expect(await one.dueSchedules(b.createdAt + 29_999, 10)).toEqual([]);
    expect((await one.dueSchedules(b.createdAt + 60_000, 10)).map((r) => r.id)).toEqual([b.id, a.id]);
    // Paused: out of the index, and a late move by a tick does not bring it back.
    await one.setPaused(a.id, true);
    await two.setNextRuns(new Map([[a.id, 0]]));
    expect((await one.dueSchedules(Number.MAX_SAFE_INTEGER, 10)).map((r) => r.id)).toEqual([b.id]);
    // Resumed: due at once, with its record as it is now.
    await two.setPaused(a.id, false);
    await one.recordRuns(a.id, [{ slotId: 's', at: 1, outcome: 'posted' }]);
    const [first] = await one.dueSchedules(0, 10);
    expect(first).toEqual({ ...a, paused: false, lastRun: { slotId: 's', at: 1, outcome: 'posted' } });
    // Removed: gone from the index; a late move does not bring it back.
    await one.removeSchedule(b.id);
    await two.setNextRuns(new Map([[b.id, 0]]));
    expect((await one.dueSchedules(Number.MAX_SAFE_INTEGER, 10)).map((r) => r.id)).toEqual([a.id]);
    await Promise.all(handles.map((h) => h.close()));
  });
});

describe('the next-fire index over data written before it', () => {
  it('sqlite: a schedules table without the column gets it, every schedule not paused due at once', async () => {
    const file = join(dir, randomUUID(), 'old.sqlite');
    const first = createSqliteStore(file);
    await first.close();
    const a = record();
    const p = record({ paused: true });
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE schedules');
    db.exec(
      'CREATE TABLE schedules (id TEXT PRIMARY KEY, record TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT',
    );
    const insert = db.prepare('INSERT INTO schedules (id, record, created_at) VALUES (?, ?, ?)');
    for (const r of [a, p]) insert.run(r.id, JSON.stringify(r), r.createdAt);
    db.close();
    const s = createSqliteStore(file);
    expect(await s.dueSchedules(0, 10)).toEqual([a]);
    await s.close();
  });

  it('sqlite: processes opening an older file at once migrate it one after another, each opening it', async () => {
    const file = join(dir, randomUUID(), 'old.sqlite');
    await createSqliteStore(file).close();
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE schedules');
    db.exec(
      'CREATE TABLE schedules (id TEXT PRIMARY KEY, record TEXT NOT NULL, created_at INTEGER NOT NULL)',
    );
    // The write lock held until both have started opening: a migration that read the columns
    // outside it would find next_run_at missing in both, and the second's ALTER would fail.
    db.exec('BEGIN IMMEDIATE');
    const code = `import { createSqliteStore } from ${JSON.stringify(join(ROOT, 'src/store/sqlite-store.ts'))};
      console.log('opening'); await createSqliteStore(${JSON.stringify(file)}).close(); console.log('opened');`;
    const opens = [0, 1].map(() => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', code]);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const started = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const ended = new Promise<string>((resolve) => child.on('close', () => resolve(out.trim())));
      return { started, ended };
    });
    await Promise.all(opens.map((o) => o.started));
    await new Promise((resolve) => setTimeout(resolve, 300));
    db.exec('COMMIT');
    db.close();
    expect(await Promise.all(opens.map((o) => o.ended))).toEqual(['opening\nopened', 'opening\nopened']);
  });

  it('redis: keys from before the hash tag are renamed once, and their schedules enter the index', async () => {
    const keyPrefix = `${runPrefix}${randomUUID()}:`;
    const redis = new Redis(REDIS_URL);
    const a = record();
    const { paused: _p, ...rest } = a;
    await redis.hset(`${keyPrefix}schedules`, a.id, JSON.stringify(rest));
    await redis.hset(`${keyPrefix}kv:watch:${a.id}`, 'x', '1');
    await redis.set(`${keyPrefix}kv:memory`, 'seen');
    await redis.hset(`${keyPrefix}slot:schedule-${a.id}:2026-03-27T12:00:00.000Z`, 'status', 'posted');
    const s = await createRedisStore(REDIS_URL, { keyPrefix });
    expect(await s.dueSchedules(0, 10)).toEqual([a]);
    expect(await redis.exists(`${keyPrefix}schedules`)).toBe(0);
    expect(await redis.get(`${keyPrefix}{sched}:kv:memory`)).toBe('seen');
    const slot = `${keyPrefix}{sched}:slot:schedule-${a.id}:2026-03-27T12:00:00.000Z`;
    expect(await redis.hget(slot, 'status')).toBe('posted');
    await s.close();
    await redis.quit();
  });
});

describe('openStore', () => {
  it('picks memory, the sqlite file, or Redis as openStore does', async () => {
    const memory = await openStore({ storeUrl: ':memory:', redisUrl: undefined });
    expect(await memory.addSchedule(record(), 1)).toBe('added');
    const file = join(dir, randomUUID(), 'x.sqlite');
    const sqlite = await openStore({ storeUrl: file, redisUrl: undefined });
    await sqlite.addSchedule(record(), 5);
    expect(await createSqliteStore(file).listSchedules()).toHaveLength(1);
    const keyPrefix = `${runPrefix}${randomUUID()}:`;
    const redis = await openStore({ storeUrl: file, redisUrl: REDIS_URL }, { keyPrefix });
    expect(await redis.listSchedules()).toEqual([]);
    await Promise.all([memory.close(), sqlite.close(), redis.close()]);
  });
});
