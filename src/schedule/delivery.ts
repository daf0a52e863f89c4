// Delivers the outbox: each entry is leased from the store, sent through its service, and marked
// delivered, put back with a backoff, or given up on with a logged error. A webhook POST carries no
// idempotency key, so the HTTP core does not retry it; this loop does: a destination's rate limit is
// waited out (destination-pause.ts: a 429, or a bucket the headers say is empty), 5xx answers are
// retried with jittered backoff, and what still fails stays in the store for the next tick or start.
// 401/403/404/400 will not get better: given up. A send with no answer (a timeout, a cut connection)
// may have posted: it is left leased and resent only once the lease ends, logged
// `outbox.resend_uncertain`. Destinations are delivered concurrently, each one's posts one at a time
// in the order they came, so a destination that hangs costs only its own posts.
import { setTimeout as sleepFor } from 'node:timers/promises';
import { ServiceError } from '../errors.ts';
import type { RateLimitFacts } from '../services/webhook/rate-limit.ts';
import { createDestinationPauses, scopesOf, type DestinationPauses } from './destination-pause.ts';
import { fromOutboxPayload } from './outbox-payload.ts';
import type { OutboxEntry, Store } from '../store/store.ts';
import type { Delivery, JobLog } from './job.ts';
import type { Services } from '../core/services.ts';
import type { ChannelClient, PostProgress, WebhookClient } from '../services/webhook/client.ts';
import { parseChannelDestination } from '../core/channel.ts';

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
  /** How long one drain may hold an entry; longer than every in-process wait and retry. */
  leaseMs?: number;
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
}

export const DELIVERY_DEFAULTS = Object.freeze({
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
    'store' | 'services' | 'log' | 'owner' | 'now' | 'random' | 'sleep' | 'destinations' | 'channels'
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
}

/** What one drain learns besides the outcomes. */
type Notes = Required<Omit<DrainResult, 'outcomes'>>;
const newNotes = (): Notes => ({ receipts: new Map(), channels: new Map(), failures: new Map() });

/** Codes that a retry cannot fix: the webhook was revoked or deleted, or the payload is refused. */
const PERMANENT = new Set(['unauthorized', 'forbidden', 'not_found', 'invalid_request']);
/** Waits a destination asks for (429s) within one drain, replicas crowding it; then the outbox's. */
const LIMITED_WAITS = 10;
const BATCH = 50;
const WIDE_BATCH = 200;
const MAX_BATCHES = 100;

export interface Deliverer {
  /** How long a claim holds an entry: an unanswered send is resent only after it. */
  readonly leaseMs: number;
  /** Delivers due entries; `includeBackingOff` also retries those waiting out a backoff. */
  drain(opts?: { includeBackingOff?: boolean; signal?: AbortSignal }): Promise<DrainResult>;
  /** Delivers entries this owner already holds (a slot's posts, leased to it when marked posted). */
  deliverHeld(entries: readonly OutboxEntry[], opts?: { signal?: AbortSignal }): Promise<DrainResult>;
}

/** What the delivery steps share: the resolved options, the clock, the store and this owner. */
interface DeliveryContext {
  settings: DeliveryOptions & { [K in keyof typeof DELIVERY_DEFAULTS]: number };
  now: () => number;
  random: () => number;
  store: Store;
  log: JobLog;
  owner: string;
  pauses: DestinationPauses;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Sends one delivery; resolves with the provider's id of what it created (message or email id).
 * `parts` is what an earlier try of a post made in parts already posted; `onRateLimit` is told what
 * each chat platform's answer said about the destination's rate limit.
 */
async function send(
  ctx: DeliveryContext,
  delivery: Delivery,
  parts: PostProgress,
  onRateLimit: (facts: RateLimitFacts) => void,
): Promise<{ id: string; channelId?: string }> {
  if (delivery.kind === 'webhook') {
    const name = delivery.destination ?? 'default';
    const channel = parseChannelDestination(name);
    if (channel) {
      // Posted by the bot itself; a platform herald is not connected to waits, like a missing webhook.
      const poster = ctx.settings.channels?.[channel.platform];
      if (!poster) throw new Error(`herald is not connected to ${channel.platform} to post into ${name}`);
      const posted = await poster.post(channel.id, delivery.message, { progress: parts, onRateLimit });
      return { id: posted.id, channelId: posted.channelId ?? channel.id };
    }
    // A named destination never falls back to another webhook: the post waits until it exists.
    const client = name === 'default' ? ctx.settings.services.webhook : ctx.settings.destinations?.[name];
    if (!client) throw new Error(`the webhook destination "${name}" is not configured`);
    return client.post(delivery.message, { onRateLimit });
  }
  if (!ctx.settings.services.email) throw new Error('the email service is not configured');
  return { id: (await ctx.settings.services.email.send(delivery.email)).id };
}

// A ServiceError's message is herald's own text (the provider's is `providerMessage`, kept for
// logs): "webhook.post failed: forbidden (HTTP 403)", or a client's sentence saying what to fix.
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function giveUp(
  ctx: DeliveryContext,
  entry: OutboxEntry,
  reason: string,
  err?: unknown,
): Promise<EntryOutcome> {
  await ctx.store.giveUpOutbox(entry.id, ctx.owner, reason);
  // Named by job and kind only: the payload and the webhook address (its token) stay out of logs.
  const fields = {
    job: entry.job,
    slotId: entry.slotId,
    kind: entry.kind,
    outboxId: entry.id,
    attempts: entry.attempts,
    reason,
    ...(err instanceof ServiceError ? { code: err.code, status: err.status } : {}),
  };
  ctx.log.error(fields, `${entry.job}: gave up delivering its ${entry.kind} post: ${reason}`);
  return 'given_up';
}

function warnUncertain(log: JobLog, entry: OutboxEntry): void {
  log.warn(
    {
      job: entry.job,
      slotId: entry.slotId,
      kind: entry.kind,
      outboxId: entry.id,
      inFlightSince: entry.inFlightAt === undefined ? undefined : new Date(entry.inFlightAt).toISOString(),
      reason: 'an earlier send got no answer (crash or timeout): the post may appear twice',
    },
    'outbox.resend_uncertain',
  );
}

async function putBack(
  ctx: DeliveryContext,
  entry: OutboxEntry,
  waitMs: number,
  err: unknown,
): Promise<EntryOutcome> {
  const base = Math.min(
    ctx.settings.retryBaseMs * 2 ** Math.max(0, entry.attempts - 1),
    ctx.settings.retryMaxMs,
  );
  const nextAttemptAt = ctx.now() + Math.max(waitMs, base);
  await ctx.store.rescheduleOutbox(entry.id, ctx.owner, nextAttemptAt, describe(err));
  ctx.log.warn(
    {
      job: entry.job,
      slotId: entry.slotId,
      kind: entry.kind,
      attempts: entry.attempts,
      error: describe(err),
      nextAttemptAt: new Date(nextAttemptAt).toISOString(),
    },
    'outbox.retry_scheduled',
  );
  return 'pending';
}

/**
 * A send that got no answer may have posted: it stays leased (the store's lease is its wait) and is
 * sent again once, after the lease, by whichever drain then claims it; never at once.
 */
function leftUncertain(ctx: DeliveryContext, entry: OutboxEntry, err: ServiceError): EntryOutcome {
  ctx.log.warn(
    {
      job: entry.job,
      slotId: entry.slotId,
      kind: entry.kind,
      outboxId: entry.id,
      error: describe(err),
      resendAfterMs: ctx.settings.leaseMs,
    },
    'outbox.outcome_unknown',
  );
  return 'pending';
}

async function deliverAll(
  ctx: DeliveryContext,
  entries: readonly OutboxEntry[],
  outcomes: Map<string, EntryOutcome>,
  notes: Notes,
  signal?: AbortSignal,
): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      const outcome = await ctx.pauses.inLane(scopesOf(entry).destination, () =>
        deliver(ctx, entry, notes, signal),
      );
      outcomes.set(entry.id, outcome);
    }),
  );
}

/** Delivers one entry, noting why when it is not delivered. */
async function deliver(
  ctx: DeliveryContext,
  entry: OutboxEntry,
  notes: Notes,
  signal?: AbortSignal,
): Promise<EntryOutcome> {
  const outcome = await deliverOnce(ctx, entry, notes, signal);
  if (outcome !== 'delivered' && !notes.failures.has(entry.id))
    notes.failures.set(entry.id, { reason: entry.lastError ?? 'not delivered yet' });
  return outcome;
}

async function deliverOnce(
  ctx: DeliveryContext,
  entry: OutboxEntry,
  notes: Notes,
  signal?: AbortSignal,
): Promise<EntryOutcome> {
  if (ctx.now() - entry.createdAt > ctx.settings.maxAgeMs) {
    return giveUp(
      ctx,
      entry,
      `not delivered within ${Math.round(ctx.settings.maxAgeMs / 60_000)} minutes: ${entry.lastError ?? 'unknown error'}`,
    );
  }
  const delivery = fromOutboxPayload(entry.payload);
  let isUncertain = entry.inFlightAt !== undefined;
  // A part already posted (a Slack message whose files failed) is on the entry: a retry skips it.
  const progress: PostProgress = {
    posted: entry.receipt,
    record: async (id) => {
      await ctx.store.markInFlight(entry.id, ctx.owner, true, id);
      progress.posted = id;
    },
  };
  const scopes = scopesOf(entry);
  // Waited once before the first send: this drain's own 429s are waited out below.
  const paused = await ctx.pauses.waitFor(scopes);
  if (paused > ctx.settings.maxWaitMs)
    return putBack(ctx, entry, paused, new Error('the destination asked to wait (rate limited)'));
  if (paused > 0) {
    try {
      await ctx.sleep(paused, signal);
    } catch {
      return putBack(ctx, entry, 0, new Error('stopped while the destination asked to wait'));
    }
  }
  // A wait the destination asked for is no failed try: the time waited (and LIMITED_WAITS) bound it.
  let waits = 0;
  let waited = 0;
  for (let attempt = 1; ;) {
    let facts: RateLimitFacts | undefined;
    try {
      if (isUncertain) warnUncertain(ctx.log, entry);
      // Recorded before the request: if this process dies before the answer, the next claim knows
      // the post may already be visible (a webhook has no idempotency key to make a resend safe).
      await ctx.store.markInFlight(entry.id, ctx.owner, true);
      isUncertain = true;
      const posted = await send(ctx, delivery, progress, (f) => (facts = f));
      const receipt = posted.id;
      await ctx.store.markDelivered(entry.id, receipt, entry.memory?.key);
      await ctx.pauses.learn(scopes, facts);
      notes.receipts.set(entry.id, receipt);
      if (posted.channelId !== undefined) notes.channels.set(entry.id, posted.channelId);
      ctx.log.info(
        { job: entry.job, slotId: entry.slotId, kind: entry.kind, attempts: entry.attempts, receipt },
        'outbox.delivered',
      );
      return 'delivered';
    } catch (err) {
      const isLimited = err instanceof ServiceError && err.code === 'rate_limited';
      const asked = await ctx.pauses.learn(scopes, facts, isLimited ? err.retryAfterMs : undefined);
      // A 204 to a wait=true post: Discord created the message and did not say its id.
      if (err instanceof ServiceError && err.code === 'bad_response' && err.status === 204) {
        await ctx.store.markDelivered(entry.id, undefined, entry.memory?.key);
        ctx.log.info(
          { job: entry.job, slotId: entry.slotId, kind: entry.kind, attempts: entry.attempts },
          'outbox.delivered_without_id',
        );
        return 'delivered';
      }
      // An answer (any HTTP status) means the provider did not take the post; a timeout or a cut
      // connection leaves it unknown.
      if (err instanceof ServiceError && err.status !== undefined) {
        isUncertain = false;
        await ctx.store.markInFlight(entry.id, ctx.owner, false);
      }
      notes.failures.set(entry.id, {
        reason: describe(err),
        ...(err instanceof ServiceError && err.status !== undefined ? { status: err.status } : {}),
      });
      if (err instanceof ServiceError && PERMANENT.has(err.code)) {
        const why =
          err.code === 'unauthorized' || err.code === 'not_found'
            ? `${err.code}: the ${err.service} rejected the post (revoked or deleted?)`
            : `${err.code}: the ${err.service} refused the post`;
        return giveUp(ctx, entry, why, err);
      }
      const isServiceError = err instanceof ServiceError;
      if (isUncertain && isServiceError) return leftUncertain(ctx, entry, err);
      const backoff = Math.max(1, Math.round(ctx.random() * ctx.settings.backoffMs * 2 ** (attempt - 1)));
      // Another failure's Retry-After (a 503's) is waited as it says, and counts as a try.
      const retryAfterMs = asked > 0 ? asked : isServiceError ? err.retryAfterMs : undefined;
      const waitMs = retryAfterMs ?? backoff;
      const isOutOfTries =
        asked > 0
          ? waits >= LIMITED_WAITS || waited + waitMs > ctx.settings.maxWaitMs
          : attempt >= ctx.settings.triesPerDrain || waitMs > ctx.settings.maxWaitMs;
      if (!isServiceError || isOutOfTries) {
        if (!isServiceError)
          ctx.log.error({ job: entry.job, kind: entry.kind, err }, 'outbox.delivery_crashed');
        return putBack(ctx, entry, retryAfterMs ?? 0, err);
      }
      ctx.log.debug(
        { job: entry.job, kind: entry.kind, attempt, code: err.code, delayMs: waitMs },
        'outbox.retry',
      );
      if (asked > 0) [waits, waited] = [waits + 1, waited + waitMs];
      else attempt++;
      try {
        await ctx.sleep(waitMs, signal);
      } catch {
        return putBack(ctx, entry, 0, err); // shutting down: the next start retries it
      }
    }
  }
}

export function createDeliverer(options: DeliveryOptions): Deliverer {
  const settings = { ...DELIVERY_DEFAULTS, ...options };
  const now = settings.now ?? Date.now;
  const ctx: DeliveryContext = {
    settings,
    now,
    random: settings.random ?? Math.random,
    store: settings.store,
    log: settings.log,
    owner: settings.owner,
    pauses: createDestinationPauses(settings.store, now, (err, scope) =>
      settings.log.warn({ err, scope }, 'outbox.pause_not_saved'),
    ),
    sleep: settings.sleep ?? ((ms, signal) => sleepFor(ms, undefined, signal ? { signal } : undefined)),
  };
  const { store, owner } = ctx;

  return {
    leaseMs: settings.leaseMs,
    async drain(opts) {
      const outcomes = new Map<string, EntryOutcome>();
      const notes = newNotes();
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        // Backing-off entries are taken in the first batch only, so that an entry this drain put
        // back is not tried twice in one go.
        const isFirstWide = batch === 0 && (opts?.includeBackingOff ?? false);
        const entries = await store.claimDueOutbox(
          owner,
          settings.leaseMs,
          isFirstWide ? WIDE_BATCH : BATCH,
          {
            includeBackingOff: isFirstWide,
          },
        );
        const fresh = entries.filter((e) => !outcomes.has(e.id));
        for (const e of entries) {
          if (outcomes.has(e.id)) await store.rescheduleOutbox(e.id, owner, now(), e.lastError ?? '');
        }
        if (fresh.length === 0) break;
        await deliverAll(ctx, fresh, outcomes, notes, opts?.signal);
      }
      return { outcomes, ...notes };
    },
    async deliverHeld(entries, opts) {
      const outcomes = new Map<string, EntryOutcome>();
      const notes = newNotes();
      await deliverAll(ctx, entries, outcomes, notes, opts?.signal);
      return { outcomes, ...notes };
    },
  };
}
