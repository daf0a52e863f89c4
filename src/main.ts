// The composition root (DESIGN.md, "Layout"): config → log → sandbox → services → commands →
// dispatcher → adapters, and an orderly stop on SIGINT/SIGTERM. Wiring only: no logic lives here.
import { buildCommands } from '../commands/index.ts';
import { createConsoleAdapter } from '../adapters/console/adapter.ts';
import { loadConfig, secretsOf, type Config } from './config.ts';
import type { ChatAdapter } from './core/adapter.ts';
import { createDispatcher } from './core/dispatch.ts';
import { createRegistry } from './core/registry.ts';
import { SERVICE_KEYS } from './core/services.ts';
import { ConfigError } from './errors.ts';
import { startHealthServer, type HealthServer } from './health.ts';
import { createMetrics } from './metrics.ts';
import { createQuotas, createSayCharge, createSayRefund } from './quota.ts';
import { describeStore, openStore } from './store/index.ts';
import { startJobs, type RunningJobs } from '../jobs/index.ts';
import { redactText, registerSecret } from './redact.ts';
import { createLogger, type Logger } from './log.ts';
import { sandboxHandlers } from './sandbox/index.ts';
import {
  planServices,
  resolveServiceConfigs,
  SANDBOX_CREDENTIAL,
  type ServicePlan,
} from './sandbox/resolve.ts';
import { startSandboxServer, type SandboxServer } from './sandbox/server.ts';
import { closeServices, createServices } from './services/index.ts';

/** How long adapters get to disconnect, and the last resort should anything hang at shutdown. */
const ADAPTER_STOP_MS = 5_000;
const SHUTDOWN_GRACE_MS = 10_000;

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`herald cannot start: ${err.message}\n`);
    process.exit(2);
  }
}

function logServices(log: Logger, config: Config, plan: ServicePlan): void {
  for (const key of SERVICE_KEYS) {
    const mode = plan.modes[key];
    const real = config.services[key];
    if (mode === 'real' && real) {
      log.info({ service: key, mode, origin: new URL(real.baseUrl).origin }, `service ${key}: real`);
    } else if (mode === 'simulated') {
      log.info({ service: key, mode }, `service ${key}: simulated by the built-in sandbox`);
    } else {
      log.info({ service: key, mode }, `service ${key}: disabled (set ${config.serviceVariables[key]})`);
    }
  }
}

function sandboxNotice(plan: ServicePlan): string | undefined {
  if (plan.simulated.length === 0) return undefined;
  const which = plan.simulated.length === SERVICE_KEYS.length ? 'every service' : plan.simulated.join(', ');
  return `The built-in sandbox answers for ${which}: replies are simulated data, not real.`;
}

function withTimeout(work: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

async function main(): Promise<void> {
  const config = readConfig();
  for (const secret of secretsOf(config)) registerSecret(secret);
  const log = createLogger({ level: config.log.level, format: config.log.format });
  process.on('unhandledRejection', (err) => log.error({ err }, 'process.unhandled_rejection'));

  const plan = planServices(config);
  let sandbox: SandboxServer | undefined;
  if (plan.simulated.length > 0) {
    sandbox = await startSandboxServer({
      handlers: sandboxHandlers({ credential: SANDBOX_CREDENTIAL }),
      host: '127.0.0.1',
      port: 0,
      latencyMs: config.sandboxLatencyMs,
      faultRate: config.sandboxFaultRate,
    });
    log.info({ url: sandbox.url }, `sandbox answering on ${sandbox.url}`);
  }
  logServices(log, config, plan);
  if (config.sandbox === 'on' && (config.discord || config.slack)) {
    log.warn({ sandbox: 'on' }, 'SANDBOX=on with a chat platform: its users get simulated data');
  }
  const configs = resolveServiceConfigs(config, plan, sandbox?.url);
  const metrics = createMetrics();
  // Real providers get their documented rate limits as a queue; the simulator has none.
  const realOnly = Object.fromEntries(
    SERVICE_KEYS.filter((k) => plan.modes[k] === 'real').map((k) => [k, { providerRateLimit: true }]),
  );
  const services = createServices(
    configs,
    { log: log.child({ component: 'http' }), onCall: (r) => metrics.onCall(r) },
    realOnly,
  );

  // With REDIS_URL, the per-user limits are shared by every replica.
  const redis = config.redisUrl
    ? await (await import('./redis.ts')).connectRedis(config.redisUrl, log)
    : undefined;
  const quotas = createQuotas({ ...config.limits, redis });
  const commands = buildCommands({
    access: config.access,
    limits: config.limits,
    speechModelId: configs.speech?.modelId ?? 'eleven_multilingual_v2',
    jobsCountry: configs.jobSearch?.country ?? 'gb',
    chargeSay: createSayCharge(quotas),
    refundSay: createSayRefund(quotas),
  });
  const registry = createRegistry(commands);
  const dispatcher = createDispatcher({
    registry,
    services,
    log,
    commandTimeoutMs: config.commandTimeoutMs,
    serviceVariables: config.serviceVariables,
    now: () => new Date(),
    rateLimit: quotas.commands,
    onCommand: (r) => metrics.command(r),
  });

  const adapters: ChatAdapter[] = [];
  let health: HealthServer | undefined;
  let jobs: RunningJobs | undefined;
  let stopping: Promise<void> | undefined;
  async function shutdown(reason: string, code: number): Promise<void> {
    log.info({ reason }, 'herald stopping');
    setTimeout(
      () => process.exit(code === 0 ? 1 : code),
      config.commandTimeoutMs + SHUTDOWN_GRACE_MS,
    ).unref();
    const isDrained = await dispatcher.drain(Math.min(config.commandTimeoutMs + 1_000, 30_000));
    if (!isDrained) log.warn({ inFlight: dispatcher.inFlight() }, 'commands still running at shutdown');
    await withTimeout(Promise.allSettled(adapters.map((a) => a.stop())), ADAPTER_STOP_MS);
    // Jobs finish their slot, one last attempt flushes the outbox; what is still undelivered stays
    // in the store for the next start.
    await withTimeout(Promise.allSettled([jobs?.scheduler.drainOutbox()]), ADAPTER_STOP_MS);
    await withTimeout(Promise.allSettled([jobs?.stop()]), ADAPTER_STOP_MS);
    await Promise.allSettled([store.close()]);
    await Promise.allSettled([closeServices(services), sandbox?.close(), health?.close()]);
    redis?.disconnect();
    log.info({ reason }, 'herald stopped');
    await withTimeout(new Promise<void>((resolve) => log.flush(() => resolve())), 2_000);
    process.exit(code);
  }
  const stop = (reason: string, code = 0): void => {
    stopping ??= shutdown(reason, code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(130);
      stop(signal);
    });
  }

  const store = await openStore(config);
  log.info({ store: describeStore(config) }, `store: ${describeStore(config)}`);
  // Slack's HTTP mode owns PORT; otherwise PORT or HEALTH_PORT serves /healthz, /readyz, /metrics.
  const healthPort = config.healthPort ?? (config.slack && !config.slack.appToken ? undefined : config.port);
  if (healthPort !== undefined) {
    health = await startHealthServer({
      port: healthPort,
      metrics,
      checks: [
        { name: 'adapters', check: () => adapters.length > 0 && adapters.every((a) => a.isReady()) },
        { name: 'redis', check: () => redis === undefined || redis.status === 'ready' },
        { name: 'store', check: async () => (await store.getSlot('readyz', 'probe'), true) },
      ],
    });
    log.info({ port: health.port }, `health and metrics on port ${health.port}`);
  }

  try {
    // Schedules are validated here, before any platform connection is made.
    jobs = await startJobs({
      config,
      services,
      store,
      log: log.child({ component: 'jobs' }),
      onRun: (e) => metrics.job(e),
    });
    if (config.discord) {
      const { createDiscordAdapter } = await import('../adapters/discord/adapter.ts');
      adapters.push(createDiscordAdapter({ config: config.discord, log: log.child({ adapter: 'discord' }) }));
    }
    if (config.slack) {
      const { createSlackAdapter } = await import('../adapters/slack/adapter.ts');
      adapters.push(createSlackAdapter({ config: config.slack, log: log.child({ adapter: 'slack' }) }));
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
      });
      void consoleAdapter.finished.then(() => stop(isTTY ? 'console closed' : 'end of input'));
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
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`herald cannot start: ${err.message}\n`);
      stop('invalid configuration', 2);
      return;
    }
    log.fatal({ err }, 'herald could not start');
    stop('start-up failed', 1);
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
