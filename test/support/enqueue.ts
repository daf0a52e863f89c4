// Puts entries in the outbox the product's one way: their slot claimed, then marked posted with them.
import type { NewOutboxEntry, Store } from '../../src/store/store.ts';

/** Adds each entry due now (a slot of its own per job and slot id); false when a slot was taken already. */
export async function enqueue(store: Store, ...entries: NewOutboxEntry[]): Promise<boolean> {
  const slots = Map.groupBy(entries, (e) => JSON.stringify([e.job, e.slotId]));
  let added = true;
  for (const group of slots.values()) {
    const { job, slotId } = group[0]!;
    const claim = await store.claimSlot(job, slotId, 'enqueue', 60_000);
    added &&= claim.status === 'claimed' && (await store.markPosted(job, slotId, 'enqueue', group));
  }
  return added;
}
