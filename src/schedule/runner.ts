// The one scheduling engine, for the built-in schedules and those of /schedule alike: it finds
// what is due and claims it; a slot's life, file by file, is drawn in docs/ARCHITECTURE.md.
import { randomInt, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import PQueue from 'p-queue';
import type { Actor } from '../core/actor.ts';
import type { ClaimRules } from '../store/store.ts';
import { createDeliverer } from './delivery.ts';
import type { DeliveryOptions, EntryResult } from './delivery-options.ts';
import type { Job, JobSchedule, JobSlot } from './job.ts';
import type { ManualRun } from './service.ts';
import { scheduleJobName, type ScheduleRecord } from './schedules.ts';
import { chatWork, runClaimedSlot, type ChatSettings, type SlotDeps, type SlotOutcome } from './slot-run.ts';
import {
  createRunBook,
  recordChatRun,
  recordDrained,
  recordRun,
  manualRunOf,
  type HistorySettings,
} from './run-history.ts';
import { nextRuns, previousRun } from './when.ts';
import { watchMemoryKey } from './watch.ts';

export const MISSED_SENTENCE = 'Missed: no replica ran it within the catch-up window (JOB_CATCHUP_MINUTES).';

const DEFAULTS = Object.freeze({
  /** How long a claim holds a slot before another replica may take it over. */
  leaseMs: 5 * 60_000,
  /** A run is aborted after this; keep it below `leaseMs`. */
  jobTimeoutMs: 2 * 60_000,
  /** How often the schedules are read again (a tick also wakes at the next minute). */
  pollMs: 15_000,
  /** Runs of one slot before it is failed for good. */
  maxAttempts: 3,
  /** Wait after a failed run before the slot is tried again. */
  retryDelayMs: 60_000,
  /** Slots run at once by this process (SCHEDULE_CONCURRENCY). */
  concurrency: 64,
});

export interface ScheduleRunnerOptions
  extends
    ChatSettings,
    HistorySettings,
    Partial<Record<keyof typeof DEFAULTS, number>>,
    Pick<SlotDeps, 'store' | 'services' | 'log' | 'onRun'> {
  now?: () => Date;
  /** This process's id in claims and leases. */
  owner?: string;
  /** A slot missed while down is still run when younger than this. */
  catchupMinutes: number;
  builtIns?: readonly JobSchedule[];
  destinations?: DeliveryOptions['destinations'];
  delivery?: Partial<Omit<DeliveryOptions, 'store' | 'services' | 'log' | 'owner' | 'destinations'>>;
}

export type ScheduleRunner = ReturnType<typeof createScheduleRunner>;

/** The engine's steps share it: a slot's needs, the settings, the ticks' state; it is the runs' book too. */
type Engine = ReturnType<typeof createEngine>;

/** The most due schedules one tick takes; the rest wait for the next. */
const DUE_BATCH = 5_000;

/** A schedule as a tick sees it, built-in or from chat. */
interface Target {
  name: string;
  cron: string;
  timezone: string;
  /** Epoch ms: no slot before this is due (a schedule's creation, a built-in's first start). */
  since: number;
  record?: ScheduleRecord;
  job?: Job;
}

/** The first fire time after `after`, or never (the largest safe time). */
function nextFire(target: Target, after: Date): number {
  return nextRuns(target.cron, target.timezone, after, 1)[0]?.getTime() ?? Number.MAX_SAFE_INTEGER;
}

function skipped(job: string, slotId: string, reason: SlotOutcome['reason']): SlotOutcome {
  return { job, slotId, status: 'skipped', reason, deliveries: [] };
}

/** How a slot is run: the tick's claim `rules` (a runSlot has none), and a manual run's `asker`. */
type How = { rules?: ClaimRules; asker?: Actor | undefined };

/** Claims a slot and runs it, then records its history. */
async function claimAndRun(engine: Engine, target: Target, slot: JobSlot, how: How): Promise<SlotOutcome> {
  const { store, owner, log } = engine;
  const record = target.record;
  const watch = record?.onlyNew === true;
  const claim = await store.claimSlot(target.name, slot.id, owner, engine.leaseMs, {
    ...how.rules,
    ...(record && {
      schedule: {
        id: record.id,
        manual: slot.reason === 'manual',
        ...(watch && { memoryKey: watchMemoryKey(record.id) }),
      },
      exclusive: watch,
    }),
  });
  if (claim.status !== 'claimed') {
    log.debug({ job: target.name, slotId: slot.id, reason: claim.status }, 'job.skipped');
    const isSettled = claim.status === 'already-posted' || claim.status === 'given-up';
    if (isSettled && record && slot.reason !== 'manual')
      engine.settled.set(record.id, nextFire(target, slot.scheduledAt));
    const isOurs = claim.status === 'held' && claim.owner === owner;
    const outcome = skipped(target.name, slot.id, isSettled ? 'already-posted' : isOurs ? 'running' : 'held');
    engine.refused.add(outcome);
    return outcome;
  }
  const reason = slot.reason === 'scheduled' && claim.attempt > 1 ? 'catch-up' : slot.reason;
  const work = claim.schedule ? chatWork(engine, claim.schedule, claim.memory, how.asker) : target.job!;
  const outcome = await runClaimedSlot(engine, work, { ...slot, reason });
  await recordRun(engine, { name: target.name, record: claim.schedule ?? record }, outcome, {
    attempt: claim.attempt,
    // Computed only for a slot that settles: a manual run's record needs no fire time.
    nextRunAt: () => nextFire(target, slot.scheduledAt),
    ...(how.asker ? { asker: how.asker } : {}),
  });
  return outcome;
}

/** Claims and runs a slot as work a stop waits for; a throw of the store is a failed outcome. */
function tracked(engine: Engine, target: Target, slot: JobSlot, how: How = {}): Promise<SlotOutcome> {
  const run = claimAndRun(engine, target, slot, how).catch((err: unknown): SlotOutcome => {
    engine.log.error({ job: target.name, slotId: slot.id, err }, 'job.failed');
    return { job: target.name, slotId: slot.id, status: 'failed', deliveries: [], error: err };
  });
  engine.running.add(run);
  void run.finally(() => engine.running.delete(run));
  return run;
}

/** The slot of `target` due at `t` as work to queue, within the catch-up window (one older is recorded missed). */
async function dueWork(
  engine: Engine,
  target: Target,
  t: number,
): Promise<(() => Promise<SlotOutcome>) | undefined> {
  const { store, catchupMinutes, pollMs, maxAttempts, retryDelayMs } = engine;
  const at = previousRun(target.cron, target.timezone, new Date(t));
  const record = target.record;
  if (!at || at.getTime() < target.since) {
    if (record) engine.settled.set(record.id, nextFire(target, new Date(t)));
    return undefined;
  }
  const slotId = at.toISOString();
  if (t - at.getTime() > Math.max(catchupMinutes * 60_000, pollMs * 2)) {
    if (await store.markFailed(target.name, slotId, '', MISSED_SENTENCE))
      await recordMissed(engine, target, at, t);
    else if (record) engine.settled.set(record.id, nextFire(target, new Date(t)));
    return undefined;
  }
  // Later than two polls: the slot is being caught up.
  const reason = t - at.getTime() > pollMs * 2 ? 'catch-up' : 'scheduled';
  const slot: JobSlot = { id: slotId, scheduledAt: at, reason };
  const rules = { maxAttempts, retryDelayMs };
  // A slot still queued when the stop begins is left for the next start or another replica.
  return () =>
    engine.signal.aborted
      ? Promise.resolve(skipped(target.name, slotId, 'running'))
      : tracked(engine, target, slot, { rules });
}

/** A slot whose window passed unrun: logged `job.missed`, counted, kept in its schedule's history. */
async function recordMissed(engine: Engine, target: Target, at: Date, t: number): Promise<void> {
  const ageMinutes = Math.round((t - at.getTime()) / 60_000);
  const reason = 'older than the catch-up window (JOB_CATCHUP_MINUTES)';
  engine.log.warn({ job: target.name, slotId: at.toISOString(), ageMinutes, reason }, 'job.missed');
  engine.onRun?.({ job: target.name, outcome: 'missed', durationMs: 0 });
  if (!target.record) return;
  const run = { slotId: at.toISOString(), at: t, outcome: 'missed' as const, error: MISSED_SENTENCE };
  await recordChatRun(engine, target.record, run, { nextRunAt: nextFire(target, new Date(t)) });
}

/** The built-ins as targets, each from its first start (kept in the store): nothing before it is caught up. */
async function builtInTargets(engine: Engine, name?: string): Promise<Target[]> {
  const out: Target[] = [];
  const all = engine.builtIns ?? [];
  const wanted = all.filter((e) => (name === undefined ? !e.disabledReason : e.job.name === name));
  for (const { job, cron, timezone } of wanted) {
    const key = `job:${job.name}:since`;
    if (!engine.since.has(job.name)) {
      const t = engine.now().getTime();
      await engine.store.setValue(key, new Date(t).toISOString(), { ifAbsent: true });
      engine.since.set(job.name, Date.parse((await engine.store.getValue(key)) ?? '') || t);
    }
    out.push({ name: job.name, cron, timezone, since: engine.since.get(job.name)!, job });
  }
  return out;
}

const chatTarget = (record: ScheduleRecord): Target => ({
  name: scheduleJobName(record.id),
  cron: record.cron,
  timezone: record.timezone,
  since: record.createdAt,
  record,
});

function createEngine(opts: ScheduleRunnerOptions, signal: AbortSignal) {
  const settings = { ...DEFAULTS, ...opts };
  const now = opts.now ?? (() => new Date());
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const deliverer = createDeliverer({
    ...settings.delivery,
    store: settings.store,
    services: settings.services,
    log: settings.log,
    owner,
    ...(settings.destinations ? { destinations: settings.destinations } : {}),
    now: () => now().getTime(),
  });
  return {
    ...createRunBook({ ...settings, now }),
    owner,
    deliverer,
    signal,
    queue: new PQueue({ concurrency: settings.concurrency }),
    /** Each built-in's first start, as the store keeps it (builtInTargets). */
    since: new Map<string, number>(),
    /** The runs under way, for a stop that waits for them. */
    running: new Set<Promise<SlotOutcome>>(),
    /** Schedules whose index a tick moves on at its end (their slot settled without a run here). */
    settled: new Map<string, number>(),
    /** The outcomes of claims refused: nothing ran, so a tick does not report them. */
    refused: new WeakSet<SlotOutcome>(),
  };
}

/** Delivers the outbox's due posts, and records in their schedules' histories what became of them. */
async function drainOutbox(engine: Engine, opts?: { includeBackingOff?: boolean }): Promise<EntryResult[]> {
  try {
    const drained = await engine.deliverer.drain({ ...opts, signal: engine.signal });
    await recordDrained(engine, drained).catch((err: unknown) =>
      engine.log.error({ err }, 'schedule.record_failed'),
    );
    return drained;
  } catch (err) {
    engine.log.error({ err }, 'outbox.drain_failed');
    return [];
  }
}

/** One tick: the outbox drained, every due slot found, claimed and run, the index moved on. */
async function tickOnce(engine: Engine, first: boolean): Promise<SlotOutcome[]> {
  const { store, log } = engine;
  // At the first tick also the posts still waiting out a backoff.
  const draining = drainOutbox(engine, { includeBackingOff: first });
  const t = engine.now().getTime();
  const targets = [
    ...(await builtInTargets(engine)),
    ...(await store.dueSchedules(t, DUE_BATCH)).map(chatTarget),
  ];
  const due: (() => Promise<SlotOutcome>)[] = [];
  for (const target of targets) {
    const work = await dueWork(engine, target, t).catch(
      (err: unknown) => void log.error({ job: target.name, err }, 'schedule.tick_failed'),
    );
    if (work) due.push(work);
  }
  // Each replica starts at its own random place, so that replicas do not race for the same slots.
  const offset = due.length === 0 ? 0 : randomInt(due.length);
  const rotated = [...due.slice(offset), ...due.slice(0, offset)];
  const outcomes = await Promise.all(rotated.map((w) => engine.queue.add(w)));
  const settled = new Map(engine.settled);
  engine.settled.clear();
  if (settled.size > 0)
    await store.setNextRuns(settled).catch((err: unknown) => log.error({ err }, 'schedule.tick_failed'));
  await draining;
  // A slot the claim found settled, or held by a lease, was nothing to run.
  return outcomes.filter((o) => !engine.refused.has(o));
}

function logBuiltIns(engine: Engine): void {
  for (const { job, cron, timezone, disabledReason } of engine.builtIns ?? []) {
    if (disabledReason) engine.log.info({ job: job.name, reason: disabledReason }, 'job.disabled');
    else {
      const nextRunAt = nextRuns(cron, timezone, engine.now(), 1)[0]?.toISOString();
      engine.log.info({ job: job.name, cron, timezone, nextRunAt }, 'job.scheduled');
    }
  }
}

export function createScheduleRunner(opts: ScheduleRunnerOptions) {
  const stopping = new AbortController();
  const engine = createEngine(opts, stopping.signal);
  const { now, log } = engine;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<SlotOutcome[]> | undefined;

  function tick(first = false): Promise<SlotOutcome[]> {
    ticking ??= tickOnce(engine, first).finally(() => (ticking = undefined));
    return ticking;
  }

  /** The start's and the timer's tick: a failure is logged. */
  const tickLogged = (first = false) =>
    tick(first).catch((err: unknown) => log.error({ err }, 'schedule.tick_failed'));

  /** Sleeps until the next poll or the next minute, whichever is first. */
  function schedule(): void {
    if (stopping.signal.aborted) return;
    const msLeft = 60_000 - (now().getTime() % 60_000) + 200;
    timer = setTimeout(() => void tickLogged().finally(schedule), Math.min(engine.pollMs, msLeft));
    timer.unref();
  }

  /** One slot of a built-in (by name) or a chat schedule; a manual one's id says so. Never throws. */
  async function runSlot(
    target: string | ScheduleRecord,
    at: Date,
    reason: JobSlot['reason'] = 'scheduled',
    asker?: Actor,
  ): Promise<SlotOutcome> {
    const id = at.toISOString();
    const slot = { id: reason === 'manual' ? `manual:${id}` : id, scheduledAt: at, reason };
    if (typeof target !== 'string') return tracked(engine, chatTarget(target), slot, { asker });
    const [builtIn] = await builtInTargets(engine, target);
    if (builtIn) return tracked(engine, builtIn, slot);
    const error = new Error(`unknown job "${target}"`);
    return { job: target, slotId: slot.id, status: 'failed', deliveries: [], error };
  }
  /** A manual slot now: `npm run job -- <id or name>`, and `/schedule run` as `asker`. */
  const runManual = (target: ScheduleRecord | string, asker?: Actor): Promise<SlotOutcome> =>
    runSlot(target, now(), 'manual', asker);

  return {
    /** The dispatcher hands creators their waiting notices. */
    notices: engine.notices,
    /** Starts the ticks; resolves after the first (which retries the outbox and catches up). */
    async start() {
      logBuiltIns(engine);
      await tickLogged(true);
      schedule();
    },
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await Promise.allSettled([ticking, ...engine.running]);
    },
    /** Finds and runs every due slot (the timer's callback; tests call it with a fake clock). */
    tick: () => tick(),
    runManual,
    /** `/schedule run`'s answer. */
    runNow: async (record: ScheduleRecord, asker?: Actor): Promise<ManualRun> =>
      manualRunOf(record, await runManual(record, asker)),
    runSlot,
    /** Delivers what the outbox holds that is due (`includeBackingOff`: waiting out a backoff too). */
    drainOutbox: (drainOpts?: { includeBackingOff?: boolean }) => drainOutbox(engine, drainOpts),
  };
}
