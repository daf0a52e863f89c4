// What the deliverer is given and what its steps share: its options with their defaults, the
// outcomes a drain answers with, and the context built from the options once per deliverer.
import { setTimeout as sleepFor } from 'node:timers/promises';
import { ownEntry } from '../domain/lookup.ts';
import { createDestinationPauses, type DestinationPauses } from './destination-pause.ts';
import { createLeaseKeeper, repeatEvery, type LeaseKeeper, type Repeat } from './lease-keeper.ts';
import type { Store } from '../store/store.ts';
import type { PlatformRefusal } from '../errors.ts';
import type { JobLog } from './job.ts';
import type { Services } from '../core/services.ts';
import type { ChannelClient, WebhookClient } from '../services/webhook/client.ts';
import type { RateBudget } from '../domain/rate-budget.ts';

export interface DeliveryOptions {
  store: Store;
  services: Services;
  log: JobLog;
  /** This process's lease owner id. */
  owner: string;
  now?: () => number;
  random?: () => number;
  /** Waits `ms` unless `signal` fires first (rejects then); tests pass one that moves a fake clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * How long a claim holds an entry unrenewed; renewed every third of it while the entry waits
   * its turn or is sent (lease-keeper.ts), so a crash frees it after at most this long.
   */
  leaseMs?: number;
  /** Runs the lease renewals; tests pass one that a fake clock drives. */
  repeat?: Repeat;
  /** Tries per entry within one drain before it goes back to the store. */
  triesPerDrain?: number;
  /** First in-process backoff; doubles per try, with full jitter. */
  backoffMs?: number;
  /** The longest 429 wait done in process; a longer one puts the entry back until then. */
  maxWaitMs?: number;
  /** First backoff between drains; doubles per attempt up to `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** An entry still undelivered after this long is given up on, with an error log. */
  maxAgeMs?: number;
  /** Named webhooks (WEBHOOK_URL_<NAME>) a webhook delivery may name; `default` is services.webhook. */
  destinations?: Readonly<Record<string, WebhookClient>>;
  /** The bot's own clients, for a delivery to `channel:<platform>:<id>` (this channel). */
  channels?: Readonly<Partial<Record<'discord' | 'slack', ChannelClient>>>;
  /** Discord's budgets: past its invalid-request limit, posts to Discord wait (deliver-entry.ts). */
  rateBudget?: RateBudget;
}

/**
 * The webhook client a destination name posts through: `default` is services.webhook, any other a
 * named one. A name is stored with its schedule, so "constructor" may outlive its
 * WEBHOOK_URL_CONSTRUCTOR: only the table's own entries count.
 */
export function webhookClientFor(
  sources: Pick<DeliveryOptions, 'services' | 'destinations'>,
  name: string,
): WebhookClient | undefined {
  return name === 'default' ? sources.services.webhook : ownEntry(sources.destinations ?? {}, name);
}

const DELIVERY_DEFAULTS = Object.freeze({
  leaseMs: 5 * 60_000,
  triesPerDrain: 3,
  backoffMs: 1_000,
  maxWaitMs: 60_000,
  retryBaseMs: 60_000,
  retryMaxMs: 60 * 60_000,
  maxAgeMs: 24 * 60 * 60_000,
}) satisfies Required<
  Omit<
    DeliveryOptions,
    | 'store'
    | 'services'
    | 'log'
    | 'owner'
    | 'now'
    | 'random'
    | 'sleep'
    | 'repeat'
    | 'destinations'
    | 'channels'
    | 'rateBudget'
  >
>;

export type EntryOutcome = 'delivered' | 'pending' | 'given_up';

export interface DrainResult {
  /** Entry id to outcome, for every entry this drain handled. */
  outcomes: Map<string, EntryOutcome>;
  /** Entry id to the provider's id of what was delivered (the webhook message id). */
  receipts?: Map<string, string>;
  /** Entry id to the channel the provider said it posted in (a Discord webhook's `channel_id`). */
  channels?: Map<string, string>;
  /** Entry id to why it was not delivered (given up on, or put back), with the provider's HTTP status. */
  failures?: Map<string, DeliveryFailure>;
}

export interface DeliveryFailure {
  reason: string;
  status?: number;
  /** The platform's word that the destination refuses herald for good: the schedule pauses. */
  refusal?: PlatformRefusal;
}

/** What one drain learns besides the outcomes. */
export type Notes = Required<Omit<DrainResult, 'outcomes'>>;
export const newNotes = (): Notes => ({ receipts: new Map(), channels: new Map(), failures: new Map() });

/** What the delivery steps share: the resolved options, the clock, the store and this owner. */
export interface DeliveryContext {
  settings: DeliveryOptions & { [K in keyof typeof DELIVERY_DEFAULTS]: number };
  now: () => number;
  random: () => number;
  store: Store;
  log: JobLog;
  owner: string;
  pauses: DestinationPauses;
  /** The leases on the entries this deliverer holds, renewed while they wait and are sent. */
  leases: LeaseKeeper;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function createDeliveryContext(options: DeliveryOptions): DeliveryContext {
  const settings = { ...DELIVERY_DEFAULTS, ...options };
  const now = settings.now ?? Date.now;
  return {
    settings,
    now,
    random: settings.random ?? Math.random,
    store: settings.store,
    log: settings.log,
    owner: settings.owner,
    pauses: createDestinationPauses(settings.store, now, (err, scope) =>
      settings.log.warn({ err, scope }, 'outbox.pause_not_saved'),
    ),
    leases: createLeaseKeeper({
      store: settings.store,
      owner: settings.owner,
      leaseMs: settings.leaseMs,
      log: settings.log,
      repeat: settings.repeat ?? repeatEvery,
    }),
    sleep: settings.sleep ?? ((ms, signal) => sleepFor(ms, undefined, signal ? { signal } : undefined)),
  };
}
