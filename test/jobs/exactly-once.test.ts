// Exactly once per slot against the real stores: node:sqlite (a temp file shared by separate
// connections) and the Redis on 127.0.0.1:6379 (a unique key prefix per run, deleted afterwards).
// Slots are driven directly with a fake clock; posts are counted at the loopback fake webhook.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { delay, http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/schedule/job.ts';
import type { ScheduleRunner } from '../../src/schedule/runner.ts';
import { route } from '../../src/sandbox/layout.ts';
import { createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import {
  FAST_DELIVERY,
  WEBHOOK_ID,
  WEBHOOK_TOKEN,
  builtInRunner,
  captureLog,
  fakeClock,
  hourly,
  postedContents,
  reportJob,
  startWebhookFake,
  waitFor,
  type FakeClock,
  type WebhookFake,
} from './harness.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';

const { dir, runPrefix } = storeScratch('herald-once-');
const ROOT = resolve(import.meta.dirname, '../..');

let fake: WebhookFake;
const opened: (ScheduleRunner | Store)[] = [];

beforeAll(async () => {
  fake = await startWebhookFake();
});
afterEach(async () => {
  for (const x of opened.splice(0).reverse()) {
    if ('runSlot' in x) await x.stop();
    else await x.close();
  }
  fake.inbox.clear();
  fake.server.resetHandlers();
});
afterAll(async () => {
  await fake.close();
});

interface Backend {
  name: string;
  /** Where the store lives, as a child process is told (STORE_URL, KEY_PREFIX). */
  location(): { storeUrl: string; keyPrefix: string };
  open(where: { storeUrl: string; keyPrefix: string }, clock: FakeClock): Promise<Store>;
}

const backends: Backend[] = [
  {
    name: 'node:sqlite',
    location: () => ({ storeUrl: join(dir, randomUUID(), 'herald.sqlite'), keyPrefix: '' }),
    open: async (where, clock) => createSqliteStore(where.storeUrl, { now: clock.nowMs }),
  },
  {
    name: 'Redis',
    location: () => ({ storeUrl: REDIS_URL, keyPrefix: `${runPrefix}${randomUUID()}:` }),
    open: (where, clock) =>
      createRedisStore(where.storeUrl, { now: clock.nowMs, keyPrefix: where.keyPrefix }),
  },
];

function replica(store: Store, clock: FakeClock, owner: string, job: Job = reportJob()): ScheduleRunner {
  const s = builtInRunner({
    builtIns: [hourly(job)],
    services: { webhook: fake.client() },
    store,
    log: captureLog().log,
    now: clock.now,
    owner,
    catchupMinutes: 360,
    delivery: FAST_DELIVERY,
  });
  opened.push(s);
  return s;
}

async function openStore(backend: Backend, where: ReturnType<Backend['location']>, clock: FakeClock) {
  const store = await backend.open(where, clock);
  opened.push(store);
  return store;
}

/** Runs the crash child until it reaches `crashAt`, then kills it with SIGKILL. */
async function crashChild(
  where: ReturnType<Backend['location']>,
  slot: string,
  crashAt: 'claim' | 'post' | 'in-flight',
  /** When to kill it; by default once it prints its marker. */
  until?: () => boolean,
) {
  const child = spawn(process.execPath, [join(ROOT, 'test/jobs/crash-child.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      STORE_URL: where.storeUrl,
      KEY_PREFIX: where.keyPrefix,
      WEBHOOK_BASE_URL: fake.config.baseUrl,
      WEBHOOK_ID,
      WEBHOOK_TOKEN,
      SLOT: slot,
      CRASH_AT: crashAt,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((done) =>
    child.on('exit', (_code, signal) => done(signal)),
  );
  const marker = crashAt === 'claim' ? 'claimed' : 'posting';
  const isThere = until ?? (() => stdout.includes(marker));
  const deadline = Date.now() + 15_000;
  while (!isThere()) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the child never reached "${crashAt}": ${stderr.slice(0, 2_000)}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

describe.each(backends)('exactly once per slot with a shared $name store', (backend) => {
  it('three schedulers sharing the store post each of many slots exactly once, lagging replicas included', async () => {
    // Every fifth post fails with a 502 first: retries must not turn into duplicates.
    let posts = 0;
    fake.server.use(
      http.post(route('webhook', '/:id/:token'), () =>
        ++posts % 5 === 0
          ? HttpResponse.json({ message: '502: Bad Gateway', code: 0 }, { status: 502 })
          : undefined,
      ),
    );
    const clock = fakeClock('2025-11-21T00:00:30Z');
    const where = backend.location();
    const stores = await Promise.all([0, 1, 2, 3].map(() => openStore(backend, where, clock)));
    const runs = new Map<string, number>();
    const job = reportJob((ctx) => {
      runs.set(ctx.slot.id, (runs.get(ctx.slot.id) ?? 0) + 1);
      ctx.deliver({ kind: 'webhook', message: { content: `report for ${ctx.slot.id}` } });
      return Promise.resolve();
    });
    const [a, b, c, lagging] = stores.map((s, i) => replica(s, clock, `replica-${i}`, job));
    const slots = Array.from({ length: 24 }, (_, h) => new Date(Date.UTC(2025, 10, 21, h)));
    for (const [i, slot] of slots.entries()) {
      clock.ms = slot.getTime() + 150;
      const order = [a!, b!, c!];
      if (i % 2 === 1) order.reverse();
      const outcomes = await Promise.all(order.map((s) => s.runSlot('report', slot)));
      expect(outcomes.filter((o) => o.status === 'posted')).toHaveLength(1);
      clock.advance(90_000);
      expect(await lagging!.runSlot('report', slot)).toMatchObject({
        status: 'skipped',
        reason: 'already-posted',
      });
    }
    const contents = postedContents(fake.inbox);
    expect(contents).toHaveLength(24);
    expect(new Set(contents)).toEqual(new Set(slots.map((s) => `report for ${s.toISOString()}`)));
    expect(await stores[0]!.listOutbox('pending')).toEqual([]);
    // The claim elected one runner per slot: the others never even fetched the report.
    expect([...runs.values()]).toEqual(Array.from({ length: 24 }, () => 1));
  });

  it('a process killed between claim and post is restarted and posts the slot once', async () => {
    const where = backend.location();
    const slot = '2025-11-22T08:00:00.000Z';
    await crashChild(where, slot, 'claim');
    expect(fake.inbox.messages).toHaveLength(0);

    const clock = fakeClock('2025-11-22T08:02:00Z');
    const store = await openStore(backend, where, clock);
    expect(await store.getSlot('report', slot)).toMatchObject({ status: 'claimed', owner: 'crashing-child' });
    // Restarted while the dead process's lease still runs: nothing yet, and no second post later.
    await replica(store, clock, 'restarted-early').start();
    expect(fake.inbox.messages).toHaveLength(0);
    clock.set('2025-11-22T08:12:00Z'); // the 5-minute lease is over
    const restarted = replica(store, clock, 'restarted');
    await restarted.start();
    expect(postedContents(fake.inbox)).toEqual([`report for ${slot}`]);
    expect(await store.getSlot('report', slot)).toMatchObject({
      status: 'posted',
      owner: 'restarted',
      attempts: 2,
    });
    await replica(store, clock, 'restarted-again').start();
    expect(fake.inbox.messages).toHaveLength(1);
  });

  it('a process killed after recording its post but before sending it is restarted and delivers it once', async () => {
    const where = backend.location();
    const slot = '2025-11-22T09:00:00.000Z';
    await crashChild(where, slot, 'post');
    expect(fake.inbox.messages).toHaveLength(0);

    const clock = fakeClock('2025-11-22T09:06:00Z'); // the outbox lease of 5 minutes is over
    const store = await openStore(backend, where, clock);
    expect(await store.getSlot('report', slot)).toMatchObject({ status: 'posted', owner: 'crashing-child' });
    expect(await store.listOutbox('pending')).toEqual([
      expect.objectContaining({ slotId: slot, attempts: 1 }),
    ]);
    await replica(store, clock, 'restarted').start();
    await replica(store, clock, 'restarted-again').start();
    expect(postedContents(fake.inbox)).toEqual([`report for ${slot}`]);
    expect(await store.listOutbox('delivered')).toEqual([expect.objectContaining({ slotId: slot })]);
  });
  it('a process killed while its webhook POST is in flight resends it once after the lease, logged as a possible repeat', async () => {
    // The webhook takes 1.5 s to answer; the process is killed 0.3 s after the POST reached it.
    // Discord has then posted the message, and nothing the protocol offers can tell herald so.
    let arrivedAt: number | undefined;
    fake.server.use(
      http.post(route('webhook', '/:id/:token'), async () => {
        arrivedAt ??= Date.now();
        await delay(1_500);
        return undefined; // the sandbox handler behind it accepts the post
      }),
    );
    const where = backend.location();
    const slot = '2025-11-22T10:00:00.000Z';
    await crashChild(where, slot, 'in-flight', () => arrivedAt !== undefined && Date.now() - arrivedAt > 300);
    await waitFor(() => fake.inbox.messages.length === 1, 5_000, 'the cut-off post to land');

    const clock = fakeClock('2025-11-22T10:01:00Z');
    const store = await openStore(backend, where, clock);
    const [pending] = await store.listOutbox('pending');
    expect(pending).toMatchObject({ slotId: slot, attempts: 1, inFlightAt: expect.any(Number) as number });
    expect(pending!.receipt).toBeUndefined();
    // While the dead process's 5-minute lease runs, a restart does not send it.
    await replica(store, clock, 'restarted-early').start();
    expect(fake.inbox.messages).toHaveLength(1);
    fake.server.resetHandlers();
    clock.set('2025-11-22T10:06:30Z');
    const log = captureLog();
    const restarted = builtInRunner({
      builtIns: [hourly()],
      services: { webhook: fake.client() },
      store,
      log: log.log,
      now: clock.now,
      owner: 'restarted',
      catchupMinutes: 360,
      delivery: FAST_DELIVERY,
    });
    opened.push(restarted);
    await restarted.start();
    // At least once: the post is there twice, never lost, and the resend says it may repeat.
    expect(postedContents(fake.inbox)).toEqual([`report for ${slot}`, `report for ${slot}`]);
    expect(log.find('outbox.resend_uncertain')).toEqual([expect.objectContaining({ slotId: slot })]);
    const [delivered] = await store.listOutbox('delivered');
    expect(delivered).toMatchObject({ receipt: fake.inbox.messages[1]!.id, attempts: 2 });
    await replica(store, clock, 'restarted-again').start();
    expect(fake.inbox.messages).toHaveLength(2);
  });
});
