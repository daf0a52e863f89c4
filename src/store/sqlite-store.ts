// The default store: one node:sqlite file (https://nodejs.org/api/sqlite.html), in WAL mode so
// that several processes may share it. Claims run inside BEGIN IMMEDIATE transactions, which
// take the write lock before reading, so two claimers can never both see a slot as free.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { immediateTransaction, openSqlite } from './connect.ts';
import type {
  ClaimResult,
  NewOutboxEntry,
  OutboxEntry,
  OutboxStatus,
  SlotRecord,
  SlotStatus,
  Store,
  StoreOptions,
  SlotMethods,
  OutboxMethods,
} from './store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS slots (
  job TEXT NOT NULL,
  slot_id TEXT NOT NULL,
  status TEXT NOT NULL,
  owner TEXT NOT NULL,
  lease_until INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  error TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (job, slot_id)
) STRICT;
CREATE TABLE IF NOT EXISTS outbox (
  id TEXT PRIMARY KEY,
  job TEXT NOT NULL,
  slot_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  owner TEXT NOT NULL,
  last_error TEXT,
  reason TEXT,
  receipt TEXT,
  in_flight_at INTEGER,
  memory_key TEXT,
  memory_value TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
CREATE TABLE IF NOT EXISTS kv (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS claims (
  key TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) STRICT;
`;

interface SlotRow {
  job: string;
  slot_id: string;
  status: string;
  owner: string;
  lease_until: number;
  attempts: number;
  error: string | null;
  updated_at: number;
}

interface OutboxRow {
  id: string;
  job: string;
  slot_id: string;
  kind: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  reason: string | null;
  receipt: string | null;
  in_flight_at: number | null;
  memory_key: string | null;
  memory_value: string | null;
  created_at: number;
  updated_at: number;
}

function toSlot(r: SlotRow): SlotRecord {
  const slot: SlotRecord = {
    job: r.job,
    slotId: r.slot_id,
    status: r.status as SlotStatus,
    owner: r.owner,
    leaseUntil: r.lease_until,
    attempts: r.attempts,
    updatedAt: r.updated_at,
  };
  if (r.error !== null) slot.error = r.error;
  return slot;
}

function toEntry(r: OutboxRow): OutboxEntry {
  const entry: OutboxEntry = {
    id: r.id,
    job: r.job,
    slotId: r.slot_id,
    kind: r.kind,
    payload: JSON.parse(r.payload) as unknown,
    status: r.status as OutboxStatus,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.last_error !== null) entry.lastError = r.last_error;
  if (r.reason !== null) entry.reason = r.reason;
  if (r.receipt !== null && r.receipt !== undefined) entry.receipt = r.receipt;
  if (r.in_flight_at !== null && r.in_flight_at !== undefined) entry.inFlightAt = r.in_flight_at;
  if (r.memory_key !== null && r.memory_value !== null)
    entry.memory = { key: r.memory_key, value: r.memory_value };
  return entry;
}

/** Brings a store file written by an older herald up to the current schema (columns added since). */
function migrate(db: DatabaseSync): void {
  const columns = db.prepare('PRAGMA table_info(outbox)').all() as unknown as { name: string }[];
  const has = (name: string) => columns.some((c) => c.name === name);
  if (!has('receipt')) db.exec('ALTER TABLE outbox ADD COLUMN receipt TEXT');
  if (!has('in_flight_at')) db.exec('ALTER TABLE outbox ADD COLUMN in_flight_at INTEGER');
  if (!has('memory_key')) db.exec('ALTER TABLE outbox ADD COLUMN memory_key TEXT');
  if (!has('memory_value')) db.exec('ALTER TABLE outbox ADD COLUMN memory_value TEXT');
}

const ADD_ENTRY = `INSERT OR IGNORE INTO outbox (id, job, slot_id, kind, payload, status, attempts, next_attempt_at,
       owner, memory_key, memory_value, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)`;

const SET_VALUE = `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;

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
 * Inserts a new pending entry due at `t` unless its id exists, or leased to `lease.owner` until
 * `lease.until` (one attempt counted); returns the statement's result.
 */
function insertEntry(
  addEntry: StatementSync,
  e: NewOutboxEntry,
  t: number,
  lease?: { owner: string; until: number },
) {
  const payload = JSON.stringify(e.payload);
  const memory = [e.memory?.key ?? null, e.memory?.value ?? null] as const;
  if (!lease) return addEntry.run(e.id, e.job, e.slotId, e.kind, payload, 0, t, '', ...memory, t, t);
  return addEntry.run(e.id, e.job, e.slotId, e.kind, payload, 1, lease.until, lease.owner, ...memory, t, t);
}

/** Opens (creating it and its directory if needed) the store file at `path`; `:memory:` works too. */
export function createSqliteStore(path: string, opts: StoreOptions = {}): Store {
  const now = opts.now ?? Date.now;
  const db = openSqlite(path);
  db.exec(SCHEMA);
  migrate(db);
  const ctx: SqliteContext = { db, now };

  const q = {
    get: db.prepare('SELECT value FROM kv WHERE key = ?'),
    set: db.prepare(SET_VALUE),
    setIfAbsent: db.prepare('INSERT OR IGNORE INTO kv (key, value, updated_at) VALUES (?, ?, ?)'),
    // Inserts a new claim or takes over an expired one; a live claim is left as it is (no change).
    claim: db.prepare(
      `INSERT INTO claims (key, expires_at) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE claims.expires_at <= ?`,
    ),
    pruneClaims: db.prepare('DELETE FROM claims WHERE expires_at <= ?'),
    pruneSlots: db.prepare(`DELETE FROM slots WHERE status != 'claimed' AND updated_at < ?`),
    pruneOutbox: db.prepare(`DELETE FROM outbox WHERE status != 'pending' AND updated_at < ?`),
  };

  return {
    kind: 'sqlite',
    ...sqliteSlots(ctx),
    ...sqliteOutbox(ctx),
    getValue: (key) =>
      run(() => {
        const r = q.get.get(key) as { value: string } | undefined;
        return r?.value;
      }),
    setValue: (key, value, o) =>
      run(() => changed((o?.ifAbsent ? q.setIfAbsent : q.set).run(key, value, now()))),
    claimOnce: (key, ttlMs) =>
      run(() => {
        const t = now();
        return changed(q.claim.run(key, t + ttlMs, t));
      }),
    prune: (olderThanMs) =>
      run(() =>
        immediateTransaction(db, () => {
          const cutoff = now() - olderThanMs;
          q.pruneClaims.run(now());
          return Number(q.pruneSlots.run(cutoff).changes) + Number(q.pruneOutbox.run(cutoff).changes);
        }),
      ),
    close: () =>
      run(() => {
        if (db.isOpen) db.close();
      }),
  };
}

/** Slot claims: claim, posted (handing its deliveries to the outbox), failed, read. */
function sqliteSlots({ db, now }: SqliteContext): SlotMethods {
  const q = {
    slot: db.prepare('SELECT * FROM slots WHERE job = ? AND slot_id = ?'),
    insertSlot: db.prepare(
      `INSERT INTO slots (job, slot_id, status, owner, lease_until, attempts, updated_at)
       VALUES (?, ?, 'claimed', ?, ?, 1, ?)`,
    ),
    reclaimSlot: db.prepare(
      `UPDATE slots SET status = 'claimed', owner = ?, lease_until = ?, attempts = ?, error = NULL,
       updated_at = ? WHERE job = ? AND slot_id = ?`,
    ),
    postSlot: db.prepare(
      `UPDATE slots SET status = 'posted', error = NULL, updated_at = ?
       WHERE job = ? AND slot_id = ? AND status = 'claimed' AND owner = ?`,
    ),
    failSlot: db.prepare(
      `UPDATE slots SET status = 'failed', error = ?, lease_until = 0, updated_at = ?
       WHERE job = ? AND slot_id = ? AND status = 'claimed' AND owner = ?`,
    ),
    addEntry: db.prepare(ADD_ENTRY),
    setValue: db.prepare(SET_VALUE),
  };
  const tx = <T>(fn: () => T): T => immediateTransaction(db, fn);

  return {
    claimSlot: (job, slotId, owner, leaseMs) =>
      run(() =>
        tx((): ClaimResult => {
          const t = now();
          const s = q.slot.get(job, slotId) as SlotRow | undefined;
          if (!s) {
            q.insertSlot.run(job, slotId, owner, t + leaseMs, t);
            return { status: 'claimed', attempt: 1 };
          }
          if (s.status === 'posted') return { status: 'already-posted' };
          const isLive = s.status === 'claimed' && s.lease_until > t;
          if (isLive && s.owner !== owner)
            return { status: 'held', owner: s.owner, leaseUntil: s.lease_until };
          // The same owner claiming again (node-cron's election, then the run) is one attempt.
          const attempts = s.attempts + (isLive ? 0 : 1);
          q.reclaimSlot.run(owner, t + leaseMs, attempts, t, job, slotId);
          return { status: 'claimed', attempt: attempts };
        }),
      ),
    markPosted: (job, slotId, owner, deliveries: readonly NewOutboxEntry[], opts) =>
      run(() =>
        tx(() => {
          const t = now();
          if (!changed(q.postSlot.run(t, job, slotId, owner))) return false;
          const lease = opts?.leaseMs === undefined ? undefined : { owner, until: t + opts.leaseMs };
          for (const d of deliveries) insertEntry(q.addEntry, d, t, lease);
          if (opts?.memory) q.setValue.run(opts.memory.key, opts.memory.value, t);
          return true;
        }),
      ),
    markFailed: (job, slotId, owner, error) =>
      run(() => {
        q.failSlot.run(error, now(), job, slotId, owner);
      }),
    getSlot: (job, slotId) =>
      run(() => {
        const r = q.slot.get(job, slotId) as SlotRow | undefined;
        return r ? toSlot(r) : undefined;
      }),
  };
}

/** The outbox: add, lease what is due, and settle what an owner holds. */
function sqliteOutbox({ db, now }: SqliteContext): OutboxMethods {
  const q = {
    addEntry: db.prepare(ADD_ENTRY),
    due: db.prepare(
      `SELECT * FROM outbox WHERE status = 'pending' AND (next_attempt_at <= ? OR (? = 1 AND owner = ''))
       ORDER BY next_attempt_at, created_at LIMIT ?`,
    ),
    lease: db.prepare(
      `UPDATE outbox SET owner = ?, attempts = attempts + 1, next_attempt_at = ?, updated_at = ? WHERE id = ?`,
    ),
    delivered: db.prepare(
      `UPDATE outbox SET status = 'delivered', receipt = ?, payload = 'null', memory_key = NULL,
       memory_value = NULL, updated_at = ? WHERE id = ? AND status = 'pending'`,
    ),
    memoryOf: db.prepare(`SELECT memory_key, memory_value FROM outbox WHERE id = ? AND status = 'pending'`),
    setValue: db.prepare(SET_VALUE),
    renew: db.prepare(
      `UPDATE outbox SET next_attempt_at = ?, updated_at = ? WHERE id = ? AND status = 'pending' AND owner = ?`,
    ),
    inFlight: db.prepare(
      `UPDATE outbox SET in_flight_at = ?, receipt = COALESCE(?, receipt), updated_at = ?
       WHERE id = ? AND status = 'pending' AND owner = ?`,
    ),
    reschedule: db.prepare(
      `UPDATE outbox SET next_attempt_at = ?, last_error = ?, owner = '', updated_at = ?
       WHERE id = ? AND status = 'pending' AND owner = ?`,
    ),
    giveUp: db.prepare(
      `UPDATE outbox SET status = 'given_up', reason = ?, updated_at = ?
       WHERE id = ? AND status = 'pending' AND owner = ?`,
    ),
    list: db.prepare('SELECT * FROM outbox ORDER BY created_at, id'),
    listByStatus: db.prepare('SELECT * FROM outbox WHERE status = ? ORDER BY created_at, id'),
  };

  return {
    addToOutbox: (e) => run(() => changed(insertEntry(q.addEntry, e, now()))),
    claimDueOutbox: (owner, leaseMs, limit, opts) =>
      run(() =>
        immediateTransaction(db, () => {
          const t = now();
          const rows = q.due.all(t, opts?.includeBackingOff ? 1 : 0, limit) as unknown as OutboxRow[];
          for (const r of rows) q.lease.run(owner, t + leaseMs, t, r.id);
          return rows.map((r) =>
            toEntry({ ...r, attempts: r.attempts + 1, next_attempt_at: t + leaseMs, updated_at: t }),
          );
        }),
      ),
    markDelivered: (id, receipt) =>
      run(() =>
        immediateTransaction(db, () => {
          const t = now();
          const memory = q.memoryOf.get(id) as
            { memory_key: string | null; memory_value: string | null } | undefined;
          if (!memory) return false;
          q.delivered.run(receipt ?? null, t, id);
          if (memory.memory_key !== null && memory.memory_value !== null)
            q.setValue.run(memory.memory_key, memory.memory_value, t);
          return true;
        }),
      ),
    renewOutboxLeases: (ids, owner, leaseMs) =>
      run(() =>
        immediateTransaction(db, () => {
          const t = now();
          return ids.filter((id) => changed(q.renew.run(t + leaseMs, t, id, owner)));
        }),
      ),
    markInFlight: (id, owner, isInFlight, receipt) =>
      run(() => {
        const t = now();
        return changed(q.inFlight.run(isInFlight ? t : null, receipt ?? null, t, id, owner));
      }),
    rescheduleOutbox: (id, owner, nextAttemptAt, error) =>
      run(() => changed(q.reschedule.run(nextAttemptAt, error, now(), id, owner))),
    giveUpOutbox: (id, owner, reason) => run(() => changed(q.giveUp.run(reason, now(), id, owner))),
    listOutbox: (filter) =>
      run(() => {
        const rows = (filter?.status
          ? q.listByStatus.all(filter.status)
          : q.list.all()) as unknown as OutboxRow[];
        return rows.map(toEntry);
      }),
  };
}
