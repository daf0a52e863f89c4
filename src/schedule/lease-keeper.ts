// While a post waits its turn in its destination's lane and is sent, its lease is renewed every
// third of the lease, so that no other replica takes it over; one whose renewal the store refuses
// is another owner's now and never sent here (deliver-entry.ts asks).
import type { Store } from '../store/store.ts';
import type { JobLog } from './job.ts';

/** Calls `run` every `ms` until the returned function is called (`run` settles its own errors). */
export type Repeat = (ms: number, run: () => Promise<void>) => () => void;

export const repeatEvery: Repeat = (ms, run) => {
  const timer = setInterval(() => void run(), ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface LeaseKeeper {
  /** Keeps renewing the lease on `id`, an entry this owner holds, until `release(id)`. */
  keep(id: string): void;
  release(id: string): void;
  /** True once the store refused to renew `id`: another owner holds it now. */
  isLost(id: string): boolean;
}

export function createLeaseKeeper(
  store: Store,
  owner: string,
  leaseMs: number,
  log: JobLog,
  repeat: Repeat,
): LeaseKeeper {
  const kept = new Set<string>();
  const lost = new Set<string>();
  let stop: (() => void) | undefined;
  let isRenewing = false;

  async function renew(): Promise<void> {
    if (isRenewing || kept.size === 0) return;
    isRenewing = true;
    const ids = [...kept];
    try {
      const renewed = new Set(await store.renewOutboxLeases(ids, owner, leaseMs));
      const taken = ids.filter((id) => !renewed.has(id) && kept.has(id));
      for (const id of taken) lost.add(id);
      if (taken.length > 0) log.warn({ outboxIds: taken, owner }, 'outbox.lease_lost');
    } catch (err) {
      // Not lost yet: the lease still runs, and the next renewal may reach the store.
      log.warn({ err, owner, entries: ids.length }, 'outbox.lease_not_renewed');
    } finally {
      isRenewing = false;
    }
  }

  return {
    keep(id) {
      kept.add(id);
      stop ??= repeat(Math.max(1, Math.floor(leaseMs / 3)), renew);
    },
    release(id) {
      kept.delete(id);
      lost.delete(id);
      if (kept.size > 0 || !stop) return;
      stop();
      stop = undefined;
    },
    isLost: (id) => lost.has(id),
  };
}
