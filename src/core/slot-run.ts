// One claimed slot, start to end: the job runs under a time limit, then a single atomic store step
// marks the slot posted and hands the job's posts to the outbox, then the outbox is delivered.
// The scheduler claims the slot first; this is the only place a job's run is caught and logged.
import { raceAbort } from '../abort.ts';
import { ServiceError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import { toOutboxPayload, type Deliverer, type EntryOutcome } from './delivery.ts';
import type { Delivery, Job, JobLog, JobSlot } from './job.ts';
import type { Services } from './services.ts';

export interface SlotOutcome {
  job: string;
  slotId: string;
  status: 'posted' | 'skipped' | 'failed';
  reason?: 'already-posted' | 'held' | 'running' | 'claim-lost';
  /** `receipt`: the provider's id of the post (the webhook message id), once delivered. */
  deliveries: { id: string; kind: Delivery['kind']; outcome: EntryOutcome; receipt?: string }[];
  error?: unknown;
}

export interface SlotRunDeps {
  services: Services;
  store: Store;
  log: JobLog;
  now: () => Date;
  /** The claim's owner; only it may mark the slot posted. */
  owner: string;
  jobTimeoutMs: number;
  deliverer: Deliverer;
  /** Fires at shutdown: the run is aborted and delivery waits stop. */
  signal: AbortSignal;
  onRun?: (e: { job: string; outcome: SlotOutcome['status']; durationMs: number }) => void;
}

/** Runs `job` with a time limit; resolves with its posts or rejects with why it failed. */
function runWithLimit(deps: SlotRunDeps, job: Job, slot: JobSlot): Promise<Delivery[]> {
  const deliveries: Delivery[] = [];
  const signal = AbortSignal.any([deps.signal, AbortSignal.timeout(deps.jobTimeoutMs)]);
  const late = () => new Error(`${job.name} did not finish within ${deps.jobTimeoutMs} ms`);
  // Stopping already: the job does not start.
  if (signal.aborted) return Promise.reject(late());
  const work = job.run({
    services: deps.services,
    store: deps.store,
    log: deps.log,
    now: deps.now,
    signal,
    slot,
    deliver: (d) => void deliveries.push(d),
  });
  return raceAbort(work, signal, late).then(() => deliveries);
}

export async function runClaimedSlot(deps: SlotRunDeps, job: Job, slot: JobSlot): Promise<SlotOutcome> {
  const { store, log, owner } = deps;
  const name = job.name;
  const slotId = slot.id;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  log.info({ job: name, slotId, reason: slot.reason }, 'job.started');
  let deliveries: Delivery[];
  try {
    deliveries = await runWithLimit(deps, job, slot);
  } catch (err) {
    await store.markFailed(name, slotId, owner, err instanceof Error ? err.message : String(err));
    const durationMs = elapsed();
    log[err instanceof ServiceError ? 'warn' : 'error']({ job: name, slotId, durationMs, err }, 'job.failed');
    deps.onRun?.({ job: name, outcome: 'failed', durationMs });
    return { job: name, slotId, status: 'failed', deliveries: [], error: err };
  }
  const entries = deliveries.map((d, i) => ({
    id: `${name}|${slotId}|${i}:${d.kind}`,
    job: name,
    slotId,
    kind: d.kind,
    payload: toOutboxPayload(d),
  }));
  if (!(await store.markPosted(name, slotId, owner, entries))) {
    // Our lease ran out and another replica took the slot over: its run is the one that counts.
    log.warn({ job: name, slotId, durationMs: elapsed() }, 'job.claim_lost');
    return { job: name, slotId, status: 'skipped', reason: 'claim-lost', deliveries: [] };
  }
  const { outcomes, receipts } = await deps.deliverer.drain({ includeBackingOff: true, signal: deps.signal });
  const delivered = entries.map((e) => {
    const receipt = receipts?.get(e.id);
    const outcome = outcomes.get(e.id) ?? 'pending';
    return { id: e.id, kind: e.kind, outcome, ...(receipt === undefined ? {} : { receipt }) };
  });
  const count = (x: EntryOutcome) => delivered.filter((d) => d.outcome === x).length;
  const durationMs = elapsed();
  log.info(
    {
      job: name,
      slotId,
      durationMs,
      delivered: count('delivered'),
      pending: count('pending'),
      givenUp: count('given_up'),
    },
    'job.finished',
  );
  deps.onRun?.({ job: name, outcome: 'posted', durationMs });
  return { job: name, slotId, status: 'posted', deliveries: delivered };
}
