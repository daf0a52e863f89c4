// The one scheduling engine: it fires the built-in schedules (the jobs set by environment, such as
// the analytics summary) and the schedules of /schedule alike. Chat schedules are data in the store,
// whose index of next fire times says which are due, so a tick reads only those (afresh: one added
// on any replica is seen here, one removed or paused anywhere is not run again). Each due slot (the
// latest fire time of its cron by when.ts, no older than the catch-up window) is claimed in the
// store, run, marked posted with its posts in the outbox in one step, and delivered (slot-run.ts),
// so it is posted exactly once across replicas and restarts. Due slots run concurrently up to
// `concurrency`. A failed run is retried within its slot, then recorded as failed, for every
// schedule. One claim owner, one lease, one timeout. This file finds the due slots and runs them;
// what every slot run shares is in runner-core.ts, a chat schedule's slot in chat-slot.ts.
import { randomInt } from 'node:crypto';
import PQueue from 'p-queue';
import type { Actor } from '../core/actor.ts';
import type { DrainResult } from './delivery.ts';
import type { JobSlot } from './job.ts';
import type { ManualRun } from './service.ts';
import { scheduleJobName, type ScheduleRecord } from './schedules.ts';
import { createSlotGuard, skippedOutcome } from './slot-claims.ts';
import type { SlotOutcome } from './slot-run.ts';
import { recordBuiltInRun, recordChatRun, runRecord } from './run-history.ts';
import { nextRuns, previousRun } from './when.ts';
import {
  claimAndRun,
  createRunnerCore,
  withRetry,
  type RunnerCore,
  type ScheduleRunnerOptions,
} from './runner-core.ts';
import { executeChat, recordDrained } from './chat-slot.ts';
import type { CreatorNotices } from './creator-notice.ts';

export interface ScheduleRunner {
  readonly owner: string;
  /** Starts the ticks; resolves after the first (which retries the outbox and catches up). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Finds and runs every due slot (the timer's callback; tests call it with a fake clock). */
  tick(): Promise<SlotOutcome[]>;
  /** `/schedule run`: a manual slot now. */
  runNow(record: ScheduleRecord, asker?: Actor): Promise<ManualRun>;
  /** `npm run job -- <id>`: a manual slot now, with its whole outcome. */
  runManual(record: ScheduleRecord, asker?: Actor): Promise<SlotOutcome>;
  /** One slot of a built-in schedule (tests drive slots with a fake clock). Never throws. */
  runSlot(name: string, scheduledAt: Date, reason?: JobSlot['reason']): Promise<SlotOutcome>;
  /** `npm run job -- <name>`: a manual slot of a built-in schedule now. */
  runBuiltInNow(name: string): Promise<SlotOutcome>;
  /** Delivers what the outbox holds that is due (`includeBackingOff`: waiting out a backoff too). */
  drainOutbox(opts?: { includeBackingOff?: boolean }): Promise<DrainResult>;
  /** What creators are told about their schedules; the dispatcher hands them their waiting notices. */
  readonly notices: CreatorNotices;
}

export { runRecord } from './run-history.ts';
/** The runner's options, with the parts every slot run shares (runner-core.ts). */
export type { CommandLineRunner, ScheduleRunnerOptions } from './runner-core.ts';

/** What a tick needs of a schedule, built-in or from chat, to find its due slot. */
interface Timing {
  /** The name its slots are claimed under. */
  name: string;
  cron: string;
  timezone: string;
  /** Epoch ms: no slot before this is due (a schedule's creation, a built-in's first start). */
  since: number;
  paused: boolean;
}

/**
 * What a tick finds for a schedule: a slot to run, one whose window passed unrun, one to look at
 * again later (claimed by a live lease, or waiting to be retried), or nothing until the next fire.
 */
type Found = { due: JobSlot } | { missed: JobSlot } | { later: true } | undefined;

/**
 * The slot of a schedule at `t`: its latest fire time, due when not yet posted nor given up on
 * and within the catch-up window; missed when older than the window and never tried.
 */
async function findSlot(core: RunnerCore, timing: Timing, t: number): Promise<Found> {
  const { settings, store } = core;
  if (timing.paused) return undefined;
  const at = previousRun(timing.cron, timing.timezone, new Date(t));
  if (!at || at.getTime() < timing.since) return undefined;
  const slotId = at.toISOString();
  const isTooOld = t - at.getTime() > Math.max(core.catchupMs, settings.pollMs * 2);
  const done = await store.getSlot(timing.name, slotId);
  if (isTooOld) return done ? undefined : { missed: { id: slotId, scheduledAt: at, reason: 'catch-up' } };
  if (done?.status === 'posted') return undefined;
  if (done?.status === 'claimed' && done.leaseUntil > t) return { later: true };
  if (done?.status === 'failed' && done.attempts >= settings.maxAttempts) return undefined;
  if (done?.status === 'failed' && t - done.updatedAt < settings.retryDelayMs) return { later: true };
  // Later than two polls, or a second try: the slot is being caught up.
  const isLate = done !== undefined || t - at.getTime() > settings.pollMs * 2;
  return { due: { id: slotId, scheduledAt: at, reason: isLate ? 'catch-up' : 'scheduled' } };
}

/** Looks for a schedule's slot at the tick's time; `run` queues a due one, `onMissed` follows a recorded miss. */
type FindSlot = (
  timing: Timing,
  run: (slot: JobSlot) => Promise<SlotOutcome>,
  onMissed?: (slot: JobSlot) => Promise<void>,
) => Promise<Found>;

/** The most due schedules one tick takes from the store; the rest wait for the next tick. */
const DUE_BATCH = 5_000;

/** The schedule's first fire time after `after` (epoch ms), or never (the largest safe time). */
function nextFire(timing: Timing, after: Date): number {
  return nextRuns(timing.cron, timing.timezone, after, 1)[0]?.getTime() ?? Number.MAX_SAFE_INTEGER;
}

export const MISSED_SENTENCE = 'Missed: no replica ran it within the catch-up window (JOB_CATCHUP_MINUTES).';

/**
 * Records a slot whose window passed unrun, once across replicas: claimed and marked failed with
 * why, logged `job.missed` and counted (onRun). True when this process recorded it.
 */
async function recordMissed(core: RunnerCore, name: string, slot: JobSlot): Promise<boolean> {
  const { store, owner, log, settings } = core;
  const claim = await store.claimSlot(name, slot.id, owner, settings.leaseMs);
  if (claim.status !== 'claimed') return false;
  await store.markFailed(name, slot.id, owner, MISSED_SENTENCE);
  const ageMinutes = Math.round((core.now().getTime() - slot.scheduledAt.getTime()) / 60_000);
  const reason = 'older than the catch-up window (JOB_CATCHUP_MINUTES)';
  log.warn({ job: name, slotId: slot.id, ageMinutes, reason }, 'job.missed');
  settings.onRun?.({ job: name, outcome: 'missed', durationMs: 0 });
  return true;
}

/** `/schedule run`'s answer from a manual slot's outcome. */
function manualRunOf(record: ScheduleRecord, outcome: SlotOutcome, at: Date): ManualRun {
  if (outcome.status === 'skipped') return { outcome: 'skipped', error: 'it is running already' };
  if (record.onlyNew && outcome.status === 'posted' && outcome.deliveries.length === 0)
    return { outcome: 'no-change' };
  const run = runRecord(outcome, at.getTime());
  if (run.outcome === 'posted')
    return { outcome: 'posted', ...(run.messageId ? { messageId: run.messageId } : {}) };
  return {
    outcome: run.outcome === 'pending' ? 'pending' : 'failed',
    error: run.error ?? 'unknown error',
  };
}

/** The first start of each built-in, kept in the store: no slot from before it is caught up. */
function builtInSince(core: RunnerCore) {
  const known = new Map<string, number>();
  return async (name: string): Promise<number> => {
    const cached = known.get(name);
    if (cached !== undefined) return cached;
    const key = `job:${name}:since`;
    const t = core.now().getTime();
    await core.store.setValue(key, new Date(t).toISOString(), { ifAbsent: true });
    const since = Date.parse((await core.store.getValue(key)) ?? '') || t;
    known.set(name, since);
    return since;
  };
}

export function createScheduleRunner(opts: ScheduleRunnerOptions): ScheduleRunner {
  const core = createRunnerCore(opts);
  const { settings, now, owner, log, stopping, deliverer } = core;
  const builtIns = new Map((settings.builtIns ?? []).map((b) => [b.job.name, b]));
  const sinceOf = builtInSince(core);
  const guard = createSlotGuard();
  const watchesRunning = new Set<string>();
  const queue = new PQueue({ concurrency: settings.concurrency });
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<SlotOutcome[]> | undefined;

  /** One run per slot in this process at a time; a second asker is told it is running. */
  function once(name: string, slot: JobSlot, work: () => Promise<SlotOutcome>): Promise<SlotOutcome> {
    return guard.once(name, slot.id, work, (err) =>
      // The store itself failed: the slot is not lost, a later tick tries it again.
      log.error({ job: name, slotId: slot.id, err }, 'job.failed'),
    );
  }
  const runChat = (record: ScheduleRecord, slot: JobSlot, asker?: Actor) =>
    once(scheduleJobName(record.id), slot, () => executeChat(core, record, slot, watchesRunning, asker));
  function runBuiltIn(name: string, slot: JobSlot): Promise<SlotOutcome> {
    const b = builtIns.get(name);
    if (!b)
      return Promise.resolve({
        job: name,
        slotId: slot.id,
        status: 'failed',
        deliveries: [],
        error: new Error(`unknown job "${name}"`),
      });
    return once(name, slot, async () => {
      const outcome = await claimAndRun(core, b.job, slot);
      if (outcome.status !== 'skipped') {
        const run = await withRetry(core, name, runRecord(outcome, now().getTime()));
        const key = `job:${name}:failed-in-a-row`;
        await recordBuiltInRun(core.book, name, run, {
          read: async () => Number((await core.store.getValue(key)) ?? 0) || 0,
          write: async (n) => void (await core.store.setValue(key, String(n))),
        });
      }
      return outcome;
    });
  }

  /**
   * The chat schedules' due slots as work to run: only those the store's index says are due by `t`
   * (one round trip). A schedule found with nothing to do, or whose missed slot was recorded, moves
   * on to its next fire time (one more round trip for them all); one whose slot runs moves on once
   * the slot is posted; one claimed elsewhere or waiting for a retry is looked at again next tick.
   */
  async function dueChatWork(t: number, find: FindSlot): Promise<void> {
    const next = new Map<string, number>();
    for (const record of await settings.schedules.due(t, DUE_BATCH)) {
      const timing = {
        name: scheduleJobName(record.id),
        cron: record.cron,
        timezone: record.timezone,
        since: record.createdAt,
        paused: record.paused,
      };
      const found = await find(
        timing,
        async (slot) => {
          const outcome = await runChat(record, slot);
          const isSettled =
            outcome.status === 'posted' ||
            (outcome.status === 'skipped' && outcome.reason === 'already-posted');
          if (isSettled)
            await settings.schedules.setNextRuns(new Map([[record.id, nextFire(timing, slot.scheduledAt)]]));
          return outcome;
        },
        async (slot) =>
          void (await recordChatRun(core.book, record, {
            slotId: slot.id,
            at: t,
            outcome: 'missed',
            error: MISSED_SENTENCE,
          })),
      );
      if (found === undefined || 'missed' in found) next.set(record.id, nextFire(timing, new Date(t)));
    }
    if (next.size > 0) await settings.schedules.setNextRuns(next);
  }

  /** Every schedule's due slot as work to run, built-ins first. */
  async function dueWork(t: number): Promise<(() => Promise<SlotOutcome>)[]> {
    const work: (() => Promise<SlotOutcome>)[] = [];
    const find: FindSlot = async (timing, run, onMissed) => {
      try {
        const found = await findSlot(core, timing, t);
        // A slot still queued when the stop begins is left for the next start or another replica.
        if (found && 'due' in found)
          work.push(() =>
            stopping.signal.aborted
              ? Promise.resolve(skippedOutcome(timing.name, found.due.id, 'running'))
              : run(found.due),
          );
        if (found && 'missed' in found && (await recordMissed(core, timing.name, found.missed)))
          await onMissed?.(found.missed);
        return found;
      } catch (err) {
        log.error({ job: timing.name, err }, 'schedule.tick_failed');
        return { later: true };
      }
    };
    for (const b of builtIns.values()) {
      if (b.disabledReason) continue;
      const timing = { name: b.job.name, cron: b.cron, timezone: b.timezone, paused: false };
      await find({ ...timing, since: await sinceOf(b.job.name) }, (slot) => runBuiltIn(b.job.name, slot));
    }
    await dueChatWork(t, find);
    return work;
  }

  async function drainOutbox(drainOpts?: { includeBackingOff?: boolean }): Promise<DrainResult> {
    try {
      const drained = await deliverer.drain({ ...drainOpts, signal: stopping.signal });
      // What the outbox delivered (or gave up on) later is the truth of its slot's record.
      await recordDrained(core, drained).catch((err: unknown) =>
        log.error({ err }, 'schedule.record_failed'),
      );
      return drained;
    } catch (err) {
      log.error({ err }, 'outbox.drain_failed');
      return { outcomes: new Map() };
    }
  }

  async function tickOnce(first: boolean): Promise<SlotOutcome[]> {
    // Posts left pending by an outage (here or on another replica) are retried when due; at the
    // first tick also those still waiting out a backoff.
    const draining = drainOutbox({ includeBackingOff: first });
    const due = await dueWork(now().getTime());
    // Each replica starts at its own random place in the list, so that replicas do not all race
    // for the same first slots and then the same next ones.
    const offset = due.length === 0 ? 0 : randomInt(due.length);
    const work = [...due.slice(offset), ...due.slice(0, offset)];
    const outcomes = await Promise.all(work.map((run) => queue.add(run)));
    await draining;
    return outcomes;
  }

  function tick(first = false): Promise<SlotOutcome[]> {
    ticking ??= tickOnce(first).finally(() => {
      ticking = undefined;
    });
    return ticking;
  }

  /** Sleeps until the next poll or the next minute, whichever is first. */
  function schedule(): void {
    if (stopping.signal.aborted) return;
    const t = now().getTime();
    const secondsLeft = 60_000 - (t % 60_000) + 200;
    timer = setTimeout(
      () => {
        void tick()
          .catch((err: unknown) => log.error({ err }, 'schedule.tick_failed'))
          .finally(schedule);
      },
      Math.min(settings.pollMs, secondsLeft),
    );
    timer.unref();
  }

  function runManual(record: ScheduleRecord, asker?: Actor): Promise<SlotOutcome> {
    const at = now();
    return runChat(record, { id: `manual:${at.toISOString()}`, scheduledAt: at, reason: 'manual' }, asker);
  }

  return {
    owner,
    notices: core.book.notices,
    async start() {
      for (const b of builtIns.values()) {
        if (b.disabledReason) log.info({ job: b.job.name, reason: b.disabledReason }, 'job.disabled');
        else {
          const [next] = nextRuns(b.cron, b.timezone, now(), 1);
          const fields = { job: b.job.name, cron: b.cron, timezone: b.timezone };
          log.info({ ...fields, nextRunAt: next?.toISOString() }, 'job.scheduled');
        }
      }
      await tick(true).catch((err: unknown) => log.error({ err }, 'schedule.tick_failed'));
      schedule();
    },
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await Promise.allSettled([ticking, ...guard.running.values()]);
    },
    tick: () => tick(),
    runManual,
    async runNow(record, asker) {
      const at = now();
      return manualRunOf(record, await runManual(record, asker), at);
    },
    runSlot: (name, scheduledAt, reason = 'scheduled') =>
      runBuiltIn(name, { id: scheduledAt.toISOString(), scheduledAt, reason }),
    runBuiltInNow(name) {
      const at = now();
      return runBuiltIn(name, { id: `manual:${at.toISOString()}`, scheduledAt: at, reason: 'manual' });
    },
    drainOutbox,
  };
}
