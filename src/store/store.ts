// The state herald keeps, behind one interface opened once per process: the schedules from chat
// with their index of next fire times and their run history, a record per scheduled slot (claimed,
// posted, failed), an outbox of posts not yet delivered, and a little key/value. Implementations:
// node:sqlite (sqlite-store.ts: one file, or `:memory:`) and Redis (redis-store.ts, shared by replicas).
import type { AddResult, ScheduleRecord, ScheduleRun } from '../schedule/schedules.ts';

export type SlotStatus = 'claimed' | 'posted' | 'failed';

export interface SlotRecord {
  job: string;
  slotId: string;
  status: SlotStatus;
  /** The scheduler instance that holds (or last held) the claim. */
  owner: string;
  /** Epoch ms; a `claimed` slot whose lease has passed can be claimed again. */
  leaseUntil: number;
  /** How many times the slot has been claimed. */
  attempts: number;
  updatedAt: number;
  error?: string;
}

/**
 * `claimed`: this owner may run the slot (with the schedule's record and a watch's memory, read in
 * the same step, when asked). `already-posted`: it ran; never run it again. `held`: a live lease
 * holds it (any owner's, this one's too), or, for an exclusive job, another of its slots.
 * `given-up`: it failed `maxAttempts` times. `waiting`: it failed, and may run again at `until`.
 * `gone`: the schedule was removed, or is paused.
 */
export type ClaimResult =
  | { status: 'claimed'; attempt: number; schedule?: ScheduleRecord; memory?: string }
  | { status: 'already-posted' }
  | { status: 'held'; owner: string; leaseUntil: number }
  | { status: 'given-up' }
  | { status: 'waiting'; until: number }
  | { status: 'gone' };

/** What a claim checks besides the slot's own record; each is read in the claim's one step. */
export interface ClaimRules {
  /** A failed slot is not claimed again once it has run this many times. */
  maxAttempts?: number;
  /** Nor within this long of its failed run. */
  retryDelayMs?: number;
  /**
   * A chat schedule's id: the claim answers `gone` when it was removed, or is paused (unless
   * `manual`), and hands back its record; and the watch's memory at `memoryKey`.
   */
  schedule?: { id: string; manual?: boolean; memoryKey?: string };
  /** One slot of the job at a time (a watch): held while another of its slots is claimed. */
  exclusive?: boolean;
}

export interface NewOutboxEntry {
  /** Unique per delivery, e.g. `analytics-summary|2025-11-22T08:00:00.000Z|0:webhook`. */
  id: string;
  job: string;
  slotId: string;
  kind: string;
  /** JSON-serialisable. Dropped once delivered: a delivered entry keeps only its receipt. */
  payload: unknown;
  /**
   * A watch's memory, written to the key/value `key` in the same step that marks this entry
   * delivered: a post that is refused or never lands leaves the watch's memory as it was.
   */
  memory?: { key: string; value: string };
}

export interface PostOptions {
  /**
   * The deliveries start leased to the posting owner for this long, so the run that posted them
   * delivers them itself and no drain (here or on another replica) takes them meanwhile; they are
   * marked in flight from then (see `inFlightAt`), since their sends start at once.
   */
  leaseMs?: number;
  /** Written in the same step: a watch's memory when its run has nothing to post. */
  memory?: { key: string; value: string };
}

export type OutboxStatus = 'pending' | 'delivered' | 'given_up';

export interface OutboxEntry extends NewOutboxEntry {
  status: OutboxStatus;
  /** Delivery attempts started so far (a claim counts as one). */
  attempts: number;
  /** Epoch ms when the entry is next due; while leased, the lease's end. */
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
  lastError?: string;
  /** Why it was given up on. */
  reason?: string;
  /**
   * The provider's id of what was delivered (the Discord message id confirmed by `wait=true`, the
   * Resend email id): the slot's proof of posting, shown by `/schedule list` and the logs. On a
   * pending entry: the part of its post already made (markInFlight).
   */
  receipt?: string;
  /**
   * Epoch ms when a send started whose outcome is unknown (set before the request, cleared when the
   * provider answers). Still set at the next claim: the process died or timed out mid-request, so the
   * post may already be visible and the resend can repeat it (webhooks carry no idempotency key).
   */
  inFlightAt?: number;
}

/** The schedules from chat, their next-fire index and their run history. */
export interface ScheduleStore {
  /** Every schedule, oldest first. */
  listSchedules(): Promise<ScheduleRecord[]>;
  /**
   * The schedules to look at by `t`, soonest first, at most `limit`: those not paused whose next
   * fire time in the index is at or before `t`. One round trip, whatever the number stored. A
   * schedule enters the index when added (at its creation) and when resumed (at once), leaves it
   * when paused or removed, and moves on by `setNextRuns` or `recordRun`.
   */
  dueSchedules(t: number, limit: number): Promise<ScheduleRecord[]>;
  /** Sets next fire times (epoch ms) in the index; ignored for a schedule removed or paused meanwhile. */
  setNextRuns(next: ReadonlyMap<string, number>): Promise<void>;
  getSchedule(id: string): Promise<ScheduleRecord | undefined>;
  /** Adds the schedule atomically unless `max` exist already ('full') or the id is taken. */
  addSchedule(record: ScheduleRecord, max: number): Promise<AddResult>;
  /** False when there was no such schedule. */
  removeSchedule(id: string): Promise<boolean>;
  /** False when there is no such schedule. */
  setPaused(id: string, paused: boolean): Promise<boolean>;
  /**
   * Records the outcome of a run, replacing an earlier record of its slot; keeps the latest
   * RUN_HISTORY runs. With `nextRunAt`, moves the schedule on in the index in the same step.
   * Ignored when the schedule was removed.
   */
  recordRun(id: string, run: ScheduleRun, nextRunAt?: number): Promise<void>;
  /** The schedule's latest runs, newest first (at most RUN_HISTORY); empty when there is none. */
  history(id: string): Promise<ScheduleRun[]>;
}

/** Slot claims: claim, missed, posted (handing its deliveries to the outbox), failed, read. */
export interface SlotStore {
  /**
   * Atomically claims a slot for `owner` for `leaseMs` (see ClaimResult); a posted slot is never
   * claimed again, nor one a live lease holds.
   */
  claimSlot(
    job: string,
    slotId: string,
    owner: string,
    leaseMs: number,
    rules?: ClaimRules,
  ): Promise<ClaimResult>;
  /** Records a slot whose window passed unrun as failed with `error`, unless it has a record; true when it did. */
  markMissed(job: string, slotId: string, error: string): Promise<boolean>;
  /**
   * Marks a slot that `owner` holds as posted and hands its deliveries to the outbox (and writes
   * `opts.memory`), in one atomic step. False when the claim was lost (another owner took it over,
   * or it was posted). The claim is never released: the posted record stops a lagging replica.
   */
  markPosted(
    job: string,
    slotId: string,
    owner: string,
    deliveries: readonly NewOutboxEntry[],
    opts?: PostOptions,
  ): Promise<boolean>;
  /** Records a failed run; the slot may be claimed again (catch-up, another replica). */
  markFailed(job: string, slotId: string, owner: string, error: string): Promise<void>;
  getSlot(job: string, slotId: string): Promise<SlotRecord | undefined>;
}

/** The outbox: lease what is due, and settle what an owner holds. */
export interface OutboxStore {
  /**
   * Leases up to `limit` due pending entries to `owner` for `leaseMs`, counting an attempt each.
   * With `includeBackingOff`, entries waiting out a retry backoff count as due too (a restart or a
   * job tick retries at once); entries leased to another owner still wait for the lease to end.
   */
  claimDueOutbox(
    owner: string,
    leaseMs: number,
    limit: number,
    opts?: { includeBackingOff?: boolean },
  ): Promise<OutboxEntry[]>;
  /**
   * Marks an entry delivered, whoever holds it: the post happened; `receipt` is the provider's id of
   * it (absent when the provider created it without saying its id). In the same step the entry's
   * `memory` is written under `memoryKey` (its `memory.key`) and its payload is dropped.
   */
  markDelivered(id: string, receipt?: string, memoryKey?: string): Promise<boolean>;
  /**
   * Renews `owner`'s lease on each of `ids` it still holds (pending, not taken over by another
   * owner's claim), to `leaseMs` from now; resolves with the ids renewed. An id left out was taken
   * over, settled or put back: its post is no longer this owner's to send.
   */
  renewOutboxLeases(ids: readonly string[], owner: string, leaseMs: number): Promise<string[]>;
  /**
   * Marks a send of an entry `owner` holds as started (true) or answered (false); see `inFlightAt`.
   * `receipt`: the id of a part of the post already made (a Slack message whose files are still to
   * go), kept as the entry's receipt so that a resend sends only the rest.
   */
  markInFlight(id: string, owner: string, isInFlight: boolean, receipt?: string): Promise<boolean>;
  /** Puts an entry that `owner` holds back in the queue, due at `nextAttemptAt`. */
  rescheduleOutbox(id: string, owner: string, nextAttemptAt: number, error: string): Promise<boolean>;
  /** Stops retrying an entry that `owner` holds, keeping it with its reason. */
  giveUpOutbox(id: string, owner: string, reason: string): Promise<boolean>;
  /** The entries in `status`, oldest first, for inspection (nothing in the slot's path reads it). */
  listOutbox(status: OutboxStatus): Promise<OutboxEntry[]>;
}

export interface Store extends ScheduleStore, SlotStore, OutboxStore {
  readonly kind: 'sqlite' | 'redis' | 'memory';

  /** The value at `key`; undefined when there is none or it has expired. */
  getValue(key: string): Promise<string | undefined>;
  /**
   * With `ifAbsent`, writes only when the key is missing (or expired); returns whether it wrote.
   * With `ttlMs`, the value expires that long after the write; without, it is kept until deleted.
   */
  setValue(key: string, value: string, opts?: { ifAbsent?: boolean; ttlMs?: number }): Promise<boolean>;
  /** Deletes every key that starts with `keyPrefix` (one key when it is the whole key); how many went. */
  deleteValues(keyPrefix: string): Promise<number>;
  /**
   * Takes `key` for `ttlMs`: true for the first caller (on any replica sharing the store), false
   * while the claim lives. Answers each chat interaction once; the claim then expires on its own.
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Adds `value` to the log at `key` in one step, keeping its latest `keep` entries. */
  appendLog(key: string, value: string, keep: number): Promise<void>;
  /** The log's latest `limit` entries, newest first. */
  readLog(key: string, limit: number): Promise<string[]>;

  /**
   * Deletes finished records (posted or failed slots, delivered or given-up entries) older than
   * this, and expired values.
   */
  prune(olderThanMs: number): Promise<number>;
  close(): Promise<void>;
}

/** A record as a backend reads it back: SQLite's row (columns aliased) or Redis's hash (strings). */
export type StoredFields = Record<string, string | number | null | undefined>;

const has = (v: unknown): v is string | number => v !== null && v !== undefined;

/** A slot's stored fields as its record. */
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

/** An outbox entry's stored fields as the entry (its payload parsed). */
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
  if (has(f.lastError)) entry.lastError = String(f.lastError);
  if (has(f.reason)) entry.reason = String(f.reason);
  if (has(f.receipt)) entry.receipt = String(f.receipt);
  if (has(f.inFlightAt)) entry.inFlightAt = Number(f.inFlightAt);
  if (has(f.memoryKey) && has(f.memoryValue))
    entry.memory = { key: String(f.memoryKey), value: String(f.memoryValue) };
  return entry;
}

export interface StoreOptions {
  /** Epoch ms clock used for leases and due times (tests pass a fake one). */
  now?: () => number;
}

/** How long finished records are kept: long enough that no replica lags behind them. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
