// Watches (/jobs): a schedule with only:new posts what is there first, titled as the
// starting point, then only the listings it has not posted, then nothing (recorded as "no change").
// A failed slot leaves the memory as it was; the memory lives in the store, shared and kept.
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WATCH_SHOWN_MAX, watchMemoryKey } from '../../src/schedule/watch.ts';
import { FIRST_PAGE_NOTE } from '../../commands/jobs.ts';
import type { ScheduleRunner } from '../../src/schedule/runner.ts';
import { MAX_RESULTS_PER_PAGE } from '../../src/domain/job-countries.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { route } from '../../src/sandbox/layout.ts';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';
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
/** The `results_per_page` of each job search the fake received. */
let pageSizes: (string | null)[] = [];
beforeEach(async () => {
  pageSizes = [];
  at('2026-03-27T12:00:10Z');
  store = createMemoryStore({ now: () => nowMs });
  world = await startWorld({ now, store, settings: { minIntervalMinutes: 1 } });
  world.server.use(
    http.get(route('jobSearch', '/jobs/:country/search/:page'), ({ request }) => {
      pageSizes.push(new URL(request.url).searchParams.get('results_per_page'));
      return answer === 'fail'
        ? HttpResponse.json({ exception: 'AUTH_FAIL' }, { status: 401 })
        : HttpResponse.json({ ...base, count: answer.length, results: answer });
    }),
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
    const [record] = await world.store.listSchedules();
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
      'This watch reads the first page of results only (up to 50 listings).',
    );
    // Every run asked the provider for its largest page.
    expect(pageSizes).toEqual(['posted', 'failed', 'posted'].map(() => String(MAX_RESULTS_PER_PAGE)));
    expect(titles(1)).toEqual(['Rust Developer 6']);

    at('2026-03-27T13:30:00.300Z');
    await r.tick();
    expect(world.inbox.messages).toHaveLength(2);
    expect((await world.store.getSchedule(record!.id))?.lastRun).toMatchObject({ outcome: 'no-change' });
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
    expect(await store.getValue(watchMemoryKey(record!.id))).toBeUndefined();
  });

  it('refuses only:new for a command without a sensible "new", in one sentence', async () => {
    const reply = await world.type('/schedule add only:new hourly /weather Oslo');
    expect(reply.text).toBe(
      '/weather cannot be a watch (only:new): only /email status, /forecast, /host and /jobs can post just what is new.',
    );
    expect(reply.ephemeral).toBe(true);
    expect(world.upstream()).toEqual([]);
  });

  it('refuses page: on a /jobs watch, which reads the first page only, with no upstream request', async () => {
    const reply = await world.type('/schedule add only:new hourly /jobs rust developer page:3');
    expect(reply.text).toBe(
      'A /jobs watch reads the first page of results only (the largest the provider gives); leave out page:.',
    );
    expect(reply.ephemeral).toBe(true);
    expect(world.upstream()).toEqual([]);
    // Without only:new the same line is an ordinary schedule of page 3.
    const plain = await world.type('/schedule add hourly /jobs rust developer page:3');
    expect(plain.ephemeral).not.toBe(true);
  });

  it('asks for the largest page, shows at most ten new listings and says how many more are new', async () => {
    const r = replica(world, store, { now, owner: 'watcher' });
    await world.type('/schedule add only:new "*/30 * * * *" /jobs rust developer where:Berlin');
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => listing(from + i));
    answer = range(100, 149);
    at('2026-03-27T12:30:00.300Z');
    await r.tick();
    answer = [...range(150, 161), ...range(100, 137)];
    at('2026-03-27T13:00:00.300Z');
    await r.tick();
    at('2026-03-27T13:30:00.300Z');
    await r.tick();
    expect(pageSizes).toEqual(['50', '50', '50']);
    expect(world.inbox.messages).toHaveLength(2);
    const posted = world.inbox.messages.map((m) => {
      const e = m.embeds[0] as { title: string; description: string; footer: { text: string } };
      const fields = (m.embeds[0] as { fields: { name: string; value: string }[] }).fields;
      const chars = [e.title, e.description, e.footer.text, ...fields.flatMap((f) => [f.name, f.value])].join(
        '',
      );
      return {
        title: e.title,
        footer: e.footer.text,
        fields: fields.length,
        chars: chars.length,
        embeds: m.embeds.length,
      };
    });
    expect(posted[0]).toMatchObject({
      title: expect.stringMatching(/^Starting point: /),
      fields: WATCH_SHOWN_MAX,
    });
    expect(posted[0]!.footer).toBe(`${FIRST_PAGE_NOTE} 40 more new listings are not shown.`);
    expect(posted[1]).toMatchObject({ title: expect.stringMatching(/^12 new: /), fields: WATCH_SHOWN_MAX });
    expect(posted[1]!.footer).toBe(`${FIRST_PAGE_NOTE} 2 more new listings are not shown.`);
    expect(titles(1)).toEqual(range(150, 159).map((l) => l.title));
    for (const p of posted) {
      expect(p.embeds).toBeLessThanOrEqual(DISCORD_LIMITS.embeds);
      expect(p.chars).toBeLessThanOrEqual(DISCORD_LIMITS.embedsTotal);
    }
  });

  it('posts the /host record first, then a port added and a port removed as two diffs, then nothing', async () => {
    const r = replica(world, store, { now, owner: 'watcher' });
    await hostScenario(() => Promise.resolve(r));
  });
});

/** The runner of each run of a scenario (step 0, 1, …): one replica, a restarted one, another replica. */
type RunnerAt = (step: number) => Promise<ScheduleRunner>;

const hostRecord = readFixture<{ data: Record<string, unknown>[]; ports: number[]; [key: string]: unknown }>(
  'hostscan',
  'host-8.8.8.8.json',
);
const service = (port: number, product: string, version?: string) => ({
  ...hostRecord.data[0]!,
  port,
  product,
  ...(version ? { version } : {}),
});

/** /host: a port added, then one removed: the record, then two diffs, then nothing. */
async function hostScenario(runnerAt: RunnerAt): Promise<void> {
  let host = hostRecord;
  world.server.use(http.get(route('hostscan', '/:provider/host/:ip'), () => HttpResponse.json(host)));
  // Every two hours: longer than the client's one-hour cache of a host record.
  await world.type('/schedule add only:new "every 2 hours" /host 8.8.8.8');
  const set = (services: Record<string, unknown>[]) => {
    host = { ...hostRecord, data: services, ports: services.map((x) => x.port as number) };
  };
  const runs = [
    ['14:00', [service(22, 'OpenSSH', '8.9'), service(443, 'nginx', '1.24')]],
    ['16:00', [service(22, 'OpenSSH', '8.9'), service(443, 'nginx', '1.24'), service(8443, 'nginx', '1.25')]],
    ['18:00', [service(443, 'nginx', '1.24'), service(8443, 'nginx', '1.25')]],
    ['20:00', [service(443, 'nginx', '1.24'), service(8443, 'nginx', '1.25')]],
  ] as const;
  for (const [step, [time, services]] of runs.entries()) {
    set([...services]);
    at(`2026-03-27T${time}:00.300Z`);
    await (await runnerAt(step)).tick();
  }
  expect((world.inbox.messages[0]!.embeds[0] as { title: string }).title).toBe(
    'Starting point: Host 8.8.8.8',
  );
  const diffs = world.inbox.messages
    .slice(1)
    .map((m) => (m.embeds[0] as { description: string }).description);
  expect(diffs).toEqual(['```diff\n+ 8443/tcp nginx 1.25\n```', '```diff\n− 22/tcp OpenSSH 8.9\n```']);
}

const forecastFixture = readFixture<{ list: Record<string, unknown>[]; city: Record<string, unknown> }>(
  'weather',
  'forecast-zocca.json',
);
/** Five days from 28 Mar 2026 (UTC), eight 3-hour steps each, with each day's condition. */
const forecast = (conditions: readonly string[]) => {
  const start = Date.parse('2026-03-28T00:00:00Z') / 1000;
  const list = Array.from({ length: 40 }, (_, i) => {
    const main = conditions[Math.floor(i / 8)]!;
    return {
      ...forecastFixture.list[0]!,
      dt: start + i * 3 * 3600,
      dt_txt: new Date((start + i * 3 * 3600) * 1000).toISOString().replace('T', ' ').slice(0, 19),
      weather: [{ id: main === 'Rain' ? 500 : 800, main, description: main.toLowerCase(), icon: '01d' }],
    };
  });
  return { ...forecastFixture, cnt: list.length, list, city: { ...forecastFixture.city, timezone: 0 } };
};

/** /forecast alert:rain: clear, then rain on one day (posted once), then the same (nothing). */
async function forecastScenario(runnerAt: RunnerAt): Promise<void> {
  let weather = forecast(['Clear', 'Clear', 'Clear', 'Clear', 'Clear']);
  world.server.use(http.get(route('weather', '/forecast'), () => HttpResponse.json(weather)));
  const added = await world.type('/schedule add only:new alert:rain "every 2 hours" /forecast Zocca');
  expect(added.text).toMatch(/^Schedule \w{6} added/);
  at('2026-03-27T14:00:00.300Z');
  await (await runnerAt(0)).tick();
  weather = forecast(['Clear', 'Clear', 'Rain', 'Clear', 'Clear']);
  at('2026-03-27T16:00:00.300Z');
  await (await runnerAt(1)).tick();
  at('2026-03-27T18:00:00.300Z');
  await (await runnerAt(2)).tick();
  expect(world.inbox.messages).toHaveLength(1);
  const embed = world.inbox.messages[0]!.embeds[0] as { title: string; fields: { name: string }[] };
  expect(embed.title).toMatch(/^Alert \(rain\): /);
  expect(embed.fields).toHaveLength(1);
}

/** /jobs: five, a failed run, one new and four old, the same: posts five, then the new one, then nothing. */
async function failedMiddleScenario(runnerAt: RunnerAt): Promise<void> {
  await world.type('/schedule add only:new "*/30 * * * *" /jobs what:"rust developer" where:Berlin');
  const runs: [string, Listing[] | 'fail'][] = [
    ['12:30', [1, 2, 3, 4, 5].map(listing)],
    ['13:00', 'fail'],
    ['13:01', [6, 1, 2, 3, 4].map(listing)],
    ['13:30', [6, 1, 2, 3, 4].map(listing)],
  ];
  const statuses: string[] = [];
  for (const [step, [time, next]] of runs.entries()) {
    answer = next;
    at(`2026-03-27T${time}:00.300Z`);
    statuses.push(...(await (await runnerAt(step)).tick()).map((x) => x.status));
  }
  expect(statuses).toEqual(['posted', 'failed', 'posted', 'posted']);
  expect(world.inbox.messages).toHaveLength(2);
  expect(titles(0)).toHaveLength(5);
  expect(titles(1)).toEqual(['Rust Developer 6']);
}

const { dir, runPrefix } = storeScratch('herald-watch-');

interface Processes {
  runnerAt: RunnerAt;
  close(): Promise<void>;
}

const shared: { name: string; start(): Promise<Processes> }[] = [
  {
    // Every run in a new process over the same file: the previous one is closed first.
    name: 'a restart over the sqlite file',
    start: () => {
      const file = join(dir, `${randomUUID()}.sqlite`);
      let open: Store | undefined;
      const close = async () => {
        await open?.close();
        open = undefined;
      };
      return Promise.resolve({
        close,
        async runnerAt(step) {
          await close();
          open = createSqliteStore(file, { now: () => nowMs });
          return replica(world, open, { now, owner: `process-${step}` });
        },
      });
    },
  },
  {
    // Two replicas open at once on one Redis; the runs alternate between them.
    name: 'two replicas sharing Redis',
    async start() {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      const stores = [
        await createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix }),
        await createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix }),
      ];
      const runners = stores.map((s, i) => replica(world, s, { now, owner: `replica-${i}` }));
      return {
        runnerAt: (step) => Promise.resolve(runners[step % 2]!),
        close: async () => void (await Promise.all(stores.map((s) => s.close()))),
      };
    },
  },
];

const scenarios: { name: string; run(runnerAt: RunnerAt): Promise<void> }[] = [
  {
    name: '/jobs posts five, then the new one, then nothing; a failed middle run loses nothing',
    run: failedMiddleScenario,
  },
  { name: '/host posts the record, then a port added and a port removed as two diffs', run: hostScenario },
  { name: '/forecast gaining rain posts once, not again', run: forecastScenario },
];

describe.each(shared)('watches across $name', (backend) => {
  it.each(scenarios)('$name', async (scenario) => {
    const processes = await backend.start();
    try {
      await scenario.run(processes.runnerAt);
    } finally {
      await processes.close();
    }
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
    const embeds = world.inbox.messages.map((m) => m.embeds[0] as { title: string; description?: string });
    expect(embeds).toHaveLength(2);
    expect(embeds[0]!.title).toMatch(/^Starting point: Weekly analytics/);
    expect(embeds[1]).toMatchObject({
      title: 'Changes: Weekly analytics',
      description: '```diff\n~ delivered → bounced\n```',
    });
  });
});

describe('/schedule add ... only:new alert:rain on /forecast', () => {
  it('posts a day once when rain first appears for it, not again on the next run', async () => {
    const r = replica(world, store, { now, owner: 'watcher' });
    await forecastScenario(() => Promise.resolve(r));
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

  it('reads only: and alert: typed after the command line as the schedule’s', async () => {
    const added = await world.type('/schedule add hourly /forecast Zocca only:new alert:"below 0"');
    expect(added.text).toMatch(/^Schedule \w+ added/);
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({ command: '/forecast Zocca', onlyNew: true, alert: 'below 0' });
    // A command that cannot be watched says so, rather than that it has no option only.
    expect((await world.type('/schedule add hourly /voices only:new')).text).toMatch(
      /^\/voices cannot be a watch \(only:new\)/,
    );
  });
});
