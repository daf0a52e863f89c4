// Runs that tell the truth, on every store (memory, a SQLite file reopened as a restart would, and
// the real Redis): a command that answers "not found" for its main input, or refuses it, fails its
// slot with its own sentence and posts nothing (the command says so in its Reply's `outcome`, never
// read from its text); an empty listing is an answer and is posted; a slot left waiting for its
// retry when a newer slot runs is closed as missed.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { route } from '../../src/sandbox/layout.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';
import { MANAGER, replica, startWorld, type World } from './world.ts';

let nowMs = 0;
const now = () => new Date(nowMs);
const at = (iso: string) => {
  nowMs = Date.parse(iso);
};

const { dir, runPrefix } = storeScratch('herald-truthful-');

interface Backend {
  name: string;
  /** A store over the same data each call: a new process's handle (the previous one stays open). */
  open(): Promise<Store>;
}

function backends(): Backend[] {
  const memory = createMemoryStore({ now: () => nowMs });
  const file = join(dir, `${randomUUID()}.sqlite`);
  const keyPrefix = `${runPrefix}${randomUUID()}:`;
  return [
    { name: 'memory', open: () => Promise.resolve(memory) },
    { name: 'sqlite', open: () => Promise.resolve(createSqliteStore(file, { now: () => nowMs })) },
    { name: 'redis', open: () => createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix }) },
  ];
}

describe.each(backends().map((b) => ({ name: b.name })))('on a $name store', ({ name }) => {
  let world: World;
  let backend: Backend;
  const opened: Store[] = [];
  const open = async () => {
    const store = await backend.open();
    opened.push(store);
    return store;
  };
  beforeEach(async () => {
    at('2026-03-27T12:00:10Z');
    backend = backends().find((b) => b.name === name)!;
    world = await startWorld({ now, store: await open(), settings: { minIntervalMinutes: 1 } });
  });
  afterEach(async () => {
    await world.close();
    for (const store of new Set(opened.splice(0))) if (store !== world.store) await store.close();
  });

  /** Ticks `runner` at each minute of the slots `slots` (minutes past 12:00), three attempts each. */
  const runSlots = async (runner: ReturnType<typeof replica>, slots: number[]) => {
    for (const slot of slots)
      for (const minute of [0, 1, 2]) {
        at(`2026-03-27T12:${String(slot + minute).padStart(2, '0')}:00.300Z`);
        await runner.tick();
      }
  };

  it('/weather Atlantis posts nothing, fails with its sentence and is told at the third slot', async () => {
    await world.type('/schedule add "every 5 minutes" /weather Atlantis', MANAGER);
    const [record] = await world.store.listSchedules();
    const runner = replica(world, await open(), { now, owner: 'only' });
    await runSlots(runner, [5, 10, 15, 20]);
    const runs = await world.store.history(record!.id);
    expect(runs.map((r) => [r.outcome, r.error])).toEqual(
      Array.from({ length: 4 }, () => ['failed', 'No city called “Atlantis” was found.']),
    );
    // No post of the answer; one notice, naming the command's own sentence.
    expect(world.inbox.messages.map((m) => m.content)).toEqual([
      `Schedule ${record!.id} (/weather Atlantis → default) failed 3 times in a row, last: No city called “Atlantis” was found. Fix it, or preview it with /schedule add … preview:yes; /schedule history ${record!.id} shows each run.`,
    ]);
    const history = await world.type(`/schedule history ${record!.id}`);
    expect(history.embeds![0]!.fields![0]!.value).toMatch(
      /^failed .+: No city called “Atlantis” was found\.$/,
    );
  });

  it('a host, a place and a refused address fail with their sentences; no jobs today is posted', async () => {
    await world.type('/schedule add "every 5 minutes" /host 192.0.2.10', MANAGER);
    await world.type('/schedule add "every 5 minutes" /host 10.1.2.3', MANAGER);
    await world.type('/schedule add "every 5 minutes" /geocode Atlantis', MANAGER);
    await world.type('/schedule add "every 5 minutes" /jobs nothing', MANAGER);
    const records = await world.store.listSchedules();
    const runner = replica(world, await open(), { now, owner: 'only' });
    at('2026-03-27T12:05:00.300Z');
    await runner.tick();
    const last = async (line: string) => {
      const record = records.find((r) => r.command === line)!;
      return (await world.store.history(record.id))[0];
    };
    expect(await last('/host 192.0.2.10')).toMatchObject({
      outcome: 'pending',
      error: 'No information is available for 192.0.2.10.',
    });
    expect((await last('/host 10.1.2.3'))?.error).toMatch(
      /^10\.1\.2\.3 is .+; no internet scanner can see it\.$/,
    );
    expect((await last('/geocode Atlantis'))?.error).toBe('No place matches “Atlantis”.');
    expect(await last('/jobs nothing')).toMatchObject({ outcome: 'posted' });
    expect(world.inbox.messages.map((m) => (m.embeds[0] as { title?: string }).title)).toEqual([
      'No jobs found',
    ]);
  });

  it('a slot waiting for its retry over a restart is closed as missed when a newer slot runs', async () => {
    await world.type('/schedule add "every 5 minutes" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    let outage = true;
    world.server.use(
      http.get(route('weather', '/weather'), () =>
        outage ? HttpResponse.json({ cod: 401, message: 'Invalid API key.' }, { status: 401 }) : undefined,
      ),
    );
    at('2026-03-27T12:05:00.300Z');
    await replica(world, await open(), { now, owner: 'before-restart' }).tick();
    expect((await world.store.history(record!.id))[0]).toMatchObject({ outcome: 'pending' });
    // Down until after the next slot: the 12:05 slot is never tried again.
    outage = false;
    at('2026-03-27T12:10:00.300Z');
    await replica(world, await open(), { now, owner: 'after-restart' }).tick();
    const runs = await world.store.history(record!.id);
    expect(runs.map((r) => [r.slotId, r.outcome])).toEqual([
      ['2026-03-27T12:10:00.000Z', 'posted'],
      ['2026-03-27T12:05:00.000Z', 'missed'],
    ]);
    expect(runs[1]).not.toHaveProperty('nextRetryAt');
    expect(runs[1]?.error).toBe('Missed: a newer slot ran before its retry.');
    const history = await world.type(`/schedule history ${record!.id}`);
    expect(history.embeds![0]!.fields![1]!.value).toMatch(
      /^missed .+: Missed: a newer slot ran before its retry\.$/,
    );
  });

  it('closes it too when a manual run came between it and the newer slot', async () => {
    await world.type('/schedule add "every 5 minutes" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    let outage = true;
    world.server.use(
      http.get(route('weather', '/weather'), () =>
        outage ? HttpResponse.json({ cod: 401, message: 'Invalid API key.' }, { status: 401 }) : undefined,
      ),
    );
    at('2026-03-27T12:05:00.300Z');
    const before = replica(world, await open(), { now, owner: 'before-restart' });
    await before.tick();
    outage = false;
    at('2026-03-27T12:06:00.300Z');
    expect((await before.runNow(record!)).outcome).toBe('posted');
    at('2026-03-27T12:10:00.300Z');
    await replica(world, await open(), { now, owner: 'after-restart' }).tick();
    const runs = await world.store.history(record!.id);
    expect(runs.find((r) => r.slotId === '2026-03-27T12:05:00.000Z')?.outcome).toBe('missed');
    expect(runs.map((r) => r.outcome)).toEqual(['posted', 'posted', 'missed']);
  });
});
