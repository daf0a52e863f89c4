// One claimed slot, start to end: the job runs under a time limit, then a single atomic store step
// marks the slot posted and hands the job's posts to the outbox, then the outbox is delivered.
// The scheduler claims the slot first; this is the only place a job's run is caught and logged.
import { setTimeout as sleep } from 'node:timers/promises';
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

/** How long a slot's run waits for its posts that another replica's drain took to settle. */
const ELSEWHERE_WAIT_MS = 5_000;
const ELSEWHERE_POLL_MS = 50;

type Settled = { outcome: EntryOutcome; receipt?: string };

/**
 * The outcome of posts this run's drain did not get: another replica's drain leased them between
 * the "posted" mark and this drain, and delivers them. Waits (bounded) until the store shows them
 * delivered or given up, so the slot's record says what happened rather than "pending".
 */
async function settledElsewhere(deps: SlotRunDeps, ids: readonly string[]): Promise<Map<string, Settled>> {
  const found = new Map<string, Settled>();
  for (let waited = 0; ; waited += ELSEWHERE_POLL_MS) {
    for (const entry of await deps.store.listOutbox()) {
      if (!ids.includes(entry.id) || entry.status === 'pending') continue;
      found.set(entry.id, { outcome: entry.status, ...(entry.receipt ? { receipt: entry.receipt } : {}) });
    }
    if (found.size === ids.length || waited >= ELSEWHERE_WAIT_MS) return found;
    try {
      await sleep(ELSEWHERE_POLL_MS, undefined, { signal: deps.signal });
    } catch {
      return found; // stopping: what is still pending stays in the outbox for the next start
    }
  }
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
  const taken = entries.filter((e) => !outcomes.has(e.id)).map((e) => e.id);
  const elsewhere = taken.length > 0 ? await settledElsewhere(deps, taken) : new Map<string, Settled>();
  const delivered = entries.map((e) => {
    const other = elsewhere.get(e.id);
    const receipt = receipts?.get(e.id) ?? other?.receipt;
    const outcome = outcomes.get(e.id) ?? other?.outcome ?? 'pending';
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
