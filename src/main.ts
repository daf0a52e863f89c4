// The composition root: command line and config → log → lifecycle → the server on PORT (health,
// and Discord's HTTP endpoint) → sandbox → services → commands → dispatcher → store, jobs →
// adapters. Wiring only: the command line and the config checks live in cli.ts, the stop and its
// order in lifecycle.ts, which port and host serve health in config/sections.ts.
import { resolve } from 'node:path';
import type { HttpInteractions } from '../adapters/discord/http.ts';
import type { TerminalLog } from '../adapters/console/terminal-log.ts';
import { prepare } from './cli.ts';
import { configReport } from './config/startup-report.ts';
import { secretsOf, type Config } from './config/index.ts';
import type { ChatAdapter, HttpRoutes } from './core/adapter.ts';
import type { ComponentOwners } from './core/component-state.ts';
import { SERVICE_KEYS } from './core/services.ts';
import { DISCORD_API_URL } from './domain/discord.ts';
import { ConfigError } from './errors.ts';
import { createLifecycle, drainMs, type Lifecycle } from './lifecycle.ts';
import type { Metrics } from './metrics.ts';
import type { RedisCaller } from './redis-check.ts';
import { openRateBudget } from './store/index.ts';
import { redactText, registerSecret } from './redact.ts';
import { createLogger, type Logger } from './log.ts';
import { planServices, SANDBOX_CREDENTIAL, type ServicePlan } from './sandbox/resolve.ts';

// Only what the server on PORT needs is imported above: the app, the service clients and the
// platform SDKs are loaded with import() after it listens, so in Discord's HTTP mode a replica
// answers PING (and holds early commands) while they load. This staged start-up buys the row
// "cold start: process start → first PONG" of `npm run bench -- interactions` (docs/PERFORMANCE.md).

/**
 * One turn of the event loop, for the server on PORT to take and answer what arrived meanwhile:
 * import() holds the loop for a whole module graph (app.ts, discord.js), so start-up loads them one
 * at a time with a turn between; without it the first PONG of the same bench row waits for them
 * all. Two immediates: one to accept a connection, one to read its request.
 */
async function turn(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}

function servesMetrics(config: Config): boolean {
  return (
    config.health !== undefined && (config.health.metricsPort !== undefined || config.health.isMetricsOnPort)
  );
}

function sandboxNotice(plan: ServicePlan): string | undefined {
  if (plan.simulated.length === 0) return undefined;
  const which = plan.simulated.length === SERVICE_KEYS.length ? 'every service' : plan.simulated.join(', ');
  return `The built-in sandbox answers for ${which}: replies are simulated data, not real.`;
}

/** The process around everything: config, log, lifecycle. */
interface Base {
  config: Config;
  log: Logger;
  lifecycle: Lifecycle;
  terminalLog: TerminalLog | undefined;
  plan: ServicePlan;
}

/**
 * Refuses a Redis that may evict herald's keys (a ConfigError naming the setting), and reports its
 * persistence, or what it would not tell (src/redis-check.ts).
 */
async function checkRedis(log: Logger, redis: RedisCaller, url: string): Promise<void> {
  const { judgeRedis, readRedisSettings } = await import('./redis-check.ts');
  const where = new URL(url);
  const verdict = judgeRedis(await readRedisSettings(redis), `${where.hostname}:${where.port || '6379'}`);
  if (verdict.refusal !== undefined)
    throw new ConfigError({ problems: [{ variable: 'REDIS_URL', message: verdict.refusal }] });
  for (const line of verdict.lines) log[line.warn ? 'warn' : 'info'](line.fields, line.text);
}

/** The simulator where it stands in, Redis where configured, the service clients. */
async function startServices({ config, log, lifecycle, plan }: Base) {
  const sandbox =
    plan.simulated.length === 0
      ? undefined
      : await (
          await import('./sandbox/server.ts')
        ).startSandboxServer({
          // Loaded on the sandbox's first request, msw with them: an idle bot holds neither.
          handlers: async () =>
            (await import('./sandbox/index.ts')).sandboxHandlers({ credential: SANDBOX_CREDENTIAL }),
          host: '127.0.0.1',
          port: 0,
          latencyMs: config.sandboxLatencyMs,
          faultRate: config.sandboxFaultRate,
        });
  if (sandbox) {
    lifecycle.onStop('connections', () => sandbox.close());
    log.info({ url: sandbox.url }, `sandbox answering on ${sandbox.url}`);
  }
  // With REDIS_URL, the per-user limits and the providers' quotas are shared by every replica.
  const redis = config.redisUrl
    ? await (
        await import('./redis.ts')
      ).connectRedis(config.redisUrl, { log, verifyTls: config.redisTlsVerify })
    : undefined;
  if (redis) lifecycle.onStop('connections', () => redis.disconnect());
  if (redis && config.redisUrl) await checkRedis(log, redis, config.redisUrl);
  // Only a server that serves /metrics needs them: without one prom-client is never loaded.
  const metrics = servesMetrics(config) ? (await import('./metrics.ts')).createMetrics() : undefined;
  await turn();
  const { buildServices, rateBudgetHooks } = await import('./app.ts');
  // Discord's budgets, where the store is (shared through Redis), for every Discord client below.
  const rateBudget = await openRateBudget(
    config,
    rateBudgetHooks(config, log, () => metrics?.postingStopped('discord_invalid_requests')),
  );
  lifecycle.onStop('store', () => rateBudget.close());
  const { closeServices } = await import('./services/index.ts');
  const { services } = buildServices(config, plan, sandbox?.url, {
    log: log.child({ component: 'http' }),
    onCall: (r) => metrics?.onCall(r),
    quotaStore: { redis },
    rateBudget,
  });
  lifecycle.onStop('connections', () => closeServices(services));
  return { redis, metrics, services, rateBudget };
}
type Started = Awaited<ReturnType<typeof startServices>>;

/** The app (src/app.ts's openApp: the store, the destinations, commands, dispatcher, /schedule). */
async function startCommands(
  { config, log, lifecycle }: Base,
  { redis, metrics, services, rateBudget }: Started,
) {
  const { openApp } = await import('./app.ts');
  const { createQuotas } = await import('./user-limits.ts');
  const { app, store, close } = await openApp(config, 'bot', {
    services,
    rateBudget,
    onRun: (e) => metrics?.job(e),
    onRecord: (schedule, run, from) => metrics?.scheduleRun(schedule, run, from),
    log,
    quotas: createQuotas({ ...config.limits, redis }),
    onCommand: (r) => metrics?.command(r),
  });
  lifecycle.onStop('store', close.store);
  lifecycle.onStop('connections', close.connections);
  // Watch memories of versions before digests, converted once before any watch runs; only a
  // watch's memory is ever read (only:new), so only watches are looked at.
  const { convertOldWatchMemories } = await import('./schedule/watch.ts');
  const watches = (await store.listSchedules()).filter((s) => s.onlyNew === true);
  if (watches.length > 0)
    await convertOldWatchMemories(
      store,
      watches.map((s) => s.id),
    );
  const { dispatcher } = app;
  lifecycle.onStop('commands', async () => {
    if (!(await dispatcher.drain(drainMs(config.commandTimeoutMs))))
      log.warn({ inFlight: dispatcher.inFlight() }, 'commands still running at shutdown');
  });
  return { store, scheduling: app.scheduling, registry: app.registry, dispatcher };
}
type Commands = Awaited<ReturnType<typeof startCommands>>;

/**
 * A button belongs to the schedule that its input's `id` names (Run now, Remove, and the like on a
 * schedule's reply): its target is kept while that schedule exists, and goes when it is removed.
 */
function scheduleOwners(store: Commands['store']): ComponentOwners {
  return {
    of: (target) => (typeof target.input.id === 'string' ? target.input.id : undefined),
    exists: async (id) => (await store.getSchedule(id)) !== undefined,
  };
}

/** Discord and Slack where configured, else the console; each is stopped in the adapters phase. */
async function startAdapters(
  base: Base,
  adapters: ChatAdapter[],
  { registry, dispatcher, store }: Commands,
  served: Served | undefined,
  metrics: Metrics | undefined,
) {
  const { config, log, lifecycle, plan, terminalLog } = base;
  // The store's claims make each interaction run once across the replicas sharing it.
  if (config.discord) {
    const { createDiscordAdapter } = await import('../adapters/discord/adapter.ts');
    const { createButtonTargets } = await import('../adapters/discord/custom-id.ts');
    const { createInteractionWebhookClient } = await import('./services/webhook/discord-interaction.ts');
    const discordLog = log.child({ adapter: 'discord' });
    // The edits of @original and follow-ups, in both modes, through the HTTP core.
    const webhook = createInteractionWebhookClient(
      { apiUrl: config.discord.apiUrl ?? DISCORD_API_URL, applicationId: config.discord.applicationId },
      { log: log.child({ component: 'http' }), onCall: (r) => metrics?.onCall(r) },
    );
    lifecycle.onStop('connections', () => webhook.close());
    adapters.push(
      createDiscordAdapter({
        config: config.discord,
        log: discordLog,
        claims: store,
        buttonTargets: createButtonTargets(store, scheduleOwners(store)),
        interactions: served?.interactions,
        webhook,
      }),
    );
  }
  if (config.slack) {
    const { createSlackAdapter } = await import('../adapters/slack/adapter.ts');
    adapters.push(
      createSlackAdapter({
        config: config.slack,
        log: log.child({ adapter: 'slack' }),
        claims: store,
        routes: served?.routes,
      }),
    );
  }
  if (adapters.length === 0) {
    const { createConsoleAdapter } = await import('../adapters/console/adapter.ts');
    const { HISTORY_FILE_NAME } = await import('../adapters/console/history.ts');
    const isTTY = Boolean(process.stdin.isTTY && process.stdout.isTTY);
    const consoleAdapter = createConsoleAdapter({
      input: process.stdin,
      output: process.stdout,
      audioDir: config.audioDir,
      log: log.child({ adapter: 'console' }),
      isTTY,
      notice: sandboxNotice(plan),
      historyFile: resolve(HISTORY_FILE_NAME),
      terminalLog,
    });
    void consoleAdapter.finished.then(({ exitCode }) =>
      lifecycle.stop(isTTY ? 'console closed' : 'end of input', exitCode),
    );
    adapters.push(consoleAdapter);
    log.info(
      { adapter: 'console', isTTY },
      `adapter console: ${isTTY ? 'interactive' : 'reading standard input'}`,
    );
  }
  for (const adapter of adapters) {
    await adapter.start(registry, dispatcher);
    if (adapter.platform !== 'console')
      log.info({ adapter: adapter.platform }, `adapter ${adapter.platform}: connected`);
  }
}

/** What the server on PORT reports on as it comes up after it: set by main() as each part starts. */
interface Later {
  readonly adapters: readonly ChatAdapter[];
  started?: Started;
  commands?: Commands;
}

/** What the server on PORT serves for the adapters: Slack's events are added as its adapter starts. */
interface Served {
  routes: HttpRoutes;
  interactions: HttpInteractions | undefined;
}

/**
 * The server on PORT (health, the platforms' endpoints, metrics where asked for), listening before
 * the rest starts: Discord's PING is answered at once and an early command waits in the endpoint for
 * the adapter. /readyz says "not ready" until the adapters are up.
 */
async function serveHttp(base: Base, later: Later, metrics: Promise<Metrics>): Promise<Served> {
  const { config, log, lifecycle } = base;
  const discord = config.discord;
  const { createRoutes, readinessChecks, startHealthServer } = await import('./health.ts');
  const routes = createRoutes();
  let interactions: HttpInteractions | undefined;
  if (discord?.mode === 'http' && discord.publicKey !== undefined && discord.interactionsPath !== undefined) {
    const { createHttpInteractions, discordPublicKey } = await import('../adapters/discord/http.ts');
    const endpointLog = log.child({ adapter: 'discord' });
    interactions = createHttpInteractions({
      publicKey: discordPublicKey(discord.publicKey),
      log: endpointLog,
    });
    routes.add(discord.interactionsPath, interactions.route);
  }
  const checks = readinessChecks({
    adapters: () => later.adapters,
    store: {
      getSlot: (job, slotId) =>
        later.commands
          ? later.commands.store.getSlot(job, slotId)
          : Promise.reject(new Error('the store is not open yet')),
    },
    redis: config.redisUrl
      ? {
          get status() {
            return later.started?.redis?.status ?? 'wait';
          },
        }
      : undefined,
  });
  const { maxConnections, maxConnectionsPerAddress, maxUnverifiedConnections, ...where } = config.health!;
  const health = await startHealthServer({
    ...where,
    metrics,
    checks,
    routes,
    limits: { maxConnections, maxConnectionsPerAddress, maxUnverifiedConnections },
  });
  lifecycle.onStop('connections', () => health.close());
  log.info({ host: health.host, port: health.port }, `HTTP server on ${health.host} port ${health.port}`);
  return { routes, interactions };
}

async function main(): Promise<void> {
  const prepared = prepare(process.argv.slice(2));
  if (prepared.kind === 'exit') {
    process.exitCode = prepared.code;
    return;
  }
  const { config, environment } = prepared;
  if (prepared.kind === 'check-online') {
    for (const secret of secretsOf(config)) registerSecret(secret);
    const [{ runOnlineCheck }, { SLACK_BOT_SCOPES }] = await Promise.all([
      import('./online-check/index.ts'),
      import('../adapters/slack/manifest.ts'),
    ]);
    const out = (text: string) => void process.stdout.write(redactText(text));
    process.exitCode = await runOnlineCheck(config, planServices(config), {
      slackScopes: SLACK_BOT_SCOPES,
      out,
    });
    return;
  }
  for (const secret of secretsOf(config)) registerSecret(secret);
  // On an interactive console, log lines are printed around its prompt, never over it.
  const terminalLog =
    config.discord || config.slack
      ? undefined
      : (await import('../adapters/console/terminal-log.ts')).openTerminalLog(config.log.format);
  const log = createLogger({
    level: config.log.level,
    format: config.log.format,
    destination: terminalLog?.destination,
  });
  const lifecycle = createLifecycle({
    log,
    commandTimeoutMs: config.commandTimeoutMs,
    jobsStopMs: config.stopTimeoutMs,
  });
  process.on('unhandledRejection', (err) => log.error({ err }, 'process.unhandled_rejection'));
  const plan = planServices(config);
  for (const line of configReport(config, plan, environment))
    log[line.warn ? 'warn' : 'info'](line.fields, line.text);
  const base: Base = { config, log, lifecycle, terminalLog, plan };
  const adapters: ChatAdapter[] = [];
  lifecycle.onStop('adapters', () => Promise.allSettled(adapters.map((a) => a.stop())));
  const later: Later = { adapters };
  // Metrics exist exactly when a server serves them (startServices makes them).
  const metrics = Promise.withResolvers<Metrics>();
  const served = config.health ? await serveHttp(base, later, metrics.promise) : undefined;

  await turn();
  const started = await startServices(base);
  later.started = started;
  if (started.metrics) metrics.resolve(started.metrics);
  await turn();
  const commands = await startCommands(base, started);
  later.commands = commands;
  await turn();
  try {
    // The built-in schedules are validated here, before any platform connection is made.
    await commands.scheduling.start();
    lifecycle.onStop('jobs', () => commands.scheduling.stop());
    await startAdapters(base, adapters, commands, served, started.metrics);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`herald cannot start: ${err.message}\n`);
      void lifecycle.stop('invalid configuration', 2);
      return;
    }
    log.fatal({ err }, 'herald could not start');
    void lifecycle.stop('start-up failed', 1);
  }
}

try {
  await main();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`herald cannot start: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `herald failed to start: ${redactText(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
  );
  process.exit(1);
}
