// What the engine (runner.ts) is given and what its steps share: options, defaults, its interface.
import type { Actor } from '../core/actor.ts';
import type { Services } from '../core/services.ts';
import type { Store } from '../store/store.ts';
import type { DeliveryOptions, DrainResult } from './delivery.ts';
import type { JobLog, JobSchedule, JobSlot } from './job.ts';
import type { ManualRun } from './service.ts';
import type { ScheduleRecord } from './schedules.ts';
import type { ChatSettings, SlotDeps, SlotOutcome } from './slot-run.ts';
import type { RunBook } from './run-history.ts';
import type { CreatorNotices, DirectMessage } from './creator-notice.ts';
import type { Language } from '../domain/preferences.ts';

export interface ScheduleRunnerOptions extends ChatSettings {
  store: Store;
  services: Services;
  log: JobLog;
  now?: () => Date;
  /** This process's id in claims and leases. */
  owner?: string;
  /** A slot missed while down is still run when younger than this. */
  catchupMinutes: number;
  /** How long a claim holds a slot before another replica may take it over. */
  leaseMs?: number;
  /** A run is aborted after this; keep it below `leaseMs`. */
  jobTimeoutMs?: number;
  /** The built-in schedules (jobs/index.ts). */
  builtIns?: readonly JobSchedule[];
  destinations?: DeliveryOptions['destinations'];
  /** How often the schedules are read again (a tick also wakes at the next minute). */
  pollMs?: number;
  /** Runs of one slot before it is failed for good. */
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
  /** A direct message to a schedule's creator where the platform allows (creator-notice.ts). */
  directMessage?: DirectMessage;
  /**
   * The language of a schedule's notices (three failures in a row, a paused destination): its
   * channel's, else its creator's (/settings); absent: en-GB.
   */
  languageOf?: (record: ScheduleRecord) => Promise<Language>;
}

export const DEFAULTS = Object.freeze({
  leaseMs: 5 * 60_000,
  jobTimeoutMs: 2 * 60_000,
  pollMs: 15_000,
  maxAttempts: 3,
  retryDelayMs: 60_000,
  concurrency: 64,
});

export interface ScheduleRunner {
  readonly owner: string;
  /** Starts the ticks; resolves after the first (which retries the outbox and catches up). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Finds and runs every due slot (the timer's callback; tests call it with a fake clock). */
  tick(): Promise<SlotOutcome[]>;
  /** `/schedule run`: a manual slot now. */
  runNow(record: ScheduleRecord, asker?: Actor): Promise<ManualRun>;
  /** `npm run job -- <id>`. */
  runManual(record: ScheduleRecord, asker?: Actor): Promise<SlotOutcome>;
  /** One slot of a built-in schedule. Never throws. */
  runSlot(name: string, scheduledAt: Date, reason?: JobSlot['reason']): Promise<SlotOutcome>;
  /** `npm run job -- <name>`. */
  runBuiltInNow(name: string): Promise<SlotOutcome>;
  /** Delivers what the outbox holds that is due (`includeBackingOff`: waiting out a backoff too). */
  drainOutbox(opts?: { includeBackingOff?: boolean }): Promise<DrainResult>;
  /** The dispatcher hands creators their waiting notices. */
  readonly notices: CreatorNotices;
}

/** What the engine's steps share. */
export interface Engine {
  settings: ScheduleRunnerOptions & { [K in keyof typeof DEFAULTS]: number };
  now: () => Date;
  owner: string;
  store: Store;
  log: JobLog;
  stopping: AbortController;
  slotDeps: SlotDeps;
  book: RunBook;
  /** The runs under way, for a stop that waits for them. */
  running: Set<Promise<SlotOutcome>>;
  /** Schedules whose index a tick moves on at its end (their slot settled without a run here). */
  settled: Map<string, number>;
  /** The outcomes of claims refused: nothing ran, so a tick does not report them. */
  refused: WeakSet<SlotOutcome>;
}
