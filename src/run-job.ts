// `npm run job -- NAME`: runs one scheduled job once, now, through the same claim, outbox and
// delivery as the scheduler, then exits 0 when every post was delivered and 1 when not (the post
// stays in the store's outbox for the bot to retry). Config and usage errors exit 2.
// Real services only: a manual report must never post simulated data, unless SANDBOX=on.
import { createJobSchedules } from '../jobs/index.ts';
import { readEnvironment } from './config-file.ts';
import { loadConfig, secretsOf, type Config, type ServiceConfigs } from './config.ts';
import { createScheduler, validateSchedules, type SlotOutcome } from './core/scheduler.ts';
import { SERVICE_KEYS } from './core/services.ts';
import { ConfigError } from './errors.ts';
import { redactText, registerSecret } from './redact.ts';
import { createLogger, type Logger } from './log.ts';
import { closeServices, createServices } from './services/index.ts';
import { describeStore, openStore, type Store } from './store/index.ts';

class ExitError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** SANDBOX=on: the built-in simulator answers every service (loaded only then). */
async function sandboxConfigs(config: Config): Promise<{ configs: ServiceConfigs; close(): Promise<void> }> {
  const [
    { planServices, resolveServiceConfigs, SANDBOX_CREDENTIAL },
    { sandboxHandlers },
    { startSandboxServer },
  ] = await Promise.all([
    import('./sandbox/resolve.ts'),
    import('./sandbox/index.ts'),
    import('./sandbox/server.ts'),
  ]);
  const server = await startSandboxServer({ handlers: sandboxHandlers({ credential: SANDBOX_CREDENTIAL }) });
  return {
    configs: resolveServiceConfigs(config, planServices(config), server.url),
    close: () => server.close(),
  };
}

function summarize(name: string, outcome: SlotOutcome): { message: string; isSuccess: boolean } {
  if (outcome.status === 'failed') {
    const why = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return { message: `${name} failed: ${redactText(why)}`, isSuccess: false };
  }
  if (outcome.status === 'skipped')
    return { message: `${name} did not run: ${outcome.reason ?? 'skipped'}`, isSuccess: false };
  const undelivered = outcome.deliveries.filter((d) => d.outcome !== 'delivered');
  const sent = outcome.deliveries.map((d) => d.kind).join(' and ') || 'nothing to post';
  if (undelivered.length === 0)
    return { message: `${name}: delivered ${sent} (slot ${outcome.slotId})`, isSuccess: true };
  const what = undelivered
    .map((d) =>
      d.outcome === 'given_up'
        ? `the ${d.kind} post was refused and given up`
        : `the ${d.kind} post is kept in the outbox for a retry`,
    )
    .join('; ');
  return { message: `${name} ran but not every post was delivered: ${what} (see the log)`, isSuccess: false };
}

async function run(args: readonly string[], log: Logger, config: Config): Promise<string> {
  const sandbox = config.sandbox === 'on' ? await sandboxConfigs(config) : undefined;
  // Real providers get their documented rate limits, as in main.ts; the simulator has none.
  const realOnly = sandbox
    ? {}
    : Object.fromEntries(SERVICE_KEYS.map((k) => [k, { providerRateLimit: true }]));
  const services = createServices(
    sandbox?.configs ?? config.services,
    { log: log.child({ component: 'http' }) },
    realOnly,
  );
  const schedules = createJobSchedules(config, services);
  const known = schedules.map((s) => s.job.name).join(', ');
  const name = args[0];
  const target = schedules.find((s) => s.job.name === name);
  let store: Store | undefined;
  try {
    if (name === undefined) throw new ExitError(`usage: npm run job -- NAME (known jobs: ${known})`, 2);
    if (!target) throw new ExitError(`unknown job "${name}"; known jobs: ${known}`, 2);
    if (target.disabledReason) throw new ExitError(`${name} cannot run: ${target.disabledReason}`, 1);
    store = await openStore(config).catch((err: unknown) => {
      throw new ExitError(`${name} cannot run: ${err instanceof Error ? err.message : String(err)}`, 1);
    });
    validateSchedules(schedules);
    log.info({ job: name, store: describeStore(config) }, 'job.manual_run');
    const scheduler = createScheduler({
      schedules,
      services,
      store,
      log,
      catchupMinutes: config.jobCatchupMinutes,
    });
    const { message, isSuccess } = summarize(name, await scheduler.runNow(name));
    if (!isSuccess) throw new ExitError(message, 1);
    return message;
  } finally {
    await Promise.allSettled([store?.close(), closeServices(services), sandbox?.close()]);
  }
}

async function main(args: readonly string[]): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(readEnvironment().env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`herald job cannot start: ${err.message}\n`);
    return 2;
  }
  for (const secret of secretsOf(config)) registerSecret(secret);
  const log = createLogger({ level: config.log.level, format: config.log.format });
  let code = 0;
  try {
    process.stdout.write(`${await run(args, log, config)}\n`);
  } catch (err) {
    code = err instanceof ExitError ? err.exitCode : err instanceof ConfigError ? 2 : 1;
    const text =
      err instanceof Error
        ? err instanceof ExitError || err instanceof ConfigError
          ? err.message
          : (err.stack ?? err.message)
        : String(err);
    process.stderr.write(`${redactText(text)}\n`);
  }
  await Promise.race([
    new Promise<void>((done) => log.flush(() => done())),
    new Promise((r) => setTimeout(r, 2_000).unref()),
  ]);
  return code;
}

process.exit(await main(process.argv.slice(2)));
