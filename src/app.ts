// The one composition of herald's commands, jobs and services, shared by the bot (main.ts),
// `npm run job` (run-job.ts) and `npm run register` (register-commands.ts), so the three can never
// offer different commands or different defaults. Every setting comes from the Config; nothing
// here, nor in the three entry points, types a default of its own.
import { hostname } from 'node:os';
import { buildCommands } from '../commands/index.ts';
import { createScheduling, type Scheduling, type SchedulingOptions } from '../jobs/schedule-engine.ts';
import type { Config, ServiceConfigs } from './config/index.ts';
import type { Command } from './core/command.ts';
import { createDispatcher } from './core/dispatch.ts';
import type { Dispatcher, DispatcherOptions } from './core/dispatch-contract.ts';
import { createRegistry, type Registry } from './core/registry.ts';
import { createPreferenceBook } from './core/preferences.ts';
import type { JobSchedule } from './schedule/job.ts';
import { markSimulatedAnswer } from './schedule/simulated.ts';
import { SERVICE_KEYS, type Services } from './core/services.ts';
import {
  closeChannelClients,
  closeDestinationClients,
  createChannelClients,
  createDestinationClients,
  type ChannelClients,
} from './destinations.ts';
import type { Logger } from './log.ts';
import type { RateBudget } from './domain/rate-budget.ts';
import { createSayCharge, createSayRefund, type Quotas } from './user-limits.ts';
import { planServices, resolveServiceConfigs, type ServicePlan } from './sandbox/resolve.ts';
import type { ClientDeps } from './services/deps.ts';
import { createServices } from './services/index.ts';
import type { WebhookClient } from './services/webhook/client.ts';
import { createMemoryStore, openStore, type Store } from './store/index.ts';
import { startHeartbeat } from './store-move/heartbeat.ts';

/**
 * `bot`: the running bot (per-user budgets and rate limits from `quotas`); `job`: one run of a job
 * or schedule from a shell; `register`: the command list only, to publish it (no dispatcher).
 */
export type AppMode = 'bot' | 'job' | 'register';

/** What the app is built from: clients, the store, the named destinations. */
export interface AppParts {
  services: Services;
  store: Store;
  destinations: Readonly<Record<string, WebhookClient>>;
  /** The bot's own posting clients ("this channel" destinations); absent: none. */
  channels?: ChannelClients;
  /** Discord's budgets (openRateBudget), the same the clients take from; absent: none kept. */
  rateBudget?: RateBudget;
  log: Logger;
  /** The bot's per-user limits and /say budget; absent: none (a one-off run, a registration). */
  quotas?: Quotas;
  /** Called once per command (metrics). */
  onCommand?: DispatcherOptions['onCommand'];
  /** Called once per scheduled run (metrics). */
  onRun?: SchedulingOptions['onRun'];
  /** Called once per run kept in a schedule's history (metrics). */
  onRecord?: SchedulingOptions['onRecord'];
}

export interface App<M extends AppMode = AppMode> {
  /** Every command the bot has, /schedule included, grouped as the platforms need them. */
  registry: Registry;
  /** The commands a platform offers: those whose every service is real or simulated (planServices). */
  offered: readonly Command[];
  /** The jobs set by environment, each with its schedule (a job missing a service is disabled). */
  jobs: JobSchedule[];
  scheduling: Scheduling;
  /** Runs the commands; absent in `register` mode, which only describes them. */
  dispatcher: M extends 'register' ? undefined : Dispatcher;
}

/**
 * The commands a platform should offer: those whose every needed service is real or simulated
 * under `plan`, so Discord never offers a command that can only answer "not configured".
 */
export function offeredCommands(commands: readonly Command[], plan: ServicePlan): Command[] {
  return commands.filter((c) => c.needs.every((key) => plan.modes[key] !== 'disabled'));
}

/** What `register` mode runs on: no client and no store on disk, since it never runs a command. */
export function registrationParts(log: Logger): AppParts {
  return {
    services: {},
    store: createMemoryStore(),
    destinations: {},
    log,
  };
}

export function buildApp<M extends AppMode>(config: Config, mode: M, parts: AppParts): App<M> {
  const { services, log, quotas } = parts;
  const plan = planServices(config);
  // /settings' values, kept in the one store; SCHEDULE_TZ is the zone where nobody set one.
  const preferences = createPreferenceBook(parts.store, { timezone: config.schedule.timezone });
  const scheduling = createScheduling({
    config,
    preferences,
    services,
    store: parts.store,
    destinations: parts.destinations,
    ...(parts.channels ? { channels: parts.channels } : {}),
    ...(parts.rateBudget ? { rateBudget: parts.rateBudget } : {}),
    log: log.child({ component: 'schedules' }),
    simulated: { plan, allow: config.scheduleAllowSimulated },
    ...(parts.onRun ? { onRun: parts.onRun } : {}),
    ...(parts.onRecord ? { onRecord: parts.onRecord } : {}),
  });
  const commands = buildCommands({
    access: config.access,
    limits: config.limits,
    speechModelId: config.speechModelId,
    jobsCountry: config.jobsCountry,
    ...(quotas ? { chargeSay: createSayCharge(quotas), refundSay: createSayRefund(quotas) } : {}),
    schedules: {
      service: scheduling.service,
      users: config.schedule.allowedUsers,
      roles: config.schedule.allowedRoles,
    },
    preferences: {
      book: preferences,
      adminUsers: config.schedule.adminUsers,
      adminRoles: config.schedule.adminRoles,
    },
  });
  const registry = createRegistry(commands);
  let dispatcher: Dispatcher | undefined;
  if (mode !== 'register') {
    dispatcher = createDispatcher({
      registry,
      services,
      log,
      commandTimeoutMs: config.commandTimeoutMs,
      serviceVariables: config.serviceVariables,
      now: () => new Date(),
      ...(quotas ? { rateLimit: quotas.commands } : {}),
      ...(parts.onCommand ? { onCommand: parts.onCommand } : {}),
      markReply: markSimulatedAnswer(plan),
      notices: scheduling.runner.notices,
      preferences,
    });
    scheduling.attach(dispatcher);
  }
  return {
    registry,
    offered: offeredCommands(registry.commands, plan),
    jobs: scheduling.builtIns,
    scheduling,
    dispatcher: dispatcher as App<M>['dispatcher'],
  };
}

/** What an entry point brings to openApp: the service clients and Discord's budget, opened before it. */
export type AppBase = Omit<AppParts, 'store' | 'destinations' | 'channels'>;

export interface OpenedApp<M extends AppMode> {
  app: App<M>;
  store: Store;
  /** Closes what openApp opened, by the lifecycle phase each belongs to. */
  close: { store: () => Promise<void>; connections: () => Promise<void> };
}

/**
 * The app as the bot, `npm run job` and `npm run register` run it: the one store (opened once, where
 * the configuration puts it; in memory for `register`, which runs nothing), the named destinations'
 * clients and the bot's own channel clients (schedules added in a Discord or Slack channel post
 * there with its token), then buildApp on them.
 */
export async function openApp<M extends AppMode>(
  config: Config,
  mode: M,
  base: AppBase,
): Promise<OpenedApp<M>> {
  const isRegister = mode === 'register';
  const store = isRegister ? createMemoryStore() : await openStore(config);
  const clientDeps = {
    log: base.log.child({ component: 'http' }),
    ...(base.rateBudget ? { rateBudget: base.rateBudget } : {}),
  };
  const destinations = isRegister ? {} : createDestinationClients(config.schedule, clientDeps);
  const channels = isRegister ? undefined : createChannelClients(config, clientDeps);
  const app = buildApp(config, mode, { ...base, store, destinations, ...(channels ? { channels } : {}) });
  const connections = async () => {
    await closeDestinationClients(destinations);
    if (channels) await closeChannelClients(channels);
  };
  // The bot's sign of life in the store, which `npm run store -- import` checks.
  const heartbeat =
    mode === 'bot'
      ? startHeartbeat(store, {
          owner: `${hostname()}:${process.pid}`,
          onError: (err) => base.log.warn({ err }, 'store.heartbeat_failed'),
        })
      : undefined;
  const closeStore = async () => {
    await heartbeat?.stop();
    await store.close();
  };
  return { app, store, close: { store: closeStore, connections } };
}

/**
 * The service clients: real services as configured, simulated ones pointed at the sandbox at
 * `sandboxUrl`. Real providers get their documented rate limits as a queue; the simulator has none.
 */
export function buildServices(
  config: Config,
  plan: ServicePlan,
  sandboxUrl: string | undefined,
  deps: ClientDeps,
): { configs: ServiceConfigs; services: Services } {
  const configs = resolveServiceConfigs(config, plan, sandboxUrl);
  const realOnly = Object.fromEntries(
    SERVICE_KEYS.filter((k) => plan.modes[k] === 'real').map((k) => [
      k,
      { providerRateLimit: true, rateLimitPerMinute: config.rateLimitsPerMinute[k] },
    ]),
  );
  return { configs, services: createServices(configs, deps, realOnly) };
}

/**
 * What Discord's budget tells the entry point (openRateBudget's hooks), the same for the bot and
 * `npm run job`: the invalid-request limit reached, once per window in this process (one log line,
 * and `onStopped`, a metric); Redis failing a step (its own budget answers meanwhile).
 */
export function rateBudgetHooks(
  config: Pick<Config, 'discordBudget'>,
  log: Logger,
  onStopped?: () => void,
): { onLimitReached: (count: number) => void; onRedisFailure: (err: unknown) => void } {
  let isRedisDown = false;
  return {
    onLimitReached(count) {
      log.warn(
        { count, limit: config.discordBudget.invalidLimit, windowMinutes: 10 },
        `Discord's invalid-request safety limit is reached (${count} answers 401, 403 or 429 in 10 minutes; DISCORD_INVALID_REQUEST_LIMIT=${config.discordBudget.invalidLimit}): scheduled posts to Discord stop until the window ends, command answers go on`,
      );
      onStopped?.();
    },
    onRedisFailure(err) {
      // Each outage once: the Redis connection logs its own end (src/redis.ts).
      if (isRedisDown) return;
      isRedisDown = true;
      setTimeout(() => (isRedisDown = false), 60_000).unref();
      log.warn({ err }, 'rate_budget.redis_failed: this process keeps its own Discord budget meanwhile');
    },
  };
}
