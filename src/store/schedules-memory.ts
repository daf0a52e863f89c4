// Schedules in process memory: for tests and `STORE_URL=:memory:`. Every method runs inside one
// call, so each is atomic; records are copied in and out, as a real store would.
import { withRun, type ScheduleRecord, type ScheduleRun, type ScheduleStore } from '../core/schedules.ts';

export function createMemoryScheduleStore(): ScheduleStore {
  const records = new Map<string, ScheduleRecord>();
  const runs = new Map<string, ScheduleRun[]>();
  const copy = <T>(v: T): T => structuredClone(v);
  return {
    list: () => Promise.resolve([...records.values()].map(copy)),
    get: (id) => Promise.resolve(records.has(id) ? copy(records.get(id)) : undefined),
    add(record, max) {
      if (records.has(record.id)) return Promise.resolve('exists');
      if (records.size >= max) return Promise.resolve('full');
      records.set(record.id, copy(record));
      return Promise.resolve('added');
    },
    remove(id) {
      runs.delete(id);
      return Promise.resolve(records.delete(id));
    },
    setPaused(id, paused) {
      const r = records.get(id);
      if (r) r.paused = paused;
      return Promise.resolve(r !== undefined);
    },
    recordRun(id, run) {
      const r = records.get(id);
      if (!r) return Promise.resolve();
      const kept = withRun(runs.get(id) ?? [], copy(run));
      runs.set(id, kept);
      r.lastRun = copy(kept[0]!);
      return Promise.resolve();
    },
    history: (id) => Promise.resolve(copy(runs.get(id) ?? [])),
    close: () => Promise.resolve(),
  };
}
