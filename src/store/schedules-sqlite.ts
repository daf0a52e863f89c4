// Schedules in the node:sqlite file the store uses (its own connection; WAL lets several share it).
// Each record is one JSON row; the count check and the insert run in one BEGIN IMMEDIATE
// transaction, so two processes adding at once can never pass SCHEDULE_MAX together. The indexed
// `next_run_at` column is the next fire time (NULL while paused): a tick reads only the due rows.
import { immediateTransaction, openSqlite } from './connect.ts';
import {
  withRun,
  type AddResult,
  type ScheduleRecord,
  type ScheduleRun,
  type ScheduleStore,
} from '../schedule/schedules.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS schedules (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  next_run_at INTEGER
) STRICT;
CREATE TABLE IF NOT EXISTS schedule_runs (
  id TEXT PRIMARY KEY,
  runs TEXT NOT NULL
) STRICT;
`;

/** Adds the next-fire index to a file written before it: every schedule not paused is looked at once. */
function migrate(db: ReturnType<typeof openSqlite>): void {
  const columns = db.prepare('PRAGMA table_info(schedules)').all() as unknown as { name: string }[];
  if (!columns.some((c) => c.name === 'next_run_at')) {
    db.exec('ALTER TABLE schedules ADD COLUMN next_run_at INTEGER');
    db.exec(
      "UPDATE schedules SET next_run_at = CASE WHEN json_extract(record, '$.paused') THEN NULL ELSE 0 END",
    );
  }
  db.exec('CREATE INDEX IF NOT EXISTS schedules_next ON schedules (next_run_at)');
}

export function createSqliteScheduleStore(path: string): ScheduleStore {
  const db = openSqlite(path);
  db.exec(SCHEMA);
  migrate(db);
  const q = {
    list: db.prepare('SELECT record FROM schedules ORDER BY created_at, id'),
    get: db.prepare('SELECT record FROM schedules WHERE id = ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM schedules'),
    insert: db.prepare(
      'INSERT OR IGNORE INTO schedules (id, record, created_at, next_run_at) VALUES (?, ?, ?, ?)',
    ),
    due: db.prepare('SELECT record FROM schedules WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?'),
    setNext: db.prepare('UPDATE schedules SET next_run_at = ? WHERE id = ? AND next_run_at IS NOT NULL'),
    setPausedNext: db.prepare('UPDATE schedules SET next_run_at = ? WHERE id = ?'),
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
          const next = record.paused ? null : record.createdAt;
          q.insert.run(record.id, JSON.stringify(record), record.createdAt, next);
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
    due: (t, limit) => run(() => q.due.all(t, limit).map((row) => parse(row)!)),
    setNextRuns: (next) =>
      run(() => {
        if (next.size === 0) return;
        tx(() => {
          for (const [id, at] of next) q.setNext.run(at, id);
        });
      }),
    // Paused leaves the index; resumed is looked at by the next tick (0: due at once).
    setPaused: (id, paused) =>
      run(() =>
        change(id, (r) => {
          r.paused = paused;
          q.setPausedNext.run(paused ? null : 0, id);
        }),
      ),
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
