// Slack's rate limits kept above its Web API client, @slack/web-api's WebClient. What the SDK does
// not serve: a budget shared by the replicas. Its own handling waits out 429s and retries for about
// half an hour, hidden from the outbox's per-destination order, so herald's WebClient rejects a 429
// at once with its Retry-After (slack-web-client.ts) and the rate budget (`ClientDeps.rateBudget`,
// src/domain/rate-budget.ts) paces its posts: every chat.postMessage first takes its channel's turn
// at one a second (SLACK_POST_PACE), before Slack has to say so, and waits out the workspace's
// chat.postMessage pause; a 429 to chat.postMessage sets that pause for its Retry-After on every
// replica, since Slack's limits are "per API method per workspace/team per app"
// (https://docs.slack.dev/apis/web-api/rate-limits) and its 429 does not say whether the channel's
// or the workspace's ran out; for a minute after one, this process sends its posts one at a time
// (LIMITED_MS). Without a budget nothing is paced here. Interaction answers go through Bolt in the
// adapter, never through this budget, so they never wait for it. Shown by
// test/services/slack-budget.test.ts and test/services/webhook-rate-limit.test.ts.
import { createHash } from 'node:crypto';
import {
  SLACK_POST_PACE,
  slackChannelScope,
  slackMethodScope,
  type RateBudget,
} from '../../domain/rate-budget.ts';
import { ServiceError } from '../../errors.ts';
import type { ClientDeps } from '../deps.ts';
import type { PostOptions } from './rate-limit.ts';

/** Tells `opts.onRateLimit` what Slack's answer said of the channel's pace: a 429's Retry-After, else nothing. */
export async function told<T>(opts: PostOptions, work: () => Promise<T>): Promise<T> {
  try {
    const done = await work();
    opts.onRateLimit?.({ waitMs: 0, isGlobal: false });
    return done;
  } catch (err) {
    if (err instanceof ServiceError && err.status !== undefined)
      opts.onRateLimit?.({
        waitMs: err.code === 'rate_limited' ? (err.retryAfterMs ?? 0) : 0,
        isGlobal: false,
      });
    throw err;
  }
}

/** chat.postMessage calls as the shared budget lets them go. */
export interface SlackBudget {
  /**
   * Runs `work` (one chat.postMessage into `channel`) in its turn: the channel's pace, after the
   * workspace's pause; one at a time in this process while the workspace is limited. A 429 it
   * gets pauses the workspace's posts on every replica for its Retry-After.
   */
  post<T>(channel: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T>;
}

/**
 * How long after a 429 this process sends its posts one at a time: Slack counts its limits by
 * the minute. Sent together, the posts waiting out a Retry-After would all reach Slack at its end,
 * every one past the first few answered 429 again; one at a time, each 429 stops the next post.
 */
const LIMITED_MS = 60_000;

/**
 * The budget's Slack scopes for the installation `botToken` is (one app in one workspace, as
 * Slack counts its limits); the keys name a digest of the token, never the token. Without a
 * budget, posts go as they come and the outbox waits out each 429 on its own.
 */
export function slackBudget(
  budget: RateBudget | undefined,
  botToken: string,
  now: () => number,
  log: ClientDeps['log'],
): SlackBudget {
  if (!budget) return { post: (_channel, _signal, work) => work() };
  const workspace = createHash('sha256').update(botToken).digest('hex').slice(0, 16);
  const posts = slackMethodScope(workspace, 'chat.postMessage');
  let limitedUntil = -Infinity;
  let lane: Promise<unknown> = Promise.resolve();
  const send = async <T>(channel: string, signal: AbortSignal | undefined, work: () => Promise<T>) => {
    await budget.take(slackChannelScope(workspace, channel), signal, {
      pace: SLACK_POST_PACE,
      pausedBy: posts,
    });
    try {
      return await work();
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'rate_limited') {
        limitedUntil = now() + LIMITED_MS;
        await budget
          .pause(posts, err.retryAfterMs ?? 1_000)
          .catch((e: unknown) => log?.warn({ err: e }, 'slack.budget_failed'));
      }
      throw err;
    }
  };
  return {
    post(channel, signal, work) {
      if (now() >= limitedUntil) return send(channel, signal, work);
      const run = lane.then(() => send(channel, signal, work));
      lane = run.catch(() => undefined);
      return run;
    },
  };
}
