// A post is sent only by the holder of its lease, across replicas sharing one store. Many slots due
// at once to a destination that answers slowly wait their turn in its lane longer than the lease:
// the lease is renewed while they wait and while they are sent, so a second replica started late
// (a rolling deploy) never takes them over; and a post the store says another owner took is never
// sent by its first holder. Time-scaled (the 5-minute lease, 9-s answers, a replica 30 s late and
// 15-s outbox passes, all divided by 60) on a fake clock that the destination's answers move; on
// each store (memory, node:sqlite, Redis), to a Discord webhook, the bot's Discord channel and its
// Slack channel, through the real clients and a loopback fake.
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../src/schedule/job.ts';
import type { Repeat } from '../../src/schedule/delivery-options.ts';
import type { OutboxEntry, Store } from '../../src/store/index.ts';
import { captureLog } from '../jobs/harness.ts';
import { CHANNELS, outboxWorld } from './outbox-world.ts';

const world = outboxWorld('herald-lease-', () => ({}));
const { arrivals, clock, hooks } = world;

const SCALE = 60;
const LEASE_MS = (5 * 60_000) / SCALE;
const ANSWER_MS = 9_000 / SCALE;
const LATE_MS = 30_000 / SCALE;
const PASS_MS = 15_000 / SCALE;
const SLOTS = 45;

const paths = [
  { name: 'a Discord webhook', destination: 'default' },
  { name: "the bot's Discord channel", destination: `channel:discord:${CHANNELS[0]}` },
  { name: "the bot's Slack channel", destination: 'channel:slack:C0HERALD01' },
];

/**
 * Timers on the fake clock: each runs when `advance` moves the clock past its time, and what it
 * starts (a lease renewal's store call) settles before the clock moves on.
 */
function fakeTimers() {
  const timers: { at: number; every: number; run: () => unknown; isStopped: boolean }[] = [];
  const every = (first: number, ms: number, run: () => unknown) => {
    const timer = { at: first, every: ms, run, isStopped: false };
    timers.push(timer);
    return () => void (timer.isStopped = true);
  };
  const repeat: Repeat = (ms, run) => every(clock.ms + ms, ms, run);
  async function advance(ms: number): Promise<void> {
    const end = clock.ms + ms;
    for (;;) {
      const next = timers.filter((t) => !t.isStopped && t.at <= end).sort((x, y) => x.at - y.at)[0];
      if (!next) break;
      clock.ms = Math.max(clock.ms, next.at);
      next.at += next.every;
      await next.run();
    }
    // Two posts answered at once (two replicas) take the same time, not twice it.
    clock.ms = Math.max(clock.ms, end);
  }
  return { every, repeat, advance };
}

/**
 * `count` slots claimed and marked posted by `owner`, their posts leased to it as a slot run's are
 * (slot-run.ts); resolves with the entries it holds.
 */
async function slotsPostedBy(store: Store, owner: string, destination: string, count: number) {
  const held: OutboxEntry[] = [];
  for (let i = 0; i < count; i++) {
    const content = `slot ${i}`;
    const message = destination.startsWith('channel:slack:')
      ? { platform: 'slack' as const, text: content, blocks: [] }
      : { content };
    const payload: Delivery = { kind: 'webhook', destination, message };
    const entry = {
      id: `schedule-s${i}|2026-11-27T12:01:00.000Z|0:webhook`,
      job: `schedule-s${i}`,
      slotId: '2026-11-27T12:01:00.000Z',
      kind: 'webhook',
      payload,
    };
    expect(await store.claimSlot(entry.job, entry.slotId, owner, LEASE_MS)).toMatchObject({
      status: 'claimed',
    });
    expect(await store.markPosted(entry.job, entry.slotId, owner, [entry], { leaseMs: LEASE_MS })).toBe(true);
    const t = clock.ms;
    held.push({
      ...entry,
      status: 'pending',
      attempts: 1,
      nextAttemptAt: t + LEASE_MS,
      createdAt: t,
      updatedAt: t,
    });
  }
  return held;
}

/** Each slot's posts that reached the destination, counted. */
function postsPerSlot(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of arrivals) counts.set(a.content, (counts.get(a.content) ?? 0) + 1);
  return counts;
}
const onceEach = (count: number) => new Map(Array.from({ length: count }, (_, i) => [`slot ${i}`, 1]));

describe.each(world.backends)('leases across replicas with the $name store', (backend) => {
  describe.each(paths)('posting to $name', (path) => {
    it('posts each of 45 slots once when a replica starts 30 s late and the last post waits past the lease', async () => {
      const store = await world.open(backend);
      const timers = fakeTimers();
      const a = world.replica(store, { owner: 'replica-a', leaseMs: LEASE_MS, repeat: timers.repeat });
      const b = world.replica(store, { owner: 'replica-b', leaseMs: LEASE_MS, repeat: timers.repeat });
      hooks.beforeAnswer = () => timers.advance(ANSWER_MS);
      // Slack's one post a second per channel waits on the same clock, lease renewals firing meanwhile.
      hooks.paceSleep = (ms) => timers.advance(ms);
      const held = await slotsPostedBy(store, 'replica-a', path.destination, SLOTS);
      // Replica B's outbox passes: its start's (backing-off posts too), then one each poll.
      const passes: Promise<unknown>[] = [];
      const stopPasses = timers.every(
        clock.ms + LATE_MS,
        PASS_MS,
        () => void passes.push(b.deliverer.drain({ includeBackingOff: passes.length === 0 })),
      );

      const results = await Promise.all(held.map((e) => a.deliverer.deliverHeld([e])));
      stopPasses();
      await Promise.all(passes);

      expect(SLOTS * ANSWER_MS).toBeGreaterThan(LEASE_MS);
      expect(passes.length).toBeGreaterThan(LEASE_MS / PASS_MS);
      expect(postsPerSlot()).toEqual(onceEach(SLOTS));
      expect(results.flatMap((r) => r.map((r) => r.outcome))).toEqual(Array(SLOTS).fill('delivered'));
      expect(await store.listOutbox('pending')).toEqual([]);
    });

    it('keeps a post whose one send takes longer than the lease', async () => {
      const store = await world.open(backend);
      const timers = fakeTimers();
      const a = world.replica(store, { owner: 'replica-a', leaseMs: LEASE_MS, repeat: timers.repeat });
      const b = world.replica(store, { owner: 'replica-b', leaseMs: LEASE_MS, repeat: timers.repeat });
      hooks.beforeAnswer = () => timers.advance(2 * LEASE_MS);
      const [entry] = await slotsPostedBy(store, 'replica-a', path.destination, 1);
      const passes: Promise<unknown>[] = [];
      const stopPasses = timers.every(
        clock.ms + LATE_MS,
        PASS_MS,
        () => void passes.push(b.deliverer.drain()),
      );

      const result = await a.deliverer.deliverHeld([entry!]);
      stopPasses();
      await Promise.all(passes);

      expect(passes.length).toBeGreaterThan(LEASE_MS / PASS_MS);
      expect(postsPerSlot()).toEqual(onceEach(1));
      expect(result.map((r) => r.outcome)).toEqual(['delivered']);
    });

    it('never sends a post the store says another replica took over', async () => {
      const store = await world.open(backend);
      const a = world.replica(store, { owner: 'replica-a', leaseMs: LEASE_MS });
      const b = world.replica(store, { owner: 'replica-b', leaseMs: LEASE_MS });
      const held = await slotsPostedBy(store, 'replica-a', path.destination, 3);
      // A's lease ran out unrenewed (its process stalled), and B's pass took the posts and sent them.
      clock.advance(LEASE_MS + 1);
      const taken = await b.deliverer.drain();
      expect(taken.map((r) => r.outcome)).toEqual(['delivered', 'delivered', 'delivered']);

      const late = await a.deliverer.deliverHeld(held);

      expect(postsPerSlot()).toEqual(onceEach(3));
      expect(late.map((r) => r.outcome)).toEqual(['pending', 'pending', 'pending']);
      expect(late.map((r) => r.failure?.reason)).toEqual(Array(3).fill('another replica took the post over'));
    });

    it('stops renewing a lease the store refused, logged lost once, and never sends its post', async () => {
      const store = await world.open(backend);
      const timers = fakeTimers();
      const renewals: string[][] = [];
      // The store refuses every renewal: another owner holds the posts now.
      const refusing = new Proxy(store, {
        get(target, key, receiver) {
          if (key === 'updateHeld')
            return (ids: string[], owner: string, change: Parameters<Store['updateHeld']>[2]) => {
              if (!('leaseMs' in change)) return target.updateHeld(ids, owner, change);
              renewals.push(ids);
              return Promise.resolve([]);
            };
          const value = Reflect.get(target, key, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const { log, find } = captureLog();
      const a = world.replica(refusing, {
        owner: 'replica-a',
        leaseMs: LEASE_MS,
        repeat: timers.repeat,
        log,
      });
      // The first post's answer takes two leases: renewals come due many times while it is sent.
      hooks.beforeAnswer = () => timers.advance(2 * LEASE_MS);
      const held = await slotsPostedBy(store, 'replica-a', path.destination, 2);

      const results = await a.deliverer.deliverHeld(held);

      expect(results.map((r) => r.outcome)).toEqual(['delivered', 'pending']);
      expect(postsPerSlot()).toEqual(onceEach(1));
      expect(renewals).toEqual([held.map((e) => e.id)]);
      expect(find('outbox.lease_lost').map((l) => l.outboxIds)).toEqual([held.map((e) => e.id)]);
    });
  });
});
