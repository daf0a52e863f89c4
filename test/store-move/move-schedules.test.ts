// A team moving from SQLite to Redis: a store with 1,000 schedules, their history and a watch's
// memory, run by the real engine on SQLite, exported, imported into Redis and run there. The slot
// already posted on SQLite is not posted again, the next slot posts exactly once, and the watch
// posts nothing it posted before.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { route, SANDBOX_PREFIXES } from '../../src/sandbox/layout.ts';
import { SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import type { WebhookClient } from '../../src/services/webhook/client.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import { parseStoreFile, serializeStoreFile } from '../../src/store-move/export-file.ts';
import { exportStore, importStore } from '../../src/store-move/move.ts';
import { createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';
import { readFixture } from '../support/service-harness.ts';
import { MANAGER, replica, startWorld, type World } from '../schedule/world.ts';

const { dir, runPrefix } = storeScratch('herald-move-schedules-');

let nowMs = 0;
const now = () => new Date(nowMs);
const at = (iso: string) => void (nowMs = Date.parse(iso));

interface Listing {
  id: string;
  title: string;
  redirect_url: string;
  [key: string]: unknown;
}
const base = readFixture<{ results: Listing[]; [key: string]: unknown }>('job-search', 'search-gb.json');
const listing = (n: number): Listing => ({
  ...base.results[0]!,
  id: `54701320${n}`,
  title: `Rust Developer ${n}`,
  redirect_url: `https://www.adzuna.co.uk/jobs/land/ad/54701320${n}?se=abc&v=4AC`,
});

const SCHEDULES = 1_000;
/** Of them, the briefings at 07:30 UTC each day; the rest post weekly on Sundays at noon. */
const DAILY = 50;

function briefing(i: number): ScheduleRecord {
  const daily = i < DAILY;
  return {
    id: `b${String(i).padStart(5, '0')}`,
    when: daily ? 'every day at 07:30' : 'every sunday at 12:00',
    cron: daily ? '30 7 * * *' : '0 12 * * 0',
    words: daily ? 'every day at 07:30' : 'every Sunday at 12:00',
    timezone: 'UTC',
    // Each its own webhook: one post a slot stays within Discord's bucket of 5 per 2 s a webhook.
    destination: `d${i % DAILY}`,
    command: '/geocode Oslo',
    creator: MANAGER,
    paused: false,
    createdAt: Date.parse('2026-03-24T09:00:00Z') + i,
  };
}

let world: World;
let destinations: Record<string, WebhookClient>;
let sqlite: Store;
let redis: Store;
let answer: Listing[] = [];
beforeEach(async () => {
  at('2026-03-24T10:00:00Z');
  sqlite = createSqliteStore(join(dir, randomUUID(), 'herald.sqlite'), { now: () => nowMs });
  redis = await createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix: `${runPrefix}${randomUUID()}:` });
  world = await startWorld({ now, store: sqlite, settings: { minIntervalMinutes: 1, max: SCHEDULES + 1 } });
  destinations = Object.fromEntries(
    Array.from({ length: DAILY }, (_, i) => [
      `d${i}`,
      createWebhookClient({
        baseUrl: world.server.url + SANDBOX_PREFIXES.webhook,
        id: String(1_300_000_000_000_001_000n + BigInt(i)),
        token: SANDBOX_CREDENTIAL,
      }),
    ]),
  );
  world.server.use(
    http.get(route('jobSearch', '/jobs/:country/search/:page'), () =>
      HttpResponse.json({ ...base, count: answer.length, results: answer }),
    ),
  );
});
afterEach(async () => {
  await world.close();
  await redis.close();
});

/** The titles of what was posted since the last call. */
function posted(): string[] {
  const titles = world.inbox.messages.map((m) => (m.embeds[0] as { title: string }).title);
  world.inbox.clear();
  return titles;
}
const briefings = (titles: string[]) => titles.filter((t) => t.endsWith('match “Oslo”'));

describe('a store moved from SQLite to Redis', () => {
  it('runs on: no slot posted twice, the next slot once, the watch only what is new', async () => {
    for (let i = 0; i < SCHEDULES; i++) await sqlite.addSchedule(briefing(i), SCHEDULES + 1);
    const added = await world.type(
      '/schedule add only:new "*/30 * * * *" /jobs what:"rust developer" where:Berlin',
    );
    expect(added.text).toMatch(/^Schedule \w{6} added/);
    // Yesterday's and today's 07:30 on SQLite: every daily briefing's history has two runs.
    const onSqlite = replica(world, sqlite, { now, owner: 'sqlite-bot', destinations });
    answer = [1, 2, 3].map(listing);
    for (const day of ['2026-03-26', '2026-03-27']) {
      at(`${day}T07:30:00.300Z`);
      await onSqlite.tick();
      const titles = posted();
      expect(briefings(titles)).toHaveLength(DAILY);
      expect(titles.filter((t) => /^Starting point: /.test(t))).toHaveLength(day === '2026-03-26' ? 1 : 0);
    }
    await onSqlite.stop();

    // The bot stopped at 07:31; the move at 07:35, through the file's text.
    at('2026-03-27T07:35:00Z');
    const exported = await exportStore(sqlite, () => nowMs);
    expect(exported.file.schedules).toHaveLength(SCHEDULES + 1);
    expect(exported.file.schedules.filter((s) => s.history.length === 2)).toHaveLength(DAILY + 1);
    const watchId = exported.file.schedules.find((s) => s.record.onlyNew)!.record.id;
    expect(Object.keys(exported.file.values)).toContain(`watch:${watchId}`);
    const imported = await importStore(redis, parseStoreFile(serializeStoreFile(exported.file)));
    expect(imported).toMatchObject({ schedules: SCHEDULES + 1, runs: 2 * (DAILY + 1) });

    // On Redis, within the catch-up window of today's 07:30: nothing is posted again.
    const onRedis = replica({ ...world, store: redis }, redis, { now, owner: 'redis-bot', destinations });
    at('2026-03-27T07:36:00.300Z');
    expect(await onRedis.tick()).toEqual([]);
    expect(posted()).toEqual([]);
    // The watch at 08:00: the same listings, nothing posted; one new at 08:30: only it.
    at('2026-03-27T08:00:00.300Z');
    expect((await onRedis.tick()).map((o) => o.status)).toEqual(['posted']);
    expect(posted()).toEqual([]);
    expect((await redis.getSchedule(watchId))?.lastRun?.outcome).toBe('no-change');
    answer = [4, 1, 2, 3].map(listing);
    at('2026-03-27T08:30:00.300Z');
    await onRedis.tick();
    const fields = (world.inbox.messages[0]?.embeds[0] as { fields: { name: string }[] }).fields;
    expect(fields.map((f) => f.name)).toEqual([expect.stringContaining('Rust Developer 4')]);
    expect(posted()).toEqual([expect.stringMatching(/^1 new: /)]);

    // The next day's 07:30 on two replicas of the Redis store: each briefing posts once.
    const other = replica({ ...world, store: redis }, redis, { now, owner: 'redis-bot-2', destinations });
    at('2026-03-28T07:30:00.300Z');
    await Promise.all([onRedis.tick(), other.tick()]);
    expect(posted()).toHaveLength(DAILY);
    for (let i = 0; i < DAILY; i++)
      expect((await redis.history(briefing(i).id))[0]).toMatchObject({
        slotId: '2026-03-28T07:30:00.000Z',
        outcome: 'posted',
      });
    await Promise.all([onRedis.tick(), other.tick()]);
    expect(posted()).toEqual([]);
    await Promise.all([onRedis.stop(), other.stop()]);
  }, 60_000);
});
