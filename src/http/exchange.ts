// The attempts of one request: each through the guards, until a 2xx answer, a failure that must not
// be retried, or the whole-request deadline (joined with the caller's signal). Retries wait as
// policy.ts decides (jittered backoff, Retry-After).
import { setTimeout as sleep } from 'node:timers/promises';
import { createDeadline } from '../abort.ts';
import { ServiceError, type ServiceErrorCode, type ServiceName } from '../errors.ts';
import type { Fail } from './failure.ts';
import { retryDelayMs, type HttpOptions } from './policy.ts';
import type { AnswerHead, HttpLog, HttpRequest, RawResponse } from './types.ts';

export interface ExchangeDeps {
  service: ServiceName;
  opts: HttpOptions;
  random: () => number;
  log: HttpLog | undefined;
  fail: Fail;
  /** One attempt through the breaker, quota and queue. */
  attempt(req: HttpRequest, url: string, signal: AbortSignal): Promise<RawResponse>;
  /** A non-2xx response as a ServiceError. */
  toError(req: HttpRequest, res: RawResponse): ServiceError;
  record(
    req: HttpRequest,
    status: number | undefined,
    code: ServiceErrorCode | 'ok',
    attempts: number,
    started: number,
  ): void;
}

/**
 * POST is retried only with an Idempotency-Key, when it only reads, or after a 429 where the caller
 * says so (the provider refused it without acting): a repeat must not act twice.
 */
function isRetryableMethod(req: HttpRequest, status: number | undefined): boolean {
  return (
    req.method === 'GET' ||
    req.method === 'PUT' ||
    req.method === 'DELETE' ||
    req.idempotencyKey !== undefined ||
    req.retryable === true ||
    (req.retryable === 'after-429' && status === 429)
  );
}

function delayAfter(
  d: ExchangeDeps,
  req: HttpRequest,
  error: ServiceError,
  attempts: number,
): number | undefined {
  return retryDelayMs({
    attempt: attempts,
    maxRetries: d.opts.maxRetries,
    status: error.status,
    isNetworkError: error.code === 'network' || (error.code === 'timeout' && error.status === undefined),
    isRetryableMethod: isRetryableMethod(req, error.status),
    retryAfterMs: error.retryAfterMs,
    baseMs: d.opts.retryBaseMs,
    maxRetryAfterMs: d.opts.maxRetryAfterMs,
    random: d.random,
  });
}

/** All attempts: the first 2xx response, or the last failure as a ServiceError. */
export async function exchange(
  d: ExchangeDeps,
  req: HttpRequest,
  url: string,
  callerSignal?: AbortSignal,
  onAnswer?: (answer: AnswerHead) => void,
): Promise<RawResponse> {
  // One timer and controller per request, cleared as soon as it settles.
  const bound = createDeadline(d.opts.requestTimeoutMs, callerSignal);
  const { signal } = bound;
  const started = performance.now();
  let attempts = 0;
  let last: ServiceError;
  let status: number | undefined;
  try {
    for (;;) {
      attempts++;
      try {
        const res = await d.attempt(req, url, signal);
        status = res.status;
        onAnswer?.({ status: res.status, headers: res.headers });
        if (res.status >= 200 && res.status < 300) {
          d.record(req, status, 'ok', attempts, started);
          return res;
        }
        last = d.toError(req, res);
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        last = err;
      }
      const delay = signal.aborted ? undefined : delayAfter(d, req, last, attempts);
      if (delay === undefined) break;
      const { operation } = req;
      const retry = { operation, status: last.status, code: last.code, attempt: attempts, delayMs: delay };
      d.log?.debug({ service: d.service, ...retry }, 'http.retry');
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        last = d.fail(req, 'timeout', { cause: last });
        break;
      }
    }
  } finally {
    bound.done();
  }
  d.record(req, last.status ?? status, last.code, attempts, started);
  throw last;
}
