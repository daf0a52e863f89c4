// The state herald keeps, behind one interface opened once per process: schedules, slot claims,
// the outbox and a key/value; node:sqlite (sqlite-store.ts) or Redis (redis-store.ts, for replicas).
import type { AddResult, ScheduleRecord, ScheduleRun } from '../schedule/schedules.ts';

export type SlotStatus = 'claimed' | 'posted' | 'failed';

export interface SlotRecord {
  job: string;
  slotId: string;
  status: SlotStatus;
  owner: string;
  /** A `claimed` slot whose lease has passed can be claimed again. */
  leaseUntil: number;
  attempts: number;
  updatedAt: number;
  error?: string;
}

/**
 * `claimed` hands back the schedule's record and a watch's memory when asked; `held`: a live lease
 * (any owner's) holds it, or another slot of an exclusive job; `given-up`: failed `maxAttempts`
 * times; `waiting`: failed, may run again at `until`; `gone`: the schedule was removed or paused.
 */
export type ClaimResult =
  | { status: 'claimed'; attempt: number; schedule?: ScheduleRecord; memory?: string }
  | { status: 'already-posted' }
  | { status: 'held'; owner: string; leaseUntil: number }
  | { status: 'given-up' }
  | { status: 'waiting'; until: number }
  | { status: 'gone' };

/** What a claim checks besides the slot's own record, in the claim's one step. */
export interface ClaimRules {
  /** A failed slot is not claimed again after this many runs, nor within `retryDelayMs` of one. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** A chat schedule: `gone` when removed, or paused (unless `manual`); a watch's memory read too. */
  schedule?: { id: string; manual?: boolean; memoryKey?: string };
  /** One slot of the job at a time (a watch). */
  exclusive?: boolean;
}

export interface NewOutboxEntry {
  /** One per delivery: `analytics-summary|2025-11-22T08:00:00.000Z|0:webhook`. */
  id: string;
  job: string;
  slotId: string;
  kind: string;
  /** JSON-serialisable; dropped once delivered. */
  payload: unknown;
  /** A watch's memory, written in the step that marks the entry delivered: a lost post leaves it as it was. */
  memory?: { key: string; value: string };
}

export interface PostOptions {
  /** The deliveries start leased to the poster, in flight (their sends start at once), so no drain takes them. */
  leaseMs?: number;
  /** Written in the same step: a watch's memory when its run has nothing to post. */
  memory?: { key: string; value: string };
}

export type OutboxStatus = 'pending' | 'delivered' | 'given_up';

export interface OutboxEntry extends NewOutboxEntry {
  status: OutboxStatus;
  attempts: number;
  /** While leased, the lease's end. */
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
  lastError?: string;
  /** Why it was given up on. */
  reason?: string;
  /** The provider's id of the post (message, email); on a pending entry the part already made. */
  receipt?: string;
  /** A send whose outcome is unknown; still set at the next claim, a resend may repeat the post. */
  inFlightAt?: number;
}

/**
 * What the owner of a pending entry changes: its lease renewed for `leaseMs` more; its send marked
 * started or answered (`inFlightAt`), with `receipt` a part already made (a Slack message whose files
 * are to follow) so that a resend sends only the rest; let go, due again at `retryAt`; or given up.
 */
export type HeldChange =
  | { leaseMs: number }
  | { inFlight: boolean; receipt?: string }
  | { retryAt: number; error: string }
  | { giveUp: string };

/** The schedules from chat, their next-fire index and their run history. */
export interface ScheduleStore {
  /** Oldest first. */
  listSchedules(): Promise<ScheduleRecord[]>;
  /**
   * At most `limit` schedules not paused whose next fire time in the index is at or before `t`,
   * soonest first, in one round trip. Added or resumed enters the index, paused or removed leaves it.
   */
  dueSchedules(t: number, limit: number): Promise<ScheduleRecord[]>;
  /** Except for a schedule removed or paused meanwhile. */
  setNextRuns(next: ReadonlyMap<string, number>): Promise<void>;
  getSchedule(id: string): Promise<ScheduleRecord | undefined>;
  /** Atomic, so that no more than `max` exist. */
  addSchedule(record: ScheduleRecord, max: number): Promise<AddResult>;
  removeSchedule(id: string): Promise<boolean>;
  setPaused(id: string, paused: boolean): Promise<boolean>;
  /**
   * Records runs in place of their slots' earlier ones, in one step, keeping RUN_HISTORY; with
   * `nextRunAt`, moves the index on in the same step. Ignored when the schedule was removed.
   */
  recordRuns(id: string, runs: readonly ScheduleRun[], nextRunAt?: number): Promise<void>;
  /** Newest first. */
  history(id: string): Promise<ScheduleRun[]>;
}

export interface SlotStore {
  claimSlot(
    job: string,
    slotId: string,
    owner: string,
    leaseMs: number,
    rules?: ClaimRules,
  ): Promise<ClaimResult>;
  /** One step with the deliveries and `opts.memory` (posted stops a lagging replica); false: claim lost. */
  markPosted(
    job: string,
    slotId: string,
    owner: string,
    deliveries: readonly NewOutboxEntry[],
    opts?: PostOptions,
  ): Promise<boolean>;
  /**
   * Records the slot failed (it may be claimed again) when `owner` holds its claim; `owner` '': a slot
   * whose window passed unrun, recorded unless it has a record. True when it did.
   */
  markFailed(job: string, slotId: string, owner: string, error: string): Promise<boolean>;
  getSlot(job: string, slotId: string): Promise<SlotRecord | undefined>;
}

export interface OutboxStore {
  /**
   * Leases up to `limit` due pending entries to `owner`, counting an attempt each; with
   * `includeBackingOff`, also those waiting out a backoff (not those another owner leases).
   */
  claimDueOutbox(
    owner: string,
    leaseMs: number,
    limit: number,
    opts?: { includeBackingOff?: boolean },
  ): Promise<OutboxEntry[]>;
  /** Whoever holds it; writes its `memory` under `memoryKey` in the same step. */
  markDelivered(id: string, receipt?: string, memoryKey?: string): Promise<boolean>;
  /** Makes `change` to each of `ids` that `owner` holds, in one step; resolves with those ids. */
  updateHeld(ids: readonly string[], owner: string, change: HeldChange): Promise<string[]>;
  /** Oldest first. */
  listOutbox(status: OutboxStatus): Promise<OutboxEntry[]>;
}

export interface Store extends ScheduleStore, SlotStore, OutboxStore {
  readonly kind: 'sqlite' | 'redis' | 'memory';
  getValue(key: string): Promise<string | undefined>;
  /** `ifAbsent`: only when missing or expired; returns whether it wrote. */
  setValue(key: string, value: string, opts?: { ifAbsent?: boolean; ttlMs?: number }): Promise<boolean>;
  /** Resolves with how many went. */
  deleteValues(keyPrefix: string): Promise<number>;
  /** Every value written without `ttlMs`, in no order: what a move carries. */
  durableValues(): Promise<[key: string, value: string][]>;
  /** Takes `key` for `ttlMs`: true for the first caller on any replica (an interaction answered once). */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Keeps the latest `keep` entries. */
  appendLog(key: string, value: string, keep: number): Promise<void>;
  /** Newest first. */
  readLog(key: string, limit: number): Promise<string[]>;
  /** Deletes finished slots and entries older than this, and expired values. */
  prune(olderThanMs: number): Promise<number>;
  close(): Promise<void>;
}

/** A record as a backend reads it back: SQLite's row or Redis's hash. */
export type StoredFields = Record<string, string | number | null | undefined>;

const has = (v: unknown): v is string | number => v !== null && v !== undefined;

export function slotOf(f: StoredFields): SlotRecord {
  const slot: SlotRecord = {
    job: String(f.job),
    slotId: String(f.slotId),
    status: f.status as SlotStatus,
    owner: String(f.owner ?? ''),
    leaseUntil: Number(f.leaseUntil ?? 0),
    attempts: Number(f.attempts ?? 0),
    updatedAt: Number(f.updatedAt ?? 0),
  };
  if (has(f.error)) slot.error = String(f.error);
  return slot;
}

export function entryOf(f: StoredFields): OutboxEntry {
  const entry: OutboxEntry = {
    id: String(f.id),
    job: String(f.job),
    slotId: String(f.slotId),
    kind: String(f.kind),
    payload: JSON.parse(String(f.payload ?? 'null')) as unknown,
    status: (f.status ?? 'pending') as OutboxStatus,
    attempts: Number(f.attempts ?? 0),
    nextAttemptAt: Number(f.nextAttemptAt ?? 0),
    createdAt: Number(f.createdAt ?? 0),
    updatedAt: Number(f.updatedAt ?? 0),
  };
  for (const name of ['lastError', 'reason', 'receipt'] as const)
    if (has(f[name])) entry[name] = String(f[name]);
  if (has(f.inFlightAt)) entry.inFlightAt = Number(f.inFlightAt);
  if (has(f.memoryKey) && has(f.memoryValue))
    entry.memory = { key: String(f.memoryKey), value: String(f.memoryValue) };
  return entry;
}

export interface StoreOptions {
  now?: () => number;
}

/** How long finished records are kept: long enough that no replica lags behind them. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
