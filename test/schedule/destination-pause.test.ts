// A destination's rate limit in the outbox's delivery, on each store (memory, node:sqlite, Redis):
// the platforms' headers on every answer pause the destination as a 429 does, on this replica and
// on the others sharing the store; the waits are bounded; a destination's posts go one at a time
// in their order, after a 429 too. Real clients post to loopback fakes answering as Discord and
// Slack do; the deliverer's sleeps move a fake clock instead of waiting.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PAUSE_LIMITS } from '../../src/schedule/destination-pause.ts';
import { createDeliverer } from '../../src/schedule/delivery.ts';
import type { Delivery } from '../../src/schedule/job.ts';
import { createWebhookClient } from '../../src/services/webhook/client.ts';
import { createDiscordChannelClient } from '../../src/services/webhook/discord-channel.ts';
import { createSlackChannelClient } from '../../src/services/webhook/slack-channel.ts';
import type { Store } from '../../src/store/index.ts';
import { captureLog, fakeClock, fakeSleep, storeBackends } from '../jobs/harness.ts';
import { deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { closeAfterEach, useFakeServer } from '../support/service-harness.ts';

const runPrefix = testKeyPrefix();
const dir = mkdtempSync(join(tmpdir(), 'herald-pause-'));
const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  scripted.length = 0;
  arrivals.length = 0;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await deleteKeys(runPrefix);
});

const backends = storeBackends(dir, runPrefix);

const CHANNELS = ['1187421520894746711', '1187421520894746712'];
/** The fake's next answers, in order: Discord's or Slack's, with the headers they send. */
const scripted: { status: number; body: unknown; headers: Record<string, string> }[] = [];
/** Each post that reached a fake: where, what, and at which fake time. */
const arrivals: { where: string; content: string; at: number }[] = [];
let clock = fakeClock('2026-11-27T12:00:00Z');

/** Discord's headers for a bucket of 5 with `remaining` left, refilling in `resetAfterS`. */
const bucket = (remaining: number, resetAfterS: number): Record<string, string> => ({
  'x-ratelimit-bucket': 'd0f3e8c7a1b24c5e9f6a7b8c9d0e1f2a',
  'x-ratelimit-limit': '5',
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': ((clock.ms + resetAfterS * 1000) / 1000).toFixed(3),
  'x-ratelimit-reset-after': resetAfterS.toFixed(3),
});
type Scripted = (typeof scripted)[number];
const discord429 = (retryAfterS: number, global = false): Scripted => ({
  status: 429,
  body: { message: 'You are being rate limited.', retry_after: retryAfterS, global },
  headers: global
    ? {
        'retry-after': String(Math.ceil(retryAfterS)),
        'x-ratelimit-global': 'true',
        'x-ratelimit-scope': 'global',
      }
    : {
        ...bucket(0, retryAfterS),
        'retry-after': String(Math.ceil(retryAfterS)),
        'x-ratelimit-scope': 'user',
      },
});
const ok = (headers: Record<string, string>): Scripted => ({ status: 200, body: undefined, headers });

function answer(where: string, content: string, success: () => Record<string, unknown>): Response {
  const next = scripted.shift();
  if (next?.status === 200 || !next) arrivals.push({ where, content, at: clock.ms });
  if (next && next.status !== 200)
    return HttpResponse.json(next.body as Record<string, unknown>, {
      status: next.status,
      headers: next.headers,
    });
  return HttpResponse.json(success(), { headers: next?.headers ?? bucket(4, 2) });
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

const server = useFakeServer(() => [
  http.post('*/api/webhooks/:id/:token', async ({ request, params }) => {
    const { content } = (await request.json()) as { content: string };
    return answer(`webhook:${String(params.id)}`, content, () => message(content, CHANNELS[0]!));
  }),
  http.post('*/api/v10/channels/:channel/messages', async ({ request, params }) => {
    const { content } = (await request.json()) as { content: string };
    const channel = String(params.channel);
    return answer(`channel:${channel}`, content, () => message(content, channel));
  }),
  http.post('*/api/chat.postMessage', async ({ request }) => {
    const form = new URLSearchParams(await request.text());
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
const clients = { track: <T extends { close(): Promise<void> }>(c: T): T => (closing.track(c), c) };

/** One replica's deliverer on `store`, its sleeps recorded and moving the fake clock. */
function replica(store: Store) {
  const deps = { now: clock.nowMs, httpOptions: { requestTimeoutMs: 2_000 } };
  const webhook = (id: string) =>
    clients.track(
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
    services: { webhook: webhook('1349081729583431690') },
    destinations: { ops: webhook('1349081729583431691') },
    channels: {
      discord: clients.track(
        createDiscordChannelClient(
          { apiUrl: `${server.url}/api`, token: 'fake-bot-token-for-tests-2' },
          deps,
        ),
      ),
      slack: clients.track(
        createSlackChannelClient({ apiUrl: `${server.url}/api`, botToken: 'fake-slack-bot-token-3' }, deps),
      ),
    },
    log: captureLog().log,
    owner: `replica-${randomUUID()}`,
    now: clock.nowMs,
    backoffMs: 5,
    retryBaseMs: 1_000,
    maxWaitMs: 5_000,
    sleep,
  });
  return { deliverer, sleeps, reads };
}

let added = 0;
async function post(store: Store, destination: string, content: string): Promise<void> {
  const message = destination.startsWith('channel:slack:')
    ? { platform: 'slack' as const, text: content, blocks: [] }
    : { content };
  const delivery: Delivery = { kind: 'webhook', destination, message };
  added++;
  await store.addToOutbox({
    id: `e${added}`,
    job: 'j',
    slotId: `s${added}`,
    kind: 'webhook',
    payload: delivery,
  });
  clock.advance(1);
}

/** The destination as a Discord webhook or the bot's channel, and where its posts arrive. */
const paths = [
  { name: 'a Discord webhook', destination: 'default', other: 'ops', arrives: 'webhook:1349081729583431690' },
  {
    name: "the bot's Discord channel",
    destination: `channel:discord:${CHANNELS[0]}`,
    other: `channel:discord:${CHANNELS[1]}`,
    arrives: `channel:${CHANNELS[0]}`,
  },
];

describe.each(backends)('destination pauses with the $name store', (backend) => {
  async function open() {
    clock = fakeClock('2026-11-27T12:00:00Z');
    const store = await backend.open(clock);
    opened.push(store);
    return store;
  }

  describe.each(paths)('posting to $name', (path) => {
    it('waits until Reset-After when an answer says the bucket is empty, then posts the next', async () => {
      const store = await open();
      const { deliverer, sleeps } = replica(store);
      scripted.push(ok(bucket(0, 1.5)));
      await post(store, path.destination, 'first');
      await post(store, path.destination, 'second');
      expect([...(await deliverer.drain()).outcomes.values()]).toEqual(['delivered', 'delivered']);
      expect(sleeps).toEqual([1_500]);
      expect(arrivals.map((a) => [a.where, a.content])).toEqual([
        [path.arrives, 'first'],
        [path.arrives, 'second'],
      ]);
      expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(1_500);
    });

    it('holds another replica sharing the store back until the same moment', async () => {
      const store = await open();
      const a = replica(store);
      const b = replica(store);
      scripted.push(ok(bucket(0, 1.2)));
      await post(store, path.destination, 'from a');
      await a.deliverer.drain();
      await post(store, path.destination, 'from b');
      expect([...(await b.deliverer.drain()).outcomes.values()]).toEqual(['delivered']);
      expect(b.sleeps).toEqual([1_199]);
      // Another destination is not held.
      await post(store, path.other, 'elsewhere');
      await b.deliverer.drain();
      expect(b.sleeps).toEqual([1_199]);
    });

    it('keeps its posts in order after a 429, even when handed over by two slots at once', async () => {
      const store = await open();
      scripted.push(discord429(0.5));
      await post(store, path.destination, 'slot 1');
      await post(store, path.destination, 'slot 2');
      const [one, two] = await store.claimDueOutbox('held', 60_000, 10);
      const held = replica(store);
      const outcomes = await Promise.all([
        held.deliverer.deliverHeld([one!]),
        held.deliverer.deliverHeld([two!]),
      ]);
      expect(outcomes.map((o) => [...o.outcomes.values()])).toEqual([['delivered'], ['delivered']]);
      expect(arrivals.map((a) => a.content)).toEqual(['slot 1', 'slot 2']);
      expect(held.sleeps).toEqual([500]);
    });

    it('waits out 429 after 429 in one drain: a wait the destination asks for is no failed try', async () => {
      const store = await open();
      const { deliverer, sleeps } = replica(store);
      scripted.push(discord429(0.2), discord429(0.3), discord429(0.2), discord429(0.4));
      await post(store, path.destination, 'crowded');
      expect([...(await deliverer.drain()).outcomes.values()]).toEqual(['delivered']);
      expect(sleeps).toEqual([200, 300, 200, 400]);
      expect(arrivals.map((a) => a.content)).toEqual(['crowded']);
    });

    it('ignores garbage rate-limit headers', async () => {
      const store = await open();
      const { deliverer, sleeps } = replica(store);
      const garbage = {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': 'soon',
        'x-ratelimit-reset': '-3',
      };
      scripted.push(ok(garbage), ok({ 'x-ratelimit-remaining': 'many', 'x-ratelimit-reset-after': 'NaN' }));
      for (const content of ['one', 'two', 'three']) await post(store, path.destination, content);
      expect([...(await deliverer.drain()).outcomes.values()]).toEqual([
        'delivered',
        'delivered',
        'delivered',
      ]);
      expect(sleeps).toEqual([]);
    });

    it('bounds a huge Reset-After: the next post is put back for at most the longest pause', async () => {
      const store = await open();
      const { deliverer } = replica(store);
      scripted.push(ok(bucket(0, 9_999_999)));
      await post(store, path.destination, 'first');
      await post(store, path.destination, 'second');
      const started = clock.ms;
      expect([...(await deliverer.drain()).outcomes.values()]).toEqual(['delivered', 'pending']);
      const [waiting] = await store.listOutbox({ status: 'pending' });
      expect(waiting!.nextAttemptAt).toBeLessThanOrEqual(started + PAUSE_LIMITS.maxPauseMs + 10);
      expect(waiting!.nextAttemptAt).toBeGreaterThan(started + PAUSE_LIMITS.maxPauseMs - 10);
      // The second post went back, so the destination is held (stored as JSON with the hold's end).
      const value = (await store.getValue(`delivery-pause:webhook:${path.destination}`)) ?? '';
      const stored = value.startsWith('{') ? (JSON.parse(value) as { until: number }).until : Number(value);
      expect(stored).toBeLessThanOrEqual(started + PAUSE_LIMITS.maxPauseMs + 10);
    });
  });

  it("pauses every channel of Discord's bot on a global 429, not the webhooks", async () => {
    const store = await open();
    const { deliverer } = replica(store);
    scripted.push(discord429(30, true));
    await post(store, `channel:discord:${CHANNELS[0]}`, 'global');
    expect([...(await deliverer.drain()).outcomes.values()]).toEqual(['pending']);
    await post(store, `channel:discord:${CHANNELS[1]}`, 'same token');
    await post(store, 'ops', 'a webhook');
    await deliverer.drain();
    expect(arrivals.map((a) => a.content)).toEqual(['a webhook']);
    const waiting = await store.listOutbox({ status: 'pending' });
    expect(waiting.map((e) => e.lastError)).toEqual([
      'webhook.post failed: rate_limited (HTTP 429)',
      'the destination asked to wait (rate limited)',
    ]);
  });

  it("holds only the webhook itself on a webhook's global 429: its token is its own credential", async () => {
    const store = await open();
    const { deliverer } = replica(store);
    scripted.push(discord429(30, true));
    await post(store, 'ops', 'global');
    expect([...(await deliverer.drain()).outcomes.values()]).toEqual(['pending']);
    await post(store, 'default', 'another webhook');
    await post(store, `channel:discord:${CHANNELS[0]}`, 'a channel');
    await deliverer.drain();
    expect(arrivals.map((a) => a.content).sort()).toEqual(['a channel', 'another webhook']);
  });

  it("waits out Slack's chat.postMessage 429 Retry-After, on the other replica too", async () => {
    const store = await open();
    const a = replica(store);
    const b = replica(store);
    scripted.push({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '1' },
    });
    await post(store, 'channel:slack:C0GENERAL', 'report');
    const drained = a.deliverer.drain();
    expect([...(await drained).outcomes.values()]).toEqual(['delivered']);
    expect(a.sleeps).toEqual([1_000]);
    scripted.push({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '30' },
    });
    await post(store, 'channel:slack:C0GENERAL', 'limited');
    await a.deliverer.drain();
    const limitedAt = clock.ms;
    await post(store, 'channel:slack:C0GENERAL', 'from b');
    // Longer than b waits in process: put back until the pause ends, never sent meanwhile.
    expect([...(await b.deliverer.drain()).outcomes.values()]).toEqual(['pending']);
    const fromB = (await store.listOutbox({ status: 'pending' })).find((e) => e.id === `e${added}`);
    expect(fromB).toMatchObject({ lastError: 'the destination asked to wait (rate limited)' });
    expect(fromB!.nextAttemptAt).toBeGreaterThanOrEqual(limitedAt + 29_000);
    expect(arrivals.map((a) => a.content)).toEqual(['report']);
  });

  it('reads the shared pause only when no answer from the destination counted its bucket just now', async () => {
    const store = await open();
    const { deliverer, reads } = replica(store);
    for (const content of ['one', 'two', 'three']) await post(store, 'default', content);
    await deliverer.drain();
    // The first post reads the store; the next two follow an answer that counted the bucket.
    expect(reads.n).toBe(1);
    clock.advance(PAUSE_LIMITS.freshMs);
    await post(store, 'default', 'later');
    await deliverer.drain();
    expect(reads.n).toBe(2);
  });
});
