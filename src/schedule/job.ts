// The scheduled-job contract: a name and a `run` that hands its posts to `ctx.deliver`; the engine
// claims the slot, stores the posts with the "posted" mark, delivers them and logs.
import type { SendEmailInput } from '../services/email/client.ts';
import type { Landing, WebhookMessage } from '../services/webhook/client.ts';
import type { Store } from '../store/store.ts';
import type { CommandLog, NeededServices } from '../core/command.ts';
import type { ServiceKey, Services } from '../core/services.ts';

/** A job logs as a command does. */
export type JobLog = CommandLog;

/** A post a job wants made; it goes through the outbox, so it survives a crash or an outage. */
export type Delivery =
  /**
   * `destination`: a configured destination name (/schedule); absent: the `default` webhook.
   * `lands`: a status board or thread kept at the store's `key` (delivery.ts).
   */
  | {
      kind: 'webhook';
      message: WebhookMessage;
      destination?: string;
      lands?: Omit<Landing, 'at'> & { key: string };
    }
  /** `idempotencyKey` is required: the outbox may send again after a crash, the key makes it once. */
  | { kind: 'email'; email: SendEmailInput & { idempotencyKey: string } };

/** The scheduled fire a run belongs to, the same on every replica and retry. */
export interface JobSlot {
  /** The scheduled fire time in ISO 8601 (UTC), or `manual:<time>` for `npm run job`. */
  id: string;
  /** When the slot was due, not when it runs: time windows are computed from it. */
  scheduledAt: Date;
  reason: 'scheduled' | 'catch-up' | 'manual';
}

export interface JobContext<S extends Services = Services> {
  /** The services the job `needs`, each present. */
  services: S;
  store: Store;
  log: JobLog;
  now(): Date;
  /** Fires when the run takes too long or the process shuts down. */
  signal: AbortSignal;
  slot: JobSlot;
  /** A line the posts must end with (`withFooter`): simulated data bound for a real destination. */
  footer?: string;
  deliver(delivery: Delivery): void;
}

interface JobDef<K extends ServiceKey> {
  /** kebab-case; equals the file name under jobs/. */
  name: string;
  description: string;
  /** The job is not scheduled (and says which variables to set) when one of these is missing. */
  needs: readonly K[];
  /** Services used when present (the simulated-data guard counts them too). */
  uses?: readonly ServiceKey[];
  run(ctx: JobContext<Services & NeededServices<K>>): Promise<void>;
}

/** A job as defined, `uses` filled in. */
export interface Job extends Readonly<Required<Omit<JobDef<ServiceKey>, 'run'>>> {
  run(ctx: JobContext): Promise<void>;
}

const NAME_RE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** As defineCommand: `run` is typed with the services in `needs` present. */
export function defineJob<K extends ServiceKey = never>(def: JobDef<K>): Job {
  if (!NAME_RE.test(def.name)) throw new Error(`invalid job name "${def.name}": use kebab-case`);
  return Object.freeze({
    name: def.name,
    description: def.description,
    needs: Object.freeze([...def.needs]),
    uses: Object.freeze([...(def.uses ?? [])]),
    // A job missing a service in `needs` is disabled, never fired: the bag has them.
    run: (ctx: JobContext) => def.run(ctx as JobContext<Services & NeededServices<K>>),
  });
}

/** A built-in schedule: a job set by environment (jobs/index.ts), checked at start (when.ts). */
export interface JobSchedule {
  job: Job;
  cron: string;
  timezone: string;
  /** The variables that set `cron` and `timezone`, named in errors. */
  variables: { cron: string; timezone: string };
  /** Why it cannot run (its services are not configured): validated, not scheduled. */
  disabledReason?: string;
}
