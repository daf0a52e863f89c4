// One outbox entry's delivery: sent through its service or the bot's own channel client, then
// marked delivered, retried in process (a destination's asked-for wait, or a 5xx's backoff), put
// back in the store with a backoff (holding its destination for it, destination-pause.ts), put back
// behind an earlier post that holds the destination, left leased when the send got no answer, or
// given up on with a logged error.
import { ServiceError } from '../errors.ts';
import type { RateLimitFacts } from '../services/webhook/rate-limit.ts';
import { scopesOf } from './destination-pause.ts';
import { fromOutboxPayload } from './outbox-payload.ts';
import type { OutboxEntry } from '../store/store.ts';
import type { Delivery, JobLog } from './job.ts';
import type { PostProgress } from '../services/webhook/client.ts';
import { parseChannelDestination } from '../core/channel.ts';
import { webhookClientFor, type DeliveryContext, type EntryOutcome, type Notes } from './delivery-context.ts';

/** Codes that a retry cannot fix: the webhook was revoked or deleted, or the payload is refused. */
const PERMANENT = new Set(['unauthorized', 'forbidden', 'not_found', 'invalid_request']);
/** Waits a destination asks for (429s) within one drain, replicas crowding it; then the outbox's. */
const LIMITED_WAITS = 10;

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
  idempotencyKey: string,
): Promise<{ id: string; channelId?: string }> {
  if (delivery.kind === 'webhook') {
    const name = delivery.destination ?? 'default';
    const channel = parseChannelDestination(name);
    if (channel) {
      // Posted by the bot itself; a platform herald is not connected to waits, like a missing webhook.
      const poster = ctx.settings.channels?.[channel.platform];
      if (!poster) throw new Error(`herald is not connected to ${channel.platform} to post into ${name}`);
      // The outbox entry's id: the same on every resend, so Discord's nonce makes a resend safe.
      const posted = await poster.post(channel.id, delivery.message, {
        progress: parts,
        onRateLimit,
        idempotencyKey: idempotencyKey,
      });
      return { id: posted.id, channelId: posted.channelId ?? channel.id };
    }
    // A named destination never falls back to another webhook: the post waits until it exists.
    const client = webhookClientFor(ctx.settings, name);
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

/**
 * Why an entry goes back: its destination failed or asked to wait, an earlier post put back holds
 * the destination (no failed try: back until the hold ends), Discord's invalid-request limit stops
 * scheduled posting (`invalid-limit`: looked at again after `waitMs`, every post alike, so no hold),
 * or this process is stopping (the next start retries it). A destination's own reason then holds
 * it until the entry's retry, so that no later post to it goes first.
 */
type PutBackReason = 'destination' | 'held' | 'invalid-limit' | 'stopping';

/** Why a Discord post waits while the invalid-request limit is reached. */
const INVALID_LIMIT_REASON =
  "Discord's invalid-request safety limit is reached (DISCORD_INVALID_REQUEST_LIMIT): scheduled posts to Discord wait for the end of its 10-minute window";

/**
 * Whether Discord's invalid-request limit stops this delivery: a post rendered for Discord (a Slack
 * message is tagged `platform`), while the budget says the limit is reached.
 */
async function isStoppedByInvalidLimit(ctx: DeliveryContext, delivery: Delivery): Promise<boolean> {
  const budget = ctx.settings.rateBudget;
  if (!budget || delivery.kind !== 'webhook' || 'platform' in delivery.message) return false;
  return budget.invalidLimitReached();
}

async function putBack(
  ctx: DeliveryContext,
  entry: OutboxEntry,
  waitMs: number,
  err: unknown,
  why: PutBackReason = 'destination',
): Promise<EntryOutcome> {
  const base = Math.min(
    ctx.settings.retryBaseMs * 2 ** Math.max(0, entry.attempts - 1),
    ctx.settings.retryMaxMs,
  );
  // A held entry is due 1 ms after the hold ends, so that every store's claim (by due time first)
  // takes the holding entry no later than it, even when many are due at once.
  const exact = why === 'held' ? waitMs + 1 : why === 'invalid-limit' ? waitMs : undefined;
  const nextAttemptAt = ctx.now() + (exact ?? Math.max(waitMs, base));
  await ctx.store.rescheduleOutbox(entry.id, ctx.owner, nextAttemptAt, describe(err));
  if (why === 'destination' || why === 'held') await ctx.pauses.hold(scopesOf(entry), entry, nextAttemptAt);
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
 * The store says another owner holds the entry now (its lease ran out and another replica's pass
 * took it, or it was settled there): that owner sends it, never this process.
 */
function takenOver(ctx: DeliveryContext, entry: OutboxEntry, notes: Notes): EntryOutcome {
  ctx.log.warn(
    { job: entry.job, slotId: entry.slotId, kind: entry.kind, outboxId: entry.id },
    'outbox.taken_over',
  );
  notes.failures.set(entry.id, { reason: 'another replica took the post over' });
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

/** Delivers one entry, noting why when it is not delivered. */
export async function deliverEntry(
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
  if (ctx.leases.isLost(entry.id)) return takenOver(ctx, entry, notes);
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
  const wait = await ctx.pauses.waitFor(scopes, entry);
  if (wait.isHold || wait.ms > ctx.settings.maxWaitMs) {
    const why =
      wait.ms > ctx.settings.maxWaitMs
        ? 'the destination asked to wait (rate limited)'
        : 'an earlier post to this destination waits for its retry';
    return putBack(ctx, entry, wait.ms, new Error(why), wait.isHold ? 'held' : 'destination');
  }
  if (wait.ms > 0) {
    try {
      await ctx.sleep(wait.ms, signal);
    } catch {
      return putBack(ctx, entry, 0, new Error('stopped while the destination asked to wait'), 'stopping');
    }
  }
  // A wait the destination asked for is no failed try: the time waited (and LIMITED_WAITS) bound it.
  let waits = 0;
  let waited = 0;
  for (let attempt = 1; ;) {
    let facts: RateLimitFacts | undefined;
    if (await isStoppedByInvalidLimit(ctx, delivery)) {
      notes.failures.set(entry.id, { reason: INVALID_LIMIT_REASON });
      return putBack(ctx, entry, ctx.settings.retryBaseMs, new Error(INVALID_LIMIT_REASON), 'invalid-limit');
    }
    try {
      if (isUncertain) warnUncertain(ctx.log, entry);
      // Recorded before the request: if this process dies before the answer, the next claim knows
      // the post may already be visible (a webhook has no idempotency key to make a resend safe).
      // The store refuses when this owner no longer holds the entry: then it is not sent here.
      if (!(await ctx.store.markInFlight(entry.id, ctx.owner, true))) return takenOver(ctx, entry, notes);
      isUncertain = true;
      const posted = await send(ctx, delivery, progress, (f) => (facts = f), entry.id);
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
        ...(err instanceof ServiceError && err.refusal ? { refusal: err.refusal } : {}),
      });
      // A platform's refusal is for good whatever its code (Slack says it with HTTP 200).
      if (err instanceof ServiceError && (err.refusal !== undefined || PERMANENT.has(err.code))) {
        const why = err.refusal
          ? describe(err)
          : err.code === 'unauthorized' || err.code === 'not_found'
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
        return putBack(ctx, entry, 0, err, 'stopping');
      }
    }
  }
}
