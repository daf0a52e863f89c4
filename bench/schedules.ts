// `npm run bench -- schedules`: the scheduling engine at scale, in this process, with real
// sockets on loopback: an upstream (the command's provider) and 100 Discord webhook fakes that
// each answer after 100 ms (schedule-fakes.ts). The clock the engine reads is set, so that a minute
// boundary and ten minutes of downtime pass at once, and runs on from there; every latency is
// measured on the wall clock. The command each schedule runs fetches from the upstream and replies;
// the engine (index, claim, run, atomic outcome, outbox, delivery) is the real one. Rows: 1,000
// slots due in one minute (SQLite, one replica; Redis, two replicas; then both again under
// Discord's limits, the global 50 a second and 5 posts each 2 s per webhook, each replica taking
// from Discord's budget: in memory, or one in Redis for both), Slack channels through the WebClient
// under Slack's limits (1 replica, and 2 on Redis) and above its workspace's (schedules-slack.ts),
// one tick with 10,000 stored and none due (CPU and store round trips), RSS with 10,000 stored, a
// restart after 10 minutes down, and a store of 10,000 moved (`npm run store`, store-move.ts).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newScheduleId, type ScheduleRecord } from '../src/schedule/schedules.ts';
import { createScheduleRunner, type ScheduleRunner } from '../src/schedule/runner.ts';
import { renderDiscordWebhook } from '../src/render/discord.ts';
import { type WebhookClient } from '../src/services/webhook/client.ts';
import { createWebhookClient } from '../src/services/webhook/discord-webhook.ts';
import { createSqliteStore } from '../src/store/index.ts';
import type { RateBudget } from '../src/domain/rate-budget.ts';
import { createMemoryRateBudget, type OpenRateBudget } from '../src/store/rate-budget.ts';
import { createRedisRateBudget } from '../src/store/rate-budget-redis.ts';
import {
  GLOBAL_PER_SECOND,
  LATENCY_MS,
  slowServer,
  webhookFake,
  type Arrival,
  type WebhookFake,
} from './schedule-fakes.ts';
import {
  clock,
  counted,
  dropKeys,
  openRedis,
  openSqlite,
  REDIS_URL,
  SILENT,
  weatherCommands,
  type Row,
  type World,
} from './schedule-world.ts';
import { slackRow } from './schedules-slack.ts';
import { storeMoveRows } from './store-move.ts';
import { percentile } from './stats.ts';

const DESTINATIONS = 100;
const SCHEDULES = 1_000;
const STORED = 10_000;

const after = (ms: number) => new Promise((r) => setTimeout(r, ms));

function record(i: number, createdAt: number, cron = '* * * * *'): ScheduleRecord {
  return {
    id: `${newScheduleId()}${i}`,
    when: cron,
    cron,
    words: cron,
    timezone: 'UTC',
    destination: `d${i % DESTINATIONS}`,
    command: `/weather City${i}`,
    creator: { platform: 'discord', id: '400000000000000001', displayName: 'Ada', roles: [] },
    paused: false,
    createdAt,
  };
}

function runnerOf(
  w: World,
  owner: string,
  destinations: Record<string, WebhookClient>,
  upstream: string,
  rateBudget?: RateBudget,
) {
  return createScheduleRunner({
    ...(rateBudget ? { delivery: { rateBudget } } : {}),
    store: w.store,
    services: {},
    destinations,
    commands: weatherCommands(upstream),
    toMessage: (reply) => renderDiscordWebhook(reply, { username: 'herald' }),
    log: SILENT,
    now: () => new Date(clock.now),
    owner,
    catchupMinutes: 360,
  });
}

/** Each slot's posts per destination (a schedule's command line at its webhook), counted. */
function postsOf(arrivals: Arrival[], since: number) {
  const counts = new Map<string, number>();
  const times: number[] = [];
  for (const a of arrivals) {
    if (a.at < since) continue;
    const key = `${a.webhook} ${a.content.split(':')[0] ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    times.push(a.at - since);
  }
  return { counts, times };
}

/** One replica of a row: its stores, its clients and Discord's budget it takes from (when it keeps one). */
interface Replica {
  world: World;
  destinations: Record<string, WebhookClient>;
  rateBudget?: RateBudget;
}

/** What the limited rows hold herald to: Discord's limits, and the floor they set. */
const DISCORD_FLOOR_S = SCHEDULES / GLOBAL_PER_SECOND;
const DISCORD_TARGET_S = 30;

async function dueInOneMinute(
  label: string,
  replicas: Replica[],
  fake: WebhookFake,
  upstream: string,
  targetAllS: number,
): Promise<{ rows: Row[]; runners: ScheduleRunner[] }> {
  const boundary = Date.parse('2026-11-27T12:01:00Z');
  clock.now = boundary - 50_000;
  const w = replicas[0]!.world;
  for (let i = 0; i < SCHEDULES; i += 100)
    await Promise.all(
      Array.from({ length: 100 }, (_, j) => w.schedules.addSchedule(record(i + j, clock.now), 100_000)),
    );
  const runners = replicas.map((r, i) =>
    runnerOf(r.world, `replica-${i}`, r.destinations, upstream, r.rateBudget),
  );
  clock.now = boundary - 30_000;
  await Promise.all(runners.map((r) => r.tick()));
  clock.now = boundary + 200;
  const started = performance.now();
  const before = { ...fake.limited };
  const worlds = replicas.map((r) => r.world);
  const readsBefore = worlds.reduce((n, x) => n + x.pauseReads.n, 0);
  await Promise.all(runners.map((r) => r.tick()));
  const { counts, times } = postsOf(fake.arrivals, started);
  const limited = fake.limited.count - before.count;
  const globals = fake.limited.global - before.global;
  const invalid = fake.limited.invalid - before.invalid;
  const reads = worlds.reduce((n, x) => n + x.pauseReads.n, 0) - readsBefore;
  // From the minute: the tick ran 200 ms after it.
  const last = Math.max(...times) / 1000 + 0.2;
  const p50 = percentile(times, 50) / 1000 + 0.2;
  const twice = [...counts.values()].filter((c) => c > 1).length;
  const once = [...counts.values()].filter((c) => c === 1).length;
  const allOnce = once === SCHEDULES && twice === 0;
  const isDiscord = replicas.some((r) => r.rateBudget);
  const posted = `${once} posted once, ${twice} twice, ${SCHEDULES - counts.size} never`;
  const row: Row = isDiscord
    ? {
        scenario: `${SCHEDULES} due in one minute, ${DESTINATIONS} Discord webhooks under Discord's limits, ${label}`,
        measured: `first ${(Math.min(...times) / 1000 + 0.2).toFixed(2)} s, p50 ${p50.toFixed(2)} s, last ${last.toFixed(2)} s after the minute; ${posted}; ${globals} global 429s, ${limited - globals} route 429s, ${invalid} invalid requests`,
        target: `each once, last within ${DISCORD_TARGET_S} s (floor ${DISCORD_FLOOR_S} s: ${SCHEDULES} posts at ${GLOBAL_PER_SECOND} a second), no global 429, < 100 invalid requests`,
        met: allOnce && last <= DISCORD_TARGET_S && globals === 0 && invalid < 100,
      }
    : {
        scenario: `${SCHEDULES} due in one minute, ${DESTINATIONS} destinations, ${label}`,
        measured: `first ${(Math.min(...times) / 1000 + 0.2).toFixed(2)} s, p50 ${p50.toFixed(2)} s, last ${last.toFixed(2)} s; ${posted}; ${reads} shared-pause reads`,
        target: `all within ${targetAllS} s${targetAllS === 15 ? ', p50 ≤ 8 s' : ''}, every slot exactly once`,
        met: allOnce && last <= targetAllS && (targetAllS !== 15 || p50 <= 8),
      };
  return { rows: [row], runners };
}

async function restartAfterDowntime(
  w: World,
  fake: WebhookFake,
  destinations: Record<string, WebhookClient>,
  upstream: string,
): Promise<Row> {
  // The 12:01 slots were posted; down until 12:11:30, so 12:02 … 12:11 were missed.
  clock.now = Date.parse('2026-11-27T12:11:30Z');
  const runner = runnerOf(w, 'restarted', destinations, upstream);
  const started = performance.now();
  await runner.start();
  await runner.stop();
  const { counts, times } = postsOf(fake.arrivals, started);
  const last = times.length === 0 ? Number.NaN : Math.max(...times) / 1000;
  const once = [...counts.values()].filter((c) => c === 1).length;
  return {
    scenario: `restart after 10 minutes down, ${SCHEDULES} schedules (SQLite)`,
    measured: `${once} latest missed slots posted once, ${counts.size - once} more than once, last ${last.toFixed(2)} s after start`,
    target: 'each missed slot posted once, within 60 s of start',
    met: once === SCHEDULES && counts.size === SCHEDULES && last <= 60,
  };
}

/** One tick with STORED schedules, none due: CPU and store round trips. */
async function idleTick(label: string, w: World): Promise<Row> {
  clock.now = Date.parse('2026-11-27T12:00:10Z');
  const created = clock.now - 60_000;
  for (let i = 0; i < STORED; i += 500)
    await Promise.all(
      Array.from({ length: 500 }, (_, j) =>
        w.schedules.addSchedule(record(i + j, created, '0 7 * * *'), 100_000),
      ),
    );
  const calls = { n: 0 };
  const runner = createScheduleRunner({
    store: counted(w.store, calls),
    services: {},
    log: SILENT,
    now: () => new Date(clock.now),
    owner: 'idle',
    catchupMinutes: 360,
  });
  await runner.tick(); // looks at each new schedule once and moves it on to 07:00 tomorrow
  const cpu: number[] = [];
  let trips = 0;
  for (let i = 0; i < 20; i++) {
    clock.now += 15_000;
    calls.n = 0;
    const before = process.cpuUsage();
    await runner.tick();
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    trips = Math.max(trips, calls.n);
  }
  await runner.stop();
  const ms = percentile(cpu, 50);
  return {
    scenario: `${STORED} stored, none due: one tick (${label})`,
    measured: `${ms.toFixed(2)} ms CPU (median of 20), ${trips} store round trips`,
    target: '≤ 5 ms CPU, ≤ 3 round trips',
    met: ms <= 5 && trips <= 3,
  };
}

/** The child: opens a SQLite file holding `count` schedules, ticks, and prints its RSS. */
async function rssChild(file: string): Promise<void> {
  const store = createSqliteStore(file, { now: () => clock.now });
  clock.now = Date.parse('2026-11-27T12:00:10Z');
  const runner = createScheduleRunner({
    store,
    services: {},
    log: SILENT,
    now: () => new Date(clock.now),
    owner: 'rss',
    catchupMinutes: 360,
  });
  for (let i = 0; i < 5; i++) {
    await runner.tick();
    clock.now += 15_000;
  }
  globalThis.gc?.();
  await after(100);
  process.stdout.write(String(process.memoryUsage().rss));
  await runner.stop();
}

async function rssRow(dir: string): Promise<Row> {
  const rssWith = async (n: number) => {
    const file = join(dir, `rss-${n}.sqlite`);
    const s = createSqliteStore(file, { now: () => clock.now });
    const created = Date.parse('2026-11-27T12:00:00Z');
    for (let i = 0; i < n; i += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, n - i) }, (_, j) =>
          s.addSchedule(record(i + j, created, '0 7 * * *'), 100_000),
        ),
      );
    // As after the schedules' first look (once, when added): each at its next fire time.
    const store = s;
    clock.now = Date.parse('2026-11-27T12:00:10Z');
    const runner = createScheduleRunner({
      store,
      services: {},
      log: SILENT,
      now: () => new Date(clock.now),
      owner: 'prepare',
      catchupMinutes: 360,
    });
    await runner.tick();
    await runner.tick();
    await runner.stop();
    await store.close();
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), '--rss-child', file],
      {
        encoding: 'utf8',
      },
    );
    return Number(child.stdout) / 1024 / 1024;
  };
  const none = await rssWith(0);
  const many = await rssWith(STORED);
  return {
    scenario: `${STORED} schedules stored (SQLite, 5 ticks in a fresh process)`,
    measured: `${many.toFixed(1)} MB RSS vs ${none.toFixed(1)} MB with none (${many >= none ? '+' : '−'}${Math.abs(many - none).toFixed(1)} MB)`,
    target: '≤ 30 MB more RSS than with none',
    met: many - none <= 30,
  };
}

/** A webhook client per destination, d0 … d99, posting to `fake`, taking from `rateBudget` when given. */
function destinationsAt(fake: WebhookFake, rateBudget?: RateBudget): Record<string, WebhookClient> {
  const destinations: Record<string, WebhookClient> = {};
  for (let i = 0; i < DESTINATIONS; i++)
    destinations[`d${i}`] = createWebhookClient(
      {
        baseUrl: fake.server.url,
        id: String(1_100_000_000_000_000_000n + BigInt(i)),
        token: `token-${i}`,
      },
      rateBudget ? { rateBudget } : {},
    );
  return destinations;
}

const BUDGET = { perSecond: GLOBAL_PER_SECOND, invalidLimit: 1_000 };

/** Under Discord's limits: each replica its own clients and budget, one in memory or all on one Redis. */
async function discordRow(
  label: string,
  worlds: World[],
  fake: WebhookFake,
  upstream: string,
  redisPrefix?: string,
) {
  const replicas: Replica[] = [];
  for (const world of worlds) {
    const rateBudget = redisPrefix
      ? await createRedisRateBudget(REDIS_URL, { ...BUDGET, keyPrefix: redisPrefix })
      : createMemoryRateBudget(BUDGET);
    replicas.push({ world, rateBudget, destinations: destinationsAt(fake, rateBudget) });
  }
  const result = await dueInOneMinute(label, replicas, fake, upstream, DISCORD_TARGET_S);
  await Promise.all(result.runners.map((r) => r.stop()));
  await Promise.all(replicas.map((r) => (r.rateBudget as OpenRateBudget).close()));
  return result.rows;
}

export async function runSchedulesBench(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-schedules-'));
  const upstream = await slowServer(() => JSON.stringify({ text: 'light rain, 7 °C' }));
  const fake = await webhookFake();
  const destinations = destinationsAt(fake);
  const rows: Row[] = [];
  const progress = (text: string) => process.stderr.write(`bench schedules: ${text}\n`);
  try {
    progress('1,000 due, SQLite, 1 replica');
    const sqlite = await openSqlite(dir);
    const one = await dueInOneMinute(
      '1 replica (SQLite)',
      [{ world: sqlite, destinations }],
      fake,
      upstream.url,
      15,
    );
    rows.push(...one.rows);
    await Promise.all(one.runners.map((r) => r.stop()));
    progress('restart after 10 minutes down');
    rows.push(await restartAfterDowntime(sqlite, fake, destinations, upstream.url));
    await sqlite.close();

    progress('1,000 due, 2 replicas (Redis)');
    const prefix = `herald:bench-${randomUUID()}:`;
    const pair = [await openRedis(prefix), await openRedis(prefix)];
    const two = await dueInOneMinute(
      '2 replicas (Redis)',
      pair.map((world) => ({ world, destinations })),
      fake,
      upstream.url,
      10,
    );
    rows.push(...two.rows);
    await Promise.all(two.runners.map((r) => r.stop()));
    await Promise.all(pair.map((w) => w.close()));
    await dropKeys(prefix);

    // Under Discord's limits (schedule-fakes.ts): a fake of its own for each row, so that one
    // row's global bucket and webhook buckets are not the next one's.
    progress("1,000 due under Discord's limits, 1 replica (SQLite, budget in memory)");
    const limitedOne = await webhookFake({ rateLimited: true });
    const single = await openSqlite(dir);
    rows.push(...(await discordRow('1 replica (SQLite)', [single], limitedOne, upstream.url)));
    await single.close();
    limitedOne.server.close();

    progress("1,000 due under Discord's limits, 2 replicas (Redis, one budget)");
    const limitedTwo = await webhookFake({ rateLimited: true });
    const budgetPrefix = `herald:bench-${randomUUID()}:`;
    const shared = [await openRedis(budgetPrefix), await openRedis(budgetPrefix)];
    rows.push(...(await discordRow('2 replicas (Redis)', shared, limitedTwo, upstream.url, budgetPrefix)));
    await Promise.all(shared.map((w) => w.close()));
    await dropKeys(budgetPrefix);
    limitedTwo.server.close();

    // Slack channels through the WebClient, under Slack's limits and above its workspace's
    // (schedules-slack.ts): a fake of their own for each row.
    progress("200 due in 100 Slack channels, under Slack's limits");
    rows.push(await slackRow(dir, upstream.url, 100, 2));
    progress("200 due in 100 Slack channels, under Slack's limits, 2 replicas (Redis, one budget)");
    rows.push(await slackRow(dir, upstream.url, 100, 2, 2));
    progress("500 due in 250 Slack channels, above Slack's workspace limit");
    rows.push(await slackRow(dir, upstream.url, 250, 2));

    progress('10,000 stored, none due');
    const idleSqlite = await openSqlite(dir);
    rows.push(await idleTick('SQLite', idleSqlite));
    await idleSqlite.close();
    const idlePrefix = `herald:bench-${randomUUID()}:`;
    const idleRedis = await openRedis(idlePrefix);
    rows.push(await idleTick('Redis', idleRedis));
    await idleRedis.close();
    await dropKeys(idlePrefix);

    progress('10,000 schedules exported and imported, SQLite then Redis');
    rows.push(...(await storeMoveRows(dir)));

    progress('RSS');
    rows.push(await rssRow(dir));
  } finally {
    upstream.close();
    fake.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const width = (key: keyof Row) => Math.max(...rows.map((r) => String(r[key]).length), key.length);
  const line = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  const widths = [width('scenario'), width('measured'), width('target'), 3];
  process.stdout.write(
    [
      `Scheduled reports on loopback, upstream, webhooks and Slack answering after ${LATENCY_MS} ms (node ${process.version}, load ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores)`,
      line(['scenario', 'measured', 'target', 'met'], widths),
      widths.map((w) => '-'.repeat(w)).join('-|-'),
      ...rows.map((r) => line([r.scenario, r.measured, r.target, r.met ? 'yes' : 'NO'], widths)),
    ].join('\n') + '\n',
  );
  return rows.every((r) => r.met) ? 0 : 1;
}

if (process.argv[2] === '--rss-child') await rssChild(process.argv[3]!);
