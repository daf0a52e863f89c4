// Delivers the outbox: each entry is leased from the store, sent through its service, and marked
// delivered, put back with a backoff, or given up on with a logged error. A webhook POST carries no
// idempotency key, so the HTTP core does not retry it; this loop does: a destination's rate limit is
// waited out (destination-pause.ts: a 429, or a bucket the headers say is empty), 5xx answers are
// retried with jittered backoff, and what still fails stays in the store for the next tick or start.
// 401/403/404/400 will not get better: given up. A send with no answer (a timeout, a cut connection)
// may have posted: it is left leased and resent only once the lease ends, logged
// `outbox.resend_uncertain`. Destinations are delivered concurrently, each one's posts one at a time
// in the order they were created, so a destination that hangs costs only its own posts. A post is
// sent only by the holder of its lease, which is renewed while it waits its turn and is sent.
// This file is the drain: which entries, in which batches and lanes; one entry's delivery is
// deliver-entry.ts, the deliverer's options and what its steps share delivery-options.ts.
import { byTurn, scopesOf } from './destination-pause.ts';
import type { OutboxEntry } from '../store/store.ts';
import { deliverEntry } from './deliver-entry.ts';
import {
  createDeliveryContext,
  type DeliveryContext,
  type DeliveryOptions,
  type DrainResult,
  type EntryOutcome,
  type Notes,
} from './delivery-options.ts';

export { fromOutboxPayload, webhookClientFor } from './deliver-entry.ts';
export type { DeliveryFailure, DeliveryOptions, DrainResult, EntryOutcome } from './delivery-options.ts';

const newNotes = (): Notes => ({ receipts: new Map(), channels: new Map(), failures: new Map() });

const BATCH = 50;
const WIDE_BATCH = 200;
const MAX_BATCHES = 100;

export interface Deliverer {
  /** How long a claim holds an entry: an unanswered send is resent only after it. */
  readonly leaseMs: number;
  /** Delivers due entries; `includeBackingOff` also retries those waiting out a backoff. */
  drain(opts?: { includeBackingOff?: boolean; signal?: AbortSignal }): Promise<DrainResult>;
  /**
   * Delivers entries this owner already holds (a slot's posts, leased to it when marked posted).
   * `markedAt`: when the store marked them in flight with their lease (markPosted), so that their
   * first send, within a third of that lease, needs no store step of its own.
   */
  deliverHeld(
    entries: readonly OutboxEntry[],
    opts?: { signal?: AbortSignal; markedAt?: number },
  ): Promise<DrainResult>;
}

async function deliverAll(
  ctx: DeliveryContext,
  entries: readonly OutboxEntry[],
  outcomes: Map<string, EntryOutcome>,
  notes: Notes,
  opts: { signal?: AbortSignal | undefined; markedAt?: number | undefined } = {},
): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      // Its lease is renewed while it waits its turn and while it is sent.
      ctx.leases.keep(entry.id);
      try {
        const outcome = await ctx.pauses.inLane(scopesOf(entry).destination, () =>
          deliverEntry(ctx, entry, notes, opts),
        );
        outcomes.set(entry.id, outcome);
      } finally {
        ctx.leases.release(entry.id);
      }
    }),
  );
}

export function createDeliverer(options: DeliveryOptions): Deliverer {
  const ctx = createDeliveryContext(options);
  const { store, owner, now, settings } = ctx;

  return {
    leaseMs: settings.leaseMs,
    async drain(opts) {
      const outcomes = new Map<string, EntryOutcome>();
      const notes = newNotes();
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        // Backing-off entries are taken in the first batch only, so that an entry this drain put
        // back is not tried twice in one go.
        const isFirstWide = batch === 0 && (opts?.includeBackingOff ?? false);
        const limit = isFirstWide ? WIDE_BATCH : BATCH;
        const entries = await store.claimDueOutbox(owner, settings.leaseMs, limit, {
          includeBackingOff: isFirstWide,
        });
        // In creation order, so that each destination's lane takes its posts oldest first whatever
        // order the store claimed them in (due time first; a Redis tie by id).
        const fresh = entries.filter((e) => !outcomes.has(e.id)).sort(byTurn);
        for (const e of entries) {
          if (outcomes.has(e.id)) await store.rescheduleOutbox(e.id, owner, now(), e.lastError ?? '');
        }
        if (fresh.length === 0) break;
        await deliverAll(ctx, fresh, outcomes, notes, { signal: opts?.signal });
      }
      return { outcomes, ...notes };
    },
    async deliverHeld(entries, opts) {
      const outcomes = new Map<string, EntryOutcome>();
      const notes = newNotes();
      await deliverAll(ctx, entries, outcomes, notes, opts);
      return { outcomes, ...notes };
    },
  };
}
