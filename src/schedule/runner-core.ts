// What the parts of the one scheduling engine share (runner.ts fires the ticks, chat-slot.ts runs
// a chat schedule's slot): the runner's options and defaults, the core built from them (clock,
// claim owner, deliverer, run history), claiming and running one slot, and the retry rule that
// makes a failed attempt pending while its slot has runs left.
import type { WebhookMessage } from '../services/webhook/client.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from '../core/actor.ts';
import { createDeliverer, type Deliverer, type DeliveryOptions } from './delivery.ts';
import { webhookClientFor } from './delivery-context.ts';
import type { Job, JobLog, JobSchedule, JobSlot } from './job.ts';
import type { Reply } from '../core/reply.ts';
import type { Command } from '../core/command.ts';
import type { CheckedLine } from '../core/dispatch.ts';
import type { SimulatedPolicy } from './simulated.ts';
import type { ScheduleRecord, ScheduleRun, ScheduleStore } from './schedules.ts';
import type { Services } from '../core/services.ts';
import { defaultOwner, skippedOutcome, type SlotClaimOptions } from './slot-claims.ts';
import { runClaimedSlot, type SlotMemory, type SlotOutcome, type SlotRunDeps } from './slot-run.ts';
import type { RunBook } from './run-history.ts';
import { createCreatorNotices, type CreatorNotices, type DirectMessage } from './creator-notice.ts';

/** Runs a command line as its creator typed it (the dispatcher's `run`). */
export interface CommandLineRunner {
  run(line: string, actor: Actor, signal: AbortSignal, opts?: { watch?: boolean }): Promise<Reply>;
  /** Reads a line without running it; `accept` sees its command (the dispatcher's `check`). */
  check?(line: string, actor: Actor, accept?: (command: Command) => void): Promise<CheckedLine>;
}

export interface ScheduleRunnerOptions extends SlotClaimOptions {
  schedules: ScheduleStore;
  store: Store;
  services: Services;
  /** The built-in schedules (jobs/index.ts); a disabled one is listed but never run. */
  builtIns?: readonly JobSchedule[];
  /** Named webhooks besides `default` (services.webhook). */
  destinations?: DeliveryOptions['destinations'];
  /** Needed by chat schedules only. */
  commands?: () => CommandLineRunner;
  /** A reply as the post for a destination, rendered for its platform (src/destinations.ts); needed by chat schedules only. */
  toMessage?: (reply: Reply, destination: string) => WebhookMessage;
  log: JobLog;
  /** Refuses, or marks with a footer, a chat schedule's post of simulated data (simulated.ts). */
  simulated?: SimulatedPolicy;
  /** How often the schedules are read again (a tick also wakes at the next minute). */
  pollMs?: number;
  /** Runs of one slot, the first included, before it is recorded as failed for good. */
  maxAttempts?: number;
  /** Wait after a failed run before the slot is tried again. */
  retryDelayMs?: number;
  /** Slots run at once by this process (SCHEDULE_CONCURRENCY). */
  concurrency?: number;
  delivery?: Partial<Omit<DeliveryOptions, 'store' | 'services' | 'log' | 'owner' | 'destinations'>>;
  /** Every finished run, and every missed slot (`missed`), for metrics. */
  onRun?: (e: { job: string; outcome: SlotOutcome['status'] | 'missed'; durationMs: number }) => void;
  /** Every run recorded in a schedule's history (by schedule id or built-in job name), for metrics. */
  onRecord?: RunBook['onRecord'];
  /**
   * Sends a schedule's creator a direct message where the platform and the bot allow it (Slack
   * with im:write, Discord with a bot token); absent or false: the notice waits for their next
   * command (creator-notice.ts).
   */
  directMessage?: DirectMessage;
}

const SCHEDULE_RUNNER_DEFAULTS = Object.freeze({
  leaseMs: 5 * 60_000,
  jobTimeoutMs: 2 * 60_000,
  pollMs: 15_000,
  maxAttempts: 3,
  retryDelayMs: 60_000,
  concurrency: 64,
});

/** What the parts of a runner share: its options, clock, claim owner, deliverer and stop signal. */
export interface RunnerCore {
  settings: ScheduleRunnerOptions & { [K in keyof typeof SCHEDULE_RUNNER_DEFAULTS]: number };
  now: () => Date;
  owner: string;
  store: Store;
  log: JobLog;
  catchupMs: number;
  stopping: AbortController;
  deliverer: Deliverer;
  runDeps: SlotRunDeps;
  book: RunBook & { notices: CreatorNotices };
}

export function createRunnerCore(opts: ScheduleRunnerOptions): RunnerCore {
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
    ...(settings.destinations ? { destinations: settings.destinations } : {}),
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
    ...(settings.onRun ? { onRun: settings.onRun } : {}),
  };
  const catchupMs = settings.catchupMinutes * 60_000;
  const book: RunBook & { notices: CreatorNotices } = {
    schedules: settings.schedules,
    log,
    notify: (record, text) => notify(settings, record, text),
    notices: createCreatorNotices({ store, log, directMessage: settings.directMessage }),
    ...(settings.onRecord ? { onRecord: settings.onRecord } : {}),
  };
  return { settings, now, owner, store, log, catchupMs, stopping, deliverer, runDeps, book };
}

/** Posts a notice through the schedule's own destination (the channel it posts to). */
async function notify(settings: ScheduleRunnerOptions, record: ScheduleRecord, text: string): Promise<void> {
  const name = record.destination;
  const client = webhookClientFor(settings, name);
  if (!client || !settings.toMessage) return;
  await client.post(settings.toMessage({ text }, name));
}

/**
 * A failed attempt of a scheduled slot that will be tried again is pending, with when; the last
 * attempt's failure is the slot's.
 */
export async function withRetry(core: RunnerCore, name: string, run: ScheduleRun): Promise<ScheduleRun> {
  if (run.outcome !== 'failed' || run.slotId.startsWith('manual:')) return run;
  const slot = await core.store.getSlot(name, run.slotId);
  if (!slot || slot.status !== 'failed' || slot.attempts >= core.settings.maxAttempts) return run;
  return { ...run, outcome: 'pending', nextRetryAt: slot.updatedAt + core.settings.retryDelayMs };
}

/** Claims and runs a slot of `job`; `memory` as for runClaimedSlot. */
export async function claimAndRun(
  core: RunnerCore,
  job: Job,
  slot: JobSlot,
  memory?: () => SlotMemory | undefined,
): Promise<SlotOutcome> {
  const claim = await core.store.claimSlot(job.name, slot.id, core.owner, core.settings.leaseMs);
  if (claim.status !== 'claimed') {
    core.log.debug({ job: job.name, slotId: slot.id, reason: claim.status }, 'job.skipped');
    return skippedOutcome(job.name, slot.id, claim.status === 'held' ? 'held' : 'already-posted');
  }
  return runClaimedSlot(core.runDeps, job, slot, memory);
}
