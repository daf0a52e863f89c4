// The store in process memory: for tests and `STORE_URL=:memory:`. Same rules as the others;
// every method runs synchronously inside one call, so each is atomic.
import type {
  ClaimResult,
  NewOutboxEntry,
  OutboxEntry,
  OutboxStatus,
  SlotRecord,
  Store,
  StoreOptions,
  SlotMethods,
  OutboxMethods,
} from './store.ts';
import { createLocalClaims } from '../core/claims.ts';

type HeldEntry = OutboxEntry & { owner: string };

/** What the memory store's parts share: the clock and the three maps. */
interface MemoryState {
  now: () => number;
  slots: Map<string, SlotRecord>;
  outbox: Map<string, HeldEntry>;
  kv: Map<string, string>;
}

const slotKey = (job: string, slotId: string) => `${job}\u0000${slotId}`;
const copy = <T extends object>(v: T): T => structuredClone(v);
const strip = ({ owner: _owner, ...entry }: HeldEntry): OutboxEntry => copy(entry);

function addEntry(outbox: Map<string, HeldEntry>, entry: NewOutboxEntry, at: number): boolean {
  if (outbox.has(entry.id)) return false;
  outbox.set(entry.id, {
    ...copy(entry),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at,
    createdAt: at,
    updatedAt: at,
    owner: '',
  });
  return true;
}

export function createMemoryStore(opts: StoreOptions = {}): Store {
  const state: MemoryState = {
    now: opts.now ?? Date.now,
    slots: new Map(),
    outbox: new Map(),
    kv: new Map(),
  };
  const { now, slots, outbox, kv } = state;
  const claims = createLocalClaims(now);
  return {
    kind: 'memory',
    ...memorySlots(state),
    ...memoryOutbox(state),
    getValue(key) {
      return Promise.resolve(kv.get(key));
    },
    setValue(key, value, opts) {
      if (opts?.ifAbsent && kv.has(key)) return Promise.resolve(false);
      kv.set(key, value);
      return Promise.resolve(true);
    },
    claimOnce: (key, ttlMs) => claims.claimOnce(key, ttlMs),
    prune(olderThanMs) {
      const cutoff = now() - olderThanMs;
      let removed = 0;
      for (const [k, s] of slots) {
        if (s.status !== 'claimed' && s.updatedAt < cutoff && slots.delete(k)) removed++;
      }
      for (const [k, e] of outbox) {
        if (e.status !== 'pending' && e.updatedAt < cutoff && outbox.delete(k)) removed++;
      }
      return Promise.resolve(removed);
    },
    close() {
      return Promise.resolve();
    },
  };
}

/** Slot claims: claim, posted (handing its deliveries to the outbox), failed, read. */
function memorySlots({ now, slots, outbox, kv }: MemoryState): SlotMethods {
  return {
    claimSlot(job, slotId, owner, leaseMs): Promise<ClaimResult> {
      const t = now();
      const key = slotKey(job, slotId);
      const s = slots.get(key);
      if (s?.status === 'posted') return Promise.resolve({ status: 'already-posted' });
      if (s && s.status === 'claimed' && s.owner !== owner && s.leaseUntil > t) {
        return Promise.resolve({ status: 'held', owner: s.owner, leaseUntil: s.leaseUntil });
      }
      // The same owner claiming again (node-cron's election, then the run) is one attempt.
      const isRenewal = s?.status === 'claimed' && s.owner === owner && s.leaseUntil > t;
      const attempts = (s?.attempts ?? 0) + (isRenewal ? 0 : 1);
      slots.set(key, {
        job,
        slotId,
        status: 'claimed',
        owner,
        leaseUntil: t + leaseMs,
        attempts,
        updatedAt: t,
      });
      return Promise.resolve({ status: 'claimed', attempt: attempts });
    },
    markPosted(job, slotId, owner, deliveries, opts) {
      const t = now();
      const s = slots.get(slotKey(job, slotId));
      if (!s || s.status !== 'claimed' || s.owner !== owner) return Promise.resolve(false);
      s.status = 'posted';
      s.updatedAt = t;
      delete s.error;
      for (const d of deliveries) {
        if (!addEntry(outbox, d, t) || opts?.leaseMs === undefined) continue;
        const e = outbox.get(d.id)!;
        Object.assign(e, { owner, attempts: 1, nextAttemptAt: t + opts.leaseMs });
      }
      if (opts?.memory) kv.set(opts.memory.key, opts.memory.value);
      return Promise.resolve(true);
    },
    markFailed(job, slotId, owner, error) {
      const s = slots.get(slotKey(job, slotId));
      if (s && s.status === 'claimed' && s.owner === owner) {
        s.status = 'failed';
        s.error = error;
        s.leaseUntil = 0;
        s.updatedAt = now();
      }
      return Promise.resolve();
    },
    getSlot(job, slotId) {
      const s = slots.get(slotKey(job, slotId));
      return Promise.resolve(s ? copy(s) : undefined);
    },
  };
}

/** The outbox: add, lease what is due, and settle what an owner holds. */
function memoryOutbox({ now, outbox, kv }: MemoryState): OutboxMethods {
  function held(id: string, owner: string): HeldEntry | undefined {
    const e = outbox.get(id);
    return e && e.status === 'pending' && e.owner === owner ? e : undefined;
  }

  return {
    addToOutbox(entry) {
      return Promise.resolve(addEntry(outbox, entry, now()));
    },
    claimDueOutbox(owner, leaseMs, limit, opts) {
      const t = now();
      const includeBackingOff = opts?.includeBackingOff ?? false;
      const due = [...outbox.values()]
        .filter(
          (e) => e.status === 'pending' && (e.nextAttemptAt <= t || (includeBackingOff && e.owner === '')),
        )
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.createdAt - b.createdAt)
        .slice(0, limit);
      for (const e of due) {
        e.owner = owner;
        e.attempts += 1;
        e.nextAttemptAt = t + leaseMs;
        e.updatedAt = t;
      }
      return Promise.resolve(due.map(strip));
    },
    markDelivered(id, receipt) {
      const e = outbox.get(id);
      if (!e || e.status !== 'pending') return Promise.resolve(false);
      e.status = 'delivered';
      if (receipt !== undefined) e.receipt = receipt;
      e.updatedAt = now();
      if (e.memory) kv.set(e.memory.key, e.memory.value);
      e.payload = null;
      delete e.memory;
      return Promise.resolve(true);
    },
    renewOutboxLeases(ids, owner, leaseMs) {
      const t = now();
      const renewed = ids.filter((id) => held(id, owner) !== undefined);
      for (const id of renewed) Object.assign(outbox.get(id)!, { nextAttemptAt: t + leaseMs, updatedAt: t });
      return Promise.resolve(renewed);
    },
    markInFlight(id, owner, isInFlight, receipt) {
      const e = held(id, owner);
      if (!e) return Promise.resolve(false);
      if (isInFlight) e.inFlightAt = now();
      else delete e.inFlightAt;
      if (receipt !== undefined) e.receipt = receipt;
      return Promise.resolve(true);
    },
    rescheduleOutbox(id, owner, nextAttemptAt, error) {
      const e = held(id, owner);
      if (!e) return Promise.resolve(false);
      e.nextAttemptAt = nextAttemptAt;
      e.lastError = error;
      e.owner = '';
      e.updatedAt = now();
      return Promise.resolve(true);
    },
    giveUpOutbox(id, owner, reason) {
      const e = held(id, owner);
      if (!e) return Promise.resolve(false);
      e.status = 'given_up';
      e.reason = reason;
      e.updatedAt = now();
      return Promise.resolve(true);
    },
    listOutbox(filter?: { status?: OutboxStatus }) {
      const list = [...outbox.values()].filter((e) => !filter?.status || e.status === filter.status);
      return Promise.resolve(list.sort((a, b) => a.createdAt - b.createdAt).map(strip));
    },
  };
}
