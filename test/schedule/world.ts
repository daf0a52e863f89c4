// A herald for /schedule tests: the sandbox's handlers on a recording loopback server (so that "no
// upstream request" can be checked), the real clients, commands, registry and dispatcher, a schedule
// store, and `type()`, which runs a console line the way the console adapter does.
import { buildCommands, type CommandSettings } from '../../commands/index.ts';
import { buildApp, registrationParts } from '../../src/app.ts';
import { loadConfig, SERVICE_VARIABLES, type Config } from '../../src/config/index.ts';
import { createLogger } from '../../src/log.ts';
import type { Actor } from '../../src/core/actor.ts';
import { parseLine } from '../../src/core/args.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import type { Dispatcher, DispatcherOptions } from '../../src/core/dispatch-contract.ts';
import { createPreferenceBook } from '../../src/core/preferences.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { createRegistry, type Registry } from '../../src/core/registry.ts';
import type { CommandLog } from '../../src/core/command.ts';
import { mapReplyText, type Reply } from '../../src/core/reply.ts';
import { writeTimes } from '../../src/render/time.ts';
import {
  createScheduleService,
  type BuiltInSchedule,
  type ManualRun,
  type ScheduleService,
  type ScheduleSettings,
} from '../../src/schedule/service.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import type { Services } from '../../src/core/services.ts';
import { createScheduleRunner, type ScheduleRunner } from '../../src/schedule/runner.ts';
import type { SimulatedPolicy } from '../../src/schedule/simulated.ts';
import {
  channelAudiences,
  channelChecks,
  directChannels,
  directMessages,
} from '../../jobs/schedule-engine.ts';
import { createMessageLinker } from '../../src/schedule/message-links.ts';
import type { JobLog } from '../../src/schedule/job.ts';
import type { ScheduleRunnerOptions } from '../../src/schedule/runner.ts';
import type { WebhookClient } from '../../src/services/webhook/client.ts';
import { destinationMessages, type ChannelClients } from '../../src/destinations.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import type { Store } from '../../src/store/index.ts';
import { createWebhookInbox, webhookHandlers, type WebhookInbox } from '../../src/sandbox/webhook.ts';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { SANDBOX_PREFIXES } from '../../src/sandbox/layout.ts';
import { planServices, resolveServiceConfigs, SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { closeServices, createServices } from '../../src/services/index.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { OPERATOR, SILENT_LOG } from '../support/command-doubles.ts';
import { fakeSleep } from '../jobs/harness.ts';

export { OPERATOR, SILENT_LOG } from '../support/command-doubles.ts';
export const MANAGER: Actor = {
  platform: 'discord',
  id: '400000000000000001',
  displayName: 'Ada',
  roles: [],
};
export const ROLE_HOLDER: Actor = {
  platform: 'discord',
  id: '400000000000000002',
  displayName: 'Bo',
  roles: ['500000000000000001'],
};
export const STRANGER: Actor = { platform: 'slack', id: 'U0STRANGER1', displayName: 'Cy', roles: [] };

export const COMMAND_SETTINGS: Omit<CommandSettings, 'schedules'> = {
  access: { emailUsers: [], emailRoles: [], emailDomains: [], hostUsers: [MANAGER.id], hostRoles: [] },
  limits: { perUserPerMinute: 1_000, sayDailyChars: 100_000 },
  speechModelId: 'eleven_multilingual_v2',
  jobsCountry: 'gb',
};

const WEBHOOK_PREFIX = SANDBOX_PREFIXES.webhook;

export interface World {
  server: SandboxServer;
  inbox: WebhookInbox;
  services: Services;
  /** Where the world's schedules are kept (a replica's store may be another: withSchedulesOf). */
  store: Store;
  service: ScheduleService;
  registry: Registry;
  dispatcher: Dispatcher;
  settings: ScheduleSettings;
  /** Runs a console line as `actor` (the operator by default), typed in `channel` if given; the reply. */
  type(line: string, actor?: Actor, channel?: ChatChannel): Promise<Reply>;
  /** Requests the fake received, but the webhook's. */
  upstream(): { method: string; path: string }[];
  close(): Promise<void>;
}

export const OPS_WEBHOOK_ID = '1300000000000000001';

const SCHEDULE_METHODS = [
  'listSchedules',
  'dueSchedules',
  'setNextRuns',
  'getSchedule',
  'addSchedule',
  'removeSchedule',
  'setPaused',
  'recordRuns',
  'history',
] as const;

/**
 * One store for a replica of these tests: the schedules of `schedules` (the world's, which its
 * /schedule commands add to) and the slots, outbox and key/value of `store` (shared by the
 * replicas of a test, each on its own clock and backend). The claim reads the schedule as the one
 * store's claim does, in two steps here: the tests that count steps run on one store.
 */
export function withSchedulesOf(schedules: Store, store: Store): Store {
  if (schedules === store) return store;
  const own = Object.fromEntries(SCHEDULE_METHODS.map((m) => [m, schedules[m]]));
  return {
    ...store,
    ...own,
    async claimSlot(job, slotId, owner, leaseMs, rules = {}) {
      const { schedule: rule, ...rest } = rules;
      const record = rule && (await schedules.getSchedule(rule.id));
      if (rule && (!record || (record.paused && !rule.manual))) return { status: 'gone' };
      const claim = await store.claimSlot(job, slotId, owner, leaseMs, rest);
      if (claim.status !== 'claimed' || !record) return claim;
      const memory = rule?.memoryKey === undefined ? undefined : await store.getValue(rule.memoryKey);
      return { ...claim, schedule: record, ...(memory === undefined ? {} : { memory }) };
    },
  };
}

/** A replica's runner on `store` (shared by replicas), posting through the world's webhook fake. */
export function replica(
  w: World,
  store: Store,
  opts: {
    now: () => Date;
    owner: string;
    leaseMs?: number;
    simulated?: SimulatedPolicy;
    /** The bot's own clients, for schedules added in a Discord or Slack channel. */
    channels?: ChannelClients;
    /** Named destinations beside `ops`. */
    destinations?: Readonly<Record<string, WebhookClient>>;
  },
): ScheduleRunner {
  const ops = createWebhookClient({
    baseUrl: w.server.url + SANDBOX_PREFIXES.webhook,
    id: OPS_WEBHOOK_ID,
    token: SANDBOX_CREDENTIAL,
  });
  return createScheduleRunner({
    store: withSchedulesOf(w.store, store),
    services: w.services,
    destinations: { ...opts.destinations, ops },
    commands: () => w.dispatcher,
    // As the bot renders: a Discord webhook post for a webhook, each platform's for "this channel".
    toMessage: destinationMessages({ destinations: {} }, 'herald'),
    log: SILENT_LOG,
    now: opts.now,
    owner: opts.owner,
    catchupMinutes: 60,
    retryDelayMs: 30_000,
    delivery: { backoffMs: 1, retryBaseMs: 1_000, ...(opts.channels ? { channels: opts.channels } : {}) },
    ...(opts.leaseMs === undefined ? {} : { leaseMs: opts.leaseMs }),
    ...(opts.simulated ? { simulated: opts.simulated } : {}),
  });
}

/** One replica of a "this channel" test: its own clock, schedule records and runner. */
export interface ChannelBench {
  clock: { at: Date };
  schedules: Store;
  service: ScheduleService;
  runner: ScheduleRunner;
  /** The waits the deliverer asked for, none of them waited (each moves `clock` on instead). */
  sleeps: number[];
}

/**
 * A replica posting through the bot's own `channels`: the schedule service and the runner wired
 * as jobs/schedule-engine.ts wires them, on `store` when replicas share one. `maxWaitMs`: the longest
 * wait its deliverer does in process.
 */
export function channelBench(
  w: World,
  channels: ChannelClients,
  opts: {
    store?: Store;
    maxWaitMs?: number;
    log?: JobLog;
    destinations?: Readonly<Record<string, WebhookClient>>;
    /** How replies become posts; by default every named destination is a Discord webhook. */
    toMessage?: ScheduleRunnerOptions['toMessage'];
    /** SCHEDULE_ADMIN_USERS: who may set ping:. */
    adminUsers?: string[];
  } = {},
): ChannelBench {
  const clock = { at: new Date('2026-03-27T12:00:00Z') };
  const now = () => clock.at;
  const schedules = createMemoryStore();
  const { sleeps, sleep } = fakeSleep((ms) => (clock.at = new Date(clock.at.getTime() + ms)));
  const runner = createScheduleRunner({
    store: withSchedulesOf(schedules, opts.store ?? schedules),
    services: w.services,
    commands: () => w.dispatcher,
    toMessage: opts.toMessage ?? destinationMessages({ destinations: {} }, 'herald'),
    log: opts.log ?? SILENT_LOG,
    now,
    catchupMinutes: 60,
    directMessage: directMessages(channels),
    ...(opts.destinations ? { destinations: opts.destinations } : {}),
    delivery: {
      channels,
      sleep,
      backoffMs: 1,
      retryBaseMs: 1_000,
      ...(opts.maxWaitMs === undefined ? {} : { maxWaitMs: opts.maxWaitMs }),
    },
  });
  const service = createScheduleService({
    store: schedules,
    settings: {
      timezone: 'UTC',
      minIntervalMinutes: 15,
      max: 50,
      destinations: ['default', 'ops'],
      ...(opts.adminUsers ? { adminUsers: opts.adminUsers } : {}),
    },
    commands: () => w.dispatcher,
    runNow: (record, asker) => runner.runNow(record, asker),
    channelChecks: channelChecks(channels),
    channelAudiences: channelAudiences(channels),
    now,
  });
  return { clock, schedules, service, runner, sleeps };
}

/**
 * What `npm run register` publishes with `env` (and the sandbox on): the bot's own composition's
 * offered commands (src/register-commands.ts), with the configuration read from `env`.
 */
export function offeredRegistry(env: Record<string, string>): { config: Config; registry: Registry } {
  const config = loadConfig({ SANDBOX: 'on', ...env });
  const app = buildApp(config, 'register', registrationParts(createLogger({ level: 'silent' })));
  return { config, registry: createRegistry(app.offered) };
}

export interface WorldOptions {
  now?: () => Date;
  store?: Store;
  settings?: Partial<ScheduleSettings>;
  runNow?: (record: ScheduleRecord, world: World) => Promise<ManualRun>;
  /** Who may manage schedules (SCHEDULE_ALLOWED_USERS / _ROLES). */
  allow?: { users: string[]; roles: string[] };
  /** The simulated-data guard at add time (jobs/schedule-engine.ts wires the plan's). */
  simulated?: SimulatedPolicy;
  /**
   * The bot's own clients: a schedule added in their channel posts there (checked at add time, as
   * jobs/schedule-engine.ts wires it), and the history links each post.
   */
  channels?: ChannelClients;
  /** The dispatcher's log (the commands' lines); silent by default. */
  log?: CommandLog;
  /** The built-in schedules /schedule list shows beside the chat ones. */
  builtIns?: BuiltInSchedule[];
  /** Notices waiting for an invoker (a runner's `notices`), added to their next command's reply. */
  notices?: DispatcherOptions['notices'];
}

export async function startWorld(opts: WorldOptions = {}): Promise<World> {
  const inbox = createWebhookInbox();
  // The world's own webhook inbox first, then the rest of the simulator.
  const server = await startFake([
    ...webhookHandlers({ credential: SANDBOX_CREDENTIAL, inbox }),
    ...sandboxHandlers({ credential: SANDBOX_CREDENTIAL }),
  ]);
  const config = loadConfig({ SANDBOX: 'on' });
  const now = opts.now ?? (() => new Date('2026-03-27T12:00:00Z'));
  // The clients' caches run on the world's clock, so that a later slot asks the fake again.
  const services = createServices(resolveServiceConfigs(config, planServices(config), server.url), {
    now: () => now().getTime(),
  });
  const store = opts.store ?? createMemoryStore({ now: () => now().getTime() });
  const settings: ScheduleSettings = {
    timezone: 'UTC',
    minIntervalMinutes: 15,
    max: 50,
    destinations: ['default', 'ops'],
    ...opts.settings,
  };
  const service = createScheduleService({
    store,
    settings,
    commands: () => dispatcher,
    runNow: (record) =>
      opts.runNow ? opts.runNow(record, world) : Promise.resolve({ outcome: 'skipped', error: 'no runner' }),
    now,
    ...(opts.simulated ? { simulated: opts.simulated } : {}),
    ...(opts.builtIns ? { builtIns: () => Promise.resolve(opts.builtIns ?? []) } : {}),
    ...(opts.channels
      ? {
          channelChecks: channelChecks(opts.channels),
          channelAudiences: channelAudiences(opts.channels),
          directChannels: directChannels(opts.channels),
          messageLink: createMessageLinker({
            channels: opts.channels,
            services,
            destinations: {},
            log: SILENT_LOG,
          }),
        }
      : {}),
  });
  // /settings as the app keeps it, in the world's store, SCHEDULE_TZ the zone nobody set.
  const preferences = createPreferenceBook(store, { timezone: settings.timezone });
  const admins = { adminUsers: settings.adminUsers ?? [], adminRoles: settings.adminRoles ?? [] };
  const registry = createRegistry(
    buildCommands({
      ...COMMAND_SETTINGS,
      schedules: { service, ...(opts.allow ?? { users: [MANAGER.id], roles: [ROLE_HOLDER.roles[0]!] }) },
      preferences: { book: preferences, ...admins },
    }),
  );
  const dispatcher = createDispatcher({
    registry,
    services,
    log: opts.log ?? SILENT_LOG,
    commandTimeoutMs: 10_000,
    serviceVariables: SERVICE_VARIABLES,
    now,
    ...(opts.notices ? { notices: opts.notices } : {}),
    preferences,
  });
  const d = dispatcher;
  const world: World = {
    server,
    inbox,
    services,
    store,
    service,
    registry,
    dispatcher: d,
    settings,
    async type(line, actor = OPERATOR, channel) {
      const parsed = parseLine(line);
      if (!parsed) throw new Error(`not a command line: ${line}`);
      let reply: Reply | undefined;
      await d.onInvocation({
        command: parsed.name,
        rawInput: parsed.text,
        actor,
        channelId: 'test',
        ...(channel ? { channel } : {}),
        signal: new AbortController().signal,
        respond: (r) => {
          reply = r;
          return Promise.resolve();
        },
      });
      // A failure's sentence as the tests compare it: its reference (test/core/dispatch.test.ts)
      // taken off the end; `failureRef` still says there was one.
      const quoted = reply?.failureRef === undefined ? undefined : ` (ref ${reply.failureRef})`;
      // Its time values as the console writes them: in the operator's zone (SCHEDULE_TZ here).
      const shown = mapReplyText(reply!, (text) => writeTimes(text, 'plain'));
      return quoted ? { ...shown, text: shown.text.replace(quoted, '') } : shown;
    },
    upstream: () =>
      server.requests
        .filter((r) => !r.pathname.startsWith(WEBHOOK_PREFIX))
        .map((r) => ({ method: r.method, path: r.pathname })),
    async close() {
      await closeServices(services);
      await server.close();
      await store.close();
    },
  };
  return world;
}
