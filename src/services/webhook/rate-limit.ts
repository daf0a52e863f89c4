// What one answer from a chat platform says about its destination's rate limit, read from the
// headers every answer carries. Discord (https://discord.com/developers/docs/topics/rate-limits):
// X-RateLimit-Remaining (posts left in the bucket), X-RateLimit-Reset-After (float seconds until it
// refills) or X-RateLimit-Reset (epoch seconds); on a 429 also Retry-After, X-RateLimit-Global and
// X-RateLimit-Scope (user, global or shared). Slack (https://docs.slack.dev/apis/web-api/rate-limits):
// a 429 with Retry-After, for chat.postMessage and incoming webhooks alike. A value that is missing,
// not a number or negative is no fact; how long a wait may be is the deliverer's rule, not this one.
// What the SDKs do not serve: the outbox waits for a destination's bucket itself, so it reads the
// headers of every answer (test/services/webhook-rate-limit.test.ts).
import { parseRetryAfter, type AnswerHead, type CallOptions } from '../../http/client.ts';

/** The rate-limit facts of one answer. */
export interface RateLimitFacts {
  /** How long the platform asks before the next post to this destination, in ms (0: none). */
  waitMs: number;
  /** The wait holds everything posted with the same credential (Discord's global limit). */
  isGlobal: boolean;
  /** Posts left in the destination's bucket as the platform counts them, when it says. */
  remaining?: number;
}

/** A post's options: the caller's signal, and who is told the rate-limit facts of every answer. */
export interface PostOptions extends Pick<CallOptions, 'signal'> {
  onRateLimit?: (facts: RateLimitFacts) => void;
}

/** A header's number, or undefined when it is absent, not a number or negative. */
function numberOf(headers: AnswerHead['headers'], name: string): number | undefined {
  const raw = headers[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Milliseconds until the bucket refills: Reset-After first (no clock skew), else Reset. */
function untilReset(headers: AnswerHead['headers'], nowMs: number): number | undefined {
  const after = numberOf(headers, 'x-ratelimit-reset-after');
  if (after !== undefined) return Math.ceil(after * 1000);
  const at = numberOf(headers, 'x-ratelimit-reset');
  return at === undefined ? undefined : Math.max(0, Math.ceil(at * 1000 - nowMs));
}

export function readRateLimit(answer: AnswerHead, nowMs: number): RateLimitFacts {
  const { status, headers } = answer;
  const remainingRaw = numberOf(headers, 'x-ratelimit-remaining');
  const remaining = remainingRaw === undefined ? undefined : Math.floor(remainingRaw);
  const isGlobal =
    status === 429 &&
    (headers['x-ratelimit-global']?.trim().toLowerCase() === 'true' ||
      headers['x-ratelimit-scope']?.trim().toLowerCase() === 'global');
  let waitMs = 0;
  if (status === 429) {
    // Reset-After has Discord's milliseconds; Retry-After is whole seconds (Slack's only header).
    waitMs = untilReset(headers, nowMs) ?? parseRetryAfter(headers['retry-after'], nowMs) ?? 0;
  } else if (remaining === 0) {
    waitMs = untilReset(headers, nowMs) ?? 0;
  }
  return remaining === undefined ? { waitMs, isGlobal } : { waitMs, isGlobal, remaining };
}

/** The HTTP call options that tell `opts.onRateLimit` the facts of every answer. */
export function watchRateLimit(opts: PostOptions | undefined, now: () => number): CallOptions {
  const onRateLimit = opts?.onRateLimit;
  const signal = opts?.signal ? { signal: opts.signal } : {};
  if (!onRateLimit) return signal;
  return { ...signal, onAnswer: (answer) => onRateLimit(readRateLimit(answer, now())) };
}
