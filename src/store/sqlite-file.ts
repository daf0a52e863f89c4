// The SQLite store's file: opened in WAL mode, its schema, and older files' migrations.
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
 * Creates the schema, and brings a file written by an older herald up to it: the columns added since
 * (a file written before the next-fire index gets it, every schedule not paused looked at once), and
 * a claims table with a rowid becomes the one above, its live claims kept.
 */
function migrate(db: DatabaseSync): void {
  db.exec(SCHEMA);
  const columnsOf = (table: string) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as unknown as { name: string }[]).map((c) => c.name);
  for (const [table, name, type, fill] of [
    ['outbox', 'receipt', 'TEXT'],
    ['outbox', 'in_flight_at', 'INTEGER'],
    ['outbox', 'memory_key', 'TEXT'],
    ['outbox', 'memory_value', 'TEXT'],
    ['kv', 'expires_at', 'INTEGER'],
    ['schedules', 'next_run_at', 'INTEGER', "iif(json_extract(record, '$.paused'), NULL, 0)"],
  ] as [string, string, string, string?][])
    if (!columnsOf(table).includes(name)) {
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
      if (fill) db.exec(`UPDATE ${table} SET ${name} = ${fill}`);
    }
  db.exec('CREATE INDEX IF NOT EXISTS schedules_next ON schedules (next_run_at)');
  const claims = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'claims'").get();
  if (!/WITHOUT ROWID/i.test((claims as { sql: string }).sql))
    db.exec(`${claimsTable('claims_keyed')}; INSERT INTO claims_keyed SELECT key, expires_at FROM claims;
      DROP TABLE claims; ALTER TABLE claims_keyed RENAME TO claims;`);
}

/**
 * `atomic` runs the schema and the migrations under the write lock, so that processes opening an
 * older file at once migrate it once.
 */
export function openStoreFile(path: string, atomic: (db: DatabaseSync, fn: () => void) => void) {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 5_000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  atomic(db, () => migrate(db));
  return db;
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
