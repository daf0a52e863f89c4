// The platforms' request budgets, shared by every replica through the store. The shape the
// platform clients call and the store implements.
// - Discord (https://discord.com/developers/docs/topics/rate-limits): the bot token's global limit
//   and each webhook host's, at the budget's own pace; a global 429 pauses its scope. Interaction
//   responses (callbacks, edits and follow-ups made with an interaction's token) are exempt from
//   Discord's global limit and never take from it.
// - Slack (https://docs.slack.dev/apis/web-api/rate-limits): limits apply "per API method per
//   workspace/team per app", and chat.postMessage "generally allows posting one message per second
//   per channel" beside a workspace-wide limit. Each channel's posts take from their own bucket at
//   SLACK_POST_PACE and wait out the pause of the workspace's chat.postMessage, which a 429's
//   Retry-After sets. Slack's interaction answers (response_url, Bolt's say and respond) never take
//   from it.

/** One budget: a platform's scope (a token's global limit, a webhook host, a Slack channel or method). */
export type RateScope = string;

/** How a scope's requests are spaced: `perSecond` of them a second, `burst` of them at once. */
export interface RatePace {
  perSecond: number;
  burst: number;
}

/** A turn's shape: its pace (else the budget's own) and whose pause it waits out (else its scope's). */
interface TakeOptions {
  pace?: RatePace;
  pausedBy?: RateScope;
}

export interface RateBudget {
  /**
   * Waits until a request of `scope` may go: a token of its bucket is free and no pause is set on
   * `opts.pausedBy` (else `scope`); rejects when `signal` aborts first.
   */
  take(scope: RateScope, signal?: AbortSignal, opts?: TakeOptions): Promise<void>;
  /** Stops every request waiting out `scope`'s pause, on every replica, for `ms` (a 429's wait). */
  pause(scope: RateScope, ms: number): Promise<void>;
  /** Counts one invalid request (a 401, a 403, a 429 not of scope `shared`) in the 10-minute window. */
  countInvalid(): Promise<void>;
  /** Whether scheduled posting stops for the rest of the window (the invalid-request safety limit). */
  invalidLimitReached(): Promise<boolean>;
}

/** The scope of the bot token's global limit. */
export const DISCORD_BOT_SCOPE: RateScope = 'discord:bot';

/** The scope of the webhooks at `url`'s host: Discord limits requests without a token by address. */
export function webhookHostScope(url: string): RateScope {
  return `discord:webhook-host:${new URL(url).host}`;
}

/**
 * A Slack channel's posts: one a second, the first three at once. Slack tolerates "short bursts
 * >1" with no number; three is herald's choice, small enough that two replicas' bursts stay short.
 */
export const SLACK_POST_PACE: RatePace = Object.freeze({ perSecond: 1, burst: 3 });

/**
 * The scope of one Slack Web API method in one workspace for herald's app: `workspace` names the
 * installation (its bot token's digest, never the token), `method` e.g. `chat.postMessage`.
 */
export function slackMethodScope(workspace: string, method: string): RateScope {
  return `slack:${workspace}:method:${method}`;
}

/** The scope of one Slack channel's posts in `workspace` (paced at SLACK_POST_PACE). */
export function slackChannelScope(workspace: string, channelId: string): RateScope {
  return `slack:${workspace}:channel:${channelId}`;
}
