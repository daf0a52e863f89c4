// A manual slot never moves its schedule's next fire time, so it never computes one: a schedule
// whose zone this ICU no longer knows still runs and records a manual run.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { replica, startWorld, type World } from './world.ts';

let nowMs = Date.parse('2026-03-27T12:00:10Z');
const now = () => new Date(nowMs);
let world: World;
let store: Store;
beforeEach(async () => {
  nowMs = Date.parse('2026-03-27T12:00:10Z');
  store = createMemoryStore({ now: () => nowMs });
  world = await startWorld({ now, store, settings: { minIntervalMinutes: 1 } });
});
afterEach(() => world.close());

it('a manual run that posted is reported posted, even when its schedule has no next fire time to compute', async () => {
  await world.type('/schedule add hourly /voices');
  const [added] = await world.store.listSchedules();
  // A stored zone this ICU no longer knows (an import, an ICU update): the slot itself needs no zone.
  const record = { ...added!, timezone: 'Gone/Zone' };
  await world.store.removeSchedule(record.id);
  await world.store.addSchedule(record, 10);
  const outcome = await replica(world, store, { now, owner: 'manual' }).runManual(record);
  expect(world.inbox.messages).toHaveLength(1);
  expect(outcome.status).toBe('posted');
  expect((await world.store.history(record.id)).map((r) => r.outcome)).toEqual(['posted']);
});
