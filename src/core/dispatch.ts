// The one place a command runs (STYLE.md §8): find it, check its services, read and validate its
// input, check access and the per-user rate limit, run the handler under a deadline, time and log
// it, and turn any failure into one sentence for the invoker. It never throws.
import { randomUUID } from 'node:crypto';
import { DeadlineError, SERVICE_LABELS, ServiceError, UserError, userMessageFor } from '../errors.ts';
import type {
  AdapterHandlers,
  AutocompleteRequest,
  CommandOutcome,
  CommandRegistry,
  Invocation,
} from './adapter.ts';
import type { Actor } from './actor.ts';
import { parseLine, readInput, resolveCommand } from './args.ts';
import type { Choice, Command, CommandContext, CommandLog } from './command.ts';
import type { Reply } from './reply.ts';
import type { ServiceKey, Services } from './services.ts';

/** A per-user budget of commands; `key` is `platform:userId` (src/quota.ts implements it). */
export interface RateLimiter {
  consume(key: string): Promise<{ allowed: boolean; retryAfterMs: number }>;
}

export interface DispatchLog extends CommandLog {
  child?(bindings: Record<string, unknown>): CommandLog;
}

export type { CommandOutcome };

export interface CommandRecord {
  command: string;
  invocationId: string;
  userId: string;
  platform: Actor['platform'];
  durationMs: number;
  outcome: CommandOutcome;
}

export interface DispatcherOptions {
  registry: CommandRegistry;
  services: Services;
  log: DispatchLog;
  commandTimeoutMs: number;
  /** Which variable enables each service, for "not configured" answers. */
  serviceVariables: Readonly<Partial<Record<ServiceKey, string>>>;
  now?: () => Date;
  rateLimit?: RateLimiter;
  /** Discord allows 3 s for autocomplete answers. */
  autocompleteTimeoutMs?: number;
  /** Called once per invocation, after the reply (metrics). */
  onCommand?: (record: CommandRecord) => void;
}

export interface Dispatcher extends AdapterHandlers {
  /** Stops taking commands and waits for the ones in flight; false when `timeoutMs` ran out first. */
  drain(timeoutMs: number): Promise<boolean>;
  inFlight(): number;
  /**
   * Reads a command line as typed (`/jobs what:"rust developer"`) without running it: finds the
   * command (`accept` may refuse it first), checks its services, options and `actor`'s access.
   * Throws the UserError the invoker would see.
   */
  check(line: string, actor: Actor, accept?: (command: Command) => void): Promise<Command>;
  /** Runs a command line for a schedule as `actor` typed it, without the per-user rate limit. */
  run(line: string, actor: Actor, signal: AbortSignal): Promise<Reply>;
}

const MAX_CHOICES = 25;

function outcomeOf(err: unknown): CommandOutcome {
  if (err instanceof UserError) return 'user_error';
  if (err instanceof ServiceError) return 'service_error';
  if (err instanceof DeadlineError) return 'deadline';
  return 'error';
}

/** Settles with `work`, or rejects with a DeadlineError as soon as `signal` aborts. */
async function raceSignal<T>(work: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  // A handler that ignores its signal keeps running; its late result or failure is dropped.
  work.catch(() => undefined);
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new DeadlineError({ ms, cause: signal.reason }));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function seconds(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s === 1 ? '1 second' : `${s} seconds`;
}

export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  const { registry, services, log, commandTimeoutMs } = opts;
  const now = opts.now ?? (() => new Date());
  const autocompleteTimeoutMs = opts.autocompleteTimeoutMs ?? 2_000;
  let active = 0;
  let isAccepting = true;
  const waiters = new Set<() => void>();

  /** The command and its own input; text may start with a subcommand word ("send to:…"). */
  function findCommand(inv: Invocation): { command: Command; rawInput: Invocation['rawInput'] } {
    if (typeof inv.rawInput === 'string') {
      const { command, rest } = resolveCommand(registry, inv.command, inv.rawInput);
      return { command, rawInput: rest };
    }
    const command = registry.get(inv.command) ?? resolveCommand(registry, inv.command, '').command;
    return { command, rawInput: inv.rawInput };
  }

  function checkNeeds(command: Command): void {
    const missing = command.needs.find((key) => services[key] === undefined);
    if (missing === undefined) return;
    const variable = opts.serviceVariables[missing];
    throw new UserError({
      code: 'not_configured',
      message: `The ${SERVICE_LABELS[missing]} service is not configured${variable ? `; set ${variable}` : ''}.`,
    });
  }

  function contextFor(
    actor: Actor,
    command: Command,
    invocationId: string,
    signal: AbortSignal,
  ): CommandContext {
    const bindings = { command: command.name, invocationId };
    return {
      actor,
      services,
      log: log.child ? log.child(bindings) : log,
      signal,
      now,
      invocationId,
    };
  }

  async function checkAccess(command: Command, ctx: CommandContext): Promise<void> {
    if (ctx.actor.isOperator) return;
    for (const check of command.access) {
      const denial = await check(ctx);
      if (denial) throw denial;
    }
  }

  async function checkRate(actor: Actor, command: Command, invocationId: string): Promise<void> {
    if (!opts.rateLimit || actor.isOperator) return;
    let verdict: { allowed: boolean; retryAfterMs: number };
    try {
      verdict = await opts.rateLimit.consume(`${actor.platform}:${actor.id}`);
    } catch (err) {
      // A broken limiter store must not take every command down with it.
      log.warn({ err, command: command.name, invocationId }, 'ratelimit.unavailable');
      return;
    }
    if (!verdict.allowed) {
      throw new UserError({
        code: 'rate_limited',
        message: `You are sending commands too quickly; try again in ${seconds(verdict.retryAfterMs)}.`,
      });
    }
  }

  type Result = { command?: Command; reply: Reply } | { command?: Command; failure: unknown };

  async function execute(inv: Invocation, invocationId: string, isScheduled = false): Promise<Result> {
    let command: Command | undefined;
    try {
      if (!isAccepting) {
        throw new UserError({
          code: 'rate_limited',
          message: 'herald is shutting down; try again in a moment.',
        });
      }
      const { command: found, rawInput } = findCommand(inv);
      command = found;
      checkNeeds(found);
      const input = readInput(found, rawInput);
      const signal = AbortSignal.any([inv.signal, AbortSignal.timeout(commandTimeoutMs)]);
      const ctx = contextFor(inv.actor, found, invocationId, signal);
      const run = async (): Promise<Reply> => {
        await checkAccess(found, ctx);
        if (!isScheduled) await checkRate(inv.actor, found, invocationId);
        try {
          return await found.handler(input, ctx);
        } catch (err) {
          // An abort surfacing as a bare AbortError or TimeoutError is our deadline.
          if (signal.aborted && !(err instanceof UserError || err instanceof ServiceError)) {
            throw new DeadlineError({ ms: commandTimeoutMs, cause: err });
          }
          throw err;
        }
      };
      const reply = await raceSignal(run(), signal, commandTimeoutMs);
      if (typeof reply?.text !== 'string') throw new Error(`/${found.name} returned no reply text`);
      return { command, reply: { ...reply, ephemeral: reply.ephemeral ?? found.ephemeral } };
    } catch (failure) {
      return { command, failure };
    }
  }

  function logOutcome(record: CommandRecord, hasFailed: boolean, failure: unknown): void {
    if (!hasFailed) log.info({ ...record }, 'command.finished');
    else if (failure instanceof UserError) log.info({ ...record, code: failure.code }, 'command.failed');
    else if (failure instanceof ServiceError) {
      const { service, operation, code, status } = failure;
      log.warn({ ...record, service, operation, code, status, err: failure }, 'command.failed');
    } else log.error({ ...record, err: failure }, 'command.failed');
  }

  async function onInvocation(inv: Invocation): Promise<CommandOutcome> {
    active += 1;
    const invocationId = randomUUID();
    const startedAt = performance.now();
    let name = inv.command;
    let reply: Reply;
    let failure: unknown;
    let hasFailed = false;
    let hasResponded = false;
    let outcome: CommandOutcome = 'error';
    try {
      const result = await execute(inv, invocationId);
      name = result.command?.name ?? name;
      if ('failure' in result) {
        hasFailed = true;
        failure = result.failure;
        reply = { text: userMessageFor(failure), ephemeral: true };
      } else {
        reply = result.reply;
      }
      try {
        hasResponded = true;
        await inv.respond(reply);
      } catch (err) {
        log.error(
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
        outcome: hasFailed ? outcomeOf(failure) : 'ok',
      };
      outcome = record.outcome;
      logOutcome(record, hasFailed, failure);
      opts.onCommand?.(record);
    } catch (err) {
      // Only a throwing logger or metrics hook gets here, normally after the reply was sent.
      try {
        if (!hasResponded) await inv.respond({ text: userMessageFor(err), ephemeral: true });
        log.error({ err, command: name, invocationId }, 'command.bookkeeping_failed');
      } catch {
        // Nothing is left to tell.
      }
    } finally {
      active -= 1;
      if (active === 0) for (const wake of waiters) wake();
    }
    return outcome;
  }

  async function onAutocomplete(req: AutocompleteRequest): Promise<Choice[]> {
    try {
      const command = registry.get(req.command);
      const complete = command?.autocomplete[req.option];
      if (!command || !complete || command.needs.some((key) => services[key] === undefined)) return [];
      const signal = AbortSignal.timeout(autocompleteTimeoutMs);
      const ctx = contextFor(req.actor, command, randomUUID(), signal);
      await checkAccess(command, ctx);
      const choices = await raceSignal(complete(req.partial, ctx), signal, autocompleteTimeoutMs);
      return choices
        .filter((c) => typeof c?.name === 'string' && typeof c.value === 'string')
        .slice(0, MAX_CHOICES);
    } catch (err) {
      log.debug({ err, command: req.command, option: req.option }, 'autocomplete.failed');
      return [];
    }
  }

  /** A command line's command and argument text; a line that names no command is a UserError. */
  function splitLine(line: string): { command: string; rawInput: string } {
    const parsed = parseLine(line);
    if (!parsed) {
      throw new UserError({
        code: 'unknown_command',
        message: 'The command line is empty; write it as /weather Oslo.',
      });
    }
    const { command, rest } = resolveCommand(registry, parsed.name, parsed.text);
    return { command: command.name, rawInput: rest };
  }

  async function check(line: string, actor: Actor, accept?: (command: Command) => void): Promise<Command> {
    const { command: name, rawInput } = splitLine(line);
    const command = registry.get(name)!;
    accept?.(command);
    checkNeeds(command);
    readInput(command, rawInput);
    await checkAccess(
      command,
      contextFor(actor, command, randomUUID(), AbortSignal.timeout(commandTimeoutMs)),
    );
    return command;
  }

  async function run(line: string, actor: Actor, signal: AbortSignal): Promise<Reply> {
    const { command, rawInput } = splitLine(line);
    const inv: Invocation = {
      command,
      rawInput,
      actor,
      channelId: 'schedule',
      signal,
      respond: () => Promise.resolve(),
    };
    const result = await execute(inv, randomUUID(), true);
    if ('failure' in result) throw result.failure;
    return result.reply;
  }

  return {
    check,
    run,
    onInvocation,
    onAutocomplete,
    inFlight: () => active,
    drain(timeoutMs) {
      isAccepting = false;
      if (active === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(false);
        }, timeoutMs);
        waiters.add(wake);
      });
    },
  };
}
