// The Slack rows of the schedules bench (schedules.ts): schedules posting into Slack channels
// ("this channel") through herald's Slack channel client, @slack/web-api's WebClient, taking from
// the rate budget (src/store/rate-budget*.ts) as herald's entry points give it: one post a second
// per channel, and a 429 to chat.postMessage pausing the workspace's posts for its Retry-After.
// They post to the bench's Slack Web API (schedule-slack-fake.ts), which enforces that pace with
// short bursts and a workspace limit of posts a minute. The engine is the real one: one replica on
// SQLite with the budget in memory, or two on Redis with one budget in Redis; after the minute's
// tick each ticks every POLL_MS, as the runner does, so that posts put back in the outbox go again.
// Rows: 100 channels with 2 schedules each (200 posts in their minute, within the workspace's
// limit), on 1 replica and on 2, and 250 channels with 2 each (500 posts, above it).
import { randomUUID } from 'node:crypto';
import { newScheduleId, type ScheduleRecord } from '../src/schedule/schedules.ts';
import { createScheduleRunner } from '../src/schedule/runner.ts';
import { channelDestination } from '../src/core/channel.ts';
import { slackChannelMessage } from '../src/destinations.ts';
import { createSlackChannelClient } from '../src/services/webhook/slack-web-api.ts';
import { createMemoryRateBudget, type OpenRateBudget } from '../src/store/rate-budget.ts';
import { createRedisRateBudget } from '../src/store/rate-budget-redis.ts';
import {
  LATENCY_MS,
  SLACK_BOT_TOKEN,
  WORKSPACE_PER_MINUTE,
  slackWebApiFake,
  type SlackPost,
} from './schedule-slack-fake.ts';
import {
  clock,
  dropKeys,
  openRedis,
  openSqlite,
  REDIS_URL,
  SILENT,
  weatherCommands,
  type Row,
  type World,
} from './schedule-world.ts';
import { percentile } from './stats.ts';

/** Fires at the row's minute only, so that the ticks after it find nothing new to post. */
const CRON = '1 12 * * *';
const BOUNDARY = Date.parse('2026-11-27T12:01:00Z');
/** The runner's poll between ticks (its default, runner.ts). */
const POLL_MS = 15_000;
/** How long the bench looks for the last post before it counts the rest as never posted. */
const GIVE_UP_MS = 5 * 60_000;
/** The within-limit row's bound on its last post, from its minute. */
const TARGET_S = 15;

const channelId = (i: number) => `C0B${i.toString(36).toUpperCase().padStart(8, '0')}`;

function slackRecord(i: number, channels: number, createdAt: number): ScheduleRecord {
  return {
    id: `${newScheduleId()}${i}`,
    when: CRON,
    cron: CRON,
    words: 'at 12:01',
    timezone: 'UTC',
    destination: channelDestination({ platform: 'slack', id: channelId(i % channels) }),
    command: `/weather City${i}`,
    creator: { platform: 'slack', id: 'U0BENCHADA', displayName: 'Ada', roles: [] },
    paused: false,
    createdAt,
  };
}

/** Each slot's posts (a schedule's command line in its channel), counted, and their times from `since`. */
function postsOf(posts: SlackPost[], since: number) {
  const counts = new Map<string, number>();
  const times: number[] = [];
  for (const p of posts) {
    const key = `${p.channel} ${p.text.split(':')[0] ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    times.push(p.at - since);
  }
  return { counts, times };
}

const after = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The floor Slack's stated limits set, from the minute: the tick 200 ms after it, the upstream's
 * and Slack's answers, then whichever is longer: a channel's posts at one a second after its first,
 * or the workspace's posts past a full minute's worth at its pace.
 */
function floorS(channels: number, perChannel: number): number {
  const overWorkspace = Math.max(0, channels * perChannel - WORKSPACE_PER_MINUTE);
  return (
    0.2 + (2 * LATENCY_MS) / 1000 + Math.max(perChannel - 1, (overWorkspace * 60) / WORKSPACE_PER_MINUTE)
  );
}

/** Discord's numbers, which the budget also keeps; Slack's posts bring their own pace. */
const BUDGET = { perSecond: 50, invalidLimit: 1_000 };

/** One replica: its stores, its budget (in memory, or on the row's Redis prefix) and its runner. */
async function replicaOf(dir: string, upstream: string, i: number, redisPrefix: string | undefined) {
  const world: World = redisPrefix ? await openRedis(redisPrefix) : await openSqlite(dir);
  const budget: OpenRateBudget = redisPrefix
    ? await createRedisRateBudget(REDIS_URL, { ...BUDGET, keyPrefix: redisPrefix })
    : createMemoryRateBudget(BUDGET);
  return { world, budget, upstream, owner: `slack-bench-${i}` };
}
type Replica = Awaited<ReturnType<typeof replicaOf>>;

function runnerOf(r: Replica, fakeUrl: string) {
  const slack = createSlackChannelClient(
    { apiUrl: `${fakeUrl}/api`, botToken: SLACK_BOT_TOKEN },
    { rateBudget: r.budget },
  );
  return createScheduleRunner({
    store: r.world.store,
    services: {},
    delivery: { channels: { slack } },
    commands: weatherCommands(r.upstream),
    toMessage: (reply) => slackChannelMessage(reply),
    log: SILENT,
    now: () => new Date(clock.now),
    owner: r.owner,
    catchupMinutes: 360,
  });
}

/**
 * `channels` × `perChannel` schedules due at one minute, posted to Slack by `replicaCount`
 * replicas (2: on Redis, one budget); the row says how.
 */
export async function slackRow(
  dir: string,
  upstream: string,
  channels: number,
  perChannel: number,
  replicaCount = 1,
): Promise<Row> {
  const total = channels * perChannel;
  const fake = await slackWebApiFake();
  const redisPrefix = replicaCount > 1 ? `herald:bench-${randomUUID()}:` : undefined;
  const replicas: Replica[] = [];
  for (let i = 0; i < replicaCount; i++) replicas.push(await replicaOf(dir, upstream, i, redisPrefix));
  try {
    clock.now = BOUNDARY - 50_000;
    const { schedules } = replicas[0]!.world;
    for (let i = 0; i < total; i += 100)
      await Promise.all(
        Array.from({ length: Math.min(100, total - i) }, (_, j) =>
          schedules.addSchedule(slackRecord(i + j, channels, clock.now), 100_000),
        ),
      );
    const runners = replicas.map((r) => runnerOf(r, fake.server.url));
    clock.now = BOUNDARY - 30_000;
    await Promise.all(runners.map((r) => r.tick()));
    clock.now = BOUNDARY + 200;
    const started = performance.now();
    await Promise.all(runners.map((r) => r.tick()));
    while (fake.posts.length < total && performance.now() - started < GIVE_UP_MS) {
      await after(POLL_MS);
      await Promise.all(runners.map((r) => r.tick()));
    }
    await Promise.all(runners.map((r) => r.stop()));
    return rowOf(channels, perChannel, replicaCount, fake, started);
  } finally {
    fake.server.close();
    for (const r of replicas) await Promise.all([r.world.close(), r.budget.close()]);
    if (redisPrefix) await dropKeys(redisPrefix);
  }
}

function rowOf(
  channels: number,
  perChannel: number,
  replicaCount: number,
  fake: Awaited<ReturnType<typeof slackWebApiFake>>,
  started: number,
): Row {
  const total = channels * perChannel;
  const { counts, times } = postsOf(fake.posts, started);
  const once = [...counts.values()].filter((c) => c === 1).length;
  const twice = [...counts.values()].filter((c) => c > 1).length;
  const allOnce = once === total && twice === 0;
  // From the minute: the tick ran 200 ms after it.
  const at = (ms: number) => (ms / 1000 + 0.2).toFixed(2);
  const last = times.length === 0 ? Number.NaN : Math.max(...times) / 1000 + 0.2;
  const { channel, workspace, early, earlyInWorkspace, crossed } = fake.limited;
  const floor = floorS(channels, perChannel).toFixed(1);
  const posted = `${once} posted once, ${twice} twice, ${total - counts.size} never`;
  const timing = `first ${at(Math.min(...times))} s, p50 ${at(percentile(times, 50))} s, last ${last.toFixed(2)} s after the minute`;
  const limits = `${channel} channel 429s, ${workspace} workspace 429s`;
  const scenario = `${total} due in one minute, ${channels} Slack channels × ${perChannel}, through the WebClient`;
  const where = replicaCount > 1 ? `${replicaCount} replicas, Redis, one budget` : '1 replica, SQLite';
  if (total <= WORKSPACE_PER_MINUTE)
    return {
      scenario: `${scenario}, under Slack's limits (${where})`,
      measured: `${timing}; ${posted}; ${limits}`,
      target: `each once, no 429, last within ${TARGET_S} s (floor ${floor} s: a channel's 2nd post 1 s after its 1st, at one a second; ${total} within the workspace's ${WORKSPACE_PER_MINUTE} a minute)`,
      met: allOnce && channel + workspace === 0 && last <= TARGET_S,
    };
  return {
    scenario: `${scenario}, above the workspace's ${WORKSPACE_PER_MINUTE} a minute (${where})`,
    measured: `${timing}; ${posted}; ${limits}; after a 429's answer, ${early} posts to its channel and ${earlyInWorkspace} to any channel before its Retry-After ended (${crossed} sent before the answer came, crossing it)`,
    target: `each once, every 429's Retry-After waited out in its channel and the workspace (floor ${floor} s: ${total - WORKSPACE_PER_MINUTE} past the minute's ${WORKSPACE_PER_MINUTE} at ${WORKSPACE_PER_MINUTE} a minute)`,
    met: allOnce && early === 0 && earlyInWorkspace === 0,
  };
}
