// A destination's posts keep their slot order when an earlier one is put back in the outbox (a
// pause longer than the in-process wait, or 5xx answers for all of a drain's tries): a newer post
// to the same destination waits for it, on this replica and on another sharing the store, and is
// sent after it; other destinations are not held. On each store (memory, node:sqlite, Redis); real
// clients post to a loopback fake answering as Discord does; sleeps move a fake clock.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDeliverer } from '../../src/schedule/delivery.ts';
import type { Delivery } from '../../src/schedule/job.ts';
import { createWebhookClient } from '../../src/services/webhook/client.ts';
import { createDiscordChannelClient } from '../../src/services/webhook/discord-channel.ts';
import type { Store } from '../../src/store/index.ts';
import { captureLog, fakeClock, fakeSleep, storeBackends } from '../jobs/harness.ts';
import { deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { closeAfterEach, useFakeServer } from '../support/service-harness.ts';

const runPrefix = testKeyPrefix();
const dir = mkdtempSync(join(tmpdir(), 'herald-order-'));
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

const CHANNELS = ['1187421520894746711', '1187421520894746712'];
const RETRY_BASE_MS = 1_000;
const MAX_WAIT_MS = 5_000;
/** The fake's next answers, in order; a post with none left is created. */
const scripted: { status: number; body: Record<string, unknown>; headers: Record<string, string> }[] = [];
/** The content of each post the fake created, in the order it created them. */
const arrivals: string[] = [];
let clock = fakeClock('2026-11-27T12:00:00Z');

/** What Discord's edge answers when its gateway fails. */
const badGateway = () => ({ status: 502, body: { message: '502: Bad Gateway', code: 0 }, headers: {} });
/** A created post whose headers say the bucket is empty for `resetAfterS`. */
const emptyBucket = (resetAfterS: number) => ({
  status: 200,
  body: {},
  headers: {
    'x-ratelimit-bucket': 'd0f3e8c7a1b24c5e9f6a7b8c9d0e1f2a',
    'x-ratelimit-limit': '5',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': ((clock.ms + resetAfterS * 1000) / 1000).toFixed(3),
    'x-ratelimit-reset-after': resetAfterS.toFixed(3),
  },
});

function answer(content: string, channelId: string): Response {
  const next = scripted.shift();
  if (next && next.status !== 200) return HttpResponse.json(next.body, { status: next.status });
  arrivals.push(content);
  return HttpResponse.json(
    {
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
    },
    { headers: next?.headers ?? {} },
  );
}

const server = useFakeServer(() => [
  http.post('*/api/webhooks/:id/:token', async ({ request }) => {
    const { content } = (await request.json()) as { content: string };
    return answer(content, CHANNELS[0]!);
  }),
  http.post('*/api/v10/channels/:channel/messages', async ({ request, params }) => {
    const { content } = (await request.json()) as { content: string };
    return answer(content, String(params.channel));
  }),
]);
const closing = closeAfterEach<{ close(): Promise<void> }>();
const track = <T extends { close(): Promise<void> }>(client: T): T => (closing.track(client), client);

/** One replica's deliverer on `store`: its own clients and owner id, its sleeps moving the clock. */
function replica(store: Store) {
  const deps = { now: clock.nowMs, httpOptions: { requestTimeoutMs: 2_000 } };
  const webhook = (id: string) =>
    track(
      createWebhookClient(
        { baseUrl: `${server.url}/api/webhooks`, id, token: 'fake-webhook-token-for-tests-1' },
        deps,
      ),
    );
  const discord = createDiscordChannelClient(
    { apiUrl: `${server.url}/api`, token: 'fake-bot-token-for-tests-2' },
    deps,
  );
  return createDeliverer({
    store,
    services: { webhook: webhook('1349081729583431690') },
    destinations: { ops: webhook('1349081729583431691') },
    channels: { discord: track(discord) },
    log: captureLog().log,
    owner: `replica-${randomUUID()}`,
    now: clock.nowMs,
    backoffMs: 5,
    retryBaseMs: RETRY_BASE_MS,
    maxWaitMs: MAX_WAIT_MS,
    sleep: fakeSleep((ms) => clock.advance(ms)).sleep,
  });
}

let added = 0;
async function post(store: Store, destination: string, content: string): Promise<void> {
  const delivery: Delivery = { kind: 'webhook', destination, message: { content } };
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

const outcomesOf = async (drained: ReturnType<ReturnType<typeof replica>['drain']>) => [
  ...(await drained).outcomes.values(),
];

const paths = [
  { name: 'a Discord webhook', destination: 'default', other: 'ops' },
  {
    name: "the bot's Discord channel",
    destination: `channel:discord:${CHANNELS[0]}`,
    other: `channel:discord:${CHANNELS[1]}`,
  },
];

describe.each(storeBackends(dir, runPrefix))('slot order with the $name store', (backend) => {
  async function open() {
    clock = fakeClock('2026-11-27T12:00:00Z');
    const store = await backend.open(clock);
    opened.push(store);
    return store;
  }

  describe.each(paths)('posting to $name', (path) => {
    it("sends slot 2's post after slot 1's, put back after 5xx answers, on this replica and another", async () => {
      const store = await open();
      const a = replica(store);
      const b = replica(store);
      scripted.push(badGateway(), badGateway(), badGateway());
      await post(store, path.destination, 'slot 1');
      expect(await outcomesOf(a.drain())).toEqual(['pending']);
      expect(scripted).toEqual([]);
      await post(store, path.destination, 'slot 2');
      expect(await outcomesOf(a.drain())).toEqual(['pending']);
      expect(await outcomesOf(b.drain())).toEqual([]);
      // Another destination is not held by it.
      await post(store, path.other, 'elsewhere');
      expect(await outcomesOf(b.drain())).toEqual(['delivered']);
      expect(arrivals).toEqual(['elsewhere']);

      // Slot 2's post goes back right behind slot 1's, with no backoff of its own.
      const waiting = await store.listOutbox({ status: 'pending' });
      const [one, two] = [`e${added - 2}`, `e${added - 1}`].map((id) => waiting.find((e) => e.id === id)!);
      expect(one!.lastError).toMatch(/\(HTTP 502\)$/);
      expect(two).toMatchObject({
        nextAttemptAt: one!.nextAttemptAt + 1,
        lastError: 'an earlier post to this destination waits for its retry',
      });
      for (let i = 0; i < 4 && arrivals.length < 3; i++) {
        clock.advance(RETRY_BASE_MS / 2);
        await (i % 2 === 0 ? a : b).drain();
      }
      expect(arrivals).toEqual(['elsewhere', 'slot 1', 'slot 2']);
    });

    it("sends slot 2's post after slot 1's, put back by a pause longer than the in-process wait", async () => {
      const store = await open();
      const a = replica(store);
      const b = replica(store);
      scripted.push(emptyBucket(30));
      await post(store, path.destination, 'slot 0');
      await post(store, path.destination, 'slot 1');
      expect(await outcomesOf(a.drain())).toEqual(['delivered', 'pending']);
      // Within the in-process wait of the pause's end: slot 2 would otherwise wait it out and go first.
      clock.advance(30_000 - MAX_WAIT_MS / 2);
      await post(store, path.destination, 'slot 2');
      expect(await outcomesOf(b.drain())).toEqual(['pending']);
      expect(await outcomesOf(a.drain())).toEqual([]);
      for (let i = 0; i < 6 && arrivals.length < 3; i++) {
        clock.advance(MAX_WAIT_MS / 4);
        await (i % 2 === 0 ? b : a).drain();
      }
      expect(arrivals).toEqual(['slot 0', 'slot 1', 'slot 2']);
    });

    it("keeps the order in a restarted replica's first drain, which takes posts waiting for their retry", async () => {
      const store = await open();
      scripted.push(badGateway(), badGateway(), badGateway());
      await post(store, path.destination, 'slot 1');
      await replica(store).drain();
      await post(store, path.destination, 'slot 2');
      // A restarted replica's first drain takes posts waiting out a backoff too.
      const restarted = replica(store);
      expect(await outcomesOf(restarted.drain({ includeBackingOff: true }))).toEqual([
        'delivered',
        'delivered',
      ]);
      expect(arrivals).toEqual(['slot 1', 'slot 2']);
      await post(store, path.destination, 'slot 3');
      expect(await outcomesOf(replica(store).drain())).toEqual(['delivered']);
      expect(arrivals).toEqual(['slot 1', 'slot 2', 'slot 3']);
    });

    it('sends the held post once the one before it is given up on', async () => {
      const store = await open();
      scripted.push(badGateway(), badGateway(), badGateway());
      await post(store, path.destination, 'slot 1');
      await replica(store).drain();
      await post(store, path.destination, 'slot 2');
      expect(await outcomesOf(replica(store).drain())).toEqual(['pending']);
      scripted.push({ status: 404, body: { message: 'Unknown Webhook', code: 10015 }, headers: {} });
      expect(await outcomesOf(replica(store).drain({ includeBackingOff: true }))).toEqual([
        'given_up',
        'delivered',
      ]);
      expect(arrivals).toEqual(['slot 2']);
    });
  });
});
