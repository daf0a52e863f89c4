// The outbox's delivery. The drain: entries leased from the store in batches, and delivered
// concurrently per destination, each destination's posts one at a time in creation order, so a
// destination that hangs costs only its own posts. One entry: sent, then marked delivered, retried in
// process (a webhook POST has no idempotency key, so the HTTP core does not retry it), put back with
// a backoff (holding its destination, destination-pause.ts) or behind an earlier post that holds it,
// left leased when the send got no answer, or given up on; what still fails waits in the store.
import { ownEntry } from '../domain/lookup.ts';
import { ServiceError } from '../errors.ts';
import type { RateLimitFacts } from '../services/webhook/rate-limit.ts';
import { byTurn, scopesOf } from './destination-pause.ts';
import type { OutboxEntry } from '../store/store.ts';
import type { Delivery } from './job.ts';
import type { Place, PostedMessage, PostProgress, WebhookClient } from '../services/webhook/client.ts';
import { parseChannelDestination } from '../core/channel.ts';
import {
  createDeliveryContext,
  fromOutboxPayload,
  type DeliveryContext,
  type DeliveryOptions,
  type EntryOutcome,
  type EntryResult,
} from './delivery-options.ts';

/**
 * One entry's delivery as its steps share it: the deliverer's context, the entry, what became of it,
 * the stop, and when a slot's step marked its posts in flight (Deliverer.deliverHeld).
 */
interface Post {
  ctx: DeliveryContext;
  entry: OutboxEntry;
  note: EntryResult;
  signal?: AbortSignal | undefined;
  markedAt?: number | undefined;
  /** Its sends and the waits its destination asked for, in this drain. */
  tries: { attempt: number; waits: number; waited: number };
}

/** Codes that a retry cannot fix: the webhook was revoked or deleted, or the payload is refused. */
const PERMANENT = new Set(['unauthorized', 'forbidden', 'not_found', 'invalid_request']);
/** Waits a destination asks for (429s) within one drain, replicas crowding it; then the outbox's. */
const LIMITED_WAITS = 10;

/** Why a Discord post waits while the invalid-request limit is reached. */
const INVALID_LIMIT_REASON =
  "Discord's invalid-request safety limit is reached (DISCORD_INVALID_REQUEST_LIMIT): scheduled posts to Discord wait for the end of its 10-minute window";

/** The webhook client of a destination name; only the table's own entries (a name like "constructor" is stored). */
export function webhookClientFor(
  sources: Pick<DeliveryOptions, 'services' | 'destinations'>,
  name: string,
): WebhookClient | undefined {
  return name === 'default' ? sources.services.webhook : ownEntry(sources.destinations ?? {}, name);
}

/** Sends one delivery; resolves with the provider's id of what it created. */
async function send(
  ctx: DeliveryContext,
  delivery: Delivery,
  parts: PostProgress,
  onRateLimit: (facts: RateLimitFacts) => void,
  idempotencyKey: string,
): Promise<{ id: string; channelId?: string }> {
  if (delivery.kind === 'webhook') {
    const name = delivery.destination ?? 'default';
    const channel = parseChannelDestination(name);
    // Where its schedule's earlier posts left a board or a thread (mode:edit, thread:yes).
    const { lands } = delivery;
    const stored = lands && (await ctx.store.getValue(lands.key));
    const at = stored ? (JSON.parse(stored) as Place) : undefined;
    const opts = { onRateLimit, lands: lands && { how: lands.how, title: lands.title, at } };
    let posted: PostedMessage;
    if (channel) {
      const poster = ctx.channels?.[channel.platform];
      if (!poster) throw new Error(`herald is not connected to ${channel.platform} to post into ${name}`);
      // The entry's id is the same on every resend: Discord's nonce makes a resend safe.
      posted = await poster.post(channel.id, delivery.message, { ...opts, progress: parts, idempotencyKey });
      posted = { ...posted, channelId: posted.channelId ?? channel.id };
    } else {
      // A named destination never falls back to another webhook: the post waits until it exists.
      const client = webhookClientFor(ctx, name);
      if (!client) throw new Error(`the webhook destination "${name}" is not configured`);
      posted = await client.post(delivery.message, opts);
    }
    if (lands && posted.landed) await ctx.store.setValue(lands.key, JSON.stringify(posted.landed));
    return posted;
  }
  if (!ctx.services.email) throw new Error('the email service is not configured');
  return { id: (await ctx.services.email.send(delivery.email)).id };
}

// A ServiceError's message is herald's own text (the provider's, `providerMessage`, stays in logs).
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** An entry as the log names it: its payload and the webhook address (a token) stay out. */
const named = ({ job, slotId, kind, id }: OutboxEntry) => ({ job, slotId, kind, outboxId: id });

async function giveUp({ ctx, entry }: Post, reason: string, err?: unknown): Promise<EntryOutcome> {
  await ctx.store.updateHeld([entry.id], ctx.owner, { giveUp: reason });
  const service = err instanceof ServiceError ? { code: err.code, status: err.status } : {};
  const fields = { ...named(entry), attempts: entry.attempts, reason, ...service };
  ctx.log.error(fields, `${entry.job}: gave up delivering its ${entry.kind} post: ${reason}`);
  return 'given_up';
}

/**
 * Why an entry goes back: its destination failed or asked to wait, an earlier post holds the
 * destination, Discord's invalid-request limit (every post alike, so no hold), or a stop. The first
 * two hold the destination until the entry's retry, so that no later post to it goes first.
 */
type PutBackReason = 'destination' | 'held' | 'invalid-limit' | 'stopping';

async function putBack(
  { ctx, entry }: Post,
  waitMs: number,
  err: unknown,
  why: PutBackReason = 'destination',
): Promise<EntryOutcome> {
  const { retryBaseMs, retryMaxMs } = ctx;
  const base = Math.min(retryBaseMs * 2 ** Math.max(0, entry.attempts - 1), retryMaxMs);
  // A held entry is due 1 ms after the hold ends, so that every store's claim (by due time first)
  // takes the holding entry no later than it, even when many are due at once.
  const exact = why === 'held' ? waitMs + 1 : why === 'invalid-limit' ? waitMs : undefined;
  const nextAttemptAt = ctx.now() + (exact ?? Math.max(waitMs, base));
  await ctx.store.updateHeld([entry.id], ctx.owner, { retryAt: nextAttemptAt, error: describe(err) });
  if (why === 'destination' || why === 'held') await ctx.pauses.hold(scopesOf(entry), entry, nextAttemptAt);
  const retry = { attempts: entry.attempts, nextAttemptAt: new Date(nextAttemptAt).toISOString() };
  ctx.log.warn({ ...named(entry), error: describe(err), ...retry }, 'outbox.retry_scheduled');
  return 'pending';
}

/** The store says another owner holds the entry now: that owner sends it, never this process. */
function takenOver({ ctx, entry, note }: Post): EntryOutcome {
  ctx.log.warn(named(entry), 'outbox.taken_over');
  note.failure = { reason: 'another replica took the post over' };
  return 'pending';
}

/**
 * Waits out what the destination asked before the first send; an outcome when the entry goes back
 * instead. A fresh post marked in flight by its slot's step (`markedAt`) is unmarked first.
 */
async function waitTurn(post: Post): Promise<EntryOutcome | 'waited' | undefined> {
  const { ctx, entry } = post;
  const wait = await ctx.pauses.waitFor(scopesOf(entry), entry);
  if (post.markedAt !== undefined && (wait.isHold || wait.ms > 0))
    await ctx.store.updateHeld([entry.id], ctx.owner, { inFlight: false });
  if (wait.isHold || wait.ms > ctx.maxWaitMs) {
    const why =
      wait.ms > ctx.maxWaitMs
        ? 'the destination asked to wait (rate limited)'
        : 'an earlier post to this destination waits for its retry';
    return putBack(post, wait.ms, new Error(why), wait.isHold ? 'held' : 'destination');
  }
  if (wait.ms <= 0) return undefined;
  try {
    await ctx.sleep(wait.ms, post.signal);
    return 'waited';
  } catch {
    return putBack(post, 0, new Error('stopped while the destination asked to wait'), 'stopping');
  }
}

/** A send's success: marked delivered (the watch's memory with it), noted and logged. */
async function delivered({ ctx, entry, note }: Post, posted: Partial<PostedMessage>): Promise<EntryOutcome> {
  const receipt = posted.id;
  await ctx.store.markDelivered(entry.id, receipt, entry.memory?.key);
  Object.assign(note, { receipt, channelId: posted.channelId });
  const fields = { ...named(entry), attempts: entry.attempts };
  // A 204 to a wait=true post: Discord created the message and did not say its id.
  if (receipt === undefined) ctx.log.info(fields, 'outbox.delivered_without_id');
  else ctx.log.info({ ...fields, receipt }, 'outbox.delivered');
  return 'delivered';
}

/** Why a failure is for good, one sentence; undefined when a retry may fix it. */
function permanentReason(err: unknown): string | undefined {
  if (!(err instanceof ServiceError)) return undefined;
  // A platform's refusal is for good whatever its code (Slack says it with HTTP 200).
  if (err.refusal) return describe(err);
  if (!PERMANENT.has(err.code)) return undefined;
  return err.code === 'unauthorized' || err.code === 'not_found'
    ? `${err.code}: the ${err.service} rejected the post (revoked or deleted?)`
    : `${err.code}: the ${err.service} refused the post`;
}

/** Delivers one entry. */
async function deliverEntry(post: Post): Promise<EntryOutcome> {
  const { ctx, entry, note, markedAt, tries } = post;
  if (ctx.leases.isLost(entry.id)) return takenOver(post);
  if (ctx.now() - entry.createdAt > ctx.maxAgeMs) {
    const minutes = Math.round(ctx.maxAgeMs / 60_000);
    const reason = `not delivered within ${minutes} minutes: ${entry.lastError ?? 'unknown error'}`;
    return giveUp(post, reason);
  }
  const delivery = fromOutboxPayload(entry.payload);
  const progress: PostProgress = {
    posted: entry.receipt,
    record: async (id) => {
      await ctx.store.updateHeld([entry.id], ctx.owner, { inFlight: true, receipt: id });
      progress.posted = id;
    },
  };
  // Waited once before the first send: this drain's own 429s are waited out below.
  const early = await waitTurn(post);
  if (early !== undefined && early !== 'waited') return early;
  // A slot's fresh post, marked in flight with its lease and sent within a third of it (before any
  // renewal was due), is surely still this process's: its send needs no store step of its own.
  let isMarked = early === undefined && markedAt !== undefined && ctx.now() - markedAt < ctx.leaseMs / 3;
  const isForDiscord = delivery.kind === 'webhook' && !('platform' in delivery.message);
  for (;;) {
    let facts: RateLimitFacts | undefined;
    // Discord's invalid-request limit stops a post rendered for Discord (a Slack one is tagged `platform`).
    if (isForDiscord && (await ctx.rateBudget?.invalidLimitReached())) {
      if (isMarked) await ctx.store.updateHeld([entry.id], ctx.owner, { inFlight: false });
      note.failure = { reason: INVALID_LIMIT_REASON };
      return putBack(post, ctx.retryBaseMs, new Error(INVALID_LIMIT_REASON), 'invalid-limit');
    }
    try {
      // Only a first send can be a resend: a drain sends again only after an answer (afterFailure).
      if (entry.inFlightAt !== undefined && tries.attempt + tries.waits === 1) {
        const inFlightSince = new Date(entry.inFlightAt).toISOString();
        const reason = 'an earlier send got no answer (crash or timeout): the post may appear twice';
        ctx.log.warn({ ...named(entry), inFlightSince, reason }, 'outbox.resend_uncertain');
      }
      // Before the request: if this process dies, the next claim knows the post may be visible.
      if (!isMarked && (await ctx.store.updateHeld([entry.id], ctx.owner, { inFlight: true })).length === 0)
        return takenOver(post);
      isMarked = false;
      const posted = await send(ctx, delivery, progress, (f) => (facts = f), entry.id);
      const outcome = await delivered(post, posted);
      await ctx.pauses.learn(scopesOf(entry), facts);
      return outcome;
    } catch (err) {
      const outcome = await afterFailure(post, err, facts);
      if (outcome !== undefined) return outcome;
    }
  }
}

/** What a failed send comes to: an outcome, or undefined to send again after a wait. */
async function afterFailure(
  post: Post,
  err: unknown,
  facts?: RateLimitFacts,
): Promise<EntryOutcome | undefined> {
  const { ctx, entry, note, tries } = post;
  const isServiceError = err instanceof ServiceError;
  const isLimited = isServiceError && err.code === 'rate_limited';
  const asked = await ctx.pauses.learn(scopesOf(entry), facts, isLimited ? err.retryAfterMs : undefined);
  if (isServiceError && err.code === 'bad_response' && err.status === 204) return delivered(post, {});
  // Any HTTP status: the provider did not take the post; a timeout or a cut connection leaves it unknown.
  const isAnswered = isServiceError && err.status !== undefined;
  if (isAnswered) await ctx.store.updateHeld([entry.id], ctx.owner, { inFlight: false });
  note.failure = {
    reason: describe(err),
    ...(isAnswered ? { status: err.status } : {}),
    ...(isServiceError && err.refusal ? { refusal: err.refusal } : {}),
  };
  const permanent = permanentReason(err);
  if (permanent !== undefined) return giveUp(post, permanent, err);
  if (isServiceError && !isAnswered) {
    // It may have posted: it stays leased, and is resent only after the lease.
    const fields = { ...named(entry), error: describe(err), resendAfterMs: ctx.leaseMs };
    ctx.log.warn(fields, 'outbox.outcome_unknown');
    return 'pending';
  }
  const backoff = Math.max(1, Math.round(ctx.random() * ctx.backoffMs * 2 ** (tries.attempt - 1)));
  // Another failure's Retry-After (a 503's) is waited as it says, and counts as a try.
  const retryAfterMs = asked > 0 ? asked : isServiceError ? err.retryAfterMs : undefined;
  const waitMs = retryAfterMs ?? backoff;
  // A wait the destination asked for is no failed try: the time waited (and LIMITED_WAITS) bound it.
  const isOutOfTries =
    asked > 0
      ? tries.waits >= LIMITED_WAITS || tries.waited + waitMs > ctx.maxWaitMs
      : tries.attempt >= ctx.triesPerDrain || waitMs > ctx.maxWaitMs;
  if (!isServiceError || isOutOfTries) {
    if (!isServiceError) ctx.log.error({ ...named(entry), err }, 'outbox.delivery_crashed');
    return putBack(post, retryAfterMs ?? 0, err);
  }
  ctx.log.debug({ ...named(entry), attempt: tries.attempt, code: err.code, delayMs: waitMs }, 'outbox.retry');
  if (asked > 0) Object.assign(tries, { waits: tries.waits + 1, waited: tries.waited + waitMs });
  else tries.attempt++;
  try {
    await ctx.sleep(waitMs, post.signal);
  } catch {
    return putBack(post, 0, err, 'stopping');
  }
  return undefined;
}

const BATCH = 50;
const WIDE_BATCH = 200;
const MAX_BATCHES = 100;

export type Deliverer = ReturnType<typeof createDeliverer>;

/** Delivers `entries`, each destination's in its lane; what became of each, in their order. */
function deliverAll(
  ctx: DeliveryContext,
  entries: readonly OutboxEntry[],
  opts: Pick<Post, 'signal' | 'markedAt'> = {},
): Promise<EntryResult[]> {
  return Promise.all(
    entries.map(async (entry) => {
      const note: EntryResult = { id: entry.id, outcome: 'pending' };
      ctx.leases.keep(entry.id);
      try {
        const post = { ctx, entry, note, tries: { attempt: 1, waits: 0, waited: 0 }, ...opts };
        note.outcome = await ctx.pauses.inLane(scopesOf(entry).destination, () => deliverEntry(post));
      } finally {
        ctx.leases.release(entry.id);
      }
      if (note.outcome === 'delivered') delete note.failure;
      else note.failure ??= { reason: entry.lastError ?? 'not delivered yet' };
      return note;
    }),
  );
}

export function createDeliverer(options: DeliveryOptions) {
  const ctx = createDeliveryContext(options);
  const { store, owner, now, leaseMs } = ctx;

  return {
    /** How long a claim holds an entry: an unanswered send is resent only after it. */
    leaseMs,
    /** Delivers due entries; `includeBackingOff` also retries those waiting out a backoff. */
    async drain(opts?: { includeBackingOff?: boolean; signal?: AbortSignal }): Promise<EntryResult[]> {
      const drained = new Map<string, EntryResult>();
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        // Backing-off entries in the first batch only: one this drain put back is not tried twice.
        const isFirstWide = batch === 0 && (opts?.includeBackingOff ?? false);
        const limit = isFirstWide ? WIDE_BATCH : BATCH;
        const entries = await store.claimDueOutbox(owner, leaseMs, limit, {
          includeBackingOff: isFirstWide,
        });
        // In creation order, whatever order the store claimed them in, for each destination's lane.
        const fresh = entries.filter((e) => !drained.has(e.id)).sort(byTurn);
        for (const e of entries) {
          if (drained.has(e.id))
            await store.updateHeld([e.id], owner, { retryAt: now(), error: e.lastError ?? '' });
        }
        if (fresh.length === 0) break;
        for (const result of await deliverAll(ctx, fresh, { signal: opts?.signal }))
          drained.set(result.id, result);
      }
      return [...drained.values()];
    },
    /** Delivers a slot's posts, leased to this owner by markPosted at `markedAt`: what became of each, in order. */
    deliverHeld: (entries: readonly OutboxEntry[], opts?: Pick<Post, 'signal' | 'markedAt'>) =>
      deliverAll(ctx, entries, opts),
  };
}
