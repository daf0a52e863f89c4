// A destination's rate limit in the outbox's delivery, on each store (memory, node:sqlite, Redis):
// the platforms' headers on every answer pause the destination as a 429 does, on this replica and
// on the others sharing the store; the waits are bounded; a destination's posts go one at a time
// in their order, after a 429 too. Real clients post to loopback fakes answering as Discord and
// Slack do; the deliverer's sleeps move a fake clock instead of waiting.
import { describe, expect, it } from 'vitest';
import { PAUSE_LIMITS } from '../../src/schedule/destination-pause.ts';
import { bucketHeaders, CHANNELS, DEFAULT_WEBHOOK_ID, outboxWorld, type Scripted } from './outbox-world.ts';

/** Discord's headers for a bucket of 5 with `remaining` left, refilling in `resetAfterS`. */
const bucket = (remaining: number, resetAfterS: number) => bucketHeaders(clock, remaining, resetAfterS);
const { backends, scripted, arrivals, clock, replica, post, open } = outboxWorld('herald-pause-', () =>
  bucket(4, 2),
);
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

/** The destination as a Discord webhook or the bot's channel, and where its posts arrive. */
const paths = [
  {
    name: 'a Discord webhook',
    destination: 'default',
    other: 'ops',
    arrives: `webhook:${DEFAULT_WEBHOOK_ID}`,
  },
  {
    name: "the bot's Discord channel",
    destination: `channel:discord:${CHANNELS[0]}`,
    other: `channel:discord:${CHANNELS[1]}`,
    arrives: `channel:${CHANNELS[0]}`,
  },
];

describe.each(backends)('destination pauses with the $name store', (backend) => {
  describe.each(paths)('posting to $name', (path) => {
    it('waits until Reset-After when an answer says the bucket is empty, then posts the next', async () => {
      const store = await open(backend);
      const { deliverer, sleeps } = replica(store);
      scripted.push(ok(bucket(0, 1.5)));
      await post(store, path.destination, 'first');
      await post(store, path.destination, 'second');
      expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered', 'delivered']);
      expect(sleeps).toEqual([1_500]);
      expect(arrivals.map((a) => [a.where, a.content])).toEqual([
        [path.arrives, 'first'],
        [path.arrives, 'second'],
      ]);
      expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(1_500);
    });

    it('holds another replica sharing the store back until the same moment', async () => {
      const store = await open(backend);
      const a = replica(store);
      const b = replica(store);
      scripted.push(ok(bucket(0, 1.2)));
      await post(store, path.destination, 'from a');
      await a.deliverer.drain();
      await post(store, path.destination, 'from b');
      expect((await b.deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
      expect(b.sleeps).toEqual([1_199]);
      // Another destination is not held.
      await post(store, path.other, 'elsewhere');
      await b.deliverer.drain();
      expect(b.sleeps).toEqual([1_199]);
    });

    it('keeps its posts in order after a 429, even when handed over by two slots at once', async () => {
      const store = await open(backend);
      scripted.push(discord429(0.5));
      await post(store, path.destination, 'slot 1');
      await post(store, path.destination, 'slot 2');
      const [one, two] = await store.claimDueOutbox('held', 60_000, 10);
      // The deliverer that holds them: a post is sent only by the holder of its lease.
      const held = replica(store, { owner: 'held' });
      const outcomes = await Promise.all([
        held.deliverer.deliverHeld([one!]),
        held.deliverer.deliverHeld([two!]),
      ]);
      expect(outcomes.map((o) => o.map((r) => r.outcome))).toEqual([['delivered'], ['delivered']]);
      expect(arrivals.map((a) => a.content)).toEqual(['slot 1', 'slot 2']);
      expect(held.sleeps).toEqual([500]);
    });

    it('waits out 429 after 429 in one drain: a wait the destination asks for is no failed try', async () => {
      const store = await open(backend);
      const { deliverer, sleeps } = replica(store);
      scripted.push(discord429(0.2), discord429(0.3), discord429(0.2), discord429(0.4));
      await post(store, path.destination, 'crowded');
      expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered']);
      expect(sleeps).toEqual([200, 300, 200, 400]);
      expect(arrivals.map((a) => a.content)).toEqual(['crowded']);
    });

    it('ignores garbage rate-limit headers', async () => {
      const store = await open(backend);
      const { deliverer, sleeps } = replica(store);
      const garbage = {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': 'soon',
        'x-ratelimit-reset': '-3',
      };
      scripted.push(ok(garbage), ok({ 'x-ratelimit-remaining': 'many', 'x-ratelimit-reset-after': 'NaN' }));
      for (const content of ['one', 'two', 'three']) await post(store, path.destination, content);
      expect((await deliverer.drain()).map((r) => r.outcome)).toEqual([
        'delivered',
        'delivered',
        'delivered',
      ]);
      expect(sleeps).toEqual([]);
    });

    it('bounds a huge Reset-After: the next post is put back for at most the longest pause', async () => {
      const store = await open(backend);
      const { deliverer } = replica(store);
      scripted.push(ok(bucket(0, 9_999_999)));
      await post(store, path.destination, 'first');
      await post(store, path.destination, 'second');
      const started = clock.ms;
      expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['delivered', 'pending']);
      const [waiting] = await store.listOutbox('pending');
      expect(waiting!.nextAttemptAt).toBeLessThanOrEqual(started + PAUSE_LIMITS.maxPauseMs + 10);
      expect(waiting!.nextAttemptAt).toBeGreaterThan(started + PAUSE_LIMITS.maxPauseMs - 10);
      // The second post went back, so the destination is held (stored as JSON with the hold's end).
      const value = (await store.getValue(`delivery-pause:webhook:${path.destination}`)) ?? '';
      const stored = value.startsWith('{') ? (JSON.parse(value) as { until: number }).until : Number(value);
      expect(stored).toBeLessThanOrEqual(started + PAUSE_LIMITS.maxPauseMs + 10);
    });
  });

  it("pauses every channel of Discord's bot on a global 429, not the webhooks", async () => {
    const store = await open(backend);
    const { deliverer } = replica(store);
    scripted.push(discord429(30, true));
    await post(store, `channel:discord:${CHANNELS[0]}`, 'global');
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    await post(store, `channel:discord:${CHANNELS[1]}`, 'same token');
    await post(store, 'ops', 'a webhook');
    await deliverer.drain();
    expect(arrivals.map((a) => a.content)).toEqual(['a webhook']);
    const waiting = await store.listOutbox('pending');
    expect(waiting.map((e) => e.lastError)).toEqual([
      'webhook.post failed: rate_limited (HTTP 429)',
      'the destination asked to wait (rate limited)',
    ]);
  });

  it("holds only the webhook itself on a webhook's global 429: its token is its own credential", async () => {
    const store = await open(backend);
    const { deliverer } = replica(store);
    scripted.push(discord429(30, true));
    await post(store, 'ops', 'global');
    expect((await deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    await post(store, 'default', 'another webhook');
    await post(store, `channel:discord:${CHANNELS[0]}`, 'a channel');
    await deliverer.drain();
    expect(arrivals.map((a) => a.content).sort()).toEqual(['a channel', 'another webhook']);
  });

  it("waits out Slack's chat.postMessage 429 Retry-After, on the other replica too", async () => {
    const store = await open(backend);
    const a = replica(store);
    const b = replica(store);
    scripted.push({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '1' },
    });
    await post(store, 'channel:slack:C0GENERAL', 'report');
    const drained = a.deliverer.drain();
    expect((await drained).map((r) => r.outcome)).toEqual(['delivered']);
    expect(a.sleeps).toEqual([1_000]);
    scripted.push({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '30' },
    });
    await post(store, 'channel:slack:C0GENERAL', 'limited');
    await a.deliverer.drain();
    const limitedAt = clock.ms;
    const fromBId = await post(store, 'channel:slack:C0GENERAL', 'from b');
    // Longer than b waits in process: put back until the pause ends, never sent meanwhile.
    expect((await b.deliverer.drain()).map((r) => r.outcome)).toEqual(['pending']);
    const fromB = (await store.listOutbox('pending')).find((e) => e.id === fromBId);
    expect(fromB).toMatchObject({ lastError: 'the destination asked to wait (rate limited)' });
    expect(fromB!.nextAttemptAt).toBeGreaterThanOrEqual(limitedAt + 29_000);
    expect(arrivals.map((a) => a.content)).toEqual(['report']);
  });

  it('reads the shared pause only when no answer from the destination counted its bucket just now', async () => {
    const store = await open(backend);
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
