// Runs the scheduled jobs: the only node-cron user (https://nodecron.com). Each fire is a slot
// whose id is its scheduled time; node-cron's RunCoordinator elects the replica that claims the
// slot in the store, and the claim, kept after the post, stops any replica from posting it again.
// A run's posts go to the outbox together with the "posted" mark, then are delivered from there.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createTask, parse, validateDetailed, type RunCoordinator, type ScheduledTask } from 'node-cron';
import { ConfigError, type ConfigProblem } from '../errors.ts';
import type { Store } from '../store/store.ts';
import { createDeliverer, type DeliveryOptions, type DrainResult } from './delivery.ts';
import type { Job, JobLog, JobSlot } from './job.ts';
import { runClaimedSlot, type SlotOutcome, type SlotRunDeps } from './slot-run.ts';
import type { Services } from './services.ts';

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

export interface SchedulerOptions {
  schedules: readonly JobSchedule[];
  services: Services;
  store: Store;
  log: JobLog;
  now?: () => Date;
  /** This process's id in claims and leases; unique per process by default. */
  owner?: string;
  /** A slot missed while down is run at start when younger than this. */
  catchupMinutes: number;
  /** How long a claim holds a slot before another replica may take it over. */
  leaseMs?: number;
  /** A run is aborted after this; keep it below `leaseMs`. */
  jobTimeoutMs?: number;
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

const DAY_MS = 24 * 60 * 60_000;
/** Bounds the start-up scan for missed slots (cron matches tested per second of a minute). */
const MAX_SCAN_MATCHES = 120_000;
/** Missed slots checked one by one; older ones are only counted. */
const MAX_SLOTS_CHECKED = 50;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

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

/** The fire times of `task` in (from, to], oldest first, found by testing each second it can fire on. */
function fireTimesBetween(task: ScheduledTask, seconds: readonly number[], from: number, to: number): Date[] {
  const out: Date[] = [];
  for (let minute = Math.floor(from / 60_000) * 60_000; minute <= to; minute += 60_000) {
    for (const s of seconds) {
      const at = minute + s * 1000;
      if (at > from && at <= to && task.match(new Date(at))) out.push(new Date(at));
    }
  }
  return out;
}

export function createScheduler(opts: SchedulerOptions): Scheduler {
  const o = { ...SCHEDULER_DEFAULTS, ...opts };
  const now = opts.now ?? (() => new Date());
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const { store, log } = o;
  const catchupMs = o.catchupMinutes * 60_000;
  const schedules = new Map(o.schedules.map((s) => [s.job.name, s]));
  const deliverer = createDeliverer({
    ...o.delivery,
    store,
    services: o.services,
    log,
    owner,
    now: () => now().getTime(),
  });
  const stopping = new AbortController();
  const runDeps: SlotRunDeps = {
    services: o.services,
    store,
    log,
    now,
    owner,
    jobTimeoutMs: o.jobTimeoutMs,
    deliverer,
    signal: stopping.signal,
    ...(o.onRun ? { onRun: o.onRun } : {}),
  };
  const tasks = new Map<string, ScheduledTask>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Map<string, Promise<SlotOutcome>>();
  let recovery: Promise<void> = Promise.resolve();

  function enabled(name: string): JobSchedule {
    const s = schedules.get(name);
    if (!s) throw new Error(`unknown job "${name}"`);
    return s;
  }

  /** A slot another replica holds is checked again when its lease ends, while still young enough. */
  function recheckLater(name: string, scheduledAt: Date, leaseUntil: number): void {
    const ageAtRecheck = leaseUntil - scheduledAt.getTime();
    if (stopping.signal.aborted || ageAtRecheck > catchupMs) return;
    const delay = Math.min(Math.max(leaseUntil - now().getTime(), 0), o.leaseMs) + 1_000;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void runSlot(name, scheduledAt, 'catch-up');
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  async function claim(name: string, scheduledAt: Date, slotId: string): Promise<SlotOutcome | undefined> {
    const result = await store.claimSlot(name, slotId, owner, o.leaseMs);
    if (result.status === 'claimed') return undefined;
    log.debug({ job: name, slotId, reason: result.status }, 'job.skipped');
    if (result.status === 'held') recheckLater(name, scheduledAt, result.leaseUntil);
    return { job: name, slotId, status: 'skipped', reason: result.status, deliveries: [] };
  }

  async function execute(name: string, scheduledAt: Date, slotId: string, reason: JobSlot['reason']) {
    const { job } = enabled(name);
    const skipped = await claim(name, scheduledAt, slotId);
    if (skipped) return skipped;
    return runClaimedSlot(runDeps, job, { id: slotId, scheduledAt, reason });
  }

  function runSlot(name: string, scheduledAt: Date, reason: JobSlot['reason'] = 'scheduled', id?: string) {
    const slotId = id ?? scheduledAt.toISOString();
    const key = `${name}|${slotId}`;
    const current = running.get(key);
    if (current)
      return Promise.resolve<SlotOutcome>({
        job: name,
        slotId,
        status: 'skipped',
        reason: 'running',
        deliveries: [],
      });
    const run = execute(name, scheduledAt, slotId, reason)
      .catch((err: unknown): SlotOutcome => {
        // The store itself failed (Redis down): the slot is not lost, the next start catches it up.
        log.error({ job: name, slotId, err }, 'job.failed');
        return { job: name, slotId, status: 'failed', deliveries: [], error: err };
      })
      .finally(() => running.delete(key));
    running.set(key, run);
    return run;
  }

  async function catchUpOne(s: JobSchedule): Promise<void> {
    const name = s.job.name;
    const t = now().getTime();
    await store.setValue(`job:${name}:since`, new Date(t).toISOString(), { ifAbsent: true });
    const since = Date.parse((await store.getValue(`job:${name}:since`)) ?? '') || t;
    const seconds = parse(s.cron).second;
    const lookbackMs = Math.min(
      Math.max(catchupMs, DAY_MS),
      7 * DAY_MS,
      Math.floor(MAX_SCAN_MATCHES / seconds.length) * 60_000,
    );
    const probe = createTask(s.cron, () => undefined, { timezone: s.timezone });
    let slots: Date[];
    try {
      slots = fireTimesBetween(probe, seconds, Math.max(since, t - lookbackMs), t);
    } finally {
      await probe.destroy();
    }
    const checked = slots.slice(-MAX_SLOTS_CHECKED);
    if (slots.length > checked.length) {
      log.warn(
        { job: name, count: slots.length - checked.length, before: checked[0]?.toISOString() },
        'job.missed',
      );
    }
    for (const [i, slot] of checked.entries()) {
      const slotId = slot.toISOString();
      if ((await store.getSlot(name, slotId))?.status === 'posted') continue;
      const ageMs = t - slot.getTime();
      const isLatest = i === checked.length - 1;
      if (isLatest && ageMs <= catchupMs) {
        await runSlot(name, slot, 'catch-up');
        continue;
      }
      const why = isLatest
        ? 'older than the catch-up window (JOB_CATCHUP_MINUTES)'
        : 'a later slot supersedes it';
      log.warn({ job: name, slotId, ageMinutes: Math.round(ageMs / 60_000), reason: why }, 'job.missed');
    }
  }

  async function catchUp(): Promise<void> {
    for (const s of schedules.values()) {
      if (s.disabledReason) continue;
      try {
        await catchUpOne(s);
      } catch (err) {
        log.error({ job: s.job.name, err }, 'job.catchup_failed');
      }
    }
  }

  async function drainOutbox(drainOpts?: { includeBackingOff?: boolean }): Promise<DrainResult> {
    try {
      return await deliverer.drain({ ...drainOpts, signal: stopping.signal });
    } catch (err) {
      log.error({ err }, 'outbox.drain_failed');
      return { outcomes: new Map() };
    }
  }

  function coordinatorFor(name: string): RunCoordinator {
    return {
      // node-cron asks once per fire with `<name>:<ISO time>`: the store claim is the election.
      async shouldRun(key) {
        const slotId = key.slice(name.length + 1);
        return (await claim(name, new Date(slotId), slotId)) === undefined;
      },
      // The claim is deliberately kept: releasing it would let a lagging replica post again.
      onComplete: () => undefined,
    };
  }

  function schedule(s: JobSchedule): void {
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
        const outcome = await runSlot(name, ctx.date, 'scheduled');
        if (outcome.status !== 'posted') await drainOutbox({ includeBackingOff: true });
      },
      {
        name,
        timezone: s.timezone,
        noOverlap: true,
        distributed: true,
        runCoordinator: coordinatorFor(name),
        distributedLease: o.leaseMs,
        logger: cronLog,
        suppressMissedWarning: true,
      },
    );
    task.on('execution:missed', (ctx) => {
      const ageMs = now().getTime() - ctx.date.getTime();
      if (ageMs <= catchupMs) void runSlot(name, ctx.date, 'catch-up');
      else log.warn({ job: name, slotId: ctx.date.toISOString() }, 'job.missed');
    });
    task.on('execution:overlap', (ctx) => {
      log.warn(
        { job: name, slotId: ctx.date.toISOString(), reason: 'the previous run is still going' },
        'job.overlap',
      );
    });
    void task.start();
    tasks.set(name, task);
    log.info(
      { job: name, cron: s.cron, timezone: s.timezone, nextRunAt: task.getNextRun()?.toISOString() },
      'job.scheduled',
    );
  }

  return {
    owner,
    async start(startOpts) {
      validateSchedules(o.schedules);
      for (const s of schedules.values()) {
        if (s.disabledReason) log.info({ job: s.job.name, reason: s.disabledReason }, 'job.disabled');
        else schedule(s);
      }
      const interval = setInterval(() => void drainOutbox(), o.outboxIntervalMs);
      interval.unref();
      timers.add(interval);
      recovery = (async () => {
        await drainOutbox({ includeBackingOff: true });
        await catchUp();
      })();
      if (startOpts?.awaitRecovery ?? true) await recovery;
    },
    async stop() {
      stopping.abort();
      await recovery;
      for (const task of tasks.values()) await task.destroy();
      tasks.clear();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled(running.values());
    },
    runSlot: (name, scheduledAt, reason) => runSlot(name, scheduledAt, reason),
    runNow(name) {
      const at = now();
      return runSlot(name, at, 'manual', `manual:${at.toISOString()}`);
    },
    catchUp,
    drainOutbox,
    nextRun: (name) => tasks.get(name)?.getNextRun() ?? undefined,
  };
}
