// `npm run job -- NAME`: runs one scheduled job once, now, through the same claim, outbox and
// delivery as the scheduler, prints what it posted, then exits 0 when every post was delivered
// and 1 when not (the post stays in the store's outbox for the bot to retry). Config and usage
// errors exit 2. Services follow SANDBOX as `npm start` does: with nothing configured the built-in
// simulator answers; simulated data is never posted to a real webhook.
import { renderConsole } from '../adapters/console/render.ts';
import { fromOutboxPayload } from './core/delivery.ts';
import { COLOR_HEX, type Color, type Embed } from './core/reply.ts';
import type { WebhookMessage } from './services/webhook/client.ts';
import { formatBytes } from './format.ts';
import type { OutboxEntry } from './store/store.ts';
import { createJobSchedules } from '../jobs/index.ts';
import { readEnvironment } from './config-file.ts';
import { loadConfig, secretsOf, type Config, type ServiceConfigs } from './config.ts';
import { createScheduler, validateSchedules, type SlotOutcome } from './core/scheduler.ts';
import { SERVICE_KEYS } from './core/services.ts';
import { ConfigError } from './errors.ts';
import { redactText, registerSecret } from './redact.ts';
import { createLogger, type Logger } from './log.ts';
import { closeServices, createServices } from './services/index.ts';
import { describeStore, openScheduleStore, openStore, type Store } from './store/index.ts';
import { buildCommands } from '../commands/index.ts';
import { createScheduling } from '../jobs/schedules.ts';
import { createDispatcher } from './core/dispatch.ts';
import { createRegistry } from './core/registry.ts';
import type { Services } from './core/services.ts';
import { closeDestinationClients, createDestinationClients } from './destinations.ts';

class ExitError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The services the plan simulates are answered by the built-in simulator (loaded only then). */
async function sandboxConfigs(
  config: Config,
): Promise<{ configs: ServiceConfigs; simulated: readonly string[]; close(): Promise<void> } | undefined> {
  const [
    { planServices, resolveServiceConfigs, SANDBOX_CREDENTIAL },
    { sandboxHandlers },
    { startSandboxServer },
  ] = await Promise.all([
    import('./sandbox/resolve.ts'),
    import('./sandbox/index.ts'),
    import('./sandbox/server.ts'),
  ]);
  const plan = planServices(config);
  if (plan.simulated.length === 0) return undefined;
  if (plan.modes.webhook === 'real') {
    throw new ExitError(
      `refusing to post simulated ${plan.simulated.join(', ')} data to the real webhook; ` +
        `configure ${plan.simulated.join(', ')} or set SANDBOX=off`,
      2,
    );
  }
  const server = await startSandboxServer({ handlers: sandboxHandlers({ credential: SANDBOX_CREDENTIAL }) });
  return {
    configs: resolveServiceConfigs(config, plan, server.url),
    simulated: plan.simulated,
    close: () => server.close(),
  };
}

// What a run posted, printed as the console shows a reply (the embed as a card, files by name).
const COLOR_BY_HEX = new Map(Object.entries(COLOR_HEX).map(([name, hex]) => [hex, name as Color]));

function asEmbeds(message: WebhookMessage): Embed[] {
  return (message.embeds ?? []).map((e) => {
    const embed: Embed = {};
    if (e.title !== undefined) embed.title = e.title;
    if (e.url !== undefined) embed.url = e.url;
    if (e.description !== undefined) embed.description = e.description;
    const color = e.color === undefined ? undefined : COLOR_BY_HEX.get(e.color);
    if (color !== undefined) embed.color = color;
    if (e.fields !== undefined) embed.fields = e.fields;
    if (e.footer !== undefined) embed.footer = e.footer.text;
    if (e.timestamp !== undefined) embed.timestamp = e.timestamp;
    if (e.image !== undefined) embed.image = e.image.url;
    return embed;
  });
}

/** One webhook message as terminal text. */
function renderPostedMessage(message: WebhookMessage): string {
  const sections: string[] = [];
  if (message.username !== undefined) sections.push(`As ${message.username}:`);
  if (message.content !== undefined) sections.push(message.content);
  const embeds = asEmbeds(message);
  if (embeds.length > 0) sections.push(renderConsole({ text: '', embeds }));
  for (const f of message.files ?? []) {
    sections.push(`Attached ${f.name} (${f.contentType}, ${formatBytes(f.bytes.byteLength)})`);
  }
  return sections.join('\n\n');
}

/** Every post of a slot, readably, with its delivery state and the provider's id. */
function renderSlotPosts(entries: readonly OutboxEntry[]): string {
  return entries
    .map((entry) => {
      const delivery = fromOutboxPayload(entry.payload);
      const state =
        entry.status === 'delivered'
          ? `delivered${entry.receipt === undefined ? '' : ` (id ${entry.receipt})`}`
          : entry.status === 'given_up'
            ? 'given up'
            : 'kept in the outbox for a retry';
      if (delivery.kind === 'webhook') {
        return `── webhook post, ${state}\n${renderPostedMessage(delivery.message)}`;
      }
      const to = delivery.email.to;
      const count = Array.isArray(to) ? to.length : 1;
      return `── email "${delivery.email.subject}" to ${count} recipient${count === 1 ? '' : 's'}, ${state}`;
    })
    .join('\n\n');
}

function summarize(name: string, outcome: SlotOutcome): { message: string; isSuccess: boolean } {
  if (outcome.status === 'failed') {
    const why = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return { message: `${name} failed: ${redactText(why)}`, isSuccess: false };
  }
  if (outcome.status === 'skipped')
    return { message: `${name} did not run: ${outcome.reason ?? 'skipped'}`, isSuccess: false };
  const undelivered = outcome.deliveries.filter((d) => d.outcome !== 'delivered');
  const counts = new Map<string, number>();
  for (const d of outcome.deliveries) counts.set(d.kind, (counts.get(d.kind) ?? 0) + 1);
  const sent =
    [...counts].map(([kind, n]) => (n === 1 ? kind : `${n} ${kind}s`)).join(' and ') || 'nothing to post';
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

/** What the slot posted, as the console shows it, after the one-line outcome. */
async function describeRun(store: Store, outcome: SlotOutcome, line: string): Promise<string> {
  if (outcome.status !== 'posted') return line;
  const ids = new Set(outcome.deliveries.map((d) => d.id));
  const entries = (await store.listOutbox()).filter((e) => ids.has(e.id));
  return entries.length === 0 ? line : `${line}\n\n${renderSlotPosts(entries)}`;
}

/** A schedule of /schedule run once now, as its creator, through the same claim and outbox. */
async function runSchedule(id: string, config: Config, services: Services, store: Store, log: Logger) {
  const schedules = await openScheduleStore(config);
  const destinations = createDestinationClients(config.schedule, { log: log.child({ component: 'http' }) });
  try {
    const record = await schedules.get(id.trim().toLowerCase());
    if (!record) return undefined;
    const scheduling = createScheduling({ config, services, store, schedules, destinations, log });
    const registry = createRegistry(
      buildCommands({
        access: config.access,
        limits: config.limits,
        speechModelId: config.services.speech?.modelId ?? 'eleven_multilingual_v2',
        jobsCountry: config.services.jobSearch?.country ?? 'gb',
        schedules: { service: scheduling.service, users: [], roles: [] },
      }),
    );
    scheduling.attach(
      createDispatcher({
        registry,
        services,
        log,
        commandTimeoutMs: config.commandTimeoutMs,
        serviceVariables: config.serviceVariables,
      }),
    );
    log.info({ scheduleId: record.id, store: describeStore(config) }, 'schedule.manual_run');
    const outcome = await scheduling.runner.runManual(record);
    return { label: `schedule ${record.id} (${record.command})`, outcome };
  } finally {
    await Promise.allSettled([schedules.close(), closeDestinationClients(destinations)]);
  }
}

async function run(args: readonly string[], log: Logger, config: Config): Promise<string> {
  const sandbox = await sandboxConfigs(config);
  if (sandbox) log.info({ simulated: sandbox.simulated }, 'the built-in sandbox answers for these services');
  // Real providers get their documented rate limits, as in main.ts; the simulator has none.
  const realOnly = sandbox
    ? {}
    : Object.fromEntries(
        SERVICE_KEYS.map((k) => [
          k,
          { providerRateLimit: true, rateLimitPerMinute: config.rateLimitsPerMinute[k] },
        ]),
      );
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
    if (!target) {
      store = await openStore(config);
      const ran = await runSchedule(name, config, services, store, log);
      if (!ran) {
        const hint = '/schedule list shows the schedules';
        throw new ExitError(`unknown job or schedule "${name}"; known jobs: ${known} (${hint})`, 2);
      }
      const { message, isSuccess } = summarize(ran.label, ran.outcome);
      const text = await describeRun(store, ran.outcome, message);
      if (!isSuccess) throw new ExitError(text, 1);
      return text;
    }
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
    const outcome = await scheduler.runNow(name);
    const { message, isSuccess } = summarize(name, outcome);
    const notice = sandbox
      ? `\n\nSimulated by the built-in sandbox: ${sandbox.simulated.join(', ')} (not real data).`
      : '';
    const text = (await describeRun(store, outcome, message)) + notice;
    if (!isSuccess) throw new ExitError(text, 1);
    return text;
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
