// The one place a command runs: find it, check its services, read and validate its
// input, check access and the per-user rate limit, run the handler under a deadline, time and log
// it, and turn any failure into one sentence for the invoker. It never throws. Every reply leaves
// through `present`, which redacts configured secrets as the logs do. The steps are plain
// functions in dispatch-steps.ts; this factory holds the state (in flight, accepting).
import { randomUUID } from 'node:crypto';
import { createDeadline, raceAbort } from '../abort.ts';
import { ownEntry } from '../domain/lookup.ts';
import { loggedText } from '../domain/text.ts';
import { DeadlineError, ServiceError, UserError, userMessageFor } from '../errors.ts';
import { redactText } from '../redact.ts';
import type { AutocompleteRequest, CommandOutcome, CommandRegistry, Invocation } from './adapter.ts';
import type { Actor } from './actor.ts';
import { parseLine, readInput, resolveCommand } from './args.ts';
import type { Choice, Command, CommandContext } from './command.ts';
import {
  checkAccess,
  checkNeeds,
  checkRate,
  failureRef,
  findCommand,
  withRef,
  logOutcome,
  outcomeOf,
  shuttingDown,
  withNotices,
  type CommandRecord,
} from './dispatch-steps.ts';
import { formReply, isEmptyInput } from './form.ts';
import { createInFlight } from './in-flight.ts';
import { defaultPreferences, resolvePreferences, withPlatformLanguage } from './preferences.ts';
import { translatorFor } from '../i18n/translate.ts';
import type { Preferences, ScheduledFor } from './preferences.ts';
import type { CheckedLine, Dispatcher, DispatcherOptions, RunOptions } from './dispatch-contract.ts';
import { nextTurn } from './turns.ts';
import { redactReply, type Reply } from './reply.ts';
import type { ServiceKey } from './services.ts';
import { DISCORD_LIMITS } from '../domain/discord.ts';

export type { CommandOutcome };
export type { CommandRecord, RateLimiter } from './dispatch-steps.ts';

type Result = { prefs?: Preferences } & (
  | { command: Command; reply: Reply; services: readonly ServiceKey[] }
  | { command?: Command; failure: unknown }
);

/** Every service a run of `command` with `input` uses: `needs`, then what its options add. */
function servicesOf(command: Command, input: Record<string, unknown>): readonly ServiceKey[] {
  return [...new Set([...command.needs, ...(command.uses?.(input) ?? [])])];
}

/** What every step reads; the dispatcher's state (in flight, accepting) stays in its factory. */
interface Runtime extends DispatcherOptions {
  now: () => Date;
  autocompleteTimeoutMs: number;
  /** What applies where no preference is kept (no book), or where it cannot be read. */
  defaults: Preferences;
}

function contextFor(
  rt: Runtime,
  actor: Actor,
  command: Command,
  invocationId: string,
  signal: AbortSignal,
  where: Pick<Invocation, 'channel' | 'surface'> = {},
  preferences: Preferences = rt.defaults,
): CommandContext {
  const bindings = { command: command.name, invocationId };
  const log = rt.log.child ? rt.log.child(bindings) : rt.log;
  const ctx: CommandContext = {
    actor,
    services: rt.services,
    log,
    signal,
    now: rt.now,
    invocationId,
    preferences,
    t: translatorFor(preferences.language, actor.platform),
    locale: preferences.language,
  };
  if (where.channel) ctx.channel = where.channel;
  if (where.surface) ctx.surface = where.surface;
  return ctx;
}

/** Runs a checked command's handler under the deadline; an abort is a DeadlineError. */
async function runHandler(
  rt: Runtime,
  command: Command,
  input: Record<string, unknown>,
  ctx: CommandContext,
  inv: Pick<Invocation, 'beginWork'> & { isScheduled?: boolean },
): Promise<Reply> {
  const deadline = (cause: unknown) => new DeadlineError({ ms: rt.commandTimeoutMs, cause });
  const work = async (): Promise<Reply> => {
    if (command.access.length > 0) await checkAccess(command, ctx);
    if (inv.isScheduled !== true) {
      const bindings = { command: command.name, invocationId: ctx.invocationId };
      await checkRate(rt.rateLimit, ctx.actor, rt.log, bindings);
      // Nothing before this refused the command: its work begins (Discord defers now), and waits
      // its turn behind the first answers still owed (turns.ts).
      inv.beginWork?.();
      await nextTurn();
    }
    try {
      return await command.handler(input, ctx);
    } catch (err) {
      // An abort surfacing as a bare AbortError or TimeoutError is our deadline.
      if (ctx.signal.aborted && !(err instanceof UserError || err instanceof ServiceError))
        throw deadline(err);
      throw err;
    }
  };
  // A handler that ignores its signal keeps running; its late result or failure is dropped.
  const reply = await raceAbort(work(), ctx.signal, () => deadline(ctx.signal.reason));
  if (typeof reply?.text !== 'string') throw new Error(`/${command.name} returned no reply text`);
  return { ...reply, ephemeral: reply.ephemeral ?? command.ephemeral };
}

/** Whether the invocation answers with the command's form: asked for, or the command given nothing. */
function opensForm(command: Command, inv: Invocation, rawInput: Invocation['rawInput']): boolean {
  return (
    command.form !== undefined &&
    inv.hasForms === true &&
    (inv.openForm !== undefined || isEmptyInput(rawInput))
  );
}

/** Finds, checks and runs the command of an invocation; any failure is returned, never thrown. */
async function execute(
  rt: Runtime,
  inv: Invocation,
  invocationId: string,
  scheduled?: { schedule?: ScheduledFor | undefined },
): Promise<Result> {
  let command: Command | undefined;
  let prefs: Preferences | undefined;
  const isScheduled = scheduled !== undefined;
  try {
    const found = findCommand(rt.registry, inv);
    command = found.command;
    const stored = await resolvePreferences(rt, { ...inv, schedule: scheduled?.schedule });
    prefs = await withPlatformLanguage(stored, inv.locale);
    checkNeeds(command, rt.services, rt.serviceVariables);
    if (opensForm(command, inv, found.rawInput)) {
      // Whoever may not run the command is refused before filling in its form.
      await checkAccess(command, contextFor(rt, inv.actor, command, invocationId, inv.signal, inv, prefs));
      return {
        command,
        reply: formReply(command, inv.openForm, translatorFor(prefs.language, inv.actor.platform)),
        services: [],
        prefs,
      };
    }
    const input = readInput(command, found.rawInput, prefs);
    const deadline = createDeadline(rt.commandTimeoutMs, inv.signal);
    const ctx = contextFor(rt, inv.actor, command, invocationId, deadline.signal, inv, prefs);
    try {
      const reply = await runHandler(rt, command, input, ctx, { beginWork: inv.beginWork, isScheduled });
      return { command, reply, services: servicesOf(command, input), prefs };
    } finally {
      deadline.done();
    }
  } catch (failure) {
    return { command, failure, ...(prefs ? { prefs } : {}) };
  }
}

/** Sends the reply (or the failure as one sentence), then logs and records how the command ended. */
async function report(
  rt: Runtime,
  inv: Invocation,
  invocationId: string,
  result: Result,
  startedAt: number,
): Promise<CommandOutcome> {
  const name = result.command?.name ?? loggedText(inv.command);
  let failure: { error: unknown; ref: string } | undefined;
  let answer: Reply;
  if ('failure' in result) {
    failure = { error: result.failure, ref: failureRef() };
    // Refused before its preferences were read (an unknown command): the platform's language.
    const { language } = result.prefs ?? (await withPlatformLanguage(rt.defaults, inv.locale));
    const t = translatorFor(language, inv.actor.platform);
    // A chat user quotes the reference to whoever reads the logs; the console's operator reads
    // the log line beside the answer.
    const sentence = userMessageFor(failure.error, t, language);
    const text = inv.actor.platform === 'console' ? sentence : withRef(sentence, failure.ref, t);
    answer = { text, ephemeral: true, failureRef: failure.ref };
  } else if (rt.markReply) {
    answer = rt.markReply(result.reply, { ...result.command, services: result.services }, inv.actor);
  } else answer = result.reply;
  const reply = await withNotices(rt, inv.actor, answer);
  try {
    await inv.respond(redactReply(reply));
  } catch (err) {
    rt.log.error(
      { err, command: name, invocationId, platform: inv.actor.platform },
      'command.respond_failed',
    );
  }
  const record: CommandRecord = {
    command: name,
    invocationId,
    userId: inv.actor.id,
    platform: inv.actor.platform,
    durationMs: Math.round(performance.now() - startedAt),
    outcome: failure ? outcomeOf(failure.error) : 'ok',
  };
  logOutcome(rt.log, record, failure);
  rt.onCommand?.(record);
  return record.outcome;
}

/** Choices for an option being typed; anything that goes wrong is no choices. */
async function complete(rt: Runtime, req: AutocompleteRequest): Promise<Choice[]> {
  try {
    const command = rt.registry.get(req.command);
    const completer = command && ownEntry(command.autocomplete, req.option);
    if (!command || !completer || command.needs.some((key) => rt.services[key] === undefined)) return [];
    const signal = AbortSignal.timeout(rt.autocompleteTimeoutMs);
    const ctx = contextFor(rt, req.actor, command, randomUUID(), signal);
    await checkAccess(command, ctx);
    const deadline = () => new DeadlineError({ ms: rt.autocompleteTimeoutMs, cause: signal.reason });
    const choices = await raceAbort(completer(req.partial, ctx), signal, deadline);
    return choices
      .filter((c) => typeof c?.name === 'string' && typeof c.value === 'string')
      .map((c) => ({ name: redactText(c.name), value: c.value }))
      .slice(0, DISCORD_LIMITS.autocompleteChoices);
  } catch (err) {
    const [command, option] = [loggedText(req.command), loggedText(req.option)];
    rt.log.debug({ err, command, option }, 'autocomplete.failed');
    return [];
  }
}

/** A command line's command and argument text; a line that names no command is a UserError. */
function splitLine(registry: CommandRegistry, line: string): { command: Command; rawInput: string } {
  const parsed = parseLine(line);
  if (!parsed) {
    throw new UserError({
      code: 'unknown_command',
      message: 'The command line is empty; write it as /weather Oslo.',
      said: (t) => t('errors:emptyLine'),
    });
  }
  const { command, rest } = resolveCommand(registry, parsed.name, parsed.text);
  return { command, rawInput: rest };
}

/** Reads a command line for a schedule without running it (Dispatcher.check). */
async function checkLine(
  rt: Runtime,
  line: string,
  actor: Actor,
  accept?: (command: Command, commands: readonly Command[]) => void,
): Promise<CheckedLine> {
  const { command, rawInput } = splitLine(rt.registry, line);
  accept?.(command, rt.registry.commands);
  checkNeeds(command, rt.services, rt.serviceVariables);
  // A scheduled line is read with its creator's preferences: a place left out is their home place.
  const input = readInput(command, rawInput, await resolvePreferences(rt, { actor }));
  const signal = AbortSignal.timeout(rt.commandTimeoutMs);
  await checkAccess(command, contextFor(rt, actor, command, randomUUID(), signal));
  return { command, services: servicesOf(command, input) };
}

export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  const rt: Runtime = {
    ...opts,
    now: opts.now ?? (() => new Date()),
    autocompleteTimeoutMs: opts.autocompleteTimeoutMs ?? 2_000,
    defaults: opts.preferences?.defaults ?? defaultPreferences('UTC'),
  };
  const inFlight = createInFlight();
  let isAccepting = true;

  async function onInvocation(inv: Invocation): Promise<CommandOutcome> {
    inFlight.enter();
    const invocationId = randomUUID();
    const startedAt = performance.now();
    try {
      const result: Result = isAccepting ? await execute(rt, inv, invocationId) : { failure: shuttingDown() };
      return await report(rt, inv, invocationId, result, startedAt);
    } catch (err) {
      // Only a throwing logger or metrics hook gets here, after the reply was sent.
      try {
        rt.log.error({ err, command: loggedText(inv.command), invocationId }, 'command.bookkeeping_failed');
      } catch {
        // Nothing is left to tell.
      }
      return 'error';
    } finally {
      inFlight.leave();
    }
  }

  async function run(
    line: string | Pick<Invocation, 'command' | 'rawInput'>,
    actor: Actor,
    signal: AbortSignal,
    opts: RunOptions = {},
  ): Promise<Reply> {
    const { command, rawInput: typed } =
      typeof line === 'string' ? splitLine(rt.registry, line) : findCommand(rt.registry, line);
    // A watch runs from a schedule's command line, whose text its `input` adjusts.
    const rawInput =
      opts.watch && command.watch?.input && typeof typed === 'string' ? command.watch.input(typed) : typed;
    if (!isAccepting) throw shuttingDown();
    const inv: Invocation = {
      command: command.name,
      rawInput,
      actor,
      channelId: 'schedule',
      signal,
      respond: () => Promise.resolve(),
    };
    const result = await execute(rt, inv, randomUUID(), { schedule: opts.schedule });
    if ('failure' in result) throw result.failure;
    return redactReply(result.reply);
  }

  return {
    check: (line, actor, accept) => checkLine(rt, line, actor, accept),
    run,
    onInvocation,
    onAutocomplete: (req) => complete(rt, req),
    inFlight: () => inFlight.count(),
    drain(timeoutMs) {
      isAccepting = false;
      return inFlight.settled(timeoutMs);
    },
  };
}
