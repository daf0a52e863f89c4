// Frozen transport defaults and the retry decision as a pure, tested function.
// The retry loop is ours, not undici's RetryHandler: that handler cannot read a delay from a JSON
// body (Discord's `retry_after` float), and on exhaustion it drops the provider's error body that
// the typed ServiceError needs. The decision it makes (statuses, Retry-After cap) follows undici's.

export interface HttpOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Whole-request bound across every attempt, joined with the caller's signal. */
  requestTimeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller instead. */
  maxRetryAfterMs: number;
  maxResponseBytes: number;
  connections: number;
  keepAliveTimeoutMs: number;
  /** Requests in flight to this upstream at once; more wait in a queue. */
  maxConcurrent: number;
  /** Hold requests to the provider's rate (PROVIDER_RATE_LIMITS); off for the simulator. */
  providerRateLimit: boolean;
  /** The plan's calls per minute, in place of the free tier's rate (`<SERVICE>_RATE_LIMIT_PER_MINUTE`). */
  rateLimitPerMinute: number | undefined;
  breakerFailureThreshold: number;
  breakerCooldownMs: number;
}

export const HTTP_DEFAULTS = Object.freeze({
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 15_000,
  requestTimeoutMs: 20_000,
  maxRetries: 2,
  retryBaseMs: 250,
  maxRetryAfterMs: 10_000,
  maxResponseBytes: 8 * 1024 * 1024,
  // Sized to the bot's own concurrency: a burst of 1000 commands on one upstream must not queue
  // behind the pool (32/64 added seconds at 1000; bench/). A real provider's rate is guarded by
  // providerRateLimit and a failing one by the breaker; this bounds sockets per upstream.
  connections: 1024,
  keepAliveTimeoutMs: 30_000,
  maxConcurrent: 1024,
  providerRateLimit: false,
  rateLimitPerMinute: undefined,
  breakerFailureThreshold: 5,
  breakerCooldownMs: 15_000,
}) satisfies Required<HttpOptions>;

const RETRY_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

export interface RetryInput {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  status?: number | undefined;
  /** True for connection failures (refused, reset, connect timeout) where no response arrived. */
  isNetworkError: boolean;
  isRetryableMethod: boolean;
  retryAfterMs?: number | undefined;
  baseMs: number;
  maxRetryAfterMs: number;
  random: () => number;
}

/** Milliseconds to wait before retrying, or undefined when the request must not be retried. */
export function retryDelayMs(input: RetryInput): number | undefined {
  if (!input.isRetryableMethod || input.attempt > input.maxRetries) return undefined;
  const retryableStatus = input.status !== undefined && RETRY_STATUSES.includes(input.status);
  if (!input.isNetworkError && !retryableStatus) return undefined;
  // Full jitter on an exponential base: spreads replicas that failed together.
  const backoff = Math.round(input.random() * input.baseMs * 2 ** (input.attempt - 1));
  if (input.retryAfterMs !== undefined) {
    if (input.retryAfterMs > input.maxRetryAfterMs) return undefined;
    return input.retryAfterMs + Math.round(input.random() * Math.min(input.baseMs, 100));
  }
  return Math.max(backoff, 1);
}

/** Reads Retry-After as delta seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
