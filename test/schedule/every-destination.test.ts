// Every kind of destination, exactly once per slot, across replicas on the real Redis
// (127.0.0.1:6379): a Discord webhook and a Slack incoming webhook (WEBHOOK_URL_<NAME>), a Discord
// channel (Create Message with the bot token) and a Slack channel (chat.postMessage), each a
// schedule from chat, each on its loopback fake. Two replicas race three slot boundaries; a replica
// process killed with SIGKILL while its commands run, or while its posts are in flight, neither
// loses a slot nor posts one more often than docs/SCHEDULING.md allows.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { http, type HttpResponseResolver } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelChecks } from '../../jobs/schedule-engine.ts';
import { loadScheduleConfig, type ScheduleConfig } from '../../src/config/schedule.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { ConfigProblem } from '../../src/errors.ts';
import {
  closeChannelClients,
  closeDestinationClients,
  createChannelClients,
  createDestinationClients,
  destinationMessages,
} from '../../src/destinations.ts';
import { createScheduleRunner } from '../../src/schedule/runner.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import { createScheduleService, type AddInput } from '../../src/schedule/service.ts';
import { route, SANDBOX_PREFIXES } from '../../src/sandbox/layout.ts';
import { SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import type { Store } from '../../src/store/store.ts';
import { BOT_TOKEN, startFakeDiscord, type FakeDiscord } from '../adapters/discord/fake-discord.ts';
import { BOT_TOKEN as SLACK_BOT_TOKEN, startSlackFake, type SlackFake } from '../adapters/slack/fakes.ts';
import { captureLog, waitFor } from '../jobs/harness.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { slackHookUrl, slackWebhookHandlers, type SlackHookInbox } from '../support/slack-webhook.ts';
import { CHILD_ENV, ROOT } from '../support/spawn-herald.ts';
import { MANAGER, startWorld, type World } from './world.ts';

const KINDS = ['discord-webhook', 'slack-webhook', 'discord-channel', 'slack-channel'] as const;
type Kind = (typeof KINDS)[number];
type PerKind<T> = Record<Kind, T>;
const perKind = <T>(f: (kind: Kind) => T) => Object.fromEntries(KINDS.map((k) => [k, f(k)])) as PerKind<T>;

const SLACKER: Actor = { platform: 'slack', id: 'U0ADA', displayName: 'ada', roles: [] };
/** What Discord sends as app_permissions for a bot with the usual role (View, Send, Embed, Attach…). */
const APP_PERMISSIONS = '2248473465835073';
/** The Discord webhook of WEBHOOK_URL_TEAM (the world's webhook fake takes any id). */
const TEAM_HOOK_ID = '1300000000000000077';
const EVERY_15 = '*/15 * * * *';
const SLOT = '2026-03-27T12:15:00.000Z';

const runPrefix = testKeyPrefix();
let nowMs = 0;
const now = () => new Date(nowMs);
const at = (time: string) => void (nowMs = Date.parse(`2026-03-27T${time}Z`));

let world: World;
let discord: FakeDiscord;
let slack: SlackFake;
let hooks: SandboxServer;
const hookInbox: SlackHookInbox = { messages: [] };
/** The named destinations as the environment gives them. */
let destinationEnv: Record<string, string>;
let config: ScheduleConfig;

beforeAll(async () => {
  [world, discord, slack, hooks] = await Promise.all([
    startWorld({ now }),
    startFakeDiscord(),
    startSlackFake(),
    startFake(slackWebhookHandlers(hookInbox)),
  ]);
  destinationEnv = {
    WEBHOOK_URL_TEAM: `${world.server.url}${SANDBOX_PREFIXES.webhook}/${TEAM_HOOK_ID}/${SANDBOX_CREDENTIAL}`,
    WEBHOOK_URL_SLACKTEAM: slackHookUrl(hooks.url),
  };
  const problems: ConfigProblem[] = [];
  config = loadScheduleConfig(destinationEnv, undefined, problems);
  expect(problems).toEqual([]);
  expect([config.destinations.team?.kind, config.destinations.slackteam?.kind]).toEqual(['discord', 'slack']);
});
afterAll(async () => {
  await Promise.all([world.close(), discord.close(), slack.server.close(), hooks.close()]);
  await deleteKeys(runPrefix);
});

const closers: (() => Promise<void>)[] = [];
beforeEach(() => {
  at('12:00:10');
  world.inbox.clear();
  hookInbox.messages.length = 0;
});
afterEach(async () => {
  for (const s of [world.server, hooks, discord.rest, slack.server]) s.resetHandlers();
  for (const close of closers.splice(0).reverse()) await close();
});

/** The channels one test posts into, so that tests do not count each other's posts. */
interface Where {
  discordChannel: string;
  slackChannel: string;
}

/** One replica: its own Redis connections, destination and channel clients, and log. */
async function openReplica(keyPrefix: string, owner: string) {
  const store = await createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix });
  const schedules = store;
  const destinations = createDestinationClients(config);
  const channels = createChannelClients({
    discord: { token: BOT_TOKEN, apiUrl: discord.apiUrl },
    slack: { botToken: SLACK_BOT_TOKEN, apiUrl: `${slack.server.url}/api` },
  });
  const log = captureLog();
  const runner = createScheduleRunner({
    store,
    services: world.services,
    destinations,
    commands: () => world.dispatcher,
    toMessage: destinationMessages(config, 'herald'),
    log: log.log,
    now,
    owner,
    catchupMinutes: 60,
    leaseMs: 60_000,
    delivery: { channels, backoffMs: 1, retryBaseMs: 1_000 },
  });
  closers.push(async () => {
    await runner.stop();
    await Promise.all([closeDestinationClients(destinations), closeChannelClients(channels)]);
    await store.close();
  });
  return { store, schedules, runner, channels, log };
}

/** Two replicas on a fresh Redis prefix, and one schedule of /weather Oslo per kind of destination. */
async function twoReplicas(where: Where) {
  const keyPrefix = `${runPrefix}${randomUUID()}:`;
  const [a, b] = [await openReplica(keyPrefix, 'replica-a'), await openReplica(keyPrefix, 'replica-b')];
  const service = createScheduleService({
    store: a.schedules,
    settings: {
      timezone: 'UTC',
      minIntervalMinutes: 15,
      max: 50,
      destinations: ['default', ...Object.keys(config.destinations)],
    },
    commands: () => world.dispatcher,
    runNow: (record, asker) => a.runner.runNow(record, asker),
    channelChecks: channelChecks(a.channels),
    now,
  });
  const add = async (creator: Actor, to: Pick<AddInput, 'to' | 'channel'>) =>
    (await service.add({ when: EVERY_15, command: '/weather Oslo', ...to }, creator)).record;
  const records: PerKind<ScheduleRecord> = {
    'discord-webhook': await add(MANAGER, { to: 'team' }),
    'slack-webhook': await add(SLACKER, { to: 'slackteam' }),
    'discord-channel': await add(MANAGER, {
      channel: { platform: 'discord', id: where.discordChannel, appPermissions: APP_PERMISSIONS },
    }),
    'slack-channel': await add(SLACKER, { channel: { platform: 'slack', id: where.slackChannel } }),
  };
  expect(perKind((k) => records[k].destination)).toEqual({
    'discord-webhook': 'team',
    'slack-webhook': 'slackteam',
    'discord-channel': `channel:discord:${where.discordChannel}`,
    'slack-channel': `channel:slack:${where.slackChannel}`,
  });
  return { keyPrefix, a, b, records };
}

/** Every post each fake took for this test's destinations, as the platform received it. */
function postsTo(where: Where) {
  return {
    'discord-webhook': world.inbox.messages.filter((m) => m.webhookId === TEAM_HOOK_ID),
    'slack-webhook': [...hookInbox.messages],
    'discord-channel': discord.calls.filter(
      (c) => c.kind === 'message' && c.path === `/api/v10/channels/${where.discordChannel}/messages`,
    ),
    'slack-channel': slack.server.requests.filter(
      (r) =>
        r.pathname === '/api/chat.postMessage' &&
        new URLSearchParams(r.body).get('channel') === where.slackChannel,
    ),
  };
}
const counts = (where: Where): PerKind<number> => {
  const posts = postsTo(where);
  return perKind((k) => posts[k].length);
};
const each = (n: number): PerKind<number> => perKind(() => n);

/** Each post is its platform's message, from the one renderer for it, naming Oslo. */
function expectPlatformMessages(where: Where) {
  const posts = postsTo(where);
  for (const m of posts['discord-webhook']) {
    expect(m).toMatchObject({ username: 'herald', allowedMentions: { parse: [] } });
    expect(JSON.stringify(m.embeds)).toContain('Oslo');
  }
  for (const m of posts['slack-webhook']) {
    expect(m).toMatchObject({ text: expect.stringContaining('Oslo') as string, unfurl_links: false });
    expect(JSON.stringify(m.blocks)).toContain('Oslo');
  }
  for (const c of posts['discord-channel']) {
    expect(c.authorization).toBe(`Bot ${BOT_TOKEN}`);
    expect(c.json).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(c.json?.username).toBeUndefined();
    expect(JSON.stringify(c.json?.embeds)).toContain('Oslo');
  }
  for (const r of posts['slack-channel']) {
    expect(r.headers.authorization).toBe(`Bearer ${SLACK_BOT_TOKEN}`);
    expect(new URLSearchParams(r.body).get('blocks')).toContain('Oslo');
  }
}

/** The slots each schedule's history holds, newest first, with their outcome. */
async function histories(schedules: Store, records: PerKind<ScheduleRecord>) {
  const out = perKind((): [string, string][] => []);
  for (const k of KINDS) out[k] = (await schedules.history(records[k].id)).map((r) => [r.slotId, r.outcome]);
  return out;
}

describe('two replicas on Redis, one schedule per kind of destination', () => {
  it('over three slot boundaries, each destination gets exactly one post per slot', async () => {
    const where = { discordChannel: '1187421520894746721', slackChannel: 'C0REPORTS1' };
    const { a, b, records } = await twoReplicas(where);
    const jobs = KINDS.map((k) => `schedule-${records[k].id}`).sort();
    const slots = ['12:15', '12:30', '12:45'];
    for (const [i, slot] of slots.entries()) {
      at(`${slot}:00.300`);
      // Both replicas race the boundary, then each looks again.
      const outcomes = (await Promise.all([a.runner.tick(), b.runner.tick()])).flat();
      outcomes.push(...(await b.runner.tick()), ...(await a.runner.tick()));
      const posted = outcomes.filter((o) => o.status === 'posted');
      expect(posted.map((o) => o.job).sort()).toEqual(jobs);
      expect(new Set(posted.map((o) => o.slotId))).toEqual(new Set([`2026-03-27T${slot}:00.000Z`]));
      at(`${slot}:20.000`);
      const later = [...(await a.runner.tick()), ...(await b.runner.tick())];
      expect(later.filter((o) => o.status === 'posted')).toEqual([]);
      expect(counts(where)).toEqual(each(i + 1));
    }
    expectPlatformMessages(where);
    const slotIds = slots.map((s) => `2026-03-27T${s}:00.000Z`).reverse();
    expect(await histories(b.schedules, records)).toEqual(perKind(() => slotIds.map((id) => [id, 'posted'])));
    // Each slot's record keeps the id the platform gave its post.
    const byId = async (k: Kind) => (await b.schedules.history(records[k].id)).map((r) => r.messageId);
    const hookIds = postsTo(where)['discord-webhook'].map((m) => m.id);
    expect(await byId('discord-webhook')).toEqual(hookIds.reverse());
    expect(await byId('discord-channel')).toEqual(
      [0, 1, 2].map(() => expect.stringMatching(/^\d+$/) as string),
    );
    expect(await byId('slack-channel')).toEqual(
      [0, 1, 2].map(() => expect.stringMatching(/^\d+\.\d{6}$/) as string),
    );
    expect(await a.store.listOutbox('pending')).toEqual([]);
  });
});

/**
 * Runs the crash child (test/schedule/crash-child.ts) on `keyPrefix` at 12:15:00.5 until `isThere`,
 * then kills it with SIGKILL.
 */
async function killChild(
  keyPrefix: string,
  crashAt: 'run' | 'in-flight',
  isThere: (stdout: string) => boolean,
): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'test/schedule/crash-child.ts')], {
    cwd: ROOT,
    env: {
      ...CHILD_ENV,
      PATH: process.env.PATH,
      REDIS_URL,
      KEY_PREFIX: keyPrefix,
      NOW: '2026-03-27T12:15:00.500Z',
      CRASH_AT: crashAt,
      ...destinationEnv,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_TOKEN: BOT_TOKEN,
      SLACK_API_URL: `${slack.server.url}/api`,
      SLACK_BOT_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_c, signal) => done(signal)));
  try {
    await waitFor(() => isThere(out) || child.exitCode !== null, 15_000, `the child to reach ${crashAt}`);
  } finally {
    child.kill('SIGKILL');
  }
  expect(await exited, err.slice(0, 2_000)).toBe('SIGKILL');
}

/** Holds every post to the four fakes unanswered until `release`, noting which have arrived. */
function holdPosts() {
  const arrived = new Set<Kind>();
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const hold =
    (kind: Kind): HttpResponseResolver =>
    async () => {
      arrived.add(kind);
      await released;
      return undefined; // then the fake's own handler takes the post, as the platform would
    };
  world.server.use(http.post(route('webhook', '/:id/:token'), hold('discord-webhook')));
  hooks.use(http.post('*/services/:team/:hook/:secret', hold('slack-webhook')));
  discord.rest.use(http.post('*/api/v10/channels/:channel/messages', hold('discord-channel')));
  slack.server.use(http.post('*/api/chat.postMessage', hold('slack-channel')));
  return { arrived, release: () => release() };
}

describe('a replica process killed with SIGKILL mid-run (real Redis)', () => {
  it('killed while its commands run: after the lease a survivor posts each slot exactly once', async () => {
    const where = { discordChannel: '1187421520894746722', slackChannel: 'C0REPORTS2' };
    const { keyPrefix, a, b, records } = await twoReplicas(where);
    await killChild(keyPrefix, 'run', (out) => out.split('running').length - 1 === KINDS.length);
    for (const k of KINDS)
      expect(await a.store.getSlot(`schedule-${records[k].id}`, SLOT)).toMatchObject({
        status: 'claimed',
        owner: 'doomed-replica',
      });
    // While the dead replica's one-minute lease runs, nobody posts.
    at('12:15:30.000');
    expect([...(await a.runner.tick()), ...(await b.runner.tick())]).toEqual([]);
    expect(counts(where)).toEqual(each(0));
    // Once it has ended, the survivors race for the slots: each is posted once.
    at('12:16:01.000');
    const outcomes = (await Promise.all([a.runner.tick(), b.runner.tick()])).flat();
    expect(outcomes.filter((o) => o.status === 'posted').map((o) => o.slotId)).toEqual(KINDS.map(() => SLOT));
    at('12:16:30.000');
    expect([...(await a.runner.tick()), ...(await b.runner.tick())]).toEqual([]);
    expect(counts(where)).toEqual(each(1));
    expectPlatformMessages(where);
    expect(await histories(a.schedules, records)).toEqual(perKind(() => [[SLOT, 'posted']]));
    for (const k of KINDS)
      expect(await b.store.getSlot(`schedule-${records[k].id}`, SLOT)).toMatchObject({
        status: 'posted',
        attempts: 2,
      });
  }, 30_000);

  it('killed with its posts in flight: each is resent once after the 5-minute lease, logged as a possible repeat', async () => {
    const where = { discordChannel: '1187421520894746723', slackChannel: 'C0REPORTS3' };
    const { keyPrefix, a, b, records } = await twoReplicas(where);
    const held = holdPosts();
    await killChild(keyPrefix, 'in-flight', () => held.arrived.size === KINDS.length);
    // The platforms took the posts; the answers died with the process.
    held.release();
    await waitFor(() => Object.values(counts(where)).every((n) => n === 1), 5_000, 'the held posts');
    const entries = await a.store.listOutbox('pending');
    expect(entries).toHaveLength(KINDS.length);
    expect(entries.every((e) => e.slotId === SLOT && e.inFlightAt !== undefined)).toBe(true);
    // The slots are posted: no replica runs them again. The outbox lease (5 minutes) holds the posts.
    for (const time of ['12:16:01.000', '12:20:00.000']) {
      at(time);
      const outcomes = [...(await a.runner.tick()), ...(await b.runner.tick())];
      expect(outcomes.filter((o) => o.status === 'posted')).toEqual([]);
      expect(counts(where)).toEqual(each(1));
    }
    // After the lease, the survivors race for the posts: each is sent once more, and says it may repeat.
    at('12:20:01.000');
    await Promise.all([a.runner.tick(), b.runner.tick()]);
    at('12:21:00.000');
    await Promise.all([a.runner.tick(), b.runner.tick()]);
    expect(counts(where)).toEqual(each(2));
    const resent = [...a.log.find('outbox.resend_uncertain'), ...b.log.find('outbox.resend_uncertain')];
    expect(resent.map((l) => l.slotId)).toEqual(KINDS.map(() => SLOT));
    expect(new Set(resent.map((l) => l.job))).toEqual(new Set(KINDS.map((k) => `schedule-${records[k].id}`)));
    // The resend is the same post, byte for byte.
    const posts = postsTo(where);
    const [hookA, hookB] = posts['discord-webhook'];
    expect(hookB!.body).toEqual(hookA!.body);
    expect(posts['slack-webhook'][1]).toEqual(posts['slack-webhook'][0]);
    expect(posts['discord-channel'][1]!.json).toEqual(posts['discord-channel'][0]!.json);
    expect(posts['slack-channel'][1]!.body).toBe(posts['slack-channel'][0]!.body);
    expectPlatformMessages(where);
    // The delivery here is the slot's record: posted, with the id of the post that was answered.
    expect(await histories(a.schedules, records)).toEqual(perKind(() => [[SLOT, 'posted']]));
    expect((await a.schedules.getSchedule(records['discord-webhook'].id))?.lastRun?.messageId).toBe(
      hookB!.id,
    );
    expect(await a.store.listOutbox('pending')).toEqual([]);
    expect(await a.store.listOutbox('delivered')).toEqual(
      KINDS.map(() => expect.objectContaining({ slotId: SLOT, attempts: 2 }) as unknown),
    );
  }, 30_000);
});
