// Slack's pace for posting: chat.postMessage "generally allows posting one message per second per
// channel", short bursts over it tolerated with no guarantee
// (https://docs.slack.dev/apis/web-api/rate-limits#rate-limits__limits-when-posting-messages).
// A token bucket per channel, in this process: each channel starts with a short burst and earns one
// post a second. Replicas keep their own buckets; the outbox's one lane per destination and the
// 429s Slack still sends (waited out for their Retry-After by every replica, destination-pause.ts)
// cover what two replicas posting to one channel in the same second add.

/** Posts a channel may take at once before the one-a-second pace applies. */
export const SLACK_BURST = 3;
/** One post a second per channel. */
export const SLACK_POST_INTERVAL_MS = 1_000;
/** Buckets kept: a full bucket is the same as none, so idle channels are forgotten first. */
const BUCKETS_KEPT = 10_000;

export interface SlackPace {
  /** Resolves when a post to `channel` keeps Slack's pace (at once within the burst). */
  take(channel: string): Promise<void>;
}

export function createSlackPace(
  now: () => number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): SlackPace {
  /** Per channel: when its bucket is full again; a post takes one interval from it. */
  const fullAt = new Map<string, number>();
  return {
    async take(channel) {
      const t = now();
      // The bucket's level as the time it will be full: one post spends one interval.
      const start = Math.max(fullAt.get(channel) ?? t, t);
      const next = start + SLACK_POST_INTERVAL_MS;
      const waitMs = next - t - SLACK_BURST * SLACK_POST_INTERVAL_MS;
      fullAt.delete(channel);
      if (fullAt.size >= BUCKETS_KEPT) fullAt.delete(fullAt.keys().next().value ?? '');
      fullAt.set(channel, next);
      if (waitMs > 0) await sleep(waitMs);
    },
  };
}
