// The composition root: command line and config → log → lifecycle →
// sandbox → services → commands → dispatcher → store, health, jobs → adapters. Wiring only: the
// command line and the config checks live in cli.ts, the stop and its order in lifecycle.ts, which
// port and host serve health in config/sections.ts.
import { resolve } from 'node:path';
import { createConsoleAdapter } from '../adapters/console/adapter.ts';
import { HISTORY_FILE_NAME } from '../adapters/console/history.ts';
import { openTerminalLog, type TerminalLog } from '../adapters/console/terminal-log.ts';
import { buildApp, buildServices } from './app.ts';
import { prepare } from './cli.ts';
import { configReport } from './config/report.ts';
import { secretsOf, type Config } from './config/index.ts';
import type { ChatAdapter, HttpRoutes } from './core/adapter.ts';
import { SERVICE_KEYS } from './core/services.ts';
import { ConfigError } from './errors.ts';
import { createLifecycle, drainMs, type Lifecycle } from './lifecycle.ts';
import { createQuotas } from './quota.ts';
import { openScheduleStore, openStore } from './store/index.ts';
import {
  closeChannelClients,
  closeDestinationClients,
  createChannelClients,
  createDestinationClients,
} from './destinations.ts';
import { redactText, registerSecret } from './redact.ts';
import { createLogger, type Logger } from './log.ts';
import { planServices, SANDBOX_CREDENTIAL, type ServicePlan } from './sandbox/resolve.ts';
import { startSandboxServer } from './sandbox/server.ts';
import { closeServices } from './services/index.ts';

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

/** The simulator where it stands in, Redis where configured, the service clients. */
async function startServices({ config, log, lifecycle, plan }: Base) {
  const sandbox =
    plan.simulated.length === 0
      ? undefined
      : await startSandboxServer({
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
    ? await (await import('./redis.ts')).connectRedis(config.redisUrl, { log })
    : undefined;
  if (redis) lifecycle.onStop('connections', () => redis.disconnect());
  // Only the health server serves metrics: without it prom-client is never loaded.
  const metrics = config.health ? (await import('./metrics.ts')).createMetrics() : undefined;
  const { services } = buildServices(config, plan, sandbox?.url, {
    log: log.child({ component: 'http' }),
    onCall: (r) => metrics?.onCall(r),
    quotaStore: { redis },
  });
  lifecycle.onStop('connections', () => closeServices(services));
  return { redis, metrics, services };
}
type Started = Awaited<ReturnType<typeof startServices>>;

/** The store, the schedules, their destinations, and the app: commands, dispatcher, /schedule. */
async function startCommands({ config, log, lifecycle }: Base, { redis, metrics, services }: Started) {
  const quotas = createQuotas({ ...config.limits, redis });
  const store = await openStore(config);
  lifecycle.onStop('store', () => store.close());
  // Schedules from chat: kept beside the slots and the outbox, fired by the runner below.
  const schedules = await openScheduleStore(config);
  lifecycle.onStop('store', () => schedules.close());
  const destinations = createDestinationClients(config.schedule, { log: log.child({ component: 'http' }) });
  lifecycle.onStop('connections', () => closeDestinationClients(destinations));
  // The bot's own connection posts schedules added in a Discord or Slack channel.
  const channels = createChannelClients(config, { log: log.child({ component: 'http' }) });
  lifecycle.onStop('connections', () => closeChannelClients(channels));
  const app = buildApp(config, 'bot', {
    services,
    store,
    schedules,
    destinations,
    channels,
    onRun: (e) => metrics?.job(e),
    onRecord: (schedule, run) => metrics?.scheduleRun(schedule, run),
    log,
    quotas,
    onCommand: (r) => metrics?.command(r),
  });
  const { dispatcher } = app;
  lifecycle.onStop('commands', async () => {
    if (!(await dispatcher.drain(drainMs(config.commandTimeoutMs))))
      log.warn({ inFlight: dispatcher.inFlight() }, 'commands still running at shutdown');
  });
  return { store, destinations, scheduling: app.scheduling, registry: app.registry, dispatcher };
}
type Commands = Awaited<ReturnType<typeof startCommands>>;

/** Discord and Slack where configured, else the console; each is stopped in the adapters phase. */
async function startAdapters(
  base: Base,
  adapters: ChatAdapter[],
  { registry, dispatcher, store }: Commands,
  routes: HttpRoutes | undefined,
) {
  const { config, log, lifecycle, plan, terminalLog } = base;
  // The store's claims make each interaction run once across the replicas sharing it.
  if (config.discord) {
    const { createDiscordAdapter } = await import('../adapters/discord/adapter.ts');
    const discordLog = log.child({ adapter: 'discord' });
    adapters.push(createDiscordAdapter({ config: config.discord, log: discordLog, claims: store, routes }));
  }
  if (config.slack) {
    const { createSlackAdapter } = await import('../adapters/slack/adapter.ts');
    adapters.push(
      createSlackAdapter({ config: config.slack, log: log.child({ adapter: 'slack' }), claims: store }),
    );
  }
  if (adapters.length === 0) {
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

async function main(): Promise<void> {
  const prepared = prepare(process.argv.slice(2));
  if (prepared.kind === 'exit') {
    process.exitCode = prepared.code;
    return;
  }
  const { config, environment } = prepared;
  for (const secret of secretsOf(config)) registerSecret(secret);
  // On an interactive console, log lines are printed around its prompt, never over it.
  const terminalLog = config.discord || config.slack ? undefined : openTerminalLog(config.log.format);
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

  const started = await startServices(base);
  const commands = await startCommands(base, started);
  const adapters: ChatAdapter[] = [];
  lifecycle.onStop('adapters', () => Promise.allSettled(adapters.map((a) => a.stop())));
  let routes: HttpRoutes | undefined;
  // Metrics exist exactly when the health server is configured.
  if (config.health && started.metrics) {
    // Loaded only when configured, like prom-client: it brings node:http (see sandbox/server.ts).
    const { createRoutes, readinessChecks, startHealthServer } = await import('./health.ts');
    const checks = readinessChecks({ adapters: () => adapters, store: commands.store, redis: started.redis });
    const served = createRoutes();
    routes = served;
    const health = await startHealthServer({
      ...config.health,
      metrics: started.metrics,
      checks,
      routes: served,
    });
    lifecycle.onStop('connections', () => health.close());
    log.info(
      { host: health.host, port: health.port },
      `health and metrics on ${health.host} port ${health.port}`,
    );
  }
  try {
    // The built-in schedules are validated here, before any platform connection is made.
    await commands.scheduling.start();
    lifecycle.onStop('jobs', () => commands.scheduling.stop());
    await startAdapters(base, adapters, commands, routes);
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
  process.stderr.write(
    `herald failed to start: ${redactText(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
  );
  process.exit(1);
}
