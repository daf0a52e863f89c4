// Watches (issue 12, /jobs): a schedule with only:new posts what is there first, titled as the
// starting point, then only the listings it has not posted, then nothing (recorded as "no change").
// A failed slot leaves the memory as it was; the memory lives in the store, shared and kept.
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchMemoryKey } from '../../src/core/watch.ts';
import { route } from '../../src/sandbox/layout.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { readFixture } from '../support/service-harness.ts';
import { replica, startWorld, type World } from './world.ts';

let nowMs = Date.parse('2026-03-27T12:00:10Z');
const now = () => new Date(nowMs);
const at = (iso: string) => void (nowMs = Date.parse(iso));

interface Listing {
  id: string;
  title: string;
  redirect_url: string;
  [key: string]: unknown;
}
const base = readFixture<{ results: Listing[]; [key: string]: unknown }>('job-search', 'search-gb.json');
const template = base.results[0]!;
const listing = (n: number): Listing => ({
  ...template,
  id: `54701320${n}`,
  title: `Rust Developer ${n}`,
  redirect_url: `https://www.adzuna.co.uk/jobs/land/ad/54701320${n}?se=abc&v=4AC`,
});

let world: World;
let store: Store;
let answer: Listing[] | 'fail' = [];
beforeEach(async () => {
  at('2026-03-27T12:00:10Z');
  store = createMemoryStore({ now: () => nowMs });
  world = await startWorld({
    now,
    settings: { minIntervalMinutes: 1 },
    forget: async (id) => void (await store.setValue(watchMemoryKey(id), '')),
  });
  world.server.use(
    http.get(route('jobSearch', '/jobs/:country/search/:page'), () =>
      answer === 'fail'
        ? HttpResponse.json({ exception: 'AUTH_FAIL' }, { status: 401 })
        : HttpResponse.json({ ...base, count: answer.length, results: answer }),
    ),
  );
});
afterEach(() => world.close());

function titles(i: number): string[] {
  const fields = (world.inbox.messages[i]!.embeds[0] as { fields: { name: string }[] }).fields;
  return fields.map((f) => f.name.replace(/^\d+\.\s*/, ''));
}

describe('/schedule add ... only:new on /jobs', () => {
  it('posts five, then exactly the new one, then nothing; a failed run in between loses nothing', async () => {
    const r = replica(world, store, { now, owner: 'watcher' });
    const added = await world.type(
      '/schedule add only:new "*/30 * * * *" /jobs what:"rust developer" where:Berlin',
    );
    expect(added.text).toMatch(/^Schedule \w{6} added/);
    const [record] = await world.store.list();
    expect(record!.onlyNew).toBe(true);

    answer = [1, 2, 3, 4, 5].map(listing);
    at('2026-03-27T12:30:00.300Z');
    await r.tick();
    expect(world.inbox.messages).toHaveLength(1);
    expect((world.inbox.messages[0]!.embeds[0] as { title: string }).title).toMatch(/^Starting point: /);
    expect(titles(0)).toHaveLength(5);

    // A run that fails (the provider refuses) changes nothing the watch remembers.
    answer = 'fail';
    at('2026-03-27T13:00:00.300Z');
    expect((await r.tick()).map((x) => x.status)).toEqual(['failed']);

    answer = [6, 1, 2, 3, 4].map(listing);
    at('2026-03-27T13:01:00.300Z');
    await r.tick();
    expect(world.inbox.messages).toHaveLength(2);
    expect((world.inbox.messages[1]!.embeds[0] as { title: string }).title).toMatch(/^1 new: /);
    expect((world.inbox.messages[1]!.embeds[0] as { footer: { text: string } }).footer.text).toBe(
      'This watch reads the first page of results only.',
    );
    expect(titles(1)).toEqual(['Rust Developer 6']);

    at('2026-03-27T13:30:00.300Z');
    await r.tick();
    expect(world.inbox.messages).toHaveLength(2);
    expect((await world.store.get(record!.id))?.lastRun).toMatchObject({ outcome: 'no-change' });
    const list = await world.type('/schedule list');
    expect(list.embeds![0]!.fields![0]!.name).toContain('(watch: only new)');
    expect(list.embeds![0]!.fields![0]!.value).toContain('Last: no change Fri, 27 Mar 2026, 13:30 UTC');

    // The memory is in the store: a new replica (a restart) remembers it.
    const restarted = replica(world, store, { now, owner: 'restarted' });
    answer = [7, 6, 1, 2, 3].map(listing);
    at('2026-03-27T14:00:00.300Z');
    await restarted.tick();
    expect(titles(2)).toEqual(['Rust Developer 7']);

    // Removing the watch takes its memory with it.
    await world.type(`/schedule remove ${record!.id}`);
    expect(await store.getValue(watchMemoryKey(record!.id))).toBe('');
  });

  it('refuses only:new for a command without a sensible "new", in one sentence', async () => {
    const reply = await world.type('/schedule add only:new hourly /weather Oslo');
    expect(reply.text).toBe(
      '/weather cannot be a watch (only:new): only /jobs, /host, /email status and /forecast can post just what is new.',
    );
    expect(reply.ephemeral).toBe(true);
    expect(world.upstream()).toEqual([]);
  });

  describe('/schedule add ... only:new on /host', () => {
    const record = readFixture<{ data: Record<string, unknown>[]; ports: number[]; [key: string]: unknown }>(
      'hostscan',
      'host-8.8.8.8.json',
    );
    const service = (port: number, product: string, version?: string) => ({
      ...record.data[0]!,
      port,
      product,
      ...(version ? { version } : {}),
    });
    let host = record;

    it('posts the record first, then a port added and a port removed as two diffs, then nothing', async () => {
      world.server.use(http.get(route('hostscan', '/:provider/host/:ip'), () => HttpResponse.json(host)));
      const r = replica(world, store, { now, owner: 'watcher' });
      // Every two hours: longer than the client's one-hour cache of a host record.
      await world.type('/schedule add only:new "every 2 hours" /host 8.8.8.8');
      const set = (services: Record<string, unknown>[]) => {
        host = { ...record, data: services, ports: services.map((x) => x.port as number) };
      };
      set([service(22, 'OpenSSH', '8.9'), service(443, 'nginx', '1.24')]);
      at('2026-03-27T14:00:00.300Z');
      await r.tick();
      expect((world.inbox.messages[0]!.embeds[0] as { title: string }).title).toBe(
        'Starting point: Host 8.8.8.8',
      );

      set([service(22, 'OpenSSH', '8.9'), service(443, 'nginx', '1.24'), service(8443, 'nginx', '1.25')]);
      at('2026-03-27T16:00:00.300Z');
      await r.tick();
      set([service(443, 'nginx', '1.24'), service(8443, 'nginx', '1.25')]);
      at('2026-03-27T18:00:00.300Z');
      await r.tick();
      at('2026-03-27T20:00:00.300Z');
      await r.tick();
      const diffs = world.inbox.messages
        .slice(1)
        .map((m) => (m.embeds[0] as { description: string }).description);
      expect(diffs).toEqual(['```diff\n+ 8443/tcp nginx 1.25\n```', '```diff\n− 22/tcp OpenSSH 8.9\n```']);
    });
  });
});

const runPrefix = testKeyPrefix();
const dir = mkdtempSync(join(tmpdir(), 'herald-watch-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await deleteKeys(runPrefix);
});

const shared: { name: string; open(): Promise<() => Promise<Store>> }[] = [
  {
    name: 'a restart over the sqlite file',
    open: () => {
      const file = join(dir, `${randomUUID()}.sqlite`);
      return Promise.resolve(() => Promise.resolve(createSqliteStore(file, { now: () => nowMs })));
    },
  },
  {
    name: 'two replicas sharing Redis',
    open: () => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      return Promise.resolve(() => createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix }));
    },
  },
];

describe.each(shared)('a /jobs watch across $name', (backend) => {
  it('posts five, then exactly the new one, then nothing, whichever process runs the slot', async () => {
    const openStore = await backend.open();
    const first = await openStore();
    const a = replica(world, first, { now, owner: 'first' });
    await world.type('/schedule add only:new "*/30 * * * *" /jobs what:"rust developer" where:Berlin');
    answer = [1, 2, 3, 4, 5].map(listing);
    at('2026-03-27T12:30:00.300Z');
    await a.tick();
    await first.close();
    const second = await openStore();
    const b = replica(world, second, { now, owner: 'second' });
    answer = [6, 1, 2, 3, 4].map(listing);
    at('2026-03-27T13:00:00.300Z');
    await b.tick();
    at('2026-03-27T13:30:00.300Z');
    await b.tick();
    await second.close();
    expect(world.inbox.messages).toHaveLength(2);
    expect(titles(0)).toHaveLength(5);
    expect(titles(1)).toEqual(['Rust Developer 6']);
  });
});

describe('/schedule add ... only:new on /email status', () => {
  it('posts the record first, then again only when its last event changed', async () => {
    const email = readFixture<Record<string, unknown>>('email', 'email-iso-timestamp.json');
    let lastEvent = 'delivered';
    world.server.use(
      http.get(route('email', '/emails/:id'), () => HttpResponse.json({ ...email, last_event: lastEvent })),
    );
    const r = replica(world, store, { now, owner: 'watcher' });
    await world.type(`/schedule add only:new "every 2 hours" /email status ${String(email.id)}`);
    const titlesSeen: string[] = [];
    for (const [time, event] of [
      ['14:00', 'delivered'],
      ['16:00', 'delivered'],
      ['18:00', 'bounced'],
      ['20:00', 'bounced'],
    ] as const) {
      lastEvent = event;
      at(`2026-03-27T${time}:00.300Z`);
      await r.tick();
    }
    for (const m of world.inbox.messages) titlesSeen.push((m.embeds[0] as { title: string }).title);
    expect(titlesSeen).toHaveLength(2);
    expect(titlesSeen[0]).toMatch(/^Starting point: Weekly analytics/);
    expect(titlesSeen[1]).toMatch(/^Changed: .*[Dd]elivered.* → .*[Bb]ounced.*: Weekly analytics/);
  });
});

describe('/schedule add ... only:new alert:rain on /forecast', () => {
  const fixture = readFixture<{ list: Record<string, unknown>[]; city: Record<string, unknown> }>(
    'weather',
    'forecast-zocca.json',
  );
  /** Five days from 28 Mar 2026 (UTC), eight 3-hour steps each, with each day's condition. */
  const forecast = (conditions: readonly string[]) => {
    const start = Date.parse('2026-03-28T00:00:00Z') / 1000;
    const list = Array.from({ length: 40 }, (_, i) => {
      const main = conditions[Math.floor(i / 8)]!;
      return {
        ...fixture.list[0]!,
        dt: start + i * 3 * 3600,
        dt_txt: new Date((start + i * 3 * 3600) * 1000).toISOString().replace('T', ' ').slice(0, 19),
        weather: [{ id: main === 'Rain' ? 500 : 800, main, description: main.toLowerCase(), icon: '01d' }],
      };
    });
    return { ...fixture, cnt: list.length, list, city: { ...fixture.city, timezone: 0 } };
  };

  it('posts a day once when rain first appears for it, not again on the next run', async () => {
    let answer = forecast(['Clear', 'Clear', 'Clear', 'Clear', 'Clear']);
    world.server.use(http.get(route('weather', '/forecast'), () => HttpResponse.json(answer)));
    const r = replica(world, store, { now, owner: 'watcher' });
    const added = await world.type('/schedule add only:new alert:rain "every 2 hours" /forecast Zocca');
    expect(added.text).toMatch(/^Schedule \w{6} added/);
    at('2026-03-27T14:00:00.300Z');
    await r.tick();
    answer = forecast(['Clear', 'Clear', 'Rain', 'Clear', 'Clear']);
    at('2026-03-27T16:00:00.300Z');
    await r.tick();
    at('2026-03-27T18:00:00.300Z');
    await r.tick();
    expect(world.inbox.messages).toHaveLength(1);
    const embed = world.inbox.messages[0]!.embeds[0] as { title: string; fields: { name: string }[] };
    expect(embed.title).toMatch(/^Alert \(rain\): /);
    expect(embed.fields).toHaveLength(1);
    const list = await world.type('/schedule list');
    expect(list.embeds![0]!.fields![0]!.name).toMatch(/\(watch: only new, alert rain\) · every 2 hours/);
  });

  it('refuses a forecast watch without a readable alert, and alert: elsewhere, in one sentence', async () => {
    expect((await world.type('/schedule add only:new hourly /forecast Zocca')).text).toBe(
      'A /forecast watch needs alert:rain, alert:snow, alert:"below 0" or alert:"above 30".',
    );
    expect((await world.type('/schedule add only:new alert:fog hourly /forecast Zocca')).text).toBe(
      'A /forecast watch needs alert:rain, alert:snow, alert:"below 0" or alert:"above 30", not "fog".',
    );
    expect((await world.type('/schedule add alert:rain hourly /forecast Zocca')).text).toBe(
      'alert: is for a /forecast watch; add only:new and schedule /forecast.',
    );
    expect(world.upstream()).toEqual([]);
  });
});
