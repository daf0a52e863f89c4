// `npm run job -- NAME`: runs one scheduled job once, now, through the same claim, outbox and
// delivery as the scheduler, prints what it posted, then exits 0 when every post was delivered
// and 1 when not (the post stays in the store's outbox for the bot to retry). Config and usage
// errors exit 2. Services follow SANDBOX as `npm start` does: with nothing configured the built-in
// simulator answers; a job or schedule whose own services are simulated never posts to a real
// destination unmarked (src/schedule/simulated.ts decides, for every run alike).
import { renderConsole } from '../adapters/console/render.ts';
import { COLOR_HEX, type Color, type Embed } from './core/reply.ts';
import type { WebhookMessage } from './services/webhook/client.ts';
import { formatBytes } from './format.ts';
import { buildServices, openApp, rateBudgetHooks, type App, type OpenedApp } from './app.ts';
import { readEnvironment } from './config/file.ts';
import { loadConfig, secretsOf, type Config } from './config/index.ts';
import type { SlotOutcome } from './schedule/slot-run.ts';
import { validateSchedules } from './schedule/when.ts';
import { ConfigError } from './errors.ts';
import { redactText, registerSecret } from './redact.ts';
import { createLogger, type Logger } from './log.ts';
import { closeServices } from './services/index.ts';
import { describeStore, openRateBudget, type Store } from './store/index.ts';

class ExitError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The built-in simulator for the services the plan simulates (loaded only then). */
async function startSandbox(config: Config) {
  const [{ planServices, SANDBOX_CREDENTIAL }, { sandboxHandlers }, { startSandboxServer }] =
    await Promise.all([
      import('./sandbox/resolve.ts'),
      import('./sandbox/index.ts'),
      import('./sandbox/server.ts'),
    ]);
  const plan = planServices(config);
  if (plan.simulated.length === 0) return { plan, server: undefined };
  const server = await startSandboxServer({ handlers: sandboxHandlers({ credential: SANDBOX_CREDENTIAL }) });
  return { plan, server };
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
  if ('platform' in message) return `${message.text}\n(Slack Block Kit, ${message.blocks.length} blocks)`;
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
function renderSlotPosts(posts: SlotOutcome['deliveries']): string {
  return posts
    .map(({ delivery, outcome, receipt }) => {
      const state =
        outcome === 'delivered'
          ? `delivered${receipt === undefined ? '' : ` (id ${receipt})`}`
          : outcome === 'given_up'
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
  for (const d of outcome.deliveries) counts.set(d.delivery.kind, (counts.get(d.delivery.kind) ?? 0) + 1);
  const sent =
    [...counts].map(([kind, n]) => (n === 1 ? kind : `${n} ${kind}s`)).join(' and ') || 'nothing to post';
  if (undelivered.length === 0)
    return { message: `${name}: delivered ${sent} (slot ${outcome.slotId})`, isSuccess: true };
  const what = undelivered
    .map((d) =>
      d.outcome === 'given_up'
        ? `the ${d.delivery.kind} post was refused and given up`
        : `the ${d.delivery.kind} post is kept in the outbox for a retry`,
    )
    .join('; ');
  return { message: `${name} ran but not every post was delivered: ${what} (see the log)`, isSuccess: false };
}

/** What the slot posted, as the console shows it, after the one-line outcome. */
function describeRun(outcome: SlotOutcome, line: string): string {
  if (outcome.status !== 'posted') return line;
  const posts = outcome.deliveries;
  return posts.length === 0 ? line : `${line}\n\n${renderSlotPosts(posts)}`;
}

/** A schedule of /schedule run once now, as its creator, through the same claim and outbox. */
async function runSchedule(id: string, app: App<'job'>, store: Store, config: Config, log: Logger) {
  const record = await store.getSchedule(id.trim().toLowerCase());
  if (!record) return undefined;
  log.info({ scheduleId: record.id, store: describeStore(config) }, 'schedule.manual_run');
  const outcome = await app.scheduling.runner.runManual(record);
  return { label: `schedule ${record.id} (${record.command})`, outcome };
}

/** Runs the built-in job or schedule `name` once now, through the app's one engine. */
async function runTarget(
  name: string | undefined,
  app: App<'job'>,
  store: Store,
  config: Config,
  log: Logger,
) {
  const known = app.jobs.map((s) => s.job.name).join(', ');
  if (name === undefined) throw new ExitError(`usage: npm run job -- NAME (known jobs: ${known})`, 2);
  const target = app.jobs.find((s) => s.job.name === name);
  if (!target) {
    const ran = await runSchedule(name, app, store, config, log);
    if (!ran) {
      const hint = '/schedule list shows the schedules';
      throw new ExitError(`unknown job or schedule "${name}"; known jobs: ${known} (${hint})`, 2);
    }
    return { label: ran.label, outcome: ran.outcome };
  }
  if (target.disabledReason) throw new ExitError(`${name} cannot run: ${target.disabledReason}`, 1);
  validateSchedules(app.jobs);
  log.info({ job: name, store: describeStore(config) }, 'job.manual_run');
  // The one engine, as the bot runs it: the same claim, outbox and delivery as every schedule.
  return { label: name, outcome: await app.scheduling.runner.runManual(name) };
}

async function run(args: readonly string[], log: Logger, config: Config): Promise<string> {
  const { plan, server } = await startSandbox(config);
  if (server) log.info({ simulated: plan.simulated }, 'the built-in sandbox answers for these services');
  const name = args[0];
  const cannotRun = (err: unknown) =>
    new ExitError(
      `${name ?? 'herald job'} cannot run: ${err instanceof Error ? err.message : String(err)}`,
      1,
    );
  // Discord's budgets, shared with the running bots when the store is in Redis.
  const rateBudget = await openRateBudget(config, rateBudgetHooks(config, log)).catch((err: unknown) => {
    void server?.close();
    throw cannotRun(err);
  });
  const { services } = buildServices(config, plan, server?.url, {
    log: log.child({ component: 'http' }),
    rateBudget,
  });
  let opened: OpenedApp<'job'> | undefined;
  try {
    opened = await openApp(config, 'job', { services, rateBudget, log }).catch((err: unknown) => {
      throw cannotRun(err);
    });
    const ran = await runTarget(name, opened.app, opened.store, config, log);
    const { message, isSuccess } = summarize(ran.label, ran.outcome);
    const isBuiltIn = ran.label === name && server !== undefined;
    const notice = isBuiltIn
      ? `\n\nSimulated by the built-in sandbox: ${plan.simulated.join(', ')} (not real data).`
      : '';
    const text = describeRun(ran.outcome, message) + notice;
    if (!isSuccess) throw new ExitError(text, 1);
    return text;
  } finally {
    await Promise.allSettled([
      opened?.close.store(),
      opened?.close.connections(),
      rateBudget.close(),
      closeServices(services),
      server?.close(),
    ]);
  }
}

const USAGE = `Usage: npm run job -- NAME

  NAME     a built-in job (analytics-summary) or a chat schedule's id (/schedule list shows them):
           run it once, now, through the same claim, outbox and delivery as the bot, and print
           what it posted
  --help   print this text

Exit codes: 0 every post delivered; 1 a post not delivered (it stays in the outbox for the bot)
or the run failed; 2 a usage or configuration error.
`;

async function main(args: readonly string[]): Promise<number> {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
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
