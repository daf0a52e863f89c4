// A running bot's sign of life in its store: rewritten every HEARTBEAT_EVERY_MS with an expiry, so it
// lapses on its own when the process dies. `npm run store -- import` refuses while one is fresh,
// since a running herald would act on the store while it is being filled.
import type { Store } from '../store/index.ts';

/** Under this key in the store's key/value; it expires, so no export carries it. */
const HEARTBEAT_KEY = 'heartbeat';
const HEARTBEAT_EVERY_MS = 10_000;
/** Three beats: a beat that is late under load does not let the heartbeat lapse. */
export const HEARTBEAT_TTL_MS = 3 * HEARTBEAT_EVERY_MS;

interface Beat {
  /** Which process wrote it: host and pid. */
  owner: string;
  /** Epoch ms of the write. */
  at: number;
}

interface HeartbeatOptions {
  owner: string;
  now?: () => number;
  /** A beat that could not be written (the store is down): logged, the next one tries again. */
  onError?: (err: unknown) => void;
}

/** Writes the heartbeat now and every HEARTBEAT_EVERY_MS until `stop`, which takes it away. */
export function startHeartbeat(
  store: Pick<Store, 'getValue' | 'setValue' | 'deleteValues'>,
  opts: HeartbeatOptions,
): { stop(): Promise<void> } {
  const now = opts.now ?? Date.now;
  const beat = () =>
    store
      .setValue(HEARTBEAT_KEY, JSON.stringify({ owner: opts.owner, at: now() } satisfies Beat), {
        ttlMs: HEARTBEAT_TTL_MS,
      })
      .catch((err: unknown) => opts.onError?.(err));
  let last = beat();
  const timer = setInterval(() => void (last = beat()), HEARTBEAT_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await last;
      // Another replica's beat stays: only this process's own is taken away.
      const current = parseBeat(await store.getValue(HEARTBEAT_KEY).catch(() => undefined));
      if (current?.owner === opts.owner) await store.deleteValues(HEARTBEAT_KEY).catch(() => 0);
    },
  };
}

function parseBeat(value: string | undefined): Beat | undefined {
  if (value === undefined) return undefined;
  try {
    const beat = JSON.parse(value) as Partial<Beat>;
    return typeof beat.owner === 'string' && typeof beat.at === 'number'
      ? { owner: beat.owner, at: beat.at }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The heartbeat a running herald keeps in `store`, when one is fresh. */
export async function freshHeartbeat(store: Pick<Store, 'getValue'>): Promise<Beat | undefined> {
  return parseBeat(await store.getValue(HEARTBEAT_KEY));
}
