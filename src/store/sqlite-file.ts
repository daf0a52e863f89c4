// The SQLite store's file: opened in WAL mode, its schema, older files' migrations, and statements.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * An interaction's claim is written before its first answer, on the event loop: one B-tree
 * (WITHOUT ROWID), not a table and its key's index, halves the pages each claim writes to the WAL
 * and so the checkpoints' fsyncs (docs/PERFORMANCE.md, the interactions bench).
 */
const claimsTable = (name: string) =>
  `CREATE TABLE IF NOT EXISTS ${name} (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) STRICT, WITHOUT ROWID`;

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
  updated_at INTEGER NOT NULL,
  expires_at INTEGER
) STRICT;
${claimsTable('claims')};
CREATE TABLE IF NOT EXISTS schedules (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  next_run_at INTEGER
) STRICT;
CREATE TABLE IF NOT EXISTS logs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL,
  value TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS logs_key ON logs (key, seq);
CREATE TABLE IF NOT EXISTS schedule_runs (
  id TEXT PRIMARY KEY,
  runs TEXT NOT NULL
) STRICT;
`;

/**
 * Brings a store file written by an older herald up to the current schema (columns added since);
 * a file written before the next-fire index gets it, every schedule not paused looked at once.
 */
function migrate(db: DatabaseSync): void {
  const columnsOf = (table: string) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as unknown as { name: string }[]).map((c) => c.name);
  for (const [table, name, type] of [
    ['outbox', 'receipt', 'TEXT'],
    ['outbox', 'in_flight_at', 'INTEGER'],
    ['outbox', 'memory_key', 'TEXT'],
    ['outbox', 'memory_value', 'TEXT'],
    ['kv', 'expires_at', 'INTEGER'],
  ] as const)
    if (!columnsOf(table).includes(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
  if (!columnsOf('schedules').includes('next_run_at')) {
    db.exec('ALTER TABLE schedules ADD COLUMN next_run_at INTEGER');
    db.exec(
      "UPDATE schedules SET next_run_at = CASE WHEN json_extract(record, '$.paused') THEN NULL ELSE 0 END",
    );
  }
  db.exec('CREATE INDEX IF NOT EXISTS schedules_next ON schedules (next_run_at)');
  migrateClaims(db);
}

/** A claims table of an older file (with a rowid) becomes the one above, its live claims kept. */
function migrateClaims(db: DatabaseSync): void {
  const isOld = () =>
    !/WITHOUT ROWID/i.test(
      (
        db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'claims'").get() as {
          sql: string;
        }
      ).sql,
    );
  if (!isOld()) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another replica opening the same file may have converted it meanwhile.
    if (isOld())
      db.exec(`${claimsTable('claims_keyed')}; INSERT INTO claims_keyed SELECT key, expires_at FROM claims;
        DROP TABLE claims; ALTER TABLE claims_keyed RENAME TO claims;`);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

export function openStoreFile(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 5_000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(SCHEMA);
  migrate(db);
  return db;
}

// Columns under the names the store's records use (store.ts reads them back for both backends).
const SLOT = `job, slot_id AS slotId, status, owner, lease_until AS leaseUntil, attempts, error,
  updated_at AS updatedAt`;
const ENTRY = `id, job, slot_id AS slotId, kind, payload, status, attempts, next_attempt_at AS nextAttemptAt,
  last_error AS lastError, reason, receipt, in_flight_at AS inFlightAt, memory_key AS memoryKey,
  memory_value AS memoryValue, created_at AS createdAt, updated_at AS updatedAt`;

/** Writes a value: key, value, now, and its expiry (NULL: kept until deleted). */
export const SET_VALUE = `INSERT INTO kv (key, value, updated_at, expires_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
  expires_at = excluded.expires_at`;

export function slotStatements(db: DatabaseSync) {
  return {
    slot: db.prepare(`SELECT ${SLOT} FROM slots WHERE job = ? AND slot_id = ?`),
    otherClaim: db.prepare(
      `SELECT owner, lease_until FROM slots
       WHERE job = ? AND slot_id != ? AND status = 'claimed' AND lease_until > ? LIMIT 1`,
    ),
    insertSlot: db.prepare(
      `INSERT INTO slots (job, slot_id, status, owner, lease_until, attempts, error, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
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
    addEntry: db.prepare(
      `INSERT OR IGNORE INTO outbox (id, job, slot_id, kind, payload, status, attempts, next_attempt_at,
       owner, in_flight_at, memory_key, memory_value, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
}

export function outboxStatements(db: DatabaseSync) {
  return {
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
    memoryOf: db.prepare(`SELECT memory_key, memory_value FROM outbox WHERE id = ? AND status = 'pending'`),
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
    list: db.prepare(`SELECT ${ENTRY} FROM outbox WHERE status = ? ORDER BY created_at, id`),
  };
}

/** How many schedules the store file at `path` holds, read without writing (0: none, or no store). */
export function countStoredSchedules(path: string): number {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    return Number((db.prepare('SELECT COUNT(*) AS n FROM schedules').get() as { n: number }).n);
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}
