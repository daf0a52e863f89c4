// The outbox delivery tests' world: a loopback fake answering as Discord's webhooks, Discord's
// bot channels and Slack's chat.postMessage do (with scripted answers first), replicas whose
// deliverers use the real clients on it and whose sleeps move a fake clock, and stores on each
// backend (memory, node:sqlite, Redis), closed and cleaned after each test and the file.
import { randomUUID } from 'node:crypto';
import { http, HttpResponse } from 'msw';
import { afterEach } from 'vitest';
import { createDeliverer } from '../../src/schedule/delivery.ts';
import type { DeliveryOptions } from '../../src/schedule/delivery-options.ts';
import type { Delivery } from '../../src/schedule/job.ts';
import { createDiscordChannelClient } from '../../src/services/webhook/discord-channel.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { createDiscordContract } from '../adapters/discord/contract.ts';
import { createSlackChannelClient } from '../../src/services/webhook/slack-web-api.ts';
import type { Store } from '../../src/store/index.ts';
import { createMemoryRateBudget } from '../../src/store/rate-budget.ts';
import {
  captureLog,
  fakeClock,
  fakeSleep,
  storeBackends,
  type FakeClock,
  type StoreBackend,
} from '../jobs/harness.ts';
import { storeScratch } from '../support/scratch.ts';
import { closeAfterEach, useFakeServer } from '../support/service-harness.ts';
import { enqueue } from '../support/enqueue.ts';

export const CHANNELS = ['1187421520894746711', '1187421520894746712'];
export const RETRY_BASE_MS = 1_000;
export const MAX_WAIT_MS = 5_000;
/** The webhook client behind the `default` destination, named in its posts' arrivals. */
export const DEFAULT_WEBHOOK_ID = '1349081729583431690';

/** One of the fake's next answers: Discord's or Slack's, with the headers they send. */
export interface Scripted {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}
/** A post that reached the fake: where (`webhook:<id>`, `channel:<id>`, `slack:<channel>`), what, when. */
export interface Arrival {
  where: string;
  content: string;
  at: number;
}

/** Discord's headers at `clock`'s time for a bucket of 5 with `remaining` left, refilling in `resetAfterS`. */
export const bucketHeaders = (
  clock: FakeClock,
  remaining: number,
  resetAfterS: number,
): Record<string, string> => ({
  'x-ratelimit-bucket': 'd0f3e8c7a1b24c5e9f6a7b8c9d0e1f2a',
  'x-ratelimit-limit': '5',
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': ((clock.ms + resetAfterS * 1000) / 1000).toFixed(3),
  'x-ratelimit-reset-after': resetAfterS.toFixed(3),
});

/**
 * Registers the file's hooks (call it at the top of a test file). `tmpPrefix` names the SQLite
 * files' folder; `okHeaders` are the headers of a created post the script says nothing about.
 */
export function outboxWorld(tmpPrefix: string, okHeaders: () => Record<string, string>) {
  const { dir, runPrefix } = storeScratch(tmpPrefix);
  const opened: Store[] = [];
  /** The fake's next answers, in order; a post with none left is created. */
  const scripted: Scripted[] = [];
  /** Each post the fake created, in the order it created them. */
  const arrivals: Arrival[] = [];
  /** Set back to the same instant by each `open`. */
  const clock = fakeClock('2026-11-27T12:00:00Z');
  /** Awaited by the fake before it takes each post: a test's slow destination. */
  /** `paceSleep`: how the Slack client's pace waits (default: the clock moves on at once). */
  const hooks: { beforeAnswer?: () => Promise<void>; paceSleep?: (ms: number) => Promise<void> } = {};
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    scripted.length = 0;
    arrivals.length = 0;
    delete hooks.beforeAnswer;
    delete hooks.paceSleep;
  });

  function answer(where: string, content: string, success: () => Record<string, unknown>): Response {
    const next = scripted.shift();
    if (next && next.status !== 200)
      return HttpResponse.json(next.body as Record<string, unknown>, {
        status: next.status,
        headers: next.headers,
      });
    arrivals.push({ where, content, at: clock.ms });
    return HttpResponse.json(success(), { headers: next?.headers ?? okHeaders() });
  }
  const message = (content: string, channelId: string) => ({
    id: String(1300000000000000000n + BigInt(arrivals.length)),
    type: 0,
    content,
    channel_id: channelId,
    author: { id: '1187421520894746600', username: 'herald', bot: true, discriminator: '0000' },
    attachments: [],
    embeds: [],
    mentions: [],
    pinned: false,
    tts: false,
    timestamp: '2026-11-27T12:00:00.000000+00:00',
    flags: 0,
  });

  // Discord's request rules (content types, User-Agent, invalid requests); the limits and their
  // headers are the tests' scripted ones, on a clock the tests move.
  const { enforced } = createDiscordContract({
    applicationId: '1187421520894746624',
    now: () => clock.ms,
    buckets: false,
    globalPerSecond: Number.POSITIVE_INFINITY,
  });
  const server = useFakeServer(() => [
    http.post(
      '*/api/webhooks/:id/:token',
      enforced(async ({ request, params }) => {
        const { content } = (await request.json()) as { content: string };
        await hooks.beforeAnswer?.();
        return answer(`webhook:${String(params.id)}`, content, () => message(content, CHANNELS[0]!));
      }),
    ),
    http.post(
      '*/api/v10/channels/:channel/messages',
      enforced(async ({ request, params }) => {
        const { content } = (await request.json()) as { content: string };
        await hooks.beforeAnswer?.();
        const channel = String(params.channel);
        return answer(`channel:${channel}`, content, () => message(content, channel));
      }),
    ),
    http.post('*/api/chat.postMessage', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      await hooks.beforeAnswer?.();
      const channel = form.get('channel') ?? '';
      return answer(`slack:${channel}`, form.get('text') ?? '', () => ({
        ok: true,
        channel,
        ts: '1714560000.000200',
        message: { type: 'message', subtype: 'bot_message', text: form.get('text'), bot_id: 'B0HERALDBOT' },
      }));
    }),
  ]);
  const closing = closeAfterEach<{ close(): Promise<void> }>();
  const track = <T extends { close(): Promise<void> }>(client: T): T => (closing.track(client), client);

  /**
   * One replica's deliverer on `store`: its own clients and owner id, its sleeps recorded and
   * moving the clock, its reads of the shared pause (`store.getValue`) counted; `options` override
   * the deliverer's (a shorter lease, Discord's budgets its clients take from too, its log).
   */
  function replica(store: Store, options: Partial<DeliveryOptions> = {}) {
    const deps = {
      now: clock.nowMs,
      httpOptions: { requestTimeoutMs: 2_000 },
      ...(options.rateBudget ? { rateBudget: options.rateBudget } : {}),
    };
    const webhook = (id: string) =>
      track(
        createWebhookClient(
          { baseUrl: `${server.url}/api/webhooks`, id, token: 'fake-webhook-token-for-tests-1' },
          deps,
        ),
      );
    const { sleeps, sleep } = fakeSleep((ms) => clock.advance(ms));
    const reads = { n: 0 };
    const counted = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'getValue') reads.n++;
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const deliverer = createDeliverer({
      store: counted,
      services: { webhook: webhook(DEFAULT_WEBHOOK_ID) },
      destinations: { ops: webhook('1349081729583431691') },
      channels: {
        discord: track(
          createDiscordChannelClient(
            { apiUrl: `${server.url}/api`, token: 'fake-bot-token-for-tests-2' },
            deps,
          ),
        ),
        slack: track(
          createSlackChannelClient(
            { apiUrl: `${server.url}/api`, botToken: 'fake-slack-bot-token-3' },
            {
              ...deps,
              // Slack's pace is the budget's: the replica's own, else one waiting on the test's clock.
              rateBudget:
                options.rateBudget ??
                createMemoryRateBudget({
                  perSecond: 50,
                  invalidLimit: 1_000,
                  now: clock.nowMs,
                  sleep: (ms) => (hooks.paceSleep ? hooks.paceSleep(ms) : Promise.resolve(clock.advance(ms))),
                }),
            },
          ),
        ),
      },
      log: captureLog().log,
      owner: `replica-${randomUUID()}`,
      now: clock.nowMs,
      backoffMs: 5,
      retryBaseMs: RETRY_BASE_MS,
      maxWaitMs: MAX_WAIT_MS,
      sleep,
      ...options,
    });
    return { deliverer, sleeps, reads };
  }

  let added = 0;
  /** Adds a post for `destination` to the outbox (a Slack message for `channel:slack:…`); its id. */
  async function post(store: Store, destination: string, content: string): Promise<string> {
    const message = destination.startsWith('channel:slack:')
      ? { platform: 'slack' as const, text: content, blocks: [] }
      : { content };
    const delivery: Delivery = { kind: 'webhook', destination, message };
    added++;
    const id = `e${added}`;
    await enqueue(store, { id, job: 'j', slotId: `s${added}`, kind: 'webhook', payload: delivery });
    clock.advance(1);
    return id;
  }

  /** A fresh store of `backend`, the clock set back; closed after the test. */
  async function open(backend: StoreBackend): Promise<Store> {
    clock.set('2026-11-27T12:00:00Z');
    const store = await backend.open(clock);
    opened.push(store);
    return store;
  }

  return {
    backends: storeBackends(dir, runPrefix),
    scripted,
    arrivals,
    clock,
    hooks,
    replica,
    post,
    open,
  };
}
