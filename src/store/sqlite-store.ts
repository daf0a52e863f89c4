// The default store: one node:sqlite file (https://nodejs.org/api/sqlite.html), in WAL mode so
// that several processes may share it, or `:memory:` (tests, and a bot that keeps nothing). Every
// read-then-write runs inside a BEGIN IMMEDIATE transaction, which takes the write lock before
// reading, so two claimers can never both see a slot as free, and two processes adding schedules
// at once can never pass SCHEDULE_MAX together. A schedule is one JSON row; the indexed
// `next_run_at` column is its next fire time (NULL while paused): a tick reads only the due rows.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { openStoreFile, outboxStatements, SET_VALUE, slotStatements } from './sqlite-file.ts';
import { RUN_HISTORY, type AddResult, type ScheduleRecord, type ScheduleRun } from '../schedule/schedules.ts';
import {
  entryOf,
  slotOf,
  type ClaimResult,
  type ClaimRules,
  type NewOutboxEntry,
  type SlotRecord,
  type OutboxStore,
  type ScheduleStore,
  type SlotStore,
  type Store,
  type StoreOptions,
  type StoredFields,
} from './store.ts';

/** Runs `fn` holding the write lock (BEGIN IMMEDIATE), so its reads and writes are one atomic step. */
function immediateTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** Runs `fn` as one atomic step, as a Store method: what it throws is a rejection. */
const atomic = <T>(db: DatabaseSync, fn: () => T): Promise<T> => run(() => immediateTransaction(db, fn));

/** What the SQLite store's parts share: the open database and the clock. */
interface SqliteContext {
  db: DatabaseSync;
  now: () => number;
}

const changed = (r: { changes: number | bigint }) => Number(r.changes) > 0;

/** Runs `fn`, turning what it throws into a rejection (the Store methods never throw synchronously). */
function run<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * Inserts a new pending entry unless its id exists: due at `t`, or leased to `lease.owner` until
 * `lease.until` (one attempt counted, in flight from `t`).
 */
function insertEntry(
  addEntry: StatementSync,
  e: NewOutboxEntry,
  t: number,
  lease?: { owner: string; until: number },
) {
  const held = lease ? [1, lease.until, lease.owner, t] : [0, t, '', null];
  const memory = [e.memory?.key ?? null, e.memory?.value ?? null];
  addEntry.run(e.id, e.job, e.slotId, e.kind, JSON.stringify(e.payload), ...held, ...memory, t, t);
}

/** Opens (creating it and its directory if needed) the store file at `path`; `:memory:` works too. */
export function createSqliteStore(path: string, opts: StoreOptions & { kind?: 'memory' } = {}): Store {
  const now = opts.now ?? Date.now;
  const db = openStoreFile(path);
  const ctx: SqliteContext = { db, now };

  const q = {
    get: db.prepare('SELECT value FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)'),
    set: db.prepare(SET_VALUE),
    setExpiring: db.prepare(
      `INSERT INTO kv (key, value, updated_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
       expires_at = excluded.expires_at`,
    ),
    // An expired value counts as absent.
    setIfAbsent: db.prepare(
      `INSERT INTO kv (key, value, updated_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
       expires_at = excluded.expires_at WHERE kv.expires_at IS NOT NULL AND kv.expires_at <= ?`,
    ),
    // A range of the primary key, from the prefix to the prefix and the last code point (herald's
    // keys are ASCII, so none that starts with the prefix lies past it), then the exact test.
    deleteRange: db.prepare(
      'DELETE FROM kv WHERE key >= ?1 AND key <= ?1 || char(1114111) AND substr(key, 1, length(?1)) = ?1',
    ),
    pruneValues: db.prepare('DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?'),
    // Inserts a new claim or takes over an expired one; a live claim is left as it is (no change).
    claim: db.prepare(
      `INSERT INTO claims (key, expires_at) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE claims.expires_at <= ?`,
    ),
    pruneClaims: db.prepare('DELETE FROM claims WHERE expires_at <= ?'),
    appendLog: db.prepare('INSERT INTO logs (key, value) VALUES (?, ?)'),
    // Past the latest `keep`: nothing when the log is shorter (the subquery is NULL).
    trimLog: db.prepare(
      'DELETE FROM logs WHERE key = ?1 AND seq <= (SELECT seq FROM logs WHERE key = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)',
    ),
    readLog: db.prepare('SELECT value FROM logs WHERE key = ? ORDER BY seq DESC LIMIT ?'),
    pruneSlots: db.prepare(`DELETE FROM slots WHERE status != 'claimed' AND updated_at < ?`),
    pruneOutbox: db.prepare(`DELETE FROM outbox WHERE status != 'pending' AND updated_at < ?`),
  };

  return {
    kind: opts.kind ?? 'sqlite',
    ...sqliteSchedules(ctx),
    ...sqliteSlots(ctx),
    ...sqliteOutbox(ctx),
    getValue: (key) => run(() => (q.get.get(key, now()) as { value: string } | undefined)?.value),
    setValue: (key, value, o) =>
      run(() => {
        const t = now();
        const expiresAt = o?.ttlMs === undefined ? null : t + o.ttlMs;
        if (o?.ifAbsent) return changed(q.setIfAbsent.run(key, value, t, expiresAt, t));
        return changed(
          expiresAt === null ? q.set.run(key, value, t) : q.setExpiring.run(key, value, t, expiresAt),
        );
      }),
    deleteValues: (keyPrefix) => run(() => Number(q.deleteRange.run(keyPrefix).changes)),
    claimOnce: (key, ttlMs) =>
      run(() => {
        const t = now();
        return changed(q.claim.run(key, t + ttlMs, t));
      }),
    appendLog: (key, value, keep) =>
      atomic(db, () => {
        q.appendLog.run(key, value);
        q.trimLog.run(key, keep);
      }),
    readLog: (key, limit) =>
      run(() => (q.readLog.all(key, limit) as { value: string }[]).map((r) => r.value)),
    prune: (olderThanMs) =>
      atomic(db, () => {
        const cutoff = now() - olderThanMs;
        q.pruneClaims.run(now());
        const values = Number(q.pruneValues.run(now()).changes);
        return values + Number(q.pruneSlots.run(cutoff).changes) + Number(q.pruneOutbox.run(cutoff).changes);
      }),
    close: () =>
      run(() => {
        if (db.isOpen) db.close();
      }),
  };
}

function sqliteSchedules({ db }: SqliteContext): ScheduleStore {
  const q = {
    // Added in the same millisecond: in the order added.
    list: db.prepare('SELECT record FROM schedules ORDER BY created_at, rowid'),
    get: db.prepare('SELECT record FROM schedules WHERE id = ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM schedules'),
    insert: db.prepare(
      'INSERT OR IGNORE INTO schedules (id, record, created_at, next_run_at) VALUES (?, ?, ?, ?)',
    ),
    due: db.prepare('SELECT record FROM schedules WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?'),
    setNext: db.prepare('UPDATE schedules SET next_run_at = ? WHERE id = ? AND next_run_at IS NOT NULL'),
    update: db.prepare('UPDATE schedules SET record = ? WHERE id = ?'),
    // Paused leaves the index; resumed is looked at by the next tick (0: due at once).
    pause: db.prepare('UPDATE schedules SET next_run_at = ? WHERE id = ?'),
    remove: db.prepare('DELETE FROM schedules WHERE id = ?'),
    runs: db.prepare('SELECT runs FROM schedule_runs WHERE id = ?'),
    setRuns: db.prepare('INSERT OR REPLACE INTO schedule_runs (id, runs) VALUES (?, ?)'),
    removeRuns: db.prepare('DELETE FROM schedule_runs WHERE id = ?'),
  };
  const runsOf = (id: string): ScheduleRun[] => {
    const row = q.runs.get(id) as { runs: string } | undefined;
    return row === undefined ? [] : (JSON.parse(row.runs) as ScheduleRun[]);
  };
  const tx = <T>(fn: () => T): T => immediateTransaction(db, fn);
  /** Reads, changes and writes one record in one transaction; false when it is gone. */
  const change = (id: string, fn: (r: ScheduleRecord) => void): boolean =>
    tx(() => {
      const r = parseRecord(q.get.get(id));
      if (!r) return false;
      fn(r);
      q.update.run(JSON.stringify(r), id);
      return true;
    });

  return {
    listSchedules: () => run(() => q.list.all().map((row) => parseRecord(row)!)),
    getSchedule: (id) => run(() => parseRecord(q.get.get(id))),
    addSchedule: (record, max) =>
      atomic(db, (): AddResult => {
        if (q.get.get(record.id) !== undefined) return 'exists';
        if ((q.count.get() as { n: number }).n >= max) return 'full';
        q.insert.run(
          record.id,
          JSON.stringify(record),
          record.createdAt,
          record.paused ? null : record.createdAt,
        );
        return 'added';
      }),
    removeSchedule: (id) =>
      atomic(db, () => {
        q.removeRuns.run(id);
        return changed(q.remove.run(id));
      }),
    dueSchedules: (t, limit) => run(() => q.due.all(t, limit).map((row) => parseRecord(row)!)),
    setNextRuns: (next) =>
      run(() => {
        if (next.size > 0) tx(() => next.forEach((at, id) => q.setNext.run(at, id)));
      }),
    setPaused: (id, paused) =>
      run(() =>
        change(id, (r) => {
          r.paused = paused;
          q.pause.run(paused ? null : 0, id);
        }),
      ),
    // One transaction: the record's last run, its history and its next fire time cannot disagree.
    recordRun: (id, lastRun, nextRunAt) =>
      run(() => {
        change(id, (r) => {
          const kept = withRun(runsOf(id), lastRun);
          q.setRuns.run(id, JSON.stringify(kept));
          r.lastRun = kept[0]!;
          if (nextRunAt !== undefined) q.setNext.run(nextRunAt, id);
        });
      }),
    history: (id) => run(() => runsOf(id)),
  };
}

/** `runs` with `run` in place of the record of its slot (or first), newest first, at most RUN_HISTORY. */
function withRun(runs: readonly ScheduleRun[], run: ScheduleRun): ScheduleRun[] {
  const rest = runs.filter((r) => r.slotId !== run.slotId);
  return [run, ...rest].sort((a, b) => b.at - a.at).slice(0, RUN_HISTORY);
}

const parseRecord = (row: unknown): ScheduleRecord | undefined =>
  row === undefined ? undefined : (JSON.parse((row as { record: string }).record) as ScheduleRecord);

function sqliteSlots({ db, now }: SqliteContext): SlotStore {
  const q = slotStatements(db);
  const slotAt = (job: string, slotId: string) => {
    const row = q.slot.get(job, slotId) as StoredFields | undefined;
    return row && slotOf(row);
  };

  /** What stops the claim, read in its transaction; undefined when the slot may be claimed. */
  function refusal(job: string, slotId: string, t: number, rules: ClaimRules, s: SlotRecord | undefined) {
    if (rules.schedule) {
      const record = parseRecord(q.schedule.get(rules.schedule.id));
      if (!record || (record.paused && !rules.schedule.manual)) return { status: 'gone' } as const;
    }
    if (s?.status === 'posted') return { status: 'already-posted' } as const;
    if (s?.status === 'claimed' && s.leaseUntil > t)
      return { status: 'held', owner: s.owner, leaseUntil: s.leaseUntil } as const;
    if (s?.status === 'failed' && rules.maxAttempts !== undefined && s.attempts >= rules.maxAttempts)
      return { status: 'given-up' } as const;
    const retryAt = s?.status === 'failed' ? s.updatedAt + (rules.retryDelayMs ?? 0) : 0;
    if (retryAt > t) return { status: 'waiting', until: retryAt } as const;
    const other = rules.exclusive
      ? (q.otherClaim.get(job, slotId, t) as { owner: string; lease_until: number } | undefined)
      : undefined;
    return other
      ? ({ status: 'held', owner: other.owner, leaseUntil: other.lease_until } as const)
      : undefined;
  }

  return {
    claimSlot: (job, slotId, owner, leaseMs, rules = {}) =>
      atomic(db, (): ClaimResult => {
        const t = now();
        const s = slotAt(job, slotId);
        const refused = refusal(job, slotId, t, rules, s);
        if (refused) return refused;
        if (!s) q.insertSlot.run(job, slotId, 'claimed', owner, t + leaseMs, null, t);
        else q.reclaimSlot.run(owner, t + leaseMs, s.attempts + 1, t, job, slotId);
        const schedule = rules.schedule && parseRecord(q.schedule.get(rules.schedule.id));
        const key = rules.schedule?.memoryKey;
        const memory = key === undefined ? undefined : (q.getValue.get(key) as { value: string } | undefined);
        return {
          status: 'claimed',
          attempt: (s?.attempts ?? 0) + 1,
          ...(schedule ? { schedule } : {}),
          ...(memory ? { memory: memory.value } : {}),
        };
      }),
    markMissed: (job, slotId, error) =>
      atomic(db, () => {
        if (q.slot.get(job, slotId) !== undefined) return false;
        q.insertSlot.run(job, slotId, 'failed', '', 0, error, now());
        return true;
      }),
    markPosted: (job, slotId, owner, deliveries: readonly NewOutboxEntry[], opts) =>
      atomic(db, () => {
        const t = now();
        if (!changed(q.postSlot.run(t, job, slotId, owner))) return false;
        const lease = opts?.leaseMs === undefined ? undefined : { owner, until: t + opts.leaseMs };
        for (const d of deliveries) insertEntry(q.addEntry, d, t, lease);
        if (opts?.memory) q.setValue.run(opts.memory.key, opts.memory.value, t);
        return true;
      }),
    markFailed: (job, slotId, owner, error) =>
      run(() => {
        q.failSlot.run(error, now(), job, slotId, owner);
      }),
    getSlot: (job, slotId) =>
      run(() => {
        return slotAt(job, slotId);
      }),
  };
}

function sqliteOutbox({ db, now }: SqliteContext): OutboxStore {
  const q = outboxStatements(db);

  return {
    claimDueOutbox: (owner, leaseMs, limit, opts) =>
      atomic(db, () => {
        const t = now();
        const rows = q.due.all(t, opts?.includeBackingOff ? 1 : 0, limit) as StoredFields[];
        for (const r of rows) q.lease.run(owner, t + leaseMs, t, r.id!);
        return rows.map((r) =>
          entryOf({ ...r, attempts: Number(r.attempts) + 1, nextAttemptAt: t + leaseMs, updatedAt: t }),
        );
      }),
    markDelivered: (id, receipt) =>
      atomic(db, () => {
        const t = now();
        const memory = q.memoryOf.get(id) as
          { memory_key: string | null; memory_value: string | null } | undefined;
        if (!memory) return false;
        q.delivered.run(receipt ?? null, t, id);
        if (memory.memory_key !== null && memory.memory_value !== null)
          q.setValue.run(memory.memory_key, memory.memory_value, t);
        return true;
      }),
    renewOutboxLeases: (ids, owner, leaseMs) =>
      atomic(db, () => {
        const t = now();
        return ids.filter((id) => changed(q.renew.run(t + leaseMs, t, id, owner)));
      }),
    markInFlight: (id, owner, isInFlight, receipt) =>
      run(() => {
        const t = now();
        return changed(q.inFlight.run(isInFlight ? t : null, receipt ?? null, t, id, owner));
      }),
    rescheduleOutbox: (id, owner, nextAttemptAt, error) =>
      run(() => changed(q.reschedule.run(nextAttemptAt, error, now(), id, owner))),
    giveUpOutbox: (id, owner, reason) => run(() => changed(q.giveUp.run(reason, now(), id, owner))),
    listOutbox: (status) => run(() => (q.list.all(status) as StoredFields[]).map(entryOf)),
  };
}
