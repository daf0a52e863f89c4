// What the deliverer is given and what its steps share: its options and defaults, a drain's
// outcomes, the outbox's payload, and the context built once per deliverer (delivery.ts) with its
// lease keeper.
import { createDestinationPauses } from './destination-pause.ts';
import type { Store } from '../store/store.ts';
import { sleepUnlessAborted } from '../store/rate-budget.ts';
import type { PlatformRefusal } from '../errors.ts';
import type { Delivery, JobLog } from './job.ts';
import type { Services } from '../core/services.ts';
import type { ChannelClient, WebhookClient } from '../services/webhook/client.ts';
import type { RateBudget } from '../domain/rate-budget.ts';

/** Calls `run` every `ms` until the returned function is called (`run` settles its own errors). */
export type Repeat = (ms: number, run: () => Promise<void>) => () => void;

const repeatEvery: Repeat = (ms, run) => {
  const timer = setInterval(() => void run(), ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** The deliverer's settings that have defaults. */
const DELIVERY_DEFAULTS = {
  now: Date.now,
  random: Math.random,
  /** Waits `ms` unless `signal` fires first (rejects then); tests pass one that moves a fake clock. */
  sleep: sleepUnlessAborted,
  /** How long a claim holds an entry unrenewed (renewed while it waits and is sent). */
  leaseMs: 5 * 60_000,
  /** Runs the lease renewals; tests pass one that a fake clock drives. */
  repeat: repeatEvery,
  /** Tries per entry within one drain before it goes back to the store. */
  triesPerDrain: 3,
  /** First in-process backoff; doubles per try, with full jitter. */
  backoffMs: 1_000,
  /** The longest 429 wait done in process; a longer one puts the entry back until then. */
  maxWaitMs: 60_000,
  /** First backoff between drains; doubles per attempt up to `retryMaxMs`. */
  retryBaseMs: 60_000,
  retryMaxMs: 60 * 60_000,
  /** An entry still undelivered after this long is given up on, with an error log. */
  maxAgeMs: 24 * 60 * 60_000,
};

export interface DeliveryOptions extends Partial<typeof DELIVERY_DEFAULTS> {
  store: Store;
  services: Services;
  log: JobLog;
  owner: string;
  /** Named webhooks (WEBHOOK_URL_<NAME>) a webhook delivery may name; `default` is services.webhook. */
  destinations?: Readonly<Record<string, WebhookClient>>;
  /** The bot's own clients, for a delivery to `channel:<platform>:<id>` (this channel). */
  channels?: Readonly<Partial<Record<'discord' | 'slack', ChannelClient>>>;
  /** Discord's budgets: past its invalid-request limit, posts to Discord wait (delivery.ts). */
  rateBudget?: RateBudget;
}

/** The options, defaults filled in. */
type DeliverySettings = typeof DELIVERY_DEFAULTS & DeliveryOptions;

export type EntryOutcome = 'delivered' | 'pending' | 'given_up';

export interface DeliveryFailure {
  reason: string;
  status?: number;
  /** The platform's word that the destination refuses herald for good: the schedule pauses. */
  refusal?: PlatformRefusal;
}

/**
 * What became of entry `id` in a drain (or a slot's delivery): the provider's id of the post once
 * delivered, the channel it is in, and why it was not delivered (yet), with the provider's HTTP status
 * when it answered.
 */
export interface EntryResult {
  id: string;
  outcome: EntryOutcome;
  receipt?: string;
  channelId?: string;
  failure?: DeliveryFailure;
}

// While a post waits its turn in its destination's lane and is sent, its lease is renewed every
// third of the lease, so that no other replica takes it over; one whose renewal the store refuses
// is another owner's now and never sent here (delivery.ts asks).
function createLeaseKeeper({ store, owner, leaseMs, log, repeat }: DeliverySettings) {
  const kept = new Set<string>();
  let stop: (() => void) | undefined;
  let isRenewing = false;

  async function renew(): Promise<void> {
    if (isRenewing || kept.size === 0) return;
    isRenewing = true;
    const ids = [...kept];
    try {
      const renewed = new Set(await store.updateHeld(ids, owner, { leaseMs }));
      const taken = ids.filter((id) => !renewed.has(id) && kept.has(id));
      // Lost: no longer renewed, and never sent here.
      for (const id of taken) kept.delete(id);
      if (taken.length > 0) log.warn({ outboxIds: taken, owner }, 'outbox.lease_lost');
    } catch (err) {
      // Not lost yet: the lease still runs, and the next renewal may reach the store.
      log.warn({ err, owner, entries: ids.length }, 'outbox.lease_not_renewed');
    } finally {
      isRenewing = false;
    }
  }

  return {
    /** Keeps renewing the lease on `id`, an entry this owner holds, until `release(id)`. */
    keep(id: string) {
      kept.add(id);
      stop ??= repeat(Math.max(1, Math.floor(leaseMs / 3)), renew);
    },
    release(id: string) {
      kept.delete(id);
      if (kept.size > 0 || !stop) return;
      stop();
      stop = undefined;
    },
    /** True once the store refused to renew `id`, kept until then: another owner holds it now. */
    isLost: (id: string) => !kept.has(id),
  };
}

/** What the delivery steps share: the options, defaults filled in, and the pauses and leases. */
export type DeliveryContext = ReturnType<typeof createDeliveryContext>;

export function createDeliveryContext(options: DeliveryOptions) {
  const settings = { ...DELIVERY_DEFAULTS, ...options };
  return {
    ...settings,
    pauses: createDestinationPauses(settings.store, settings.now, settings.log),
    leases: createLeaseKeeper(settings),
  };
}

/** A file as the outbox keeps it: JSON has no bytes, so they travel as base64. */
type StoredFile = Record<string, unknown> & { base64: string };

/** The JSON form of a delivery for the outbox. */
export function toOutboxPayload(delivery: Delivery): unknown {
  if (delivery.kind !== 'webhook' || delivery.message.files === undefined) return delivery;
  const files: StoredFile[] = delivery.message.files.map(({ bytes, ...f }) => ({
    ...f,
    base64: Buffer.from(bytes).toString('base64'),
  }));
  return { ...delivery, message: { ...delivery.message, files } };
}

/** The delivery an outbox entry holds. */
export function fromOutboxPayload(payload: unknown): Delivery {
  const delivery = payload as Delivery;
  if (delivery.kind !== 'webhook' || delivery.message.files === undefined) return delivery;
  const stored = delivery.message.files as unknown as StoredFile[];
  const files = stored.map(({ base64, ...f }) => ({
    ...f,
    bytes: new Uint8Array(Buffer.from(base64, 'base64')),
  })) as unknown as typeof delivery.message.files;
  return { ...delivery, message: { ...delivery.message, files } } as Delivery;
}
