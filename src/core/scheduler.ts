// Runs the scheduled jobs: the only node-cron user (https://nodecron.com). Each fire is a slot
// whose id is its scheduled time; every replica's fire claims the slot in the store once, the
// first claim wins, and the claim, kept after the post, stops any replica from posting it again.
// A run's posts go to the outbox together with the "posted" mark, then are delivered from there.
// Slots missed while down come from the expression's previous fire times (catch-up.ts).
import { createTask, validateDetailed, type ScheduledTask } from 'node-cron';
import { ConfigError, type ConfigProblem } from '../errors.ts';
import type { Store } from '../store/store.ts';
import { catchUpJob, type CatchUpDeps } from './catch-up.ts';
import { createDeliverer, type Deliverer, type DeliveryOptions, type DrainResult } from './delivery.ts';
import type { Job, JobLog, JobSlot } from './job.ts';
import { createSlotGuard, defaultOwner, skippedOutcome, type SlotClaimOptions } from './slot-claims.ts';
import { runClaimedSlot, type SlotOutcome, type SlotRunDeps } from './slot-run.ts';
import type { Services } from './services.ts';
import { isTimeZone } from './when.ts';

export interface JobSchedule {
  job: Job;
  cron: string;
  timezone: string;
  /** The variables that set `cron` and `timezone`, named in errors. */
  variables: { cron: string; timezone: string };
  /** Set when the job cannot run (its services are not configured): validated, not scheduled. */
  disabledReason?: string;
}

export type { SlotOutcome } from './slot-run.ts';

export interface SchedulerOptions extends SlotClaimOptions {
  schedules: readonly JobSchedule[];
  services: Services;
  store: Store;
  log: JobLog;
  /** How often due outbox entries are retried between job fires. */
  outboxIntervalMs?: number;
  delivery?: Partial<Omit<DeliveryOptions, 'store' | 'services' | 'log' | 'owner'>>;
  onRun?: (e: { job: string; outcome: SlotOutcome['status']; durationMs: number }) => void;
}

export interface Scheduler {
  readonly owner: string;
  /**
   * Validates every schedule (a ConfigError names the variable), schedules the enabled jobs, then
   * retries the outbox and catches up a recently missed slot. With `awaitRecovery: false` it
   * resolves once the jobs are scheduled and recovers in the background (the bot need not wait).
   */
  start(opts?: { awaitRecovery?: boolean }): Promise<void>;
  stop(): Promise<void>;
  /** Runs one slot: the cron callback, and tests driving slots with a fake clock. Never throws. */
  runSlot(jobName: string, scheduledAt: Date, reason?: JobSlot['reason']): Promise<SlotOutcome>;
  /** `npm run job`: a manual slot at `now()`. */
  runNow(jobName: string): Promise<SlotOutcome>;
  catchUp(): Promise<void>;
  drainOutbox(opts?: { includeBackingOff?: boolean }): Promise<DrainResult>;
  nextRun(jobName: string): Date | undefined;
}

export const SCHEDULER_DEFAULTS = Object.freeze({
  leaseMs: 10 * 60_000,
  jobTimeoutMs: 5 * 60_000,
  outboxIntervalMs: 60_000,
});

/** Checks every schedule (cron syntax, IANA zone) and throws one ConfigError naming each variable. */
export function validateSchedules(schedules: readonly JobSchedule[]): void {
  const problems: ConfigProblem[] = [];
  for (const s of schedules) {
    const result = validateDetailed(s.cron);
    if (!result.valid) {
      const why = result.errors.map((e) => e.message).join('; ');
      problems.push({ variable: s.variables.cron, message: `invalid cron expression "${s.cron}": ${why}` });
    }
    if (!isTimeZone(s.timezone)) {
      problems.push({
        variable: s.variables.timezone,
        message: `unknown time zone "${s.timezone}" (use an IANA name such as Europe/Berlin)`,
      });
    }
  }
  if (problems.length > 0) throw new ConfigError({ problems });
}

/** What the parts of a scheduler share: its options, its clock, its claim owner and its stop signal. */
interface SchedulerCore {
  settings: SchedulerOptions & { leaseMs: number; jobTimeoutMs: number; outboxIntervalMs: number };
  now: () => Date;
  owner: string;
  catchupMs: number;
  deliverer: Deliverer;
  stopping: AbortController;
  timers: Set<NodeJS.Timeout>;
  runSlot(name: string, scheduledAt: Date, reason?: JobSlot['reason'], id?: string): Promise<SlotOutcome>;
  drainOutbox(opts?: { includeBackingOff?: boolean }): Promise<DrainResult>;
}

/** A slot another replica holds is checked again when its lease ends, while still young enough. */
function recheckLater(core: SchedulerCore, name: string, scheduledAt: Date, leaseUntil: number): void {
  const ageAtRecheck = leaseUntil - scheduledAt.getTime();
  if (core.stopping.signal.aborted || ageAtRecheck > core.catchupMs) return;
  const delay = Math.min(Math.max(leaseUntil - core.now().getTime(), 0), core.settings.leaseMs) + 1_000;
  const timer = setTimeout(() => {
    core.timers.delete(timer);
    void core.runSlot(name, scheduledAt, 'catch-up');
  }, delay);
  timer.unref();
  core.timers.add(timer);
}

/** The one claim of a fire: undefined when this process may run the slot, else why it is skipped. */
async function claimSlot(
  core: SchedulerCore,
  name: string,
  scheduledAt: Date,
  slotId: string,
): Promise<SlotOutcome | undefined> {
  const result = await core.settings.store.claimSlot(name, slotId, core.owner, core.settings.leaseMs);
  if (result.status === 'claimed') return undefined;
  core.settings.log.debug({ job: name, slotId, reason: result.status }, 'job.skipped');
  if (result.status === 'held') recheckLater(core, name, scheduledAt, result.leaseUntil);
  return skippedOutcome(name, slotId, result.status);
}

/** Schedules one job with node-cron; each fire runs (and claims) its slot, then retries the outbox. */
function startCronTask(core: SchedulerCore, s: JobSchedule): ScheduledTask {
  const { log } = core.settings;
  const name = s.job.name;
  const cronLog = {
    info: (m: string) => log.debug({ job: name }, `node-cron: ${m}`),
    warn: (m: string) => log.warn({ job: name }, `node-cron: ${m}`),
    error: (m: string | Error, err?: Error) => log.error({ job: name, err: err ?? m }, 'node-cron error'),
    debug: (m: string | Error) => log.debug({ job: name }, `node-cron: ${String(m)}`),
  };
  const task = createTask(
    s.cron,
    async (ctx) => {
      // Every tick retries the outbox; a posted run has just drained it already.
      const outcome = await core.runSlot(name, ctx.date, 'scheduled');
      if (outcome.status !== 'posted') await core.drainOutbox({ includeBackingOff: true });
    },
    { name, timezone: s.timezone, noOverlap: true, logger: cronLog, suppressMissedWarning: true },
  );
  task.on('execution:missed', (ctx) => {
    const ageMs = core.now().getTime() - ctx.date.getTime();
    if (ageMs <= core.catchupMs) void core.runSlot(name, ctx.date, 'catch-up');
    else log.warn({ job: name, slotId: ctx.date.toISOString() }, 'job.missed');
  });
  task.on('execution:overlap', (ctx) => {
    const slotId = ctx.date.toISOString();
    log.warn({ job: name, slotId, reason: 'the previous run is still going' }, 'job.overlap');
  });
  void task.start();
  log.info(
    { job: name, cron: s.cron, timezone: s.timezone, nextRunAt: task.getNextRun()?.toISOString() },
    'job.scheduled',
  );
  return task;
}

/** Catches up every enabled job; one job's failure does not stop the others. */
async function catchUpAll(core: SchedulerCore, schedules: Iterable<JobSchedule>): Promise<void> {
  const deps: CatchUpDeps = {
    store: core.settings.store,
    log: core.settings.log,
    now: core.now,
    catchupMs: core.catchupMs,
    runSlot: (name, at, reason) => core.runSlot(name, at, reason),
  };
  for (const s of schedules) {
    if (s.disabledReason) continue;
    const probe = createTask(s.cron, () => undefined, { timezone: s.timezone });
    try {
      await catchUpJob(deps, { name: s.job.name, cron: s.cron, timezone: s.timezone }, probe);
    } catch (err) {
      core.settings.log.error({ job: s.job.name, err }, 'job.catchup_failed');
    } finally {
      await probe.destroy();
    }
  }
}

/** Runs slots: one claim per fire, one run per slot in this process, never a throw. */
function createSlotRunner(
  core: Omit<SchedulerCore, 'runSlot' | 'drainOutbox'>,
  schedules: Map<string, JobSchedule>,
) {
  const guard = createSlotGuard();
  const slotCore: SchedulerCore = { ...core, runSlot, drainOutbox };
  const runDeps: SlotRunDeps = {
    services: core.settings.services,
    store: core.settings.store,
    log: core.settings.log,
    now: core.now,
    owner: core.owner,
    jobTimeoutMs: core.settings.jobTimeoutMs,
    deliverer: core.deliverer,
    signal: core.stopping.signal,
    ...(core.settings.onRun ? { onRun: core.settings.onRun } : {}),
  };
  async function execute(name: string, scheduledAt: Date, slotId: string, reason: JobSlot['reason']) {
    const s = schedules.get(name);
    if (!s) throw new Error(`unknown job "${name}"`);
    const skipped = await claimSlot(slotCore, name, scheduledAt, slotId);
    if (skipped) return skipped;
    return runClaimedSlot(runDeps, s.job, { id: slotId, scheduledAt, reason });
  }
  function runSlot(name: string, scheduledAt: Date, reason: JobSlot['reason'] = 'scheduled', id?: string) {
    const slotId = id ?? scheduledAt.toISOString();
    return guard.once(
      name,
      slotId,
      () => execute(name, scheduledAt, slotId, reason),
      // The store itself failed (Redis down): the slot is not lost, the next start catches it up.
      (err) => core.settings.log.error({ job: name, slotId, err }, 'job.failed'),
    );
  }
  async function drainOutbox(drainOpts?: { includeBackingOff?: boolean }): Promise<DrainResult> {
    try {
      return await core.deliverer.drain({ ...drainOpts, signal: core.stopping.signal });
    } catch (err) {
      core.settings.log.error({ err }, 'outbox.drain_failed');
      return { outcomes: new Map() };
    }
  }
  return { core: slotCore, running: guard.running };
}

export function createScheduler(opts: SchedulerOptions): Scheduler {
  const settings = { ...SCHEDULER_DEFAULTS, ...opts };
  const now = opts.now ?? (() => new Date());
  const owner = opts.owner ?? defaultOwner();
  const schedules = new Map(settings.schedules.map((s) => [s.job.name, s]));
  const deliverer = createDeliverer({
    ...settings.delivery,
    store: settings.store,
    services: settings.services,
    log: settings.log,
    owner,
    now: () => now().getTime(),
  });
  const { core, running } = createSlotRunner(
    {
      settings,
      now,
      owner,
      catchupMs: settings.catchupMinutes * 60_000,
      deliverer,
      stopping: new AbortController(),
      timers: new Set(),
    },
    schedules,
  );
  const tasks = new Map<string, ScheduledTask>();
  let recovery: Promise<void> = Promise.resolve();

  return {
    owner,
    async start(startOpts) {
      validateSchedules(settings.schedules);
      for (const s of schedules.values()) {
        if (s.disabledReason)
          settings.log.info({ job: s.job.name, reason: s.disabledReason }, 'job.disabled');
        else tasks.set(s.job.name, startCronTask(core, s));
      }
      const interval = setInterval(() => void core.drainOutbox(), settings.outboxIntervalMs);
      interval.unref();
      core.timers.add(interval);
      recovery = (async () => {
        await core.drainOutbox({ includeBackingOff: true });
        await catchUpAll(core, schedules.values());
      })();
      if (startOpts?.awaitRecovery ?? true) await recovery;
    },
    async stop() {
      core.stopping.abort();
      await recovery;
      for (const task of tasks.values()) await task.destroy();
      tasks.clear();
      for (const t of core.timers) clearTimeout(t);
      core.timers.clear();
      await Promise.allSettled(running.values());
    },
    runSlot: (name, scheduledAt, reason) => core.runSlot(name, scheduledAt, reason),
    runNow(name) {
      const at = now();
      return core.runSlot(name, at, 'manual', `manual:${at.toISOString()}`);
    },
    catchUp: () => catchUpAll(core, schedules.values()),
    drainOutbox: (drainOpts) => core.drainOutbox(drainOpts),
    nextRun: (name) => tasks.get(name)?.getNextRun() ?? undefined,
  };
}
