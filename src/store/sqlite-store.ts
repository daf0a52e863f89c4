// The default store: one node:sqlite file in WAL mode (several processes may share it), or
// `:memory:`. Every read-then-write is a BEGIN IMMEDIATE transaction, which takes the write lock
// before reading, so two claimers never both see a slot as free. A schedule is one JSON row; the
// indexed `next_run_at` is its next fire time (NULL while paused).
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { openStoreFile } from './sqlite-file.ts';
import { RUN_HISTORY, type AddResult, type ScheduleRecord, type ScheduleRun } from '../schedule/schedules.ts';
import {
  entryOf,
  slotOf,
  type ClaimResult,
  type ClaimRules,
  type SlotRecord,
  type OutboxStore,
  type ScheduleStore,
  type SlotStore,
  type Store,
  type StoreOptions,
  type StoredFields,
} from './store.ts';

/** Runs `fn` holding the write lock (BEGIN IMMEDIATE), so its reads and writes are one atomic step. */
function atomic<T>(db: DatabaseSync, fn: () => T): T {
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

// Columns under the names the store's records use (store.ts reads them back for both backends).
const SLOT = `job, slot_id AS slotId, status, owner, lease_until AS leaseUntil, attempts, error,
  updated_at AS updatedAt`;
const ENTRY = `id, job, slot_id AS slotId, kind, payload, status, attempts, next_attempt_at AS nextAttemptAt,
  last_error AS lastError, reason, receipt, in_flight_at AS inFlightAt, memory_key AS memoryKey,
  memory_value AS memoryValue, created_at AS createdAt, updated_at AS updatedAt`;

/** Writes the value `source` gives: key, value, now, and its expiry (NULL: kept until deleted). */
const writeValue = (source = 'VALUES (?, ?, ?, ?)') => `INSERT INTO kv (key, value, updated_at, expires_at)
  ${source} ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
  expires_at = excluded.expires_at`;

interface SqliteContext {
  db: DatabaseSync;
  now: () => number;
  scheduleOf: (id: string) => ScheduleRecord | undefined;
  valueOf: (key: string) => string | undefined;
  setValue: StatementSync;
}

const changed = (r: { changes: number | bigint }) => Number(r.changes) > 0;

/** A part of the Store as its synchronous steps. */
type Steps<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};

/** The steps as Store methods: what one throws is a rejection (by the Promise constructor), never a throw. */
function asMethods<T>(steps: Steps<T>): T {
  const method = (step: unknown) =>
    typeof step !== 'function'
      ? step
      : (...args: unknown[]) =>
          new Promise((resolve) => resolve((step as (...a: unknown[]) => unknown)(...args)));
  return Object.fromEntries(Object.entries(steps).map(([name, step]) => [name, method(step)])) as T;
}

/** `path` and its directory are made when missing; `:memory:` works too. */
export function createSqliteStore(path: string, opts: StoreOptions = {}): Store {
  const now = opts.now ?? Date.now;
  const db = openStoreFile(path, atomic);
  const q = {
    get: db.prepare('SELECT value FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)'),
    record: db.prepare('SELECT record FROM schedules WHERE id = ?'),
    set: db.prepare(writeValue()),
    // An expired value counts as absent.
    setIfAbsent: db.prepare(`${writeValue()} WHERE kv.expires_at IS NOT NULL AND kv.expires_at <= ?`),
    // A range of the primary key, from the prefix to the prefix and the last code point (herald's
    // keys are ASCII, so none that starts with the prefix lies past it), then the exact test.
    deleteRange: db.prepare(
      'DELETE FROM kv WHERE key >= ?1 AND key <= ?1 || char(1114111) AND substr(key, 1, length(?1)) = ?1',
    ),
    durable: db.prepare('SELECT key, value FROM kv WHERE expires_at IS NULL'),
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
  const count = (r: { changes: number | bigint }) => Number(r.changes);
  const ctx: SqliteContext = {
    db,
    now,
    scheduleOf: (id) => parseRecord(q.record.get(id)),
    valueOf: (key) => (q.get.get(key, now()) as { value: string } | undefined)?.value,
    setValue: q.set,
  };
  return asMethods<Store>({
    kind: 'sqlite',
    ...sqliteSchedules(ctx),
    ...sqliteSlots(ctx),
    ...sqliteOutbox(ctx),
    getValue: ctx.valueOf,
    setValue: (key, value, o) => {
      const t = now();
      const expiresAt = o?.ttlMs === undefined ? null : t + o.ttlMs;
      if (o?.ifAbsent) return changed(q.setIfAbsent.run(key, value, t, expiresAt, t));
      return changed(q.set.run(key, value, t, expiresAt));
    },
    deleteValues: (keyPrefix) => count(q.deleteRange.run(keyPrefix)),
    durableValues: () => q.durable.all().map((r): [string, string] => [String(r.key), String(r.value)]),
    claimOnce: (key, ttlMs) => {
      const t = now();
      return changed(q.claim.run(key, t + ttlMs, t));
    },
    appendLog: (key, value, keep) =>
      atomic(db, () => {
        q.appendLog.run(key, value);
        q.trimLog.run(key, keep);
      }),
    readLog: (key, limit) => (q.readLog.all(key, limit) as { value: string }[]).map((r) => r.value),
    prune: (olderThanMs) =>
      atomic(db, () => {
        const t = now();
        q.pruneClaims.run(t);
        const values = count(q.pruneValues.run(t));
        return values + count(q.pruneSlots.run(t - olderThanMs)) + count(q.pruneOutbox.run(t - olderThanMs));
      }),
    close: () => {
      if (db.isOpen) db.close();
    },
  });
}

function sqliteSchedules({ db, scheduleOf }: SqliteContext): Steps<ScheduleStore> {
  const q = {
    // Added in the same millisecond: in the order added.
    list: db.prepare('SELECT record FROM schedules ORDER BY created_at, rowid'),
    count: db.prepare('SELECT COUNT(*) AS n FROM schedules'),
    insert: db.prepare(
      'INSERT OR IGNORE INTO schedules (id, record, created_at, next_run_at) VALUES (?, ?, ?, ?)',
    ),
    due: db.prepare('SELECT record FROM schedules WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?'),
    setNext: db.prepare('UPDATE schedules SET next_run_at = ? WHERE id = ? AND next_run_at IS NOT NULL'),
    // Paused leaves the index; resumed is looked at by the next tick (0: due at once).
    pause: db.prepare(
      `UPDATE schedules SET record = json_set(record, '$.paused', json(?)), next_run_at = ? WHERE id = ?`,
    ),
    // The run, as JSON, or none (NULL).
    lastRun: db.prepare(
      `UPDATE schedules SET record = iif(?1 IS NULL, json_remove(record, '$.lastRun'),
       json_set(record, '$.lastRun', json(?1))) WHERE id = ?2`,
    ),
    remove: db.prepare('DELETE FROM schedules WHERE id = ?'),
    runs: db.prepare('SELECT runs FROM schedule_runs WHERE id = ?'),
    setRuns: db.prepare('INSERT OR REPLACE INTO schedule_runs (id, runs) VALUES (?, ?)'),
    removeRuns: db.prepare('DELETE FROM schedule_runs WHERE id = ?'),
  };
  const runsOf = (id: string): ScheduleRun[] => {
    const row = q.runs.get(id) as { runs: string } | undefined;
    return row === undefined ? [] : (JSON.parse(row.runs) as ScheduleRun[]);
  };
  return {
    listSchedules: () => q.list.all().map((row) => parseRecord(row)!),
    getSchedule: scheduleOf,
    addSchedule: (record, max) =>
      atomic(db, (): AddResult => {
        if (scheduleOf(record.id)) return 'exists';
        if ((q.count.get() as { n: number }).n >= max) return 'full';
        const next = record.paused ? null : record.createdAt;
        q.insert.run(record.id, JSON.stringify(record), record.createdAt, next);
        return 'added';
      }),
    removeSchedule: (id) =>
      atomic(db, () => {
        q.removeRuns.run(id);
        return changed(q.remove.run(id));
      }),
    dueSchedules: (t, limit) => q.due.all(t, limit).map((row) => parseRecord(row)!),
    setNextRuns: (next) => {
      if (next.size > 0) atomic(db, () => next.forEach((at, id) => q.setNext.run(at, id)));
    },
    setPaused: (id, paused) => changed(q.pause.run(String(paused), paused ? null : 0, id)),
    // One transaction: the record's last run, its history and its next fire time cannot disagree.
    recordRuns: (id, added, nextRunAt) =>
      atomic(db, () => {
        const kept = withRuns(runsOf(id), added);
        if (!changed(q.lastRun.run(kept[0] ? JSON.stringify(kept[0]) : null, id))) return;
        q.setRuns.run(id, JSON.stringify(kept));
        if (nextRunAt !== undefined) q.setNext.run(nextRunAt, id);
      }),
    history: (id) => runsOf(id),
  };
}

/** `runs` with `added` in place of the records of their slots (or first), newest first, at most RUN_HISTORY. */
function withRuns(runs: readonly ScheduleRun[], added: readonly ScheduleRun[]): ScheduleRun[] {
  const slots = new Set(added.map((r) => r.slotId));
  const rest = runs.filter((r) => !slots.has(r.slotId));
  return [...added, ...rest].sort((a, b) => b.at - a.at).slice(0, RUN_HISTORY);
}

const parseRecord = (row: unknown): ScheduleRecord | undefined =>
  row === undefined ? undefined : (JSON.parse((row as { record: string }).record) as ScheduleRecord);

/** What the slot's own record says against a claim at `t`, as CLAIM does in Lua (one test table for both). */
function refusal(s: SlotRecord | undefined, t: number, rules: ClaimRules): ClaimResult | undefined {
  if (s?.status === 'posted') return { status: 'already-posted' };
  if (s?.status === 'claimed' && s.leaseUntil > t)
    return { status: 'held', owner: s.owner, leaseUntil: s.leaseUntil };
  if (s?.status === 'failed' && rules.maxAttempts !== undefined && s.attempts >= rules.maxAttempts)
    return { status: 'given-up' };
  const retryAt = s?.status === 'failed' ? s.updatedAt + (rules.retryDelayMs ?? 0) : 0;
  return retryAt > t ? { status: 'waiting', until: retryAt } : undefined;
}

function sqliteSlots({ db, now, scheduleOf, valueOf, setValue }: SqliteContext): Steps<SlotStore> {
  /** Sets `set`, then updated_at, job, slot_id and owner, on a slot that owner has claimed. */
  const claimed = (set: string) =>
    db.prepare(
      `UPDATE slots SET ${set}, updated_at = ? WHERE job = ? AND slot_id = ? AND status = 'claimed' AND owner = ?`,
    );
  const q = {
    slot: db.prepare(`SELECT ${SLOT} FROM slots WHERE job = ? AND slot_id = ?`),
    // Another slot of an exclusive job with a live claim, as the claim's answer.
    otherClaim: db.prepare(
      `SELECT 'held' AS status, owner, lease_until AS leaseUntil FROM slots
       WHERE job = ? AND slot_id != ? AND status = 'claimed' AND lease_until > ? LIMIT 1`,
    ),
    // A new slot's first claim, or another claim of one that has a record.
    claimSlot: db.prepare(
      `INSERT INTO slots (job, slot_id, status, owner, lease_until, attempts, updated_at)
       VALUES (?, ?, 'claimed', ?, ?, 1, ?) ON CONFLICT (job, slot_id) DO UPDATE SET status = 'claimed',
       owner = excluded.owner, lease_until = excluded.lease_until, attempts = attempts + 1, error = NULL,
       updated_at = excluded.updated_at`,
    ),
    // A missed slot (owner ''), unless it has a record; its values in failSlot's order.
    missSlot: db.prepare(
      `INSERT OR IGNORE INTO slots (job, slot_id, status, owner, lease_until, attempts, error, updated_at)
       VALUES (?3, ?4, 'failed', ?5, 0, 1, ?1, ?2)`,
    ),
    postSlot: claimed(`status = 'posted', error = NULL`),
    failSlot: claimed(`status = 'failed', error = ?, lease_until = 0`),
    addEntry: db.prepare(
      `INSERT OR IGNORE INTO outbox (id, job, slot_id, kind, payload, status, attempts, next_attempt_at,
       owner, in_flight_at, memory_key, memory_value, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
  const slotAt = (job: string, slotId: string) => {
    const row = q.slot.get(job, slotId) as StoredFields | undefined;
    return row && slotOf(row);
  };
  return {
    claimSlot: (job, slotId, owner, leaseMs, rules = {}) =>
      atomic(db, (): ClaimResult => {
        const t = now();
        const schedule = rules.schedule && scheduleOf(rules.schedule.id);
        if (rules.schedule && (!schedule || (schedule.paused && !rules.schedule.manual)))
          return { status: 'gone' };
        const s = slotAt(job, slotId);
        const refused = refusal(s, t, rules);
        if (refused) return refused;
        const other = rules.exclusive
          ? (q.otherClaim.get(job, slotId, t) as ClaimResult | undefined)
          : undefined;
        if (other) return other;
        q.claimSlot.run(job, slotId, owner, t + leaseMs, t);
        const key = rules.schedule?.memoryKey;
        const memory = key === undefined ? undefined : valueOf(key);
        return {
          status: 'claimed',
          attempt: (s?.attempts ?? 0) + 1,
          ...(schedule ? { schedule } : {}),
          ...(memory === undefined ? {} : { memory }),
        };
      }),
    markPosted: (job, slotId, owner, deliveries, opts) =>
      atomic(db, () => {
        const t = now();
        if (!changed(q.postSlot.run(t, job, slotId, owner))) return false;
        // Due now, or leased to the poster (one attempt counted) and in flight from now.
        const held = opts?.leaseMs === undefined ? [0, t, '', null] : [1, t + opts.leaseMs, owner, t];
        for (const d of deliveries) {
          const memory = [d.memory?.key ?? null, d.memory?.value ?? null];
          q.addEntry.run(d.id, d.job, d.slotId, d.kind, JSON.stringify(d.payload), ...held, ...memory, t, t);
        }
        if (opts?.memory) setValue.run(opts.memory.key, opts.memory.value, t, null);
        return true;
      }),
    markFailed: (job, slotId, owner, error) =>
      changed((owner === '' ? q.missSlot : q.failSlot).run(error, now(), job, slotId, owner)),
    getSlot: slotAt,
  };
}

function sqliteOutbox({ db, now }: SqliteContext): Steps<OutboxStore> {
  /** Sets `set`, then updated_at, id and owner, on a pending entry that owner holds. */
  const held = (set: string) =>
    db.prepare(`UPDATE outbox SET ${set}, updated_at = ? WHERE id = ? AND status = 'pending' AND owner = ?`);
  const q = {
    due: db.prepare(
      `SELECT ${ENTRY} FROM outbox WHERE status = 'pending' AND (next_attempt_at <= ? OR (? = 1 AND owner = ''))
       ORDER BY next_attempt_at, created_at LIMIT ?`,
    ),
    lease: db.prepare(
      `UPDATE outbox SET owner = ?, attempts = attempts + 1, next_attempt_at = ?, updated_at = ? WHERE id = ?`,
    ),
    delivered: db.prepare(
      `UPDATE outbox SET status = 'delivered', receipt = ?, payload = 'null', memory_key = NULL,
       memory_value = NULL, updated_at = ? WHERE id = ? AND status = 'pending'`,
    ),
    // A pending entry's memory, if it has one, kept until deleted.
    keepMemory: db.prepare(
      writeValue(`SELECT memory_key, memory_value, ?, NULL FROM outbox WHERE id = ? AND status = 'pending'
       AND memory_key IS NOT NULL AND memory_value IS NOT NULL`),
    ),
    renew: held('next_attempt_at = ?'),
    inFlight: held('in_flight_at = ?, receipt = COALESCE(?, receipt)'),
    reschedule: held(`next_attempt_at = ?, last_error = ?, owner = ''`),
    giveUp: held(`status = 'given_up', reason = ?`),
    list: db.prepare(`SELECT ${ENTRY} FROM outbox WHERE status = ? ORDER BY created_at, id`),
  };
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
        q.keepMemory.run(t, id);
        return changed(q.delivered.run(receipt ?? null, t, id));
      }),
    updateHeld: (ids, owner, c) =>
      atomic(db, () => {
        const t = now();
        const run = (update: StatementSync, ...values: SQLInputValue[]) =>
          ids.filter((id) => changed(update.run(...values, t, id, owner)));
        if ('leaseMs' in c) return run(q.renew, t + c.leaseMs);
        if ('inFlight' in c) return run(q.inFlight, c.inFlight ? t : null, c.receipt ?? null);
        if ('retryAt' in c) return run(q.reschedule, c.retryAt, c.error);
        return run(q.giveUp, c.giveUp);
      }),
    listOutbox: (status) => (q.list.all(status) as StoredFields[]).map(entryOf),
  };
}
