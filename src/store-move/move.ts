// Moving what a store holds for good to another store, through the Store interface alone, so any
// backend moves to any other: the schedules with their history and their place in the next-fire
// index, and every key/value entry kept until deleted (watch memories, preferences, destination
// pauses, buttons that belong to a schedule, notices waiting for a creator). What lives only for a
// while stays behind: slot claims and leases, the outbox, Discord's budgets, anything that expires.
import { userInfo } from 'node:os';
import { exportAudit, importAudit, recordAudit } from '../schedule/audit.ts';
import type { ScheduleRecord } from '../schedule/schedules.ts';
import { nextRuns } from '../schedule/when.ts';
import type { Store } from '../store/index.ts';
import { STORE_FILE_FORMAT, StoreMoveError, type MovedSchedule, type StoreFile } from './export-file.ts';
import { freshHeartbeat, HEARTBEAT_TTL_MS } from './heartbeat.ts';

/**
 * Calls in flight at once: on Redis they leave as one pipeline (ioredis writes them without
 * waiting), so 10,000 schedules take a few round trips, not 10,000; SQLite runs each at once anyway.
 */
const BATCH = 1_000;

async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH)
    out.push(...(await Promise.all(items.slice(i, i + BATCH).map(fn))));
  return out;
}

/** The memory store lives inside one process: nothing outside it can read or fill it. */
function refuseMemory(store: Pick<Store, 'kind'>): void {
  if (store.kind === 'memory')
    throw new StoreMoveError({
      code: 'memory_store',
      message:
        'The store is in memory (STORE_URL=:memory:), which lives only inside a running herald, so there is nothing here to export or import into: point STORE_URL at a SQLite file or REDIS_URL at a Redis.',
    });
}

interface Exported {
  file: StoreFile;
  /** Posts still waiting in the outbox: not carried (the old store's bot delivers them). */
  pendingPosts: number;
}

export async function exportStore(store: Store, now: () => number = Date.now): Promise<Exported> {
  refuseMemory(store);
  const records = await store.listSchedules();
  const histories = await inBatches(records, (r) => store.history(r.id));
  const schedules = records.map(({ lastRun, ...record }, i): MovedSchedule => {
    const history = histories[i]!;
    // A record whose last run is not in its history still carries it over.
    return { record, history: history.length === 0 && lastRun ? [lastRun] : history };
  });
  const values = Object.fromEntries((await store.durableValues()).sort(([a], [b]) => (a < b ? -1 : 1)));
  const file: StoreFile = {
    herald: 'store',
    format: STORE_FILE_FORMAT,
    exportedAt: new Date(now()).toISOString(),
    from: store.kind,
    schedules,
    values,
    audit: await exportAudit(store),
  };
  return { file, pendingPosts: (await store.listOutbox('pending')).length };
}

/**
 * Where the schedule goes on in the next-fire index: after the latest slot its history records
 * (posted, failed, missed or without change, that slot is done), so the new store never runs it
 * again; without one, the store's own rule (looked at once, no slot before its creation).
 */
function nextRunOf({ record, history }: MovedSchedule, known: Map<string, number>): number | undefined {
  const slots = history.map((r) => Date.parse(r.slotId)).filter((t) => Number.isFinite(t));
  if (slots.length === 0) return undefined;
  const after = Math.max(...slots);
  // Schedules that share a cron, a zone and a last slot (every 07:30 briefing of a team) share the
  // answer: each walk costs about 0.1 ms, a third of the import's CPU for 10,000 distinct ones.
  const key = `${record.cron}|${record.timezone}|${after}`;
  let next = known.get(key);
  if (next === undefined) {
    next =
      nextRuns(record.cron, record.timezone, new Date(after), 1)[0]?.getTime() ?? Number.MAX_SAFE_INTEGER;
    known.set(key, next);
  }
  return next;
}

/** Each schedule the import added, recorded in the audit as imported by whoever ran `npm run store`. */
async function auditImport(
  store: Store,
  file: StoreFile,
  added: readonly string[],
  at: number,
): Promise<void> {
  const name = userInfo().username;
  const actor = { platform: 'console' as const, id: name, displayName: name, roles: [] };
  const imported = file.schedules.filter((_, i) => added[i] === 'added');
  await inBatches(imported, (s) =>
    recordAudit(store, s.record as ScheduleRecord, { action: 'import', actor, via: 'store', at }),
  );
}

interface Imported {
  schedules: number;
  /** Of them, how many the store held already (left as they were). */
  existing: number;
  runs: number;
  values: number;
}

/**
 * Writes everything in `file` to `store`. Writing the same again changes nothing: a schedule the
 * store holds keeps its record, a run replaces its slot's record in the history, a value is set to
 * the same, and the index is set as before (a slot the store ran since is not run again: its claim
 * answers that it was posted).
 */
export async function importStore(
  store: Store,
  file: StoreFile,
  opts: { force?: boolean; now?: () => number } = {},
): Promise<Imported> {
  refuseMemory(store);
  const beat = opts.force ? undefined : await freshHeartbeat(store);
  if (beat) {
    const ageS = Math.max(0, Math.round(((opts.now ?? Date.now)() - beat.at) / 1000));
    throw new StoreMoveError({
      code: 'running',
      message: `A herald is running on this store (${beat.owner} wrote its heartbeat ${ageS} s ago): stop it first (a herald that stops takes its heartbeat away, one that died leaves it for at most ${HEARTBEAT_TTL_MS / 1000} s), or pass --force.`,
    });
  }
  // No SCHEDULE_MAX here: the store held them all before the move.
  const added = await inBatches(file.schedules, (s) =>
    store.addSchedule(s.record as ScheduleRecord, Number.MAX_SAFE_INTEGER),
  );
  await inBatches(file.schedules, (s) => store.recordRuns(s.record.id, s.history));
  const known = new Map<string, number>();
  const next = file.schedules.flatMap((s): [string, number][] => {
    const at = nextRunOf(s, known);
    return at === undefined ? [] : [[s.record.id, at]];
  });
  for (let i = 0; i < next.length; i += BATCH) await store.setNextRuns(new Map(next.slice(i, i + BATCH)));
  const values = Object.entries(file.values);
  await inBatches(values, ([key, value]) => store.setValue(key, value));
  await importAudit(store, file.audit ?? []);
  await auditImport(store, file, added, (opts.now ?? Date.now)());
  return {
    schedules: file.schedules.length,
    existing: added.filter((a) => a === 'exists').length,
    runs: file.schedules.reduce((n, s) => n + s.history.length, 0),
    values: values.length,
  };
}
