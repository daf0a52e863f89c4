// Discord's request budgets, shared by every replica through the store (Discord's rate-limit page:
// https://discord.com/developers/docs/topics/rate-limits). The shape the platform clients call and
// the store implements; interaction responses (callbacks, edits and follow-ups made with an
// interaction's token) are exempt from Discord's global limit and never take from it.

/** One budget: the bot token's global limit, or a webhook host's (webhooks are limited per address). */
export type RateScope = string;

export interface RateBudget {
  /**
   * Waits until a request of `scope` may go: a token of its per-second budget is free and no pause
   * is set on it; rejects when `signal` aborts first.
   */
  take(scope: RateScope, signal?: AbortSignal): Promise<void>;
  /** Stops every request of `scope` on every replica for `ms` (a global 429's `retry_after`). */
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
