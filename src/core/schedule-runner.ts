// Fires the schedules of /schedule. They are data in the store, so every tick reads them afresh:
// one added on any replica is seen here, one removed or paused anywhere is not run again. Each due
// slot (the latest fire time of its cron, no older than the catch-up window) goes through the same
// claim, outbox and delivery as the jobs (slot-run.ts), so it is posted exactly once across replicas
// and restarts. A failed run is retried within its slot, then recorded as failed in the schedule.
import { userMessageFor } from '../errors.ts';
import type { WebhookMessage } from '../services/webhook/client.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { createDeliverer, type Deliverer, type DeliveryOptions } from './delivery.ts';
import { defineJob, type JobLog, type JobSlot } from './job.ts';
import type { Reply } from './reply.ts';
import type { ManualRun } from './schedule-service.ts';
import { scheduleJobName, type ScheduleRecord, type ScheduleRun, type ScheduleStore } from './schedules.ts';
import type { Services } from './services.ts';
import { createSlotGuard, defaultOwner, skippedOutcome, type SlotClaimOptions } from './slot-claims.ts';
import { runClaimedSlot, type SlotOutcome, type SlotRunDeps } from './slot-run.ts';
import { previousRun } from './when.ts';
import { applyWatch, watchMemoryKey } from './watch.ts';

/** Runs a command line as its creator typed it (the dispatcher's `run`). */
export interface CommandLineRunner {
  run(line: string, actor: Actor, signal: AbortSignal, opts?: { watch?: boolean }): Promise<Reply>;
}

export interface ScheduleRunnerOptions extends SlotClaimOptions {
  schedules: ScheduleStore;
  store: Store;
  services: Services;
  /** Named webhooks besides `default` (services.webhook). */
  destinations: DeliveryOptions['destinations'];
  commands: () => CommandLineRunner;
  /** A reply as the post for a destination, rendered for its platform (src/destinations.ts). */
  toMessage: (reply: Reply, destination: string) => WebhookMessage;
  log: JobLog;
  /** How often the schedules are read again (a tick also wakes at the next due run). */
  pollMs?: number;
  /** Runs of one slot, the first included, before it is recorded as failed for good. */
  maxAttempts?: number;
  /** Wait after a failed run before the slot is tried again. */
  retryDelayMs?: number;
  delivery?: Partial<Omit<DeliveryOptions, 'store' | 'services' | 'log' | 'owner' | 'destinations'>>;
}

export interface ScheduleRunner {
  readonly owner: string;
  start(): void;
  stop(): Promise<void>;
  /** Reads the schedules and runs every due slot (the timer's callback; tests call it with a fake clock). */
  tick(): Promise<SlotOutcome[]>;
  /** `/schedule run`: a manual slot now, run as `asker` (their access and budget). */
  runNow(record: ScheduleRecord, asker?: Actor): Promise<ManualRun>;
  /** `npm run job -- <id>`: a manual slot now, with its whole outcome. */
  runManual(record: ScheduleRecord, asker?: Actor): Promise<SlotOutcome>;
}

export const SCHEDULE_RUNNER_DEFAULTS = Object.freeze({
  leaseMs: 5 * 60_000,
  jobTimeoutMs: 2 * 60_000,
  pollMs: 15_000,
  maxAttempts: 3,
  retryDelayMs: 60_000,
});

/** Why a slot's run did not post, one sentence. */
function failureSentence(outcome: SlotOutcome): string {
  if (outcome.status === 'failed') return userMessageFor(outcome.error);
  const lost = outcome.deliveries.find((d) => d.outcome === 'given_up');
  if (lost) return 'The webhook refused the post (revoked or deleted?); see the log.';
  return 'The post is kept in the outbox and will be retried.';
}

/** The schedule's record of a finished run. */
export function runRecord(outcome: SlotOutcome, at: number): ScheduleRun {
  const receipt = outcome.deliveries.find((d) => d.receipt !== undefined)?.receipt;
  const isPosted = outcome.status === 'posted' && outcome.deliveries.every((d) => d.outcome === 'delivered');
  if (isPosted) {
    return { slotId: outcome.slotId, at, outcome: 'posted', ...(receipt ? { messageId: receipt } : {}) };
  }
  const isPending = outcome.status === 'posted' && outcome.deliveries.every((d) => d.outcome !== 'given_up');
  return {
    slotId: outcome.slotId,
    at,
    outcome: isPending ? 'pending' : 'failed',
    error: failureSentence(outcome),
  };
}

/** What the parts of a runner share: its options, clock, claim owner, deliverer and stop signal. */
interface RunnerCore {
  settings: ScheduleRunnerOptions & { [K in keyof typeof SCHEDULE_RUNNER_DEFAULTS]: number };
  now: () => Date;
  owner: string;
  store: Store;
  log: JobLog;
  catchupMs: number;
  stopping: AbortController;
  deliverer: Deliverer;
  runDeps: SlotRunDeps;
}

function createRunnerCore(opts: ScheduleRunnerOptions): RunnerCore {
  const settings = { ...SCHEDULE_RUNNER_DEFAULTS, ...opts };
  const now = opts.now ?? (() => new Date());
  const owner = opts.owner ?? defaultOwner();
  const { store, log } = settings;
  const stopping = new AbortController();
  const deliverer: Deliverer = createDeliverer({
    ...settings.delivery,
    store,
    services: settings.services,
    log,
    owner,
    destinations: settings.destinations,
    now: () => now().getTime(),
  });
  const runDeps: SlotRunDeps = {
    services: settings.services,
    store,
    log,
    now,
    owner,
    jobTimeoutMs: settings.jobTimeoutMs,
    deliverer,
    signal: stopping.signal,
  };
  const catchupMs = settings.catchupMinutes * 60_000;
  return { settings, now, owner, store, log, catchupMs, stopping, deliverer, runDeps };
}

/** What a watch will remember once its slot is posted. */
type Pending = { memory?: string };

/** `asker`: who asked for a manual slot; the creator's rights serve the scheduled slots only. */
function jobFor(core: RunnerCore, id: string, pending: Pending, asker: Actor | undefined) {
  const { settings, store } = core;
  return defineJob({
    name: scheduleJobName(id),
    description: `schedule ${id}`,
    needs: [],
    async run(ctx) {
      // Read again after the claim: removed or paused anywhere means it does not post.
      const current = await settings.schedules.get(id);
      if (!current) throw new Error('the schedule was removed');
      if (current.paused && ctx.slot.reason !== 'manual') throw new Error('the schedule is paused');
      const watch = current.onlyNew === true;
      // The creator's rights serve the scheduled slots; a manual run is the asker's.
      const actor = asker ?? current.creator;
      let reply: Reply | undefined = await settings.commands().run(current.command, actor, ctx.signal, { watch });
      if (watch) {
        const memory = await store.getValue(watchMemoryKey(id));
        const watched = applyWatch(reply, memory, current.alert);
        reply = watched.reply;
        pending.memory = watched.memory;
      }
      if (reply)
        ctx.deliver({
          kind: 'webhook',
          destination: current.destination,
          message: settings.toMessage(reply, current.destination),
        });
    },
  });
}

async function execute(
  core: RunnerCore,
  record: ScheduleRecord,
  slot: JobSlot,
  asker?: Actor,
): Promise<SlotOutcome> {
  const { store, settings, owner, now } = core;
  const name = scheduleJobName(record.id);
  const claim = await store.claimSlot(name, slot.id, owner, settings.leaseMs);
  if (claim.status !== 'claimed') {
    return skippedOutcome(name, slot.id, claim.status === 'held' ? 'held' : 'already-posted');
  }
  const pending: Pending = {};
  const outcome = await runClaimedSlot(core.runDeps, jobFor(core, record.id, pending, asker), slot);
  // A watch remembers only what a posted slot handed to the outbox: a failed slot loses nothing.
  if (outcome.status === 'posted' && pending.memory)
    await store.setValue(watchMemoryKey(record.id), pending.memory);
  if (outcome.status === 'skipped') return outcome;
  const run = runRecord(outcome, now().getTime());
  const isNoChange =
    pending.memory !== undefined && outcome.status === 'posted' && outcome.deliveries.length === 0;
  await settings.schedules.recordRun(
    record.id,
    isNoChange ? { slotId: slot.id, at: run.at, outcome: 'no-change' } : run,
  );
  return outcome;
}

/** The slot of `record` due at `t`, if any: its latest fire time, not yet posted nor given up on. */
async function dueSlot(core: RunnerCore, record: ScheduleRecord, t: number): Promise<JobSlot | undefined> {
  const { settings, store } = core;
  if (record.paused) return undefined;
  const at = previousRun(record.cron, record.timezone, new Date(t));
  if (
    !at ||
    at.getTime() < record.createdAt ||
    t - at.getTime() > Math.max(core.catchupMs, settings.pollMs * 2)
  )
    return undefined;
  const slotId = at.toISOString();
  const done = await store.getSlot(scheduleJobName(record.id), slotId);
  if (done?.status === 'posted') return undefined;
  if (done?.status === 'claimed' && done.leaseUntil > t) return undefined;
  if (
    done?.status === 'failed' &&
    (done.attempts >= settings.maxAttempts || t - done.updatedAt < settings.retryDelayMs)
  )
    return undefined;
  return { id: slotId, scheduledAt: at, reason: done ? 'catch-up' : 'scheduled' };
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

export function createScheduleRunner(opts: ScheduleRunnerOptions): ScheduleRunner {
  const core = createRunnerCore(opts);
  const { settings, now, owner, log, stopping, deliverer } = core;
  const guard = createSlotGuard();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<SlotOutcome[]> | undefined;

  /** One run per slot in this process at a time; a second asker is told it is running. */
  function runSlot(record: ScheduleRecord, slot: JobSlot, asker?: Actor): Promise<SlotOutcome> {
    return guard.once(
      scheduleJobName(record.id),
      slot.id,
      () => execute(core, record, slot, asker),
      // The store itself failed: the slot is not lost, a later tick tries it again.
      (err) => log.error({ scheduleId: record.id, slotId: slot.id, err }, 'schedule.failed'),
    );
  }

  async function tickOnce(): Promise<SlotOutcome[]> {
    const t = now().getTime();
    const outcomes: SlotOutcome[] = [];
    for (const record of await settings.schedules.list()) {
      try {
        const slot = await dueSlot(core, record, t);
        if (slot) outcomes.push(await runSlot(record, slot));
      } catch (err) {
        log.error({ scheduleId: record.id, err }, 'schedule.tick_failed');
      }
    }
    // Posts left pending by an outage (here or on another replica) are retried when due.
    await deliverer.drain({ signal: stopping.signal }).catch((err: unknown) => {
      log.error({ err }, 'outbox.drain_failed');
    });
    return outcomes;
  }

  function tick(): Promise<SlotOutcome[]> {
    ticking ??= tickOnce().finally(() => {
      ticking = undefined;
    });
    return ticking;
  }

  /** Sleeps until the next poll or the next fire time, whichever is first. */
  async function loop(): Promise<void> {
    if (stopping.signal.aborted) return;
    await tick().catch((err: unknown) => log.error({ err }, 'schedule.tick_failed'));
    if (stopping.signal.aborted) return;
    const t = now().getTime();
    const secondsLeft = 60_000 - (t % 60_000) + 200;
    timer = setTimeout(() => void loop(), Math.min(settings.pollMs, secondsLeft));
    timer.unref();
  }

  function runManual(record: ScheduleRecord, asker?: Actor): Promise<SlotOutcome> {
    const at = now();
    return runSlot(record, { id: `manual:${at.toISOString()}`, scheduledAt: at, reason: 'manual' }, asker);
  }

  return {
    owner,
    start() {
      void loop();
    },
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await Promise.allSettled([ticking, ...guard.running.values()]);
    },
    tick,
    runManual,
    async runNow(record, asker) {
      const at = now();
      return manualRunOf(record, await runManual(record, asker), at);
    },
  };
}
