// The shapes of /schedule's service (service.ts): its settings and options, what add takes, and what
// list, history, preview and a manual run answer.
import type { Actor } from '../core/actor.ts';
import type { ChatChannel } from '../core/channel.ts';
import type { Mention } from '../domain/mentions.ts';
import type { Dispatcher } from '../core/dispatch-contract.ts';
import type { Reply } from '../core/reply.ts';
import type { Said } from '../errors.ts';
import type { ScheduleRecord, ScheduleRun, ScheduleSkip } from './schedules.ts';
import type { Store } from '../store/store.ts';
import type { DestinationSources } from './add-destination.ts';
import type { SimulatedPolicy } from './simulated.ts';
import type { MessageLinker } from './message-links.ts';

export interface ScheduleSettings {
  /** The zone of a schedule added without `tz` (SCHEDULE_TZ). */
  timezone: string;
  minIntervalMinutes: number;
  max: number;
  /** Configured destination names; never their addresses. */
  destinations: readonly string[];
  /**
   * SCHEDULE_ADMIN_USERS / _ROLES: who may remove, pause, resume and run schedules that others
   * added (the operator always may); everyone else manages their own only.
   */
  adminUsers?: readonly string[];
  adminRoles?: readonly string[];
}

/** A schedule set by the deployment (the analytics summary): listed, never changed from chat. */
export interface BuiltInSchedule {
  name: string;
  description: string;
  cron: string;
  timezone: string;
  /** The variables that set it, for the read-only answer. */
  variables: string;
  destination: string;
  disabledReason?: string;
  lastRun?: ScheduleRun;
}

export interface ManualRun {
  outcome: 'posted' | 'pending' | 'failed' | 'skipped' | 'no-change';
  /** Why it failed or was skipped, one sentence. */
  error?: string;
  messageId?: string;
}

/** What a preview shows: the post the schedule would make now, or why it would fail. */
export interface Preview {
  line: string;
  destination: string;
  timezone: string;
  nextRun: Date | undefined;
  result: { reply: Reply } | { error: string };
}

/** Where an add may post: the platforms' channel checks and DM channels (add-destination.ts). */
export interface ScheduleServiceOptions extends Omit<DestinationSources, 'destinations'> {
  store: Store;
  settings: ScheduleSettings;
  /**
   * Reads a command line as if typed, and runs one for a preview. Late-bound: the dispatcher is
   * built from the registry that holds /schedule.
   */
  commands: () => Pick<Dispatcher, 'check' | 'run'>;
  /**
   * Runs a schedule once now (a manual slot) as `asker`, the person who asked: their command
   * access and their /say budget, never the creator's. Late-bound to the runner.
   */
  runNow: (record: ScheduleRecord, asker: Actor) => Promise<ManualRun>;
  builtIns?: () => Promise<BuiltInSchedule[]>;
  /** Drops what a removed watch remembered. */
  forget?: (id: string) => Promise<void>;
  /** Refuses a schedule that would post simulated data to a real destination (simulated.ts). */
  simulated?: SimulatedPolicy;
  /** Each posted run's message address for the history (message-links.ts); absent: ids only. */
  messageLink?: MessageLinker;
  /** Why `destination` cannot edit its post or reply in a thread (src/destinations.ts), one sentence. */
  landsRefusal?: (destination: string, lands: 'edit' | 'thread') => Said | undefined;
  now: () => Date;
}

/** A run as the history shows it: with its posted message's address, where the platform gives one. */
export interface HistoryRun extends ScheduleRun {
  link?: string;
}

export interface AddInput {
  when: string;
  command: string;
  to?: string | undefined;
  tz?: string | undefined;
  /** The zone without `tz`: the creator's, else their channel's (/settings); else SCHEDULE_TZ. */
  zone?: string | undefined;
  /** `new`: a watch. */
  only?: 'new' | undefined;
  /** With only:new on /forecast: `rain`, `snow`, `below 0`, `above 30`. */
  alert?: string | undefined;
  /** `edit`: one post, edited by each run; `thread: 'yes'`: the runs reply in the first one's thread. */
  mode?: 'edit' | 'new' | undefined;
  thread?: 'yes' | 'no' | undefined;
  /** Who each post pings: a schedule admin's or the operator's to set. */
  ping?: Mention[] | undefined;
  /** `holidays:de-by`: no run on that country's (and region's) public holidays. */
  skip?: string | undefined;
  /** The Discord or Slack channel /schedule add was typed in: the destination when `to` is absent. */
  channel?: ChatChannel | undefined;
}

/** A destination as the simulated-data guard sees it; absent where no guard is set. */
export type DestinationMode = 'real' | 'simulated' | 'disabled';

export interface Listing {
  schedules: {
    record: ScheduleRecord;
    nextRun: Date | undefined;
    /** The run `/schedule skip` set aside, still to come. */
    skip?: ScheduleSkip | undefined;
    destinationMode?: DestinationMode;
  }[];
  builtIns: { schedule: BuiltInSchedule; nextRun: Date | undefined; destinationMode?: DestinationMode }[];
}
