// The outbox's drain: entries leased from the store in batches, and delivered concurrently per
// destination, each destination's posts one at a time in creation order, so a destination that
// hangs costs only its own posts. A webhook POST has no idempotency key, so the HTTP core does not
// retry it: deliver-entry.ts does, and what still fails waits in the store for the next tick.
import { byTurn, scopesOf } from './destination-pause.ts';
import type { OutboxEntry } from '../store/store.ts';
import { deliverEntry } from './deliver-entry.ts';
import {
  createDeliveryContext,
  emptyDrain,
  type DeliverOpts,
  type DeliveryContext,
  type DeliveryOptions,
  type DrainResult,
} from './delivery-options.ts';

const BATCH = 50;
const WIDE_BATCH = 200;
const MAX_BATCHES = 100;

export type Deliverer = ReturnType<typeof createDeliverer>;

async function deliverAll(
  ctx: DeliveryContext,
  entries: readonly OutboxEntry[],
  notes: DrainResult,
  opts: DeliverOpts = {},
): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      ctx.leases.keep(entry.id);
      try {
        const outcome = await ctx.pauses.inLane(scopesOf(entry).destination, () =>
          deliverEntry(ctx, entry, notes, opts),
        );
        if (outcome !== 'delivered' && !notes.failures.has(entry.id))
          notes.failures.set(entry.id, { reason: entry.lastError ?? 'not delivered yet' });
        notes.outcomes.set(entry.id, outcome);
      } finally {
        ctx.leases.release(entry.id);
      }
    }),
  );
}

export function createDeliverer(options: DeliveryOptions) {
  const ctx = createDeliveryContext(options);
  const { store, owner, now, leaseMs } = ctx;

  return {
    /** How long a claim holds an entry: an unanswered send is resent only after it. */
    leaseMs,
    /** Delivers due entries; `includeBackingOff` also retries those waiting out a backoff. */
    async drain(opts?: { includeBackingOff?: boolean; signal?: AbortSignal }): Promise<DrainResult> {
      const notes = emptyDrain();
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        // Backing-off entries in the first batch only: one this drain put back is not tried twice.
        const isFirstWide = batch === 0 && (opts?.includeBackingOff ?? false);
        const limit = isFirstWide ? WIDE_BATCH : BATCH;
        const entries = await store.claimDueOutbox(owner, leaseMs, limit, {
          includeBackingOff: isFirstWide,
        });
        // In creation order, whatever order the store claimed them in, for each destination's lane.
        const fresh = entries.filter((e) => !notes.outcomes.has(e.id)).sort(byTurn);
        for (const e of entries) {
          if (notes.outcomes.has(e.id)) await store.rescheduleOutbox(e.id, owner, now(), e.lastError ?? '');
        }
        if (fresh.length === 0) break;
        await deliverAll(ctx, fresh, notes, { signal: opts?.signal });
      }
      return notes;
    },
    /** Delivers a slot's posts, leased to this owner by markPosted at `markedAt`. */
    async deliverHeld(entries: readonly OutboxEntry[], opts?: DeliverOpts): Promise<DrainResult> {
      const notes = emptyDrain();
      await deliverAll(ctx, entries, notes, opts);
      return notes;
    },
  };
}
