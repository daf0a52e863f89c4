// What the deliverer is given and what its steps share: its options and defaults, a drain's
// outcomes, and the context built once per deliverer (delivery.ts, deliver-entry.ts).
import { setTimeout as sleepFor } from 'node:timers/promises';
import { createDestinationPauses, type DestinationPauses } from './destination-pause.ts';
import { createLeaseKeeper, repeatEvery, type LeaseKeeper, type Repeat } from './lease-keeper.ts';
import type { Store } from '../store/store.ts';
import type { RateLimitFacts } from '../services/webhook/rate-limit.ts';
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
  /** How long a claim holds an entry unrenewed (lease-keeper.ts renews it while it waits and is sent). */
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

const DELIVERY_DEFAULTS = Object.freeze({
  leaseMs: 5 * 60_000,
  triesPerDrain: 3,
  backoffMs: 1_000,
  maxWaitMs: 60_000,
  retryBaseMs: 60_000,
  retryMaxMs: 60 * 60_000,
  maxAgeMs: 24 * 60 * 60_000,
});

/** Codes that a retry cannot fix: the webhook was revoked or deleted, or the payload is refused. */
export const PERMANENT = new Set(['unauthorized', 'forbidden', 'not_found', 'invalid_request']);
/** Waits a destination asks for (429s) within one drain, replicas crowding it; then the outbox's. */
export const LIMITED_WAITS = 10;

/** Why a Discord post waits while the invalid-request limit is reached. */
export const INVALID_LIMIT_REASON =
  "Discord's invalid-request safety limit is reached (DISCORD_INVALID_REQUEST_LIMIT): scheduled posts to Discord wait for the end of its 10-minute window";

export type EntryOutcome = 'delivered' | 'pending' | 'given_up';

export interface DrainResult {
  /** Entry id to outcome, for every entry this drain handled. */
  outcomes: Map<string, EntryOutcome>;
  /** By entry id: the provider's id of the post, the channel it says it is in, why it was not delivered. */
  receipts?: Map<string, string>;
  channels?: Map<string, string>;
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

/** What the delivery steps share. */
export interface DeliveryContext {
  settings: DeliveryOptions & { [K in keyof typeof DELIVERY_DEFAULTS]: number };
  now: () => number;
  random: () => number;
  store: Store;
  log: JobLog;
  owner: string;
  pauses: DestinationPauses;
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
    leases: createLeaseKeeper(
      settings.store,
      settings.owner,
      settings.leaseMs,
      settings.log,
      settings.repeat ?? repeatEvery,
    ),
    sleep: settings.sleep ?? ((ms, signal) => sleepFor(ms, undefined, signal ? { signal } : undefined)),
  };
}

/** A file as the outbox keeps it: JSON has no bytes, so they travel as base64. */
export type StoredFile = Record<string, unknown> & { base64: string };

/** `markedAt` as for Deliverer.deliverHeld. */
export interface DeliverOpts {
  signal?: AbortSignal | undefined;
  markedAt?: number | undefined;
}

/** A failed send, with what the loop knows of it. */
export interface Failure {
  err: unknown;
  facts: RateLimitFacts | undefined;
  tries: { attempt: number; waits: number; waited: number };
  isUncertain: boolean;
}
