// Schedules in the node:sqlite file the store uses (its own connection; WAL lets several share it).
// Each record is one JSON row; the count check and the insert run in one BEGIN IMMEDIATE
// transaction, so two processes adding at once can never pass SCHEDULE_MAX together.
import { immediateTransaction, openSqlite } from './connect.ts';
import {
  withRun,
  type AddResult,
  type ScheduleRecord,
  type ScheduleRun,
  type ScheduleStore,
} from '../core/schedules.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS schedules (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS schedule_runs (
  id TEXT PRIMARY KEY,
  runs TEXT NOT NULL
) STRICT;
`;

export function createSqliteScheduleStore(path: string): ScheduleStore {
  const db = openSqlite(path);
  db.exec(SCHEMA);
  const q = {
    list: db.prepare('SELECT record FROM schedules ORDER BY created_at, id'),
    get: db.prepare('SELECT record FROM schedules WHERE id = ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM schedules'),
    insert: db.prepare('INSERT OR IGNORE INTO schedules (id, record, created_at) VALUES (?, ?, ?)'),
    update: db.prepare('UPDATE schedules SET record = ? WHERE id = ?'),
    remove: db.prepare('DELETE FROM schedules WHERE id = ?'),
    runs: db.prepare('SELECT runs FROM schedule_runs WHERE id = ?'),
    setRuns: db.prepare('INSERT OR REPLACE INTO schedule_runs (id, runs) VALUES (?, ?)'),
    removeRuns: db.prepare('DELETE FROM schedule_runs WHERE id = ?'),
  };
  const parse = (row: unknown): ScheduleRecord | undefined =>
    row === undefined ? undefined : (JSON.parse((row as { record: string }).record) as ScheduleRecord);

  const runsOf = (id: string): ScheduleRun[] => {
    const row = q.runs.get(id) as { runs: string } | undefined;
    return row === undefined ? [] : (JSON.parse(row.runs) as ScheduleRun[]);
  };
  const tx = <T>(fn: () => T): T => immediateTransaction(db, fn);
  const run = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  };
  /** Reads, changes and writes one record in one transaction; false when it is gone. */
  const change = (id: string, fn: (r: ScheduleRecord) => void): boolean =>
    tx(() => {
      const r = parse(q.get.get(id));
      if (!r) return false;
      fn(r);
      q.update.run(JSON.stringify(r), id);
      return true;
    });

  return {
    list: () => run(() => q.list.all().map((row) => parse(row)!)),
    get: (id) => run(() => parse(q.get.get(id))),
    add: (record, max) =>
      run(() =>
        tx((): AddResult => {
          if (q.get.get(record.id) !== undefined) return 'exists';
          if ((q.count.get() as { n: number }).n >= max) return 'full';
          q.insert.run(record.id, JSON.stringify(record), record.createdAt);
          return 'added';
        }),
      ),
    remove: (id) =>
      run(() =>
        tx(() => {
          q.removeRuns.run(id);
          return Number(q.remove.run(id).changes) > 0;
        }),
      ),
    setPaused: (id, paused) => run(() => change(id, (r) => void (r.paused = paused))),
    recordRun: (id, lastRun) =>
      run(() => {
        // One transaction: the record's last run and its history cannot disagree.
        change(id, (r) => {
          const kept = withRun(runsOf(id), lastRun);
          q.setRuns.run(id, JSON.stringify(kept));
          r.lastRun = kept[0]!;
        });
      }),
    history: (id) => run(() => runsOf(id)),
    close: () =>
      run(() => {
        if (db.isOpen) db.close();
      }),
  };
}
