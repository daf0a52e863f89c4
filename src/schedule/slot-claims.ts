// The claim side of running slots in the one engine (schedule/runner.ts): the options it takes,
// the default claim owner, and the rule of one run per slot in this process (a second asker is
// told it is running; a throw of the store becomes a failed outcome, so the slot is not lost).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { SlotOutcome } from './slot-run.ts';

export interface SlotClaimOptions {
  now?: () => Date;
  /** This process's id in claims and leases; unique per process by default. */
  owner?: string;
  /** A slot missed while down is still run when younger than this. */
  catchupMinutes: number;
  /** How long a claim holds a slot before another replica may take it over. */
  leaseMs?: number;
  /** A run is aborted after this; keep it below `leaseMs`. */
  jobTimeoutMs?: number;
}

/** This process's claim owner: host, pid and a random part. */
export function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export function skippedOutcome(job: string, slotId: string, reason: SlotOutcome['reason']): SlotOutcome {
  return { job, slotId, status: 'skipped', reason, deliveries: [] };
}

export interface SlotGuard {
  /** The runs under way, for a stop that waits for them. */
  readonly running: ReadonlyMap<string, Promise<SlotOutcome>>;
  /** Runs `work` unless the same slot is running here; a throw becomes a failed outcome after `onError`. */
  once(
    job: string,
    slotId: string,
    work: () => Promise<SlotOutcome>,
    onError: (err: unknown) => void,
  ): Promise<SlotOutcome>;
}

export function createSlotGuard(): SlotGuard {
  const running = new Map<string, Promise<SlotOutcome>>();
  return {
    running,
    once(job, slotId, work, onError) {
      const key = `${job}|${slotId}`;
      if (running.has(key)) return Promise.resolve(skippedOutcome(job, slotId, 'running'));
      const run = work()
        .catch((err: unknown): SlotOutcome => {
          onError(err);
          return { job, slotId, status: 'failed', deliveries: [], error: err };
        })
        .finally(() => running.delete(key));
      running.set(key, run);
      return run;
    },
  };
}
