// Schedules in process memory: for tests and `STORE_URL=:memory:`. Every method runs inside one
// call, so each is atomic; records are copied in and out, as a real store would.
import { withRun, type ScheduleRecord, type ScheduleRun, type ScheduleStore } from '../schedule/schedules.ts';

export function createMemoryScheduleStore(): ScheduleStore {
  const records = new Map<string, ScheduleRecord>();
  const runs = new Map<string, ScheduleRun[]>();
  /** The next fire time of each schedule not paused (the index the other stores keep). */
  const next = new Map<string, number>();
  const copy = <T>(v: T): T => structuredClone(v);
  return {
    list: () => Promise.resolve([...records.values()].map(copy)),
    due(t, limit) {
      const ids = [...next].filter(([, at]) => at <= t).sort((a, b) => a[1] - b[1]);
      return Promise.resolve(ids.slice(0, limit).map(([id]) => copy(records.get(id)!)));
    },
    setNextRuns(times) {
      for (const [id, at] of times) if (next.has(id)) next.set(id, at);
      return Promise.resolve();
    },
    get: (id) => Promise.resolve(records.has(id) ? copy(records.get(id)) : undefined),
    add(record, max) {
      if (records.has(record.id)) return Promise.resolve('exists');
      if (records.size >= max) return Promise.resolve('full');
      records.set(record.id, copy(record));
      if (!record.paused) next.set(record.id, record.createdAt);
      return Promise.resolve('added');
    },
    remove(id) {
      runs.delete(id);
      next.delete(id);
      return Promise.resolve(records.delete(id));
    },
    setPaused(id, paused) {
      const r = records.get(id);
      if (r) {
        r.paused = paused;
        if (paused) next.delete(id);
        else next.set(id, 0);
      }
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
