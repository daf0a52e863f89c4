// /schedule's moving parts put together for the app (src/app.ts): the schedule service the
// commands use and the one runner that fires every schedule: the chat ones and the built-in ones
// (the analytics summary set by environment), which /schedule lists read-only beside them.
import type { Config } from '../src/config/index.ts';
import type { Dispatcher } from '../src/core/dispatch-contract.ts';
import type { JobLog, JobSchedule } from '../src/schedule/job.ts';
import {
  createScheduleRunner,
  type ScheduleRunner,
  type ScheduleRunnerOptions,
} from '../src/schedule/runner.ts';
import { validateSchedules } from '../src/schedule/when.ts';
import {
  createScheduleService,
  type BuiltInSchedule,
  type ScheduleService,
  type ScheduleServiceOptions,
} from '../src/schedule/service.ts';
import type { ScheduleRun } from '../src/schedule/schedules.ts';
import type { Services } from '../src/core/services.ts';
import { previousRun } from '../src/schedule/when.ts';
import { destinationMessages, landsRefusal, type ChannelClients } from '../src/destinations.ts';
import type { WebhookClient } from '../src/services/webhook/client.ts';
import { decideSimulated, type SimulatedPolicy } from '../src/schedule/simulated.ts';
import { LOCALE } from '../src/format.ts';
import { english } from '../src/i18n/translate.ts';
import { createMessageLinker } from '../src/schedule/message-links.ts';
import type { DirectMessage } from '../src/schedule/run-history.ts';
import { RETENTION_MS, type Store } from '../src/store/index.ts';
import type { RateBudget } from '../src/domain/rate-budget.ts';
import type { PreferenceBook } from '../src/core/preferences.ts';
import { createJobSchedules } from './index.ts';

export interface SchedulingOptions {
  config: Config;
  services: Services;
  store: Store;
  /** The named destinations' clients (src/destinations.ts); `default` is services.webhook. */
  destinations: Readonly<Record<string, WebhookClient>>;
  /** The bot's own posting clients, for schedules added in a Discord or Slack channel. */
  channels?: ChannelClients;
  /** Discord's budgets (the store's openRateBudget): scheduled posts stop past its invalid-request limit. */
  rateBudget?: RateBudget;
  log: JobLog;
  now?: () => Date;
  /**
   * The simulated-data guard (src/schedule/simulated.ts): which services the sandbox answers and
   * SCHEDULE_ALLOW_SIMULATED. Absent: no guard.
   */
  simulated?: SimulatedPolicy;
  /** Every finished run, e.g. metrics.job from src/metrics.ts. */
  onRun?: ScheduleRunnerOptions['onRun'];
  /** Every run kept in a schedule's history, e.g. metrics.scheduleRun. */
  onRecord?: ScheduleRunnerOptions['onRecord'];
  /** /settings' values: a schedule's notices are written in its channel's, else its creator's language. */
  preferences?: PreferenceBook;
}

export interface Scheduling {
  service: ScheduleService;
  /** The built-in schedules, each disabled with why when it cannot run (a service missing, or simulated data). */
  builtIns: JobSchedule[];
  runner: ScheduleRunner;
  /** Hands over the dispatcher, built later from the registry that holds /schedule. */
  attach(dispatcher: Dispatcher): void;
  /**
   * Validates the built-in schedules (a ConfigError names the variable), prunes old records and
   * starts the runner; its first tick (outbox retry, catch-up) goes on in the background.
   */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The built-in jobs as read-only schedules, with the outcome of their latest slot. */
async function builtIns(
  opts: SchedulingOptions,
  schedules: readonly JobSchedule[],
  now: () => Date,
): Promise<BuiltInSchedule[]> {
  const out: BuiltInSchedule[] = [];
  for (const s of schedules) {
    const latest = previousRun(s.cron, s.timezone, now());
    const slot = latest ? await opts.store.getSlot(s.job.name, latest.toISOString()) : undefined;
    let lastRun: ScheduleRun | undefined;
    if (slot?.status === 'posted') lastRun = { slotId: slot.slotId, at: slot.updatedAt, outcome: 'posted' };
    if (slot?.status === 'failed')
      lastRun = { slotId: slot.slotId, at: slot.updatedAt, outcome: 'failed', error: slot.error ?? 'failed' };
    out.push({
      name: s.job.name,
      description: s.job.description,
      cron: s.cron,
      timezone: s.timezone,
      variables: `${s.variables.cron} and ${s.variables.timezone}`,
      destination: 'default',
      ...(s.disabledReason ? { disabledReason: s.disabledReason } : {}),
      ...(lastRun ? { lastRun } : {}),
    });
  }
  return out;
}

/**
 * The simulated-data guard for the built-ins, which post to `default`: one that would post
 * simulated data there is disabled with the guard's sentence (and listed so), or, with
 * SCHEDULE_ALLOW_SIMULATED, runs with the guard's footer on its posts.
 */
function guardBuiltIns(schedules: JobSchedule[], simulated: SimulatedPolicy | undefined): JobSchedule[] {
  if (!simulated) return schedules;
  return schedules.map((s) => {
    if (s.disabledReason) return s;
    const used = [...s.job.needs, ...s.job.uses];
    const decision = decideSimulated(used, simulated.plan, 'default', simulated.allow);
    // Listed to the operator, in English.
    if (decision.kind === 'refuse') return { ...s, disabledReason: decision.said(english, LOCALE) };
    if (decision.kind === 'ok') return s;
    const { job } = s;
    return { ...s, job: { ...job, run: (ctx) => job.run({ ...ctx, footer: decision.footer }) } };
  });
}

/** The add-time check of "this channel" on each platform herald can post with. */
export function channelChecks(channels: ChannelClients | undefined): ScheduleServiceOptions['channelChecks'] {
  const out: NonNullable<ScheduleServiceOptions['channelChecks']> = {};
  for (const platform of ['discord', 'slack'] as const) {
    const client = channels?.[platform];
    if (client)
      out[platform] = (channel) =>
        client.check(
          channel.id,
          channel.appPermissions === undefined ? {} : { appPermissions: channel.appPermissions },
        );
  }
  return out;
}

/**
 * Who reads "this channel" on each platform herald can post with (private or not), and whether the
 * member adding a schedule is in it (Slack's conversations.members; Discord's interaction says).
 */
export function channelAudiences(
  channels: ChannelClients | undefined,
): ScheduleServiceOptions['channelAudiences'] {
  const out: NonNullable<ScheduleServiceOptions['channelAudiences']> = {};
  for (const platform of ['discord', 'slack'] as const) {
    const client = channels?.[platform];
    if (client)
      out[platform] = (channel, actor) =>
        client.audience(channel.id, platform === 'slack' ? { userId: actor.id } : {});
  }
  return out;
}

/** Each platform's DM channel with a user, for a schedule's `to:me`. */
export function directChannels(
  channels: ChannelClients | undefined,
): ScheduleServiceOptions['directChannels'] {
  const out: NonNullable<ScheduleServiceOptions['directChannels']> = {};
  for (const platform of ['discord', 'slack'] as const) {
    const client = channels?.[platform];
    if (client?.openDirect) out[platform] = (userId) => client.openDirect!(userId);
  }
  return out;
}

/** A creator's DM through the bot of their platform, where its channel client can send one. */
export function directMessages(channels: ChannelClients | undefined): DirectMessage {
  return async (user, text) => {
    if (user.platform === 'console') return false;
    const client = channels?.[user.platform];
    if (!client?.directMessage) return false;
    // A platform that refuses the DM (Slack without im:write) leaves the notice to the next command.
    return client.directMessage(user.id, text).then(
      () => true,
      () => false,
    );
  };
}

/** A schedule's language, as its posts have it (preferences.ts forSchedule). */
const languageOf =
  (book: PreferenceBook): NonNullable<ScheduleRunnerOptions['languageOf']> =>
  async ({ creator, destination, timezone }) =>
    (await book.forSchedule({ creator, destination, timezone })).language;

export function createScheduling(opts: SchedulingOptions): Scheduling {
  const now = opts.now ?? (() => new Date());
  const { config } = opts;
  let dispatcher: Dispatcher | undefined;
  const attached = (): Dispatcher => {
    if (!dispatcher) throw new Error('the dispatcher is not attached yet');
    return dispatcher;
  };
  const builtInSchedules = guardBuiltIns(createJobSchedules(config, opts.services), opts.simulated);
  const runner = createScheduleRunner({
    ...(opts.simulated ? { simulated: opts.simulated } : {}),
    builtIns: builtInSchedules,
    concurrency: config.scheduleConcurrency,
    ...(opts.onRun ? { onRun: opts.onRun } : {}),
    ...(opts.onRecord ? { onRecord: opts.onRecord } : {}),
    store: opts.store,
    services: opts.services,
    destinations: opts.destinations,
    delivery: {
      ...(opts.channels ? { channels: opts.channels } : {}),
      ...(opts.rateBudget ? { rateBudget: opts.rateBudget } : {}),
    },
    directMessage: directMessages(opts.channels),
    ...(opts.preferences ? { languageOf: languageOf(opts.preferences) } : {}),
    commands: attached,
    toMessage: destinationMessages(config.schedule, config.webhookUsername),
    log: opts.log,
    now,
    catchupMinutes: config.jobCatchupMinutes,
  });
  const destinations = [
    ...(opts.services.webhook ? ['default'] : []),
    ...Object.keys(opts.destinations).filter((d) => d !== 'default'),
  ];
  const service = createScheduleService({
    store: opts.store,
    settings: {
      timezone: config.schedule.timezone,
      minIntervalMinutes: config.schedule.minIntervalMinutes,
      max: config.schedule.max,
      destinations,
      adminUsers: config.schedule.adminUsers,
      adminRoles: config.schedule.adminRoles,
    },
    commands: attached,
    runNow: (record, asker) => runner.runNow(record, asker),
    builtIns: () => builtIns(opts, builtInSchedules, now),
    channelChecks: channelChecks(opts.channels),
    channelAudiences: channelAudiences(opts.channels),
    directChannels: directChannels(opts.channels),
    messageLink: createMessageLinker(opts),
    landsRefusal: landsRefusal(config.schedule),
    ...(opts.simulated ? { simulated: opts.simulated } : {}),
    now,
  });
  return {
    service,
    builtIns: builtInSchedules,
    runner,
    attach(d) {
      dispatcher = d;
    },
    async start() {
      validateSchedules(builtInSchedules);
      await opts.store.prune(RETENTION_MS);
      void runner.start();
    },
    stop: () => runner.stop(),
  };
}
