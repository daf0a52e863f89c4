// A destination's posts keep their slot order when an earlier one is put back in the outbox (a
// pause longer than the in-process wait, or 5xx answers for all of a drain's tries): a newer post
// to the same destination waits for it, on this replica and on another sharing the store, and is
// sent after it; other destinations are not held. On each store (memory, node:sqlite, Redis); real
// clients post to a loopback fake answering as Discord does; sleeps move a fake clock.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import {
  bucketHeaders,
  CHANNELS,
  MAX_WAIT_MS,
  outboxWorld,
  RETRY_BASE_MS,
  type Scripted,
} from './outbox-world.ts';

const world = outboxWorld('herald-order-', () => ({}));
const { scripted, arrivals, clock, post } = world;
/** The content of each post the fake created, in the order it created them. */
const contents = () => arrivals.map((a) => a.content);
const replica = (store: Store) => world.replica(store).deliverer;

/** What Discord's edge answers when its gateway fails. */
const badGateway = (): Scripted => ({
  status: 502,
  body: { message: '502: Bad Gateway', code: 0 },
  headers: {},
});
/** A created post whose headers say the bucket is empty for `resetAfterS`. */
const emptyBucket = (resetAfterS: number): Scripted => ({
  status: 200,
  body: {},
  headers: bucketHeaders(clock, 0, resetAfterS),
});

const outcomesOf = async (drained: ReturnType<ReturnType<typeof replica>['drain']>) =>
  (await drained).map((r) => r.outcome);

const paths = [
  { name: 'a Discord webhook', destination: 'default', other: 'ops' },
  {
    name: "the bot's Discord channel",
    destination: `channel:discord:${CHANNELS[0]}`,
    other: `channel:discord:${CHANNELS[1]}`,
  },
];

describe.each(world.backends)('slot order with the $name store', (backend) => {
  describe.each(paths)('posting to $name', (path) => {
    it("sends slot 2's post after slot 1's, put back after 5xx answers, on this replica and another", async () => {
      const store = await world.open(backend);
      const a = replica(store);
      const b = replica(store);
      scripted.push(badGateway(), badGateway(), badGateway());
      const slot1 = await post(store, path.destination, 'slot 1');
      expect(await outcomesOf(a.drain())).toEqual(['pending']);
      expect(scripted).toEqual([]);
      const slot2 = await post(store, path.destination, 'slot 2');
      expect(await outcomesOf(a.drain())).toEqual(['pending']);
      expect(await outcomesOf(b.drain())).toEqual([]);
      // Another destination is not held by it.
      await post(store, path.other, 'elsewhere');
      expect(await outcomesOf(b.drain())).toEqual(['delivered']);
      expect(contents()).toEqual(['elsewhere']);

      // Slot 2's post goes back right behind slot 1's, with no backoff of its own.
      const waiting = await store.listOutbox('pending');
      const [one, two] = [slot1, slot2].map((id) => waiting.find((e) => e.id === id)!);
      expect(one!.lastError).toMatch(/\(HTTP 502\)$/);
      expect(two).toMatchObject({
        nextAttemptAt: one!.nextAttemptAt + 1,
        lastError: 'an earlier post to this destination waits for its retry',
      });
      for (let i = 0; i < 4 && arrivals.length < 3; i++) {
        clock.advance(RETRY_BASE_MS / 2);
        await (i % 2 === 0 ? a : b).drain();
      }
      expect(contents()).toEqual(['elsewhere', 'slot 1', 'slot 2']);
    });

    it("sends slot 2's post after slot 1's, put back by a pause longer than the in-process wait", async () => {
      const store = await world.open(backend);
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
      expect(contents()).toEqual(['slot 0', 'slot 1', 'slot 2']);
    });

    it("keeps the order in a restarted replica's first drain, which takes posts waiting for their retry", async () => {
      const store = await world.open(backend);
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
      expect(contents()).toEqual(['slot 1', 'slot 2']);
      await post(store, path.destination, 'slot 3');
      expect(await outcomesOf(replica(store).drain())).toEqual(['delivered']);
      expect(contents()).toEqual(['slot 1', 'slot 2', 'slot 3']);
    });

    it('sends the held post once the one before it is given up on', async () => {
      const store = await world.open(backend);
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
      expect(contents()).toEqual(['slot 2']);
    });
  });
});
