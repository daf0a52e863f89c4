// The error family of herald and the one place that turns any error into a sentence for a user.
// Constructors take one options object; branch on `code`, never on the message.
import { formatDateTime, formatNumber, LOCALE } from './format.ts';
import type { ServiceKey } from './domain/services.ts';
import { common } from './i18n/common.ts';
import { english, type Translate } from './i18n/translate.ts';

export type ServiceName = ServiceKey;

/** The services' names in English, as the logs write them (the catalogue holds every language's). */
export const SERVICE_LABELS: Readonly<Record<ServiceName, string>> = common['en-GB'].services;

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

/** Tells a refusal in the reader's language from the catalogue (src/i18n/), numbers in their locale. */
export type Said = (t: Translate, locale: string) => string;

/**
 * An expected failure whose message is safe to show to the invoker as it is; with `said`, the
 * reader gets that catalogue message in their language (`message` stays the English, for logs).
 */
export class UserError extends BotError {
  declare readonly code: UserErrorCode;
  readonly said?: Said;
  constructor(opts: { code: UserErrorCode; message: string; cause?: unknown; said?: Said }) {
    super(opts);
    if (opts.said) this.said = opts.said;
  }
}

/** A refusal from the catalogue: said in the reader's language, kept in English for the logs. */
export function refusal(said: Said, code: UserErrorCode = 'invalid_input'): UserError {
  return new UserError({ code, message: said(english, LOCALE), said });
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

/** "in 3 seconds", "in a moment". */
function inSeconds(t: Translate, ms: number | undefined): string {
  if (ms === undefined || ms <= 0) return t('errors:when.moment');
  return t('errors:when.seconds', { count: Math.ceil(ms / 1000) });
}

/** "The job search service allows herald 250 calls a day; the next is possible at …". */
function quotaSentence(
  t: Translate,
  service: string,
  quota: QuotaExhausted,
  retryAfterMs: number | undefined,
  locale: string,
): string {
  const when =
    quota.per === 'minute'
      ? inSeconds(t, retryAfterMs)
      : t('errors:when.on', { date: formatDateTime(quota.nextAt, locale) });
  const limit = formatNumber(quota.limit, 0, locale);
  return t('errors:service.quota', { service, limit, per: t(`errors:window.${quota.per}`), when });
}

/** One line of printable text: a refusal may quote what the user typed, control characters and all. */
function oneLine(text: string): string {
  return text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** The sentence for a service's failure (a platform's refusal is told in its client's own words). */
function serviceSentence(err: ServiceError, t: Translate, locale: string): string {
  const service = t(`common:services.${err.service}`);
  const when = inSeconds(t, err.retryAfterMs);
  switch (err.code) {
    case 'unauthorized':
    case 'forbidden':
      return t('errors:service.credentials', { service });
    case 'not_found':
      return t('errors:service.notFound', { service });
    case 'invalid_request':
      return t('errors:service.invalidRequest', { service });
    case 'rate_limited':
      if (err instanceof RateQuotaError)
        return t('errors:service.windowQuota', { service, window: t(`errors:window.${err.window}`) });
      if (err.quota) return quotaSentence(t, service, err.quota, err.retryAfterMs, locale);
      if (err.exhausted) return t('errors:service.exhausted', { service });
      return t('errors:service.rateLimited', { service, when });
    case 'unavailable':
      return t('errors:service.unavailable', { service, when });
    case 'timeout':
      return t('errors:service.timeout', { service });
    case 'network':
    case 'upstream':
      return t('errors:service.trouble', { service });
    case 'bad_response':
      return t('errors:service.badResponse', { service });
    case 'internal':
      return t('errors:service.internal', { service });
  }
}

/**
 * The one mapping from any error to one clear sentence for the person who ran a command, in their
 * language (`t`, and `locale` for the numbers and dates in it).
 */
export function userMessageFor(err: unknown, t: Translate = english, locale = LOCALE): string {
  if (err instanceof UserError && err.said) return oneLine(err.said(t, locale));
  if (err instanceof UserError || err instanceof RunFailedError) return oneLine(err.message);
  if (err instanceof ServiceError)
    return err.refusal ? oneLine(err.message) : serviceSentence(err, t, locale);
  if (err instanceof DeadlineError) return t('errors:deadline');
  return t('errors:internal');
}
