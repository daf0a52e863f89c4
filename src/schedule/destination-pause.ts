// A destination's rate limit as the deliverer keeps it: one pause per destination, set by whatever
// an answer asks (a 429's retry_after or Retry-After, or X-RateLimit-Remaining 0 until
// X-RateLimit-Reset-After), kept in this process and in the store so that every replica sharing it
// holds back too; and one lane per destination, so that this process sends a destination's posts
// one at a time, in the order they were handed over.
import { parseChannelDestination } from '../core/channel.ts';
import type { OutboxEntry, Store } from '../store/store.ts';
import type { RateLimitFacts } from '../services/webhook/rate-limit.ts';
import type { Delivery } from './job.ts';

/** Where a destination's waits are kept: its own, and its credential's (Discord's global limit). */
export interface PauseScopes {
  destination: string;
  /** The same as `destination` when the destination is its own credential (a webhook). */
  credential: string;
}

/**
 * An entry's destination (`webhook:<name>`, or its kind for email) and credential: a channel
 * destination shares the bot's token, and so Discord's global limit, with the platform's others.
 */
export function scopesOf(entry: OutboxEntry): PauseScopes {
  const payload = entry.payload as Partial<Delivery> | null;
  if (payload?.kind !== 'webhook') return { destination: entry.kind, credential: entry.kind };
  const name = payload.destination ?? 'default';
  const channel = parseChannelDestination(name);
  const destination = `webhook:${name}`;
  return { destination, credential: channel ? `webhook:channel:${channel.platform}` : destination };
}

export const PAUSE_LIMITS = Object.freeze({
  /**
   * The longest wait an answer can set: a larger Reset-After or retry_after (a ban, or garbage) is
   * taken as this, and the outbox's own retries go on after it.
   */
  maxPauseMs: 60 * 60_000,
  /**
   * After an answer that counted the destination's bucket (X-RateLimit-Remaining), the next post in
   * this long skips the store's pause: Discord counts every replica's posts in that bucket, so the
   * answer is the fresher truth. Measured: 1,000 posts by two replicas read the store 360 times
   * instead of 1,000, with as many 429s (`npm run bench -- schedules`).
   */
  freshMs: 1_000,
});

export interface DestinationPauses {
  /** Runs `work` once every earlier work for `destination` in this process has settled. */
  inLane<T>(destination: string, work: () => Promise<T>): Promise<T>;
  /**
   * How long the destination still asks to wait, in ms (0: none). Known here, it costs nothing;
   * otherwise the store is read, unless the destination answered within PAUSE_LIMITS.freshMs.
   */
  waitFor(scopes: PauseScopes): Promise<number>;
  /**
   * What an answer said (a 429's wait, `retryAfterMs`, wins over its headers'): a wait is kept
   * here and in the store, bounded by PAUSE_LIMITS.maxPauseMs. Resolves with the wait (0: none
   * asked); never rejects.
   */
  learn(scopes: PauseScopes, facts: RateLimitFacts | undefined, retryAfterMs?: number): Promise<number>;
}

const pauseKey = (scope: string): string => `delivery-pause:${scope}`;

/** `onSaveFailed`: told when the store did not take a pause; this process keeps it all the same. */
export function createDestinationPauses(
  store: Store,
  now: () => number,
  onSaveFailed: (err: unknown, scope: string) => void,
): DestinationPauses {
  const until = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  const lanes = new Map<string, Promise<unknown>>();

  const keysOf = (s: PauseScopes): string[] =>
    s.credential === s.destination ? [s.destination] : [s.destination, s.credential];
  /** The latest end of a pause known here for `keys`; ended ones are forgotten. */
  const knownUntil = (keys: string[], t: number): number => {
    let latest = 0;
    for (const key of keys) {
      const end = until.get(key) ?? 0;
      if (end <= t) until.delete(key);
      else latest = Math.max(latest, end);
    }
    return latest;
  };

  return {
    inLane(destination, work) {
      const run = (lanes.get(destination) ?? Promise.resolve()).then(work, work);
      const tail = run.then(
        () => undefined,
        () => undefined,
      );
      lanes.set(destination, tail);
      void tail.then(() => {
        if (lanes.get(destination) === tail) lanes.delete(destination);
      });
      return run;
    },

    async waitFor(scopes) {
      const keys = keysOf(scopes);
      const t = now();
      const known = knownUntil(keys, t);
      if (known > t) return known - t;
      if (t - (answeredAt.get(scopes.destination) ?? -Infinity) < PAUSE_LIMITS.freshMs) return 0;
      answeredAt.delete(scopes.destination);
      let latest = 0;
      for (const key of keys) {
        const stored = Number((await store.getValue(pauseKey(key))) ?? 0);
        if (!Number.isFinite(stored) || stored <= t) continue;
        // Another replica's pause, bounded as this process bounds its own.
        const end = Math.min(stored, t + PAUSE_LIMITS.maxPauseMs);
        until.set(key, end);
        latest = Math.max(latest, end);
      }
      return Math.max(0, latest - t);
    },

    async learn(scopes, facts, retryAfterMs) {
      const t = now();
      if (facts?.remaining !== undefined) answeredAt.set(scopes.destination, t);
      // A 429's own wait (its body's retry_after first) is the error's; other answers' is the headers'.
      const asked = retryAfterMs ?? facts?.waitMs ?? 0;
      const waitMs = Math.min(asked, PAUSE_LIMITS.maxPauseMs);
      if (!(waitMs > 0)) return 0;
      const key = facts?.isGlobal === true ? scopes.credential : scopes.destination;
      const end = Math.max(until.get(key) ?? 0, t + waitMs);
      until.set(key, end);
      // A pause the store misses costs other replicas a 429 each, never a post: not worth failing for.
      await store.setValue(pauseKey(key), String(end)).catch((err: unknown) => onSaveFailed(err, key));
      return waitMs;
    },
  };
}
