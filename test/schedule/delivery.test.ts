// Outbox delivery against the loopback fake webhook, on each store: memory, node:sqlite (a temp
// file) and the real Redis on 127.0.0.1:6379 (a unique key prefix per run, deleted afterwards).
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDeliverer } from '../../src/schedule/delivery.ts';
import type { DeliveryOptions } from '../../src/schedule/delivery-options.ts';
import { toOutboxPayload } from '../../src/schedule/delivery-options.ts';
import type { Delivery } from '../../src/schedule/job.ts';
import { route } from '../../src/sandbox/layout.ts';
import { WEBHOOK_MAGIC, discordRateLimitResponse } from '../../src/sandbox/webhook.ts';
import type { Store } from '../../src/store/index.ts';
import {
  FAST_DELIVERY,
  WEBHOOK_TOKEN,
  captureLog,
  fakeClock,
  fakeSleep,
  postedContents,
  storeBackends,
  startWebhookFake,
  waitFor,
  type FakeClock,
  type WebhookFake,
} from '../jobs/harness.ts';
import { storeScratch } from '../support/scratch.ts';
import { enqueue } from '../support/enqueue.ts';

const POST = route('webhook', '/:id/:token');
const { dir, runPrefix } = storeScratch('herald-delivery-');
let fake: WebhookFake;
const opened: Store[] = [];

const backends = storeBackends(dir, runPrefix);

beforeAll(async () => {
  fake = await startWebhookFake();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  fake.inbox.clear();
  fake.server.resetHandlers();
  fake.server.requests.length = 0;
});

/** Answers the first `times` posts with `respond`, then lets the real fake answer. */
function failFirst(times: number, respond: () => Response) {
  let left = times;
  fake.server.use(
    // Returning nothing falls through to the sandbox handler behind this override.
    http.post(POST, () => (left-- > 0 ? respond() : undefined)),
  );
}

const badGateway = () =>
  HttpResponse.json(
    { message: '502: Bad Gateway', code: 0 },
    { status: 502, headers: { 'content-type': 'application/json' } },
  );

let backend = backends[0]!;

/** A deliverer over a new store of the current backend on `clock`; `delivery` overrides its options. */
async function openDeliverer(
  opts: {
    clock?: FakeClock;
    webhook?: Parameters<WebhookFake['client']>[0];
    delivery?: Partial<DeliveryOptions>;
  } = {},
) {
  const clock = opts.clock ?? fakeClock('2025-11-22T08:00:00Z');
  const store = await backend.open(clock);
  opened.push(store);
  const captured = captureLog();
  const deliverer = createDeliverer({
    store,
    services: { webhook: fake.client(opts.webhook) },
    log: captured.log,
    owner: 'test-process',
    now: clock.nowMs,
    ...FAST_DELIVERY,
    ...opts.delivery,
  });
  return { clock, store, deliverer, ...captured };
}

/** openDeliverer with one webhook post of the daily report in the outbox. */
async function setup(opts: Parameters<typeof openDeliverer>[0] = {}) {
  const opened = await openDeliverer(opts);
  const payload: Delivery = { kind: 'webhook', message: { username: 'herald', content: 'daily report' } };
  await enqueue(opened.store, {
    id: 'analytics-summary|slot|0:webhook',
    job: 'analytics-summary',
    slotId: 'slot',
    kind: 'webhook',
    payload,
  });
  return opened;
}

describe.each(backends)('outbox delivery with the $name store', (b) => {
  beforeEach(() => {
    backend = b;
  });

  it('retries a webhook 5xx with backoff and delivers once when it recovers', async () => {
    failFirst(2, badGateway);
    const { deliverer, store } = await setup();
    const outcomes = (await deliverer.drain()).map((r) => r.outcome);
    expect(outcomes).toEqual(['delivered']);
    expect(fake.server.requests).toHaveLength(3);
    expect(postedContents(fake.inbox)).toEqual(['daily report']);
    expect(await store.listOutbox('delivered')).toHaveLength(1);
  });

  it('records the message id Discord confirmed (wait=true) with the slot', async () => {
    const { deliverer, store, find } = await setup();
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    const messageId = fake.inbox.messages[0]!.id;
    expect(fake.server.requests[0]!.query.get('wait')).toBe('true');
    expect(await store.listOutbox('delivered')).toEqual([
      expect.objectContaining({ slotId: 'slot', receipt: messageId }),
    ]);
    expect(find('outbox.delivered')[0]).toMatchObject({ receipt: messageId });
  });

  it('counts a 204 to a wait=true post as delivered without a message id, and never posts it again', async () => {
    failFirst(3, () => new HttpResponse(null, { status: 204 }));
    const { deliverer, store, clock, find } = await setup();
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    const [delivered] = await store.listOutbox('delivered');
    expect(delivered!.receipt).toBeUndefined();
    expect(find('outbox.delivered_without_id')).toHaveLength(1);
    clock.advance(24 * 3_600_000);
    expect(await deliverer.drain({ includeBackingOff: true })).toEqual([]);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('keeps the files of a post through the outbox and uploads them with it', async () => {
    const { deliverer, store } = await setup();
    const bytes = new Uint8Array(3000).map((_, i) => (i * 31) & 0xff);
    const delivery: Delivery = {
      kind: 'webhook',
      message: {
        content: 'briefing',
        files: [{ name: 'briefing.mp3', contentType: 'audio/mpeg', bytes }],
      },
    };
    await store.markDelivered('analytics-summary|slot|0:webhook');
    await enqueue(store, {
      id: 'say|slot|0:webhook',
      job: 'say',
      slotId: 'slot',
      kind: 'webhook',
      payload: toOutboxPayload(delivery),
    });
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(fake.inbox.messages[0]!.files).toEqual([
      { field: 'files[0]', filename: 'briefing.mp3', contentType: 'audio/mpeg', bytes },
    ]);
  });

  it('marks a send in flight until the provider answers: a 502 clears it, a cut connection leaves it and the resend is logged', async () => {
    failFirst(1, badGateway);
    const answered = await setup();
    expect((await answered.deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(answered.find('outbox.resend_uncertain')).toEqual([]);

    fake.inbox.clear();
    failFirst(1, () => HttpResponse.error());
    const cut = await setup();
    await cut.store.markDelivered('analytics-summary|slot|0:webhook');
    await enqueue(cut.store, {
      id: 'cut',
      job: 'analytics-summary',
      slotId: 'next-slot',
      kind: 'webhook',
      payload: { kind: 'webhook', message: { content: 'daily report' } } satisfies Delivery,
    });
    expect((await cut.deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    expect(cut.find('outbox.outcome_unknown')).toEqual([expect.objectContaining({ outboxId: 'cut' })]);
    cut.clock.advance(5 * 60_000 + 1);
    expect((await cut.deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(cut.find('outbox.resend_uncertain')).toEqual([expect.objectContaining({ outboxId: 'cut' })]);
    expect(postedContents(fake.inbox)).toEqual(['daily report']);
  });

  it('does not resend a post whose outcome is unknown until the lease ends, then once', async () => {
    failFirst(1, () => HttpResponse.error());
    const { deliverer, clock, find } = await setup();
    expect((await deliverer.drain({ includeBackingOff: true })).map((r) => r.outcome)).toEqual(['pending']);
    // Neither this drain nor the next ones before the lease ends send it again.
    clock.advance(60_000);
    expect(await deliverer.drain({ includeBackingOff: true })).toEqual([]);
    expect(fake.server.requests).toHaveLength(1);
    clock.advance(4 * 60_000 + 1);
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(fake.server.requests).toHaveLength(2);
    expect(find('outbox.resend_uncertain')).toHaveLength(1);
  });

  it('logs a resend as uncertain once: its 5xx answer makes the next send within the drain a certain one', async () => {
    failFirst(1, () => HttpResponse.error());
    const { deliverer, clock, find } = await setup();
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    clock.advance(5 * 60_000 + 1);
    failFirst(1, badGateway);
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(fake.server.requests).toHaveLength(3);
    expect(find('outbox.resend_uncertain')).toHaveLength(1);
    expect(find('outbox.outcome_unknown')).toHaveLength(1);
  });

  it('keeps a post that still fails in the outbox and delivers it once on the next tick', async () => {
    failFirst(4, badGateway);
    const { deliverer, store, clock, find } = await setup();
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    const [waiting] = await store.listOutbox('pending');
    expect(waiting).toMatchObject({ attempts: 1, lastError: 'webhook.post failed: upstream (HTTP 502)' });
    expect(waiting!.nextAttemptAt).toBe(clock.ms + 1_000);
    expect(find('outbox.retry_scheduled')).toHaveLength(1);
    // Not due yet: a plain tick leaves it; once due, the next tick delivers it.
    expect(await deliverer.drain()).toEqual([]);
    clock.advance(1_000);
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(postedContents(fake.inbox)).toEqual(['daily report']);
    expect(fake.server.requests).toHaveLength(5);
  });

  it('waits out a 429 for its retry_after before posting again', async () => {
    failFirst(1, () => discordRateLimitResponse({ retryAfterS: 0.35 }));
    const clock = fakeClock('2025-11-22T08:00:00Z');
    const { sleeps, sleep } = fakeSleep(clock.advance);
    const { deliverer } = await setup({ clock, delivery: { sleep } });
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(sleeps).toEqual([350]);
    expect(fake.server.requests).toHaveLength(2);
    expect(postedContents(fake.inbox)).toEqual(['daily report']);
  });

  it('puts back a 429 whose retry_after is longer than it waits in process, due when the limit lifts', async () => {
    failFirst(1, () => discordRateLimitResponse({ retryAfterS: 64.57 }));
    const { deliverer, store, clock } = await setup();
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    const [waiting] = await store.listOutbox('pending');
    expect(waiting!.nextAttemptAt).toBe(clock.ms + 64_570);
    expect(fake.inbox.messages).toHaveLength(0);
  });

  it('gives up on 401 Invalid Webhook Token with an error naming the job, never the token', async () => {
    const wrongToken = 'revoked-token-of-herald-webhook-99';
    const { deliverer, store, find, raw } = await setup({ webhook: { token: wrongToken } });
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['given_up']);
    expect(fake.server.requests).toHaveLength(1);
    const [given] = await store.listOutbox('given_up');
    expect(given!.reason).toBe('unauthorized: the webhook rejected the post (revoked or deleted?)');
    const [line] = raw.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 50);
    expect(line).toMatchObject({ job: 'analytics-summary', code: 'unauthorized', status: 401 });
    expect(line!.msg).toBe(
      'analytics-summary: gave up delivering its webhook post: unauthorized: the webhook rejected the post (revoked or deleted?)',
    );
    expect(find('outbox.delivered')).toHaveLength(0);
    for (const l of raw) {
      expect(l).not.toContain(wrongToken);
      expect(l).not.toContain(WEBHOOK_TOKEN);
    }
    // Given up means given up: later ticks and restarts leave it alone.
    expect(await deliverer.drain({ includeBackingOff: true })).toEqual([]);
  });

  it('gives up on 404 Unknown Webhook, as Discord asks clients to stop using it', async () => {
    const { deliverer, store, lines } = await setup({ webhook: { id: WEBHOOK_MAGIC.unknownWebhookId } });
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['given_up']);
    // Discord's 10015: a refusal, whose reason is the sentence the schedule's creator reads.
    expect((await store.listOutbox('given_up'))[0]!.reason).toBe(
      'herald cannot post to the webhook: Discord says the webhook was deleted or its token reset',
    );
    expect(lines.filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({ job: 'analytics-summary', code: 'not_found', status: 404 }),
    ]);
  });

  it('gives up with an error log on a post still undelivered after the maximum age', async () => {
    failFirst(100, badGateway);
    const { deliverer, store, clock, find } = await setup({
      delivery: { maxAgeMs: 60_000, triesPerDrain: 1 },
    });
    await deliverer.drain();
    clock.advance(60_001);
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['given_up']);
    expect((await store.listOutbox('given_up'))[0]!.reason).toBe(
      'not delivered within 1 minutes: webhook.post failed: upstream (HTTP 502)',
    );
    expect(find('outbox.retry_scheduled')).toHaveLength(1);
  });

  it("drains destinations at once, each one in its posts' order, a slow one holding up only itself", async () => {
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    const slow = {
      post: (message: { content?: string }) =>
        new Promise<{ id: string }>((resolve) => {
          sent.push(`ops ${message.content}`);
          answers.push(() => resolve({ id: String(1575644545423507458n + BigInt(answers.length)) }));
        }),
      close: () => Promise.resolve(),
    };
    const { deliverer, store, clock } = await openDeliverer({ delivery: { destinations: { ops: slow } } });
    for (const [i, destination] of ['ops', 'default', 'ops', 'default'].entries()) {
      const delivery: Delivery = { kind: 'webhook', destination, message: { content: `slot ${i}` } };
      await enqueue(store, { id: `e${i}`, job: 'j', slotId: `s${i}`, kind: 'webhook', payload: delivery });
      clock.advance(1);
    }
    const draining = deliverer.drain();
    // The healthy default gets both its posts, in order, while ops's first post is unanswered.
    await waitFor(() => fake.inbox.messages.length === 2, 2_000, 'the default posts');
    expect(postedContents(fake.inbox)).toEqual(['slot 1', 'slot 3']);
    expect(sent).toEqual(['ops slot 0']);
    answers[0]!();
    await waitFor(() => answers.length === 2, 2_000, 'the second ops post');
    expect(sent).toEqual(['ops slot 0', 'ops slot 2']);
    answers[1]!();
    expect((await draining).map((r) => r.outcome)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'delivered',
    ]);
  });

  it('keeps an entry whose service is not configured (yet) instead of dropping it', async () => {
    const { deliverer, store } = await openDeliverer({ delivery: { services: {} } });
    await enqueue(store, {
      id: 'e',
      job: 'j',
      slotId: 's',
      kind: 'email',
      payload: { kind: 'email', email: {} },
    });
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    expect((await store.listOutbox('pending'))[0]!.lastError).toBe('the email service is not configured');
  });

  it('keeps a post for a destination named like an inherited member as not configured', async () => {
    // Stored while WEBHOOK_URL_CONSTRUCTOR was set; the variable has since been removed.
    const { deliverer, store } = await openDeliverer({ delivery: { destinations: { ops: fake.client() } } });
    const payload: Delivery = {
      kind: 'webhook',
      destination: 'constructor',
      message: { content: 'daily report' },
    };
    await enqueue(store, { id: 'e', job: 'j', slotId: 's', kind: 'webhook', payload });
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    expect((await store.listOutbox('pending'))[0]!.lastError).toBe(
      'the webhook destination "constructor" is not configured',
    );
    expect(fake.server.requests).toHaveLength(0);
  });
});
