// A destination's rate limit as the deliverer keeps it: one pause per destination, set by whatever
// an answer asks (a 429's retry_after or Retry-After, or X-RateLimit-Remaining 0 until
// X-RateLimit-Reset-After), kept in this process and in the store so that every replica sharing it
// holds back too; one lane per destination, so that this process sends a destination's posts one at
// a time, in the order they were handed over; and a hold per destination, so that a post put back in
// the outbox keeps its place: the destination pauses until that post's retry time, and every post
// created after it is put back behind it rather than waited out here and sent first. The hold is
// stored under the pause's own key, so knowing it costs no read more.
import { parseChannelDestination } from '../core/channel.ts';
import type { OutboxEntry, Store } from '../store/store.ts';
import type { RateLimitFacts } from '../services/webhook/rate-limit.ts';
import type { Delivery } from './job.ts';

/** Where a destination's waits are kept: its own, and its credential's (Discord's global limit). */
interface PauseScopes {
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

/** An entry's place in its destination's order: created first goes first, ties by id. */
type Turn = Pick<OutboxEntry, 'id' | 'createdAt'>;
export const byTurn = (a: Turn, b: Turn): number =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** What a post must wait for before it is sent. */
interface Wait {
  ms: number;
  /** A post created before this one holds the destination: go back behind it, never wait here. */
  isHold: boolean;
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
   * How long `entry` must still wait (0: not at all) for the destination's pause or hold, and
   * whether it must go behind a hold. Known here, it costs nothing; otherwise the store is read,
   * unless the destination answered within PAUSE_LIMITS.freshMs.
   */
  waitFor(scopes: PauseScopes, entry: Turn): Promise<Wait>;
  /** Holds the destination for `entry`, put back until `until`; the later post holds when two do. */
  hold(scopes: PauseScopes, entry: Turn, until: number): Promise<void>;
  /**
   * What an answer said (a 429's wait, `retryAfterMs`, wins over its headers'): a wait is kept
   * here and in the store, bounded by PAUSE_LIMITS.maxPauseMs. Resolves with the wait (0: none
   * asked); never rejects.
   */
  learn(scopes: PauseScopes, facts: RateLimitFacts | undefined, retryAfterMs?: number): Promise<number>;
}

const pauseKey = (scope: string): string => `delivery-pause:${scope}`;

/**
 * A destination held for the post created at `after`, until its retry: a pause for every post, and
 * one that posts created later never wait out in process (they would go first), they go back.
 */
interface Hold {
  until: number;
  after: number;
}

/**
 * A pause is stored as its end in ms; a held destination as JSON naming the hold's end (its pause's,
 * when later) and the holding post's creation time. Anything else reads as no pause.
 */
const toStored = (pauseEnd: number, hold: Hold | undefined): string =>
  hold ? JSON.stringify({ until: Math.max(pauseEnd, hold.until), after: hold.after }) : String(pauseEnd);
function fromStored(value: string | undefined): { pauseEnd: number; hold?: Hold } {
  if (!value?.startsWith('{')) return { pauseEnd: Number(value ?? 0) };
  try {
    const { until, after } = JSON.parse(value) as Partial<Hold>;
    if (typeof until === 'number' && typeof after === 'number')
      return { pauseEnd: 0, hold: { until, after } };
  } catch {
    // Not a hold herald wrote: ignored, as a garbage pause is.
  }
  return { pauseEnd: 0 };
}

/** Runs `work` once every earlier work in `destination`'s lane has settled. */
function inLane<T>(
  lanes: Map<string, Promise<unknown>>,
  destination: string,
  work: () => Promise<T>,
): Promise<T> {
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
}

/** `onSaveFailed`: told when the store did not take a pause; this process keeps it all the same. */
export function createDestinationPauses(
  store: Store,
  now: () => number,
  onSaveFailed: (err: unknown, scope: string) => void,
): DestinationPauses {
  const until = new Map<string, number>();
  const holds = new Map<string, Hold>();
  const answeredAt = new Map<string, number>();
  const lanes = new Map<string, Promise<unknown>>();

  const keysOf = (s: PauseScopes): string[] =>
    s.credential === s.destination ? [s.destination] : [s.destination, s.credential];
  /** The hold on `key` known here, unless it has ended (then it is forgotten). */
  const holdOn = (key: string, t: number): Hold | undefined => {
    const hold = holds.get(key);
    if (hold && hold.until <= t) holds.delete(key);
    return hold && hold.until > t ? hold : undefined;
  };
  /** What is known here for `entry`: the latest pause of its keys and the hold; ended ones are forgotten. */
  const known = (scopes: PauseScopes, entry: Turn, t: number): Wait => {
    let latest = 0;
    for (const key of keysOf(scopes)) {
      const end = until.get(key) ?? 0;
      if (end <= t) until.delete(key);
      else latest = Math.max(latest, end);
    }
    const hold = holdOn(scopes.destination, t);
    if (hold) latest = Math.max(latest, hold.until);
    return { ms: Math.max(0, latest - t), isHold: hold !== undefined && entry.createdAt > hold.after };
  };
  // A pause the store misses costs other replicas a 429 each, never a post: not worth failing for.
  const save = (key: string, t: number): Promise<unknown> =>
    store
      .setValue(pauseKey(key), toStored(until.get(key) ?? 0, holdOn(key, t)))
      .catch((err: unknown) => onSaveFailed(err, key));

  return {
    inLane: (destination, work) => inLane(lanes, destination, work),

    async waitFor(scopes, entry) {
      const t = now();
      const here = known(scopes, entry, t);
      if (here.ms > 0) return here;
      if (t - (answeredAt.get(scopes.destination) ?? -Infinity) < PAUSE_LIMITS.freshMs) return here;
      answeredAt.delete(scopes.destination);
      for (const key of keysOf(scopes)) {
        const stored = fromStored(await store.getValue(pauseKey(key)));
        // Another replica's pause, bounded as this process bounds its own.
        if (Number.isFinite(stored.pauseEnd) && stored.pauseEnd > t)
          until.set(key, Math.min(stored.pauseEnd, t + PAUSE_LIMITS.maxPauseMs));
        if (key !== scopes.destination) continue;
        if (stored.hold && stored.hold.until > t) holds.set(key, stored.hold);
        else holds.delete(key);
      }
      return known(scopes, entry, t);
    },

    async hold(scopes, entry, end) {
      const key = scopes.destination;
      const t = now();
      const held = holdOn(key, t);
      // Two posts put back at once (two replicas): the later one keeps the hold, to the later end.
      holds.set(key, {
        until: Math.max(end, held?.until ?? 0),
        after: Math.max(entry.createdAt, held?.after ?? 0),
      });
      await save(key, t);
    },

    async learn(scopes, facts, retryAfterMs) {
      const t = now();
      if (facts?.remaining !== undefined) answeredAt.set(scopes.destination, t);
      // A 429's own wait (its body's retry_after first) is the error's; other answers' is the headers'.
      const asked = retryAfterMs ?? facts?.waitMs ?? 0;
      const waitMs = Math.min(asked, PAUSE_LIMITS.maxPauseMs);
      if (!(waitMs > 0)) return 0;
      const key = facts?.isGlobal === true ? scopes.credential : scopes.destination;
      until.set(key, Math.max(until.get(key) ?? 0, t + waitMs));
      await save(key, t);
      return waitMs;
    },
  };
}
