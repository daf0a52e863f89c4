// A destination's rate limit as the deliverer keeps it: one pause per destination, set by what an
// answer asks (a 429, or X-RateLimit-Remaining 0), kept here and in the store so that every replica
// holds back; one lane per destination, so that its posts go one at a time in order; and a hold,
// so that a post put back keeps its place: later posts go back behind it rather than first. The
// hold is stored under the pause's key, so knowing it costs no read more.
import { parseChannelDestination } from '../core/channel.ts';
import type { OutboxEntry, Store } from '../store/store.ts';
import type { RateLimitFacts } from '../services/webhook/rate-limit.ts';
import type { Delivery, JobLog } from './job.ts';

/** Where a destination's waits are kept: its own, and its credential's (Discord's global limit). */
interface PauseScopes {
  destination: string;
  /** The same as `destination` when the destination is its own credential (a webhook). */
  credential: string;
}

/** An entry's destination and credential: a channel shares the bot's token (Discord's global limit). */
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

interface Wait {
  ms: number;
  /** An earlier post holds the destination: go back behind it, never wait here. */
  isHold: boolean;
}

export const PAUSE_LIMITS = Object.freeze({
  /** The longest wait an answer can set (a larger one is a ban, or garbage). */
  maxPauseMs: 60 * 60_000,
  /**
   * After an answer that counted the destination's bucket, a post within this long skips the
   * store's pause: the answer is the fresher truth (docs/PERFORMANCE.md, `npm run bench -- schedules`).
   */
  freshMs: 1_000,
});

const pauseKey = (scope: string): string => `delivery-pause:${scope}`;

/** A destination held until its retry for the post created at `after`. */
interface Hold {
  until: number;
  after: number;
}

/** What is known of a scope: its pause's end (0: none), and, a destination's, its hold. */
interface Known {
  pauseEnd: number;
  hold?: Hold;
}

/** Stored: a pause as its end in ms, a hold as JSON; anything else reads as no pause. */
const toStored = ({ pauseEnd, hold }: Known): string =>
  hold ? JSON.stringify({ until: Math.max(pauseEnd, hold.until), after: hold.after }) : String(pauseEnd);
function fromStored(value: string | undefined): Known {
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

export function createDestinationPauses(store: Store, now: () => number, log: JobLog) {
  const known = new Map<string, Known>();
  const answeredAt = new Map<string, number>();
  const lanes = new Map<string, Promise<unknown>>();

  /** What is known here of `key` at `t`; an ended pause or hold is forgotten. */
  const knownAt = (key: string, t: number): Known => {
    const { pauseEnd = 0, hold } = known.get(key) ?? {};
    const live = { pauseEnd: pauseEnd > t ? pauseEnd : 0, ...(hold && hold.until > t ? { hold } : {}) };
    if (live.pauseEnd > 0 || live.hold) known.set(key, live);
    else known.delete(key);
    return live;
  };
  /** How long `entry` must wait for what is known here. */
  const waitOf = (scopes: PauseScopes, entry: Turn, t: number): Wait => {
    const own = knownAt(scopes.destination, t);
    const latest = Math.max(t, own.pauseEnd, own.hold?.until ?? 0, knownAt(scopes.credential, t).pauseEnd);
    return { ms: latest - t, isHold: own.hold !== undefined && entry.createdAt > own.hold.after };
  };
  // A pause the store misses costs other replicas a 429 each, never a post: not worth failing for.
  const keep = (key: string, state: Known): Promise<unknown> => {
    known.set(key, state);
    return store
      .setValue(pauseKey(key), toStored(state))
      .catch((err: unknown) => log.warn({ err, scope: key }, 'outbox.pause_not_saved'));
  };

  return {
    /** Runs `work` once every earlier work for `destination` in this process has settled. */
    inLane<T>(destination: string, work: () => Promise<T>): Promise<T> {
      const run = (lanes.get(destination) ?? Promise.resolve()).then(work, work);
      // Settled, the lane is forgotten unless later work joined it.
      const forget = () => {
        if (lanes.get(destination) === tail) lanes.delete(destination);
      };
      const tail = run.then(forget, forget);
      lanes.set(destination, tail);
      return run;
    },

    /** How long `entry` must wait for the destination's pause or hold, read from the store unless known. */
    async waitFor(scopes: PauseScopes, entry: Turn): Promise<Wait> {
      const t = now();
      const here = waitOf(scopes, entry, t);
      if (here.ms > 0) return here;
      if (t - (answeredAt.get(scopes.destination) ?? -Infinity) < PAUSE_LIMITS.freshMs) return here;
      answeredAt.delete(scopes.destination);
      for (const key of new Set([scopes.destination, scopes.credential])) {
        const { pauseEnd, hold } = fromStored(await store.getValue(pauseKey(key)));
        // Another replica's pause, bounded as this process bounds its own.
        const bounded = Number.isFinite(pauseEnd) ? Math.min(pauseEnd, t + PAUSE_LIMITS.maxPauseMs) : 0;
        known.set(key, { pauseEnd: bounded, ...(hold && key === scopes.destination ? { hold } : {}) });
      }
      return waitOf(scopes, entry, t);
    },

    /** Holds the destination for `entry` until `end`; the later post holds when two do. */
    async hold(scopes: PauseScopes, entry: Turn, end: number) {
      const { pauseEnd, hold } = knownAt(scopes.destination, now());
      // Two posts put back at once (two replicas): the later one keeps the hold, to the later end.
      const until = Math.max(end, hold?.until ?? 0);
      await keep(scopes.destination, {
        pauseEnd,
        hold: { until, after: Math.max(entry.createdAt, hold?.after ?? 0) },
      });
    },

    /** Keeps the wait an answer asked (a 429's `retryAfterMs` before its headers'); resolves with it, never rejects. */
    async learn(scopes: PauseScopes, facts: RateLimitFacts | undefined, retryAfterMs?: number) {
      const t = now();
      if (facts?.remaining !== undefined) answeredAt.set(scopes.destination, t);
      // A 429's own wait (its body's retry_after first) is the error's; other answers' is the headers'.
      const asked = retryAfterMs ?? facts?.waitMs ?? 0;
      const waitMs = Math.min(asked, PAUSE_LIMITS.maxPauseMs);
      if (!(waitMs > 0)) return 0;
      const key = facts?.isGlobal === true ? scopes.credential : scopes.destination;
      const { pauseEnd, hold } = knownAt(key, t);
      await keep(key, { pauseEnd: Math.max(pauseEnd, t + waitMs), ...(hold ? { hold } : {}) });
      return waitMs;
    },
  };
}
