// One contract, three schedule stores: node:sqlite (a temp file, several handles as several
// processes), the real Redis on 127.0.0.1:6379 (several clients as several replicas) and memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  newScheduleId,
  RUN_HISTORY,
  type ScheduleRecord,
  type ScheduleStore,
} from '../../src/core/schedules.ts';
import {
  createMemoryScheduleStore,
  createSqliteScheduleStore,
  openScheduleStore,
} from '../../src/store/index.ts';
import { createRedisScheduleStore } from '../../src/store/schedules-redis.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';

const runPrefix = testKeyPrefix();
const dir = mkdtempSync(join(tmpdir(), 'herald-schedules-'));

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await deleteKeys(runPrefix);
});

interface Backend {
  name: string;
  /** Opens `count` handles on one shared store; `reopen` opens one more later (a restart). */
  open(count: number): Promise<{ handles: ScheduleStore[]; reopen(): Promise<ScheduleStore> }>;
}

const backends: Backend[] = [
  {
    name: 'sqlite',
    open: async (count) => {
      const file = join(dir, randomUUID(), 'store.sqlite');
      const reopen = () => Promise.resolve(createSqliteScheduleStore(file));
      return { handles: await Promise.all(Array.from({ length: count }, reopen)), reopen };
    },
  },
  {
    name: 'redis',
    open: async (count) => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      const reopen = () => createRedisScheduleStore(REDIS_URL, { keyPrefix });
      return { handles: await Promise.all(Array.from({ length: count }, reopen)), reopen };
    },
  },
  {
    name: 'memory',
    open: async (count) => {
      const store = createMemoryScheduleStore();
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
    expect(await s.add(a, 50)).toBe('added');
    expect(await s.add(b, 50)).toBe('added');
    expect(await s.get(a.id)).toEqual(a);
    expect(await s.list()).toEqual([a, b]);
    expect(await s.add(a, 50)).toBe('exists');
    expect(await s.get('nope00')).toBeUndefined();
    await s.close();
  });

  it('pauses, resumes, records runs and removes; a removed schedule stays removed', async () => {
    const { handles } = await backend.open(1);
    const s = handles[0]!;
    const a = record();
    await s.add(a, 50);
    expect(await s.setPaused(a.id, true)).toBe(true);
    expect((await s.get(a.id))?.paused).toBe(true);
    expect(await s.setPaused(a.id, false)).toBe(true);
    const run = {
      slotId: '2026-03-30T05:30:00.000Z',
      at: clock,
      outcome: 'posted' as const,
      messageId: '123',
    };
    await s.recordRun(a.id, run);
    expect(await s.get(a.id)).toEqual({ ...a, paused: false, lastRun: run });
    expect(await s.remove(a.id)).toBe(true);
    expect(await s.remove(a.id)).toBe(false);
    expect(await s.setPaused(a.id, true)).toBe(false);
    await s.recordRun(a.id, run);
    expect(await s.get(a.id)).toBeUndefined();
    expect(await s.list()).toEqual([]);
    await s.close();
  });

  it('keeps the last 20 runs, newest first; a slot recorded again replaces its record', async () => {
    const { handles, reopen } = await backend.open(2);
    const [s, t] = handles as [ScheduleStore, ScheduleStore];
    const a = record();
    const other = record();
    await s.add(a, 10);
    await s.add(other, 10);
    const base = Date.parse('2026-03-27T12:00:00Z');
    for (let i = 0; i < 25; i++) {
      const slotId = new Date(base + i * 60_000).toISOString();
      await (i % 2 ? s : t).recordRun(a.id, {
        slotId,
        at: base + i * 60_000 + 300,
        outcome: 'posted',
        durationMs: 40,
      });
    }
    await s.recordRun(other.id, { slotId: 'manual:x', at: base, outcome: 'failed', error: 'It failed.' });
    let runs = await t.history(a.id);
    expect(runs).toHaveLength(RUN_HISTORY);
    expect(runs[0]!.slotId).toBe(new Date(base + 24 * 60_000).toISOString());
    expect(runs.at(-1)!.slotId).toBe(new Date(base + 5 * 60_000).toISOString());
    // A pending post delivered later: the same slot, now posted, in place.
    const slotId = new Date(base + 20 * 60_000).toISOString();
    await s.recordRun(a.id, { slotId, at: base + 20 * 60_000 + 300, outcome: 'pending', error: 'Not yet.' });
    await t.recordRun(a.id, {
      slotId,
      at: base + 30 * 60_000,
      outcome: 'posted',
      messageId: '1',
      channelId: '2',
    });
    runs = await (await reopen()).history(a.id);
    expect(runs).toHaveLength(RUN_HISTORY);
    expect(runs.filter((r) => r.slotId === slotId)).toEqual([
      { slotId, at: base + 30 * 60_000, outcome: 'posted', messageId: '1', channelId: '2' },
    ]);
    expect((await s.get(a.id))?.lastRun).toEqual(runs[0]);
    expect(await s.history(other.id)).toEqual([
      { slotId: 'manual:x', at: base, outcome: 'failed', error: 'It failed.' },
    ]);
    await s.remove(a.id);
    expect(await t.history(a.id)).toEqual([]);
    await s.recordRun(a.id, { slotId, at: base, outcome: 'posted' });
    expect(await t.history(a.id)).toEqual([]);
  });

  it('every handle sees the others’ changes, and a reopened store has them all', async () => {
    const { handles, reopen } = await backend.open(2);
    const [one, two] = handles as [ScheduleStore, ScheduleStore];
    const a = record();
    const b = record();
    await one.add(a, 50);
    await two.add(b, 50);
    await two.setPaused(a.id, true);
    expect((await one.get(a.id))?.paused).toBe(true);
    await one.remove(b.id);
    expect((await two.list()).map((r) => r.id)).toEqual([a.id]);
    await Promise.all(handles.map((h) => h.close()));
    const again = await reopen();
    expect(await again.list()).toEqual([{ ...a, paused: true }]);
    await again.close();
  });

  it('never holds more than max, even when handles add at the same time', async () => {
    const { handles } = await backend.open(2);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => handles[i % 2]!.add(record(), 3)));
    expect(results.filter((r) => r === 'added')).toHaveLength(3);
    expect(results.filter((r) => r === 'full')).toHaveLength(7);
    expect(await handles[0]!.list()).toHaveLength(3);
    await Promise.all(handles.map((h) => h.close()));
  });
});

describe('openScheduleStore', () => {
  it('picks memory, the sqlite file, or Redis as openStore does', async () => {
    const memory = await openScheduleStore({ storeUrl: ':memory:', redisUrl: undefined });
    expect(await memory.add(record(), 1)).toBe('added');
    const file = join(dir, randomUUID(), 'x.sqlite');
    const sqlite = await openScheduleStore({ storeUrl: file, redisUrl: undefined });
    await sqlite.add(record(), 5);
    expect(await createSqliteScheduleStore(file).list()).toHaveLength(1);
    const keyPrefix = `${runPrefix}${randomUUID()}:`;
    const redis = await openScheduleStore({ storeUrl: file, redisUrl: REDIS_URL }, { keyPrefix });
    expect(await redis.list()).toEqual([]);
    await Promise.all([memory.close(), sqlite.close(), redis.close()]);
  });
});
