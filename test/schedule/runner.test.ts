// Firing: schedules from the store through the claim, outbox and delivery, on a fake clock, with
// two replicas sharing one store (memory, and the real Redis on 127.0.0.1:6379) and the webhook fake
// on loopback. Each slot is posted exactly once; removed or paused anywhere stops everywhere.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { route } from '../../src/sandbox/layout.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { ROOT } from '../support/spawn-herald.ts';
import { expectWithinDiscordLimits } from '../jobs/discord-limits.ts';
import { MANAGER, OPS_WEBHOOK_ID, replica, startWorld, type World } from './world.ts';

const runPrefix = testKeyPrefix();
afterAll(() => deleteKeys(runPrefix));

let nowMs = Date.parse('2026-03-27T12:00:10Z');
const now = () => new Date(nowMs);
const at = (iso: string) => {
  nowMs = Date.parse(iso);
};

interface Shared {
  /** Two handles on one store, as two replicas hold them. */
  stores: [Store, Store];
  close(): Promise<void>;
}

const backends: { name: string; open(): Promise<Shared> }[] = [
  {
    name: 'memory',
    open: () => {
      const store = createMemoryStore({ now: () => nowMs });
      return Promise.resolve({
        stores: [store, store],
        close: () => Promise.resolve(),
      });
    },
  },
  {
    name: 'redis',
    open: async () => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      const [a, b] = await Promise.all([
        createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix }),
        createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix }),
      ]);
      return {
        stores: [a, b],
        close: async () => void (await Promise.all([a.close(), b.close()])),
      };
    },
  },
];

describe.each(backends)('two replicas sharing a $name store', (backend) => {
  let world: World;
  let shared: Shared;
  beforeEach(async () => {
    at('2026-03-27T12:00:10Z');
    shared = await backend.open();
    world = await startWorld({ now, store: shared.stores[0], settings: { minIntervalMinutes: 1 } });
  });
  afterEach(async () => {
    await world.close();
    await shared.close();
  });

  const replicas = () =>
    [
      replica(world, shared.stores[0], { now, owner: 'replica-a' }),
      replica(world, shared.stores[1], { now, owner: 'replica-b' }),
    ] as const;

  it('an every-minute schedule over three minute boundaries posts exactly once per slot', async () => {
    const [a, b] = replicas();
    await world.type('/schedule add "* * * * *" /weather Oslo units:imperial');
    const [record] = await world.store.listSchedules();
    // Added at 12:00:10: the 12:00 slot is before it and never runs.
    expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
    for (const minute of ['12:01', '12:02', '12:03']) {
      at(`2026-03-27T${minute}:00.300Z`);
      const before = world.inbox.messages.length;
      const outcomes = (await Promise.all([a.tick(), b.tick()])).flat();
      outcomes.push(...(await b.tick()), ...(await a.tick()));
      expect(outcomes.filter((x) => x.status === 'posted')).toHaveLength(1);
      at(`2026-03-27T${minute}:20.000Z`);
      expect([...(await a.tick()), ...(await b.tick())].filter((x) => x.status === 'posted')).toEqual([]);
      expect(world.inbox.messages.length - before).toBe(1);
    }
    const posted = world.inbox.messages;
    expect(posted).toHaveLength(3);
    expect(posted.map((m) => (m.embeds[0] as { title?: string }).title)).toEqual([
      expect.stringContaining('Weather in'),
      expect.stringContaining('Weather in'),
      expect.stringContaining('Weather in'),
    ]);
    expect(posted.every((m) => m.username === 'herald' && m.webhookId !== OPS_WEBHOOK_ID)).toBe(true);
    // The message id Discord confirmed (wait=true) is recorded with the schedule's last run.
    const again = await shared.stores[1].getSchedule(record!.id);
    expect(again?.lastRun).toEqual({
      slotId: '2026-03-27T12:03:00.000Z',
      at: Date.parse('2026-03-27T12:03:00.300Z'),
      outcome: 'posted',
      messageId: posted[2]!.id,
      channelId: expect.any(String) as string,
      durationMs: expect.any(Number) as number,
    });
  });

  it('added on one replica and removed on the other stops it; paused anywhere stops it too', async () => {
    const [a, b] = replicas();
    await world.type('/schedule add to:ops "* * * * *" /voices');
    const [record] = await shared.stores[0].listSchedules();
    at('2026-03-27T12:01:00.300Z');
    expect((await b.tick()).map((x) => x.status)).toEqual(['posted']);
    expect(world.inbox.messages.map((m) => m.webhookId)).toEqual([OPS_WEBHOOK_ID]);
    await shared.stores[1].setPaused(record!.id, true);
    at('2026-03-27T12:02:00.300Z');
    expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
    await shared.stores[0].setPaused(record!.id, false);
    at('2026-03-27T12:03:00.300Z');
    expect((await a.tick()).map((x) => x.status)).toEqual(['posted']);
    await shared.stores[1].removeSchedule(record!.id);
    for (const minute of ['12:04', '12:05']) {
      at(`2026-03-27T${minute}:00.300Z`);
      expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
    }
    expect(world.inbox.messages).toHaveLength(2);
  });

  it('a replica that dies mid-run neither loses nor doubles its slot', async () => {
    // Replica A claims the 12:01 slot and never finishes (its lease is one minute).
    const a = replica(world, shared.stores[0], {
      now,
      owner: 'dead',
      leaseMs: 60_000,
    });
    const b = replica(world, shared.stores[1], {
      now,
      owner: 'alive',
      leaseMs: 60_000,
    });
    await world.type('/schedule add "*/30 * * * *" /voices');
    const [record] = await world.store.listSchedules();
    at('2026-03-27T12:30:05.000Z');
    expect(
      await shared.stores[0].claimSlot(`schedule-${record!.id}`, '2026-03-27T12:30:00.000Z', 'dead', 60_000),
    ).toEqual({ status: 'claimed', attempt: 1 });
    at('2026-03-27T12:30:20.000Z');
    expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
    at('2026-03-27T12:31:10.000Z');
    expect((await b.tick()).map((x) => x.status)).toEqual(['posted']);
    expect((await a.tick()).map((x) => x.status)).toEqual([]);
    expect(world.inbox.messages).toHaveLength(1);
  });
});

describe('failures and manual runs (memory store)', () => {
  let world: World;
  let store: Store;
  beforeEach(async () => {
    at('2026-03-27T12:00:10Z');
    store = createMemoryStore({ now: () => nowMs });
    world = await startWorld({
      now,
      settings: { minIntervalMinutes: 1 },
      runNow: (record, w) => replica(w, store, { now, owner: 'manual' }).runNow(record),
    });
  });
  afterEach(() => world.close());

  it('a failed run is retried within its slot and then posts: nothing is dropped', async () => {
    const r = replica(world, store, { now, owner: 'only' });
    await world.type('/schedule add "*/30 * * * *" /weather Oslo', MANAGER);
    // One refusal (not retried by the HTTP core), then the answer.
    let refusals = 1;
    world.server.use(
      http.get(route('weather', '/weather'), () =>
        refusals-- > 0
          ? HttpResponse.json({ cod: 401, message: 'Invalid API key.' }, { status: 401 })
          : undefined,
      ),
    );
    at('2026-03-27T12:30:00.300Z');
    expect((await r.tick()).map((x) => x.status)).toEqual(['failed']);
    // Waiting for its retry, the slot is not settled: the schedule stays due in the next-fire index.
    expect(await world.store.dueSchedules(nowMs, 10)).toHaveLength(1);
    let list = await world.type('/schedule list');
    expect(list.embeds![0]!.fields![0]!.value).toMatch(
      /^Last: pending since Fri, 27 Mar 2026, 12:30 UTC: [^\n]+\. Next try Fri, 27 Mar 2026, 12:30 UTC\.$/m,
    );
    // Too soon for a retry, then the retry posts the same slot.
    at('2026-03-27T12:30:10.000Z');
    expect(await r.tick()).toEqual([]);
    at('2026-03-27T12:31:00.000Z');
    const retried = await r.tick();
    expect(retried.map((x) => [x.status, x.slotId])).toEqual([['posted', '2026-03-27T12:30:00.000Z']]);
    list = await world.type('/schedule list');
    expect(list.embeds![0]!.fields![0]!.value).toContain('Last: posted Fri, 27 Mar 2026, 12:31 UTC');
    expect(world.inbox.messages).toHaveLength(1);
    // Posted, it is settled: the index moves on to the next fire time.
    expect(await world.store.dueSchedules(Date.parse('2026-03-27T12:59:59Z'), 10)).toEqual([]);
    expect(await world.store.dueSchedules(Date.parse('2026-03-27T13:00:00Z'), 10)).toHaveLength(1);
  });

  it('a slot that keeps failing is tried three times, then recorded as failed with why', async () => {
    const r = replica(world, store, { now, owner: 'only' });
    await world.type('/schedule add "*/30 * * * *" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    world.server.use(
      http.get(route('weather', '/weather'), () =>
        HttpResponse.json({ cod: 401, message: 'Invalid API key.' }, { status: 401 }),
      ),
    );
    const statuses: string[] = [];
    for (const time of ['12:30:00', '12:31:00', '12:32:00', '12:33:00', '12:34:00']) {
      at(`2026-03-27T${time}.300Z`);
      statuses.push(...(await r.tick()).map((x) => x.status));
      // Failed its last allowed run, the slot is settled by that run: the index moves on to 13:00.
      if (time === '12:32:00')
        expect(await world.store.dueSchedules(Date.parse('2026-03-27T12:59:59Z'), 10)).toEqual([]);
    }
    expect(statuses).toEqual(['failed', 'failed', 'failed']);
    expect(await world.store.dueSchedules(Date.parse('2026-03-27T13:00:00Z'), 10)).toHaveLength(1);
    const last = (await world.store.getSchedule(record!.id))?.lastRun;
    expect(last).toMatchObject({ slotId: '2026-03-27T12:30:00.000Z', outcome: 'failed' });
    expect(last?.error).toMatch(/^[A-Z][^\n]*\.$/);
    expect(world.inbox.messages).toHaveLength(0);
  });

  it('/schedule run posts once now, as a manual slot', async () => {
    await world.type('/schedule add hourly /voices');
    const [record] = await world.store.listSchedules();
    const reply = await world.type(`/schedule run ${record!.id}`);
    expect(reply.text).toBe(`Schedule ${record!.id} posted /voices to default.`);
    expect(world.inbox.messages).toHaveLength(1);
    expect((await world.store.getSchedule(record!.id))?.lastRun).toMatchObject({
      outcome: 'posted',
      slotId: expect.stringMatching(/^manual:/),
    });
  });

  it('/schedule run of a /say schedule posts the mp3 as a file of the webhook message', async () => {
    await world.type('/schedule add hourly /say "Good morning, team"');
    const [record] = await world.store.listSchedules();
    expect((await world.type(`/schedule run ${record!.id}`)).text).toMatch(/^Schedule \w{6} posted \/say/);
    const [message] = world.inbox.messages;
    expect(world.inbox.messages).toHaveLength(1);
    expect(message!.files).toHaveLength(1);
    expect(message!.files[0]).toMatchObject({
      filename: expect.stringMatching(/\.mp3$/),
      contentType: 'audio/mpeg',
    });
    expect(message!.files[0]!.bytes.byteLength).toBeGreaterThan(100);
    expectWithinDiscordLimits(message!);
    expect(message!.allowedMentions).toEqual({ parse: [] });
  });

  it('/schedule run of a /jobs schedule posts its listings as embeds within Discord’s limits', async () => {
    await world.type(
      '/schedule add "every monday at 09:00" /jobs what:"rust developer" where:Berlin country:de',
    );
    const [record] = await world.store.listSchedules();
    await world.type(`/schedule run ${record!.id}`);
    const [message] = world.inbox.messages;
    expect(world.inbox.messages).toHaveLength(1);
    expect(message!.embeds.length).toBeGreaterThan(0);
    expect(JSON.stringify(message!.embeds)).toMatch(/rust/i);
    expect(message!.files).toEqual([]);
    expectWithinDiscordLimits(message!);
    // Buttons cannot ride on a webhook message: the page buttons are left out.
    expect(message!.body.components).toBeUndefined();
  });
});

describe('a replica process killed with SIGKILL mid-run (real Redis)', () => {
  it('neither loses nor doubles its slot: another replica posts it once after the lease', async () => {
    const keyPrefix = `${runPrefix}${randomUUID()}:`;
    const store = await createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix });
    const schedules = store;
    at('2026-03-27T12:00:10Z');
    const world = await startWorld({ now, store: schedules, settings: { minIntervalMinutes: 1 } });
    try {
      await world.type('/schedule add "*/30 * * * *" /voices');
      const [record] = await schedules.listSchedules();
      const child = spawn(process.execPath, [join(ROOT, 'test/schedule/crash-child.ts')], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, REDIS_URL, KEY_PREFIX: keyPrefix, NOW: '2026-03-27T12:30:00.500Z' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exited = new Promise<NodeJS.Signals | null>((done) =>
        child.on('exit', (_c, signal) => done(signal)),
      );
      const deadline = Date.now() + 15_000;
      while (!out.includes('running')) {
        if (Date.now() > deadline || child.exitCode !== null) {
          child.kill('SIGKILL');
          throw new Error(`the child never started its run: ${err.slice(0, 2000)}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      const slotId = '2026-03-27T12:30:00.000Z';
      expect(await store.getSlot(`schedule-${record!.id}`, slotId)).toMatchObject({
        status: 'claimed',
        owner: 'doomed-replica',
      });
      const survivor = replica(world, store, { now, owner: 'survivor' });
      // While the dead replica's lease runs, the slot is held: nobody posts it twice.
      at('2026-03-27T12:30:30.000Z');
      expect(await survivor.tick()).toEqual([]);
      // Once the lease has ended, the survivor takes the slot over and posts it, once.
      at('2026-03-27T12:31:01.000Z');
      expect((await survivor.tick()).map((x) => [x.status, x.slotId])).toEqual([['posted', slotId]]);
      at('2026-03-27T12:31:30.000Z');
      expect(await survivor.tick()).toEqual([]);
      expect(world.inbox.messages).toHaveLength(1);
    } finally {
      await world.close();
      await store.close();
    }
  }, 30_000);
});
