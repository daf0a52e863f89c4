// Due slots found by time: a tick asks the store's next-fire index for what is due, on every
// backend (memory, a node:sqlite file, the real Redis on 127.0.0.1:6379), so that with 10,000
// schedules stored and none due it costs a few store round trips; catch-up after downtime still
// finds each schedule's latest missed slot. Round trips are counted on wrapped stores, not timed.
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newScheduleId, type ScheduleRecord } from '../../src/schedule/schedules.ts';
import { createScheduleRunner } from '../../src/schedule/runner.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';
import { MANAGER, SILENT_LOG, replica, startWorld } from './world.ts';

const { dir, runPrefix } = storeScratch('herald-due-');

let nowMs = Date.parse('2026-03-27T12:00:10Z');
const now = () => new Date(nowMs);

interface Backend {
  name: string;
  open(): Promise<{ store: Store; schedules: Store }>;
}

/** The one store, under the name the tests read schedules by. */
const both = (store: Store) => ({ store, schedules: store });

const backends: Backend[] = [
  {
    name: 'memory',
    open: () => Promise.resolve(both(createMemoryStore({ now: () => nowMs }))),
  },
  {
    name: 'sqlite',
    open: () => {
      const file = join(dir, randomUUID(), 'store.sqlite');
      return Promise.resolve(both(createSqliteStore(file, { now: () => nowMs })));
    },
  },
  {
    name: 'redis',
    open: async () => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      return both(await createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix }));
    },
  },
];

/** `target` with every method call counted: one call is one round trip to the store. */
function counted<T extends object>(target: T, calls: string[]): T {
  return new Proxy(target, {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

function daily(createdAt: number): ScheduleRecord {
  return {
    id: newScheduleId() + newScheduleId(),
    when: 'every day at 07:00',
    cron: '0 7 * * *',
    words: 'every day at 07:00',
    timezone: 'Europe/Berlin',
    destination: 'default',
    command: '/weather Oslo',
    creator: MANAGER,
    paused: false,
    createdAt,
  };
}

describe.each(backends)('the tick on a $name store', (backend) => {
  it('with 10,000 schedules stored and none due makes at most 3 store round trips', async () => {
    nowMs = Date.parse('2026-03-27T12:00:10Z');
    const { store, schedules } = await backend.open();
    const created = nowMs - 60_000;
    for (let i = 0; i < 10_000; i += 500)
      await Promise.all(Array.from({ length: 500 }, () => schedules.addSchedule(daily(created), 20_000)));
    const calls: string[] = [];
    const runner = createScheduleRunner({
      store: counted(store, calls),
      services: {},
      log: SILENT_LOG,
      now,
      owner: 'replica-a',
      catchupMinutes: 360,
    });
    // The first tick looks at each new schedule once and moves it on to tomorrow's 07:00.
    expect(await runner.tick()).toEqual([]);
    expect(calls.filter((c) => c === 'getSlot')).toEqual([]);
    nowMs += 15_000;
    calls.length = 0;
    expect(await runner.tick()).toEqual([]);
    expect(calls.length).toBeLessThanOrEqual(3);
    expect(calls).toContain('dueSchedules');
    expect(calls).not.toContain('listSchedules');
    // Tomorrow's 07:00 Berlin (06:00 UTC in March before the change) is due for them all.
    expect(await schedules.dueSchedules(Date.parse('2026-03-28T05:59:59Z'), 10)).toEqual([]);
    expect(await schedules.dueSchedules(Date.parse('2026-03-28T06:00:00Z'), 20_000)).toHaveLength(10_000);
    await runner.stop();
    await store.close();
  }, 60_000);

  it('after 10 minutes down posts each schedule’s latest missed slot once, then waits for the next', async () => {
    nowMs = Date.parse('2026-03-27T12:00:10Z');
    const { store, schedules } = await backend.open();
    const world = await startWorld({ now, store: schedules, settings: { minIntervalMinutes: 1 } });
    try {
      await world.type('/schedule add "* * * * *" /weather Oslo', MANAGER);
      await world.type('/schedule add "*/5 * * * *" /weather Bergen', MANAGER);
      const before = replica(world, store, { now, owner: 'a' });
      nowMs = Date.parse('2026-03-27T12:01:00.300Z');
      expect((await before.tick()).map((o) => o.status)).toEqual(['posted']);
      await before.stop();
      // Down from 12:01:01 to 12:11:30: 12:02…12:11 and 12:05, 12:10 were missed.
      nowMs = Date.parse('2026-03-27T12:11:30Z');
      const after = replica(world, store, { now, owner: 'b' });
      const outcomes = await after.tick();
      expect(outcomes.map((o) => [o.status, o.slotId]).sort()).toEqual([
        ['posted', '2026-03-27T12:10:00.000Z'],
        ['posted', '2026-03-27T12:11:00.000Z'],
      ]);
      expect(world.inbox.messages).toHaveLength(3);
      nowMs += 15_000;
      expect(await after.tick()).toEqual([]);
      // Each moved on to its next fire time: nothing is due before 12:12.
      expect(await schedules.dueSchedules(Date.parse('2026-03-27T12:11:59Z'), 10)).toEqual([]);
      expect(await schedules.dueSchedules(Date.parse('2026-03-27T12:12:00Z'), 10)).toHaveLength(1);
      await after.stop();
    } finally {
      await world.close();
      await store.close();
    }
  });
});
