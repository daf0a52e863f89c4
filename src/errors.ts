// The error family of herald and the one place that turns any error into a sentence for a user.
// Constructors take one options object; branch on `code`, never on the message.
import { formatDateTime, formatNumber } from './format.ts';
import type { ServiceKey } from './domain/services.ts';

export type ServiceName = ServiceKey;

export const SERVICE_LABELS: Readonly<Record<ServiceName, string>> = {
  email: 'email',
  analytics: 'analytics',
  weather: 'weather',
  geocoding: 'geocoding',
  speech: 'speech',
  hostscan: 'host intelligence',
  webhook: 'webhook',
  jobSearch: 'job search',
};

export type ServiceErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid_request'
  | 'rate_limited'
  | 'upstream'
  | 'timeout'
  | 'network'
  | 'bad_response'
  | 'unavailable'
  /** herald's own fault: a request it could not build or send (never the provider's). */
  | 'internal';

/**
 * A chat platform's word that a destination refuses herald for good, whatever the HTTP status:
 * Slack's `ok: false` errors such as `not_in_channel`, Discord's JSON codes such as 10003. A
 * delivery that carries one pauses its schedule and its creator is told.
 */
export interface PlatformRefusal {
  platform: 'discord' | 'slack';
  /** The platform's own code, as it sends it: `not_in_channel`, `10003`. */
  code: string;
  /** The scope a Slack `missing_scope` names in `needed`. */
  scope?: string;
}

/** The calendar windows (UTC) of a provider's call quota. */
export type QuotaWindow = 'minute' | 'day' | 'week' | 'month';

/** A provider quota herald has used up: its size, its window and when the next call is possible. */
export interface QuotaExhausted {
  limit: number;
  per: QuotaWindow;
  nextAt: Date;
}

export type UserErrorCode =
  'invalid_input' | 'forbidden' | 'rate_limited' | 'not_configured' | 'unknown_command' | 'shutting_down';

export type AdapterErrorCode =
  'connect_failed' | 'send_failed' | 'upload_failed' | 'expired' | 'invalid_event';

export class BotError extends Error {
  readonly code: string;
  constructor(opts: { code: string; message: string; cause?: unknown }) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code;
  }
}

/** A failure talking to one of the eight upstream services. */
export class ServiceError extends BotError {
  declare readonly code: ServiceErrorCode;
  readonly service: ServiceName;
  readonly operation: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  /** The provider's own message, already redacted; for logs, never for users. */
  readonly providerMessage: string | undefined;
  /** Set when herald refused the call itself because the provider's quota is used up. */
  readonly quota: QuotaExhausted | undefined;
  /** Set when the provider says its own quota (credits, characters) is used up until it renews. */
  readonly exhausted: boolean;
  /** Set when a chat platform refuses the destination for good (the schedule pauses). */
  readonly refusal: PlatformRefusal | undefined;
  constructor(opts: {
    service: ServiceName;
    operation: string;
    code: ServiceErrorCode;
    status?: number | undefined;
    retryAfterMs?: number | undefined;
    providerMessage?: string | undefined;
    quota?: QuotaExhausted | undefined;
    exhausted?: boolean | undefined;
    refusal?: PlatformRefusal | undefined;
    message?: string;
    cause?: unknown;
  }) {
    super({
      code: opts.code,
      message:
        opts.message ??
        `${opts.service}.${opts.operation} failed: ${opts.code}${opts.status === undefined ? '' : ` (HTTP ${opts.status})`}`,
      cause: opts.cause,
    });
    this.service = opts.service;
    this.operation = opts.operation;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.providerMessage = opts.providerMessage;
    this.quota = opts.quota;
    this.exhausted = opts.exhausted ?? false;
    this.refusal = opts.refusal;
  }
}

/**
 * A command that ran and reports that the work it started failed (a scheduled run started by
 * /schedule run): its message is safe to show as it is, and the command counts as failed (a piped
 * console exits 1), not as refused.
 */
export class RunFailedError extends BotError {
  constructor(message: string) {
    super({ code: 'run_failed', message });
  }
}

/**
 * herald did not send a request because the provider's rate (the plan's calls per minute, or the
 * free tier's per second) is used up until after the request's deadline.
 */
export class RateQuotaError extends ServiceError {
  readonly limit: number;
  readonly window: 'second' | 'minute';
  constructor(opts: {
    service: ServiceName;
    operation: string;
    limit: number;
    window: 'second' | 'minute';
    retryAfterMs: number;
  }) {
    super({
      service: opts.service,
      operation: opts.operation,
      code: 'rate_limited',
      retryAfterMs: opts.retryAfterMs,
      providerMessage: `herald's rate of ${opts.limit} calls a ${opts.window} is used up`,
    });
    this.limit = opts.limit;
    this.window = opts.window;
  }
}

/** An expected failure whose message is safe to show to the invoker as it is. */
export class UserError extends BotError {
  declare readonly code: UserErrorCode;
  constructor(opts: { code: UserErrorCode; message: string; cause?: unknown }) {
    super(opts);
  }
}

export class AdapterError extends BotError {
  declare readonly code: AdapterErrorCode;
  readonly platform: 'console' | 'discord' | 'slack';
  constructor(opts: {
    platform: 'console' | 'discord' | 'slack';
    code: AdapterErrorCode;
    message: string;
    cause?: unknown;
  }) {
    super(opts);
    this.platform = opts.platform;
  }
}

export interface ConfigProblem {
  variable: string;
  message: string;
}

export class ConfigError extends BotError {
  readonly problems: readonly ConfigProblem[];
  constructor(opts: { problems: readonly ConfigProblem[] }) {
    super({
      code: 'invalid_config',
      message: `Invalid configuration:\n${opts.problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n')}`,
    });
    this.problems = opts.problems;
  }
}

export class DeadlineError extends BotError {
  constructor(opts: { ms: number; cause?: unknown }) {
    super({ code: 'deadline', message: `took longer than ${opts.ms} ms`, cause: opts.cause });
  }
}

function seconds(ms: number | undefined): string {
  if (ms === undefined || ms <= 0) return 'a moment';
  const s = Math.ceil(ms / 1000);
  return s === 1 ? '1 second' : `${s} seconds`;
}

/** "The job search service allows herald 250 calls a day; the next is possible at …". */
function quotaSentence(name: string, quota: QuotaExhausted, retryAfterMs: number | undefined): string {
  const when = quota.per === 'minute' ? `in ${seconds(retryAfterMs)}` : `on ${formatDateTime(quota.nextAt)}`;
  return `The ${name} service allows herald ${formatNumber(quota.limit)} calls a ${quota.per}, all used; the next is possible ${when}.`;
}

/** One line of printable text: a refusal may quote what the user typed, control characters and all. */
function oneLine(text: string): string {
  return text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** The one mapping from any error to one clear sentence for the person who ran a command. */
export function userMessageFor(err: unknown): string {
  if (err instanceof UserError || err instanceof RunFailedError) return oneLine(err.message);
  if (err instanceof ServiceError) {
    // A platform's refusal is told in its client's own sentence, naming the channel and the fix.
    if (err.refusal) return oneLine(err.message);
    const name = SERVICE_LABELS[err.service];
    switch (err.code) {
      case 'unauthorized':
      case 'forbidden':
        return `The ${name} service rejected herald's credentials; an operator needs to check its configuration.`;
      case 'not_found':
        return `The ${name} service found nothing for that.`;
      case 'invalid_request':
        return `The ${name} service did not accept that request; check the input and try again.`;
      case 'rate_limited':
        if (err instanceof RateQuotaError)
          return `The ${name} service's quota for this ${err.window} is used up.`;
        if (err.quota) return quotaSentence(name, err.quota, err.retryAfterMs);
        if (err.exhausted)
          return `The ${name} service says herald’s quota is used up; it renews with the provider’s billing period, or an operator can raise the plan.`;
        return `The ${name} service is rate limiting herald; try again in ${seconds(err.retryAfterMs)}.`;
      case 'unavailable':
        return `The ${name} service is unavailable; try again in ${seconds(err.retryAfterMs)}.`;
      case 'timeout':
        return `The ${name} service took too long to answer; try again in a moment.`;
      case 'network':
      case 'upstream':
        return `The ${name} service is having trouble right now; try again in a moment.`;
      case 'bad_response':
        return `The ${name} service sent an answer herald could not read; try again later.`;
      case 'internal':
        return `The ${name} service was not asked: herald could not send that request, and the fault has been logged.`;
    }
  }
  if (err instanceof DeadlineError) return 'That took too long to answer; try again in a moment.';
  return 'Something went wrong while running that command; it has been logged.';
}
