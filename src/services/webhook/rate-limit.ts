// What one answer from a chat platform says about its destination's rate limit, read from the
// headers every answer carries. Discord (https://discord.com/developers/docs/topics/rate-limits):
// X-RateLimit-Remaining (posts left in the bucket), X-RateLimit-Reset-After (float seconds until it
// refills) or X-RateLimit-Reset (epoch seconds); on a 429 also Retry-After, X-RateLimit-Global and
// X-RateLimit-Scope (user, global or shared). Slack (https://docs.slack.dev/apis/web-api/rate-limits):
// a 429 with Retry-After, for chat.postMessage and incoming webhooks alike. A value that is missing,
// not a number or negative is no fact; how long a wait may be is the deliverer's rule, not this one.
import { parseRetryAfter, type AnswerHead, type CallOptions } from '../../http/client.ts';
import type { RateBudget, RateScope } from '../../domain/rate-budget.ts';

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

/**
 * Whether Discord counts `answer` as an invalid request: a 401, a 403, or a 429 not of scope
 * `shared` (https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).
 */
export function isInvalidRequest(answer: AnswerHead): boolean {
  if (answer.status === 401 || answer.status === 403) return true;
  return answer.status === 429 && answer.headers['x-ratelimit-scope']?.trim().toLowerCase() !== 'shared';
}

/** Tells `budget` what one answer in `scope` said: a global 429 pauses the scope, an invalid one counts. */
function tellBudget(budget: RateBudget, scope: RateScope, answer: AnswerHead, facts: RateLimitFacts): void {
  // Never fails the request: a lost count or pause costs a 429 later, not this post.
  if (facts.isGlobal) void budget.pause(scope, facts.waitMs).catch(() => undefined);
  if (isInvalidRequest(answer)) void budget.countInvalid().catch(() => undefined);
}

/**
 * The HTTP call options that tell `opts.onRateLimit` the facts of every answer, and `budget` (a
 * Discord request's, when there is one) what each answer said.
 */
export function watchRateLimit(
  opts: PostOptions | undefined,
  now: () => number,
  budget?: { budget: RateBudget; scope: RateScope },
): CallOptions {
  const onRateLimit = opts?.onRateLimit;
  const signal = opts?.signal ? { signal: opts.signal } : {};
  if (!onRateLimit && !budget) return signal;
  return {
    ...signal,
    onAnswer: (answer) => {
      const facts = readRateLimit(answer, now());
      if (budget) tellBudget(budget.budget, budget.scope, answer, facts);
      onRateLimit?.(facts);
    },
  };
}

/**
 * One Discord request that is not an interaction response: waits for its turn in `scope` of
 * `budget` (when herald keeps one), then answers the call options that tell the budget and
 * `opts.onRateLimit` what each answer said. The one place Discord's REST takes from the budget.
 */
export async function discordCall(
  opts: PostOptions | undefined,
  now: () => number,
  budget: RateBudget | undefined,
  scope: RateScope,
): Promise<CallOptions> {
  if (!budget) return watchRateLimit(opts, now);
  await budget.take(scope, opts?.signal);
  return watchRateLimit(opts, now, { budget, scope });
}
