// The steps the dispatcher runs for each invocation, as plain functions of what they read: find
// the command, check its services, access and the per-user rate limit, and judge and log how it
// ended. createDispatcher (dispatch.ts) composes them and keeps the only mutable state.
import { randomBytes } from 'node:crypto';
import { DeadlineError, RunFailedError, SERVICE_LABELS, ServiceError, UserError } from '../errors.ts';
import type { CommandOutcome, CommandRegistry, Invocation } from './adapter.ts';
import type { Actor } from './actor.ts';
import { resolveCommand } from './args.ts';
import type { Command, CommandContext, CommandLog } from './command.ts';
import type { Reply } from './reply.ts';
import type { ServiceKey, Services } from './services.ts';
import { english, type Translate } from '../i18n/translate.ts';

/** A per-user budget of commands; `key` is `platform:userId` (src/user-limits.ts implements it). */
type Verdict = { allowed: boolean; retryAfterMs: number };

export interface RateLimiter {
  consume(key: string): Promise<Verdict>;
}

export interface CommandRecord {
  command: string;
  invocationId: string;
  userId: string;
  platform: Actor['platform'];
  durationMs: number;
  outcome: CommandOutcome;
}

/** The command and its own input; text may start with a subcommand word ("send to:…"). */
export function findCommand(
  registry: CommandRegistry,
  inv: Pick<Invocation, 'command' | 'rawInput'>,
): { command: Command; rawInput: Invocation['rawInput'] } {
  if (typeof inv.rawInput === 'string') {
    const { command, rest } = resolveCommand(registry, inv.command, inv.rawInput);
    return { command, rawInput: rest };
  }
  const command = registry.get(inv.command) ?? resolveCommand(registry, inv.command, '').command;
  return { command, rawInput: inv.rawInput };
}

/** Refuses a command while a service it needs is not configured, naming the variable to set. */
export function checkNeeds(
  command: Command,
  services: Services,
  serviceVariables: Readonly<Partial<Record<ServiceKey, string>>>,
): void {
  const missing = command.needs.find((key) => services[key] === undefined);
  if (missing === undefined) return;
  const variable = serviceVariables[missing];
  throw new UserError({
    code: 'not_configured',
    message: `The ${SERVICE_LABELS[missing]} service is not configured${variable ? `; set ${variable}` : ''}.`,
    said: (t) => {
      const service = t(`common:services.${missing}`);
      return variable
        ? t('errors:service.notConfiguredSet', { service, variable })
        : t('errors:service.notConfigured', { service });
    },
  });
}

/** Runs the command's access checks; the local operator passes them all. */
export async function checkAccess(command: Command, ctx: CommandContext): Promise<void> {
  if (ctx.actor.isOperator) return;
  for (const check of command.access) {
    const denial = await check(ctx);
    if (denial) throw denial;
  }
}

function seconds(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s === 1 ? '1 second' : `${s} seconds`;
}

/** Spends one command of the actor's budget; the operator has none, and a broken limiter lets it pass. */
export async function checkRate(
  limiter: RateLimiter | undefined,
  actor: Actor,
  log: CommandLog,
  bindings: { command: string; invocationId: string },
): Promise<void> {
  if (!limiter || actor.isOperator) return;
  let verdict: Verdict;
  try {
    verdict = await limiter.consume(`${actor.platform}:${actor.id}`);
  } catch (err) {
    // A broken limiter store must not take every command down with it.
    log.warn({ err, ...bindings }, 'ratelimit.unavailable');
    return;
  }
  if (verdict.allowed) return;
  throw new UserError({
    code: 'rate_limited',
    message: `You are sending commands too quickly; try again in ${seconds(verdict.retryAfterMs)}.`,
    said: (t) =>
      t('errors:tooQuick', {
        when: t('errors:when.seconds', { count: Math.max(1, Math.ceil(verdict.retryAfterMs / 1000)) }),
      }),
  });
}

/**
 * A failure's reference: 8 hex digits, quoted in the invoker's sentence and carried by the
 * failure's log line, so that an operator finds the one from the other.
 */
export function failureRef(): string {
  return randomBytes(4).toString('hex');
}

/** The sentence with its reference before the closing full stop: "… in a moment (ref 3fa9c01e)." */
export function withRef(sentence: string, ref: string, t: Translate = english): string {
  return t('errors:ref', { sentence: sentence.endsWith('.') ? sentence.slice(0, -1) : sentence, ref });
}

/** The refusal of a command that arrives once the dispatcher has started to drain. */
export function shuttingDown(): UserError {
  return new UserError({
    code: 'shutting_down',
    message: 'herald is shutting down; try again in a moment.',
    said: (t) => t('errors:shuttingDown'),
  });
}

export function outcomeOf(err: unknown): CommandOutcome {
  if (err instanceof UserError) return 'user_error';
  if (err instanceof ServiceError) return 'service_error';
  if (err instanceof DeadlineError) return 'deadline';
  return 'error';
}

/**
 * User errors and rate limits at info, other service errors at warn, anything else at error; a
 * failure's line carries its reference (`ref`).
 */
export function logOutcome(
  log: CommandLog,
  outcome: CommandRecord,
  failure?: { error: unknown; ref: string },
): void {
  const err = failure?.error;
  const record = failure ? { ...outcome, ref: failure.ref } : outcome;
  if (failure === undefined) log.info({ ...record }, 'command.finished');
  else if (err instanceof UserError) log.info({ ...record, code: err.code }, 'command.failed');
  else if (err instanceof RunFailedError) log.warn({ ...record, code: err.code }, 'command.failed');
  else if (err instanceof ServiceError && err.code === 'rate_limited') {
    // An ordinary rate limit is expected and answered in one sentence: at info, with no error
    // object, so it never prints a stack trace (above the interactive console's prompt or anywhere).
    const { service, operation, code, status, retryAfterMs, providerMessage } = err;
    log.info(
      { ...record, service, operation, code, status, retryAfterMs, providerMessage },
      'command.failed',
    );
  } else if (err instanceof ServiceError) {
    const { service, operation, code, status } = err;
    log.warn({ ...record, service, operation, code, status, err }, 'command.failed');
  } else log.error({ ...record, err }, 'command.failed');
}

/** The reply with the notices waiting for `actor` below it; a store that fails costs only them. */
export async function withNotices(
  rt: { notices?: { take(actor: Actor): Promise<string | undefined> }; log: CommandLog },
  actor: Actor,
  reply: Reply,
): Promise<Reply> {
  if (!rt.notices) return reply;
  try {
    const waiting = await rt.notices.take(actor);
    return waiting === undefined ? reply : { ...reply, text: `${reply.text}\n\n${waiting}` };
  } catch (err) {
    rt.log.warn({ err }, 'command.notices_failed');
    return reply;
  }
}
