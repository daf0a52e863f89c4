// Where a report lands (docs/SCHEDULING.md), across two replicas on the real Redis (127.0.0.1:6379),
// each platform on its loopback contract fake: a `mode:edit` schedule over five slots leaves one
// message edited four times, on a Discord webhook, a Discord channel and a Slack channel; a
// `thread:yes` schedule leaves one first post and four replies in its thread (a Discord channel's
// thread started from the first post, a Discord forum webhook's post with thread_name, Slack's
// thread_ts); the same with a replica process killed with SIGKILL while it runs a slot. A deleted
// board is posted anew and edited from then on; a Slack incoming webhook is refused at add.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelChecks, directChannels } from '../../jobs/schedule-engine.ts';
import { loadScheduleConfig, type ScheduleConfig } from '../../src/config/schedule.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { ConfigProblem } from '../../src/errors.ts';
import {
  closeChannelClients,
  closeDestinationClients,
  createChannelClients,
  createDestinationClients,
  destinationMessages,
  landsRefusal,
} from '../../src/destinations.ts';
import { createScheduleRunner } from '../../src/schedule/runner.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import { createScheduleService, type AddInput } from '../../src/schedule/service.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import {
  BOT_TOKEN,
  dmChannelOf,
  startFakeDiscord,
  type FakeDiscord,
} from '../adapters/discord/fake-discord.ts';
import { BOT_TOKEN as SLACK_BOT_TOKEN, startSlackFake, type SlackFake } from '../adapters/slack/fakes.ts';
import { captureLog, waitFor } from '../jobs/harness.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { CHILD_ENV, ROOT } from '../support/spawn-herald.ts';
import { MANAGER, OPERATOR, STRANGER, startWorld, type World } from './world.ts';

const SLACKER: Actor = { platform: 'slack', id: 'U0ADA', displayName: 'ada', roles: [] };
const APP_PERMISSIONS = '2248473465835073';
/** A Discord webhook in a text channel (WEBHOOK_URL_TEAM) and one in a forum channel (WEBHOOK_URL_FORUM). */
const TEAM_HOOK = '1300000000000000077';
const FORUM_HOOK = '1300000000000000078';
const HOOK_TOKEN = 'loopback-webhook-token';
const EVERY_15 = '*/15 * * * *';
const SLOTS = ['12:15', '12:30', '12:45', '13:00', '13:15'];

const runPrefix = testKeyPrefix();
let nowMs = 0;
const now = () => new Date(nowMs);
/** Each test on a day of its own: the fakes' rate windows never see the clock go back. */
let day = 10;
const iso = (time: string) => `2026-03-${day}T${time}Z`;
const at = (time: string) => void (nowMs = Date.parse(iso(time)));

let world: World;
let discord: FakeDiscord;
let slack: SlackFake;
let destinationEnv: Record<string, string>;
let config: ScheduleConfig;

beforeAll(async () => {
  // The fakes count their rate limits on the test's clock, as the platforms would over real slots.
  [world, discord, slack] = await Promise.all([
    startWorld({ now }),
    startFakeDiscord({ now: () => nowMs }),
    startSlackFake({ now: () => nowMs }),
  ]);
  discord.webhooks.set(TEAM_HOOK, HOOK_TOKEN);
  discord.webhooks.set(FORUM_HOOK, HOOK_TOKEN);
  discord.forumWebhooks.add(FORUM_HOOK);
  destinationEnv = {
    WEBHOOK_URL_TEAM: `${discord.apiUrl}/webhooks/${TEAM_HOOK}/${HOOK_TOKEN}`,
    WEBHOOK_URL_FORUM: `${discord.apiUrl}/webhooks/${FORUM_HOOK}/${HOOK_TOKEN}`,
    WEBHOOK_URL_SLACKTEAM: 'https://hooks.slack.com/services/T0HERALD/B0HOOK/loopbacksecret',
  };
  const problems: ConfigProblem[] = [];
  config = loadScheduleConfig(destinationEnv, undefined, problems);
  expect(problems).toEqual([]);
});
afterAll(async () => {
  await Promise.all([world.close(), discord.close(), slack.server.close()]);
  await deleteKeys(runPrefix);
});

const closers: (() => Promise<void>)[] = [];
beforeEach(() => {
  day += 1;
  at('12:00:10');
  discord.messages.clear();
  discord.threads.clear();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function openReplica(keyPrefix: string, owner: string) {
  const store = await createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix });
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
  return { store, runner, channels };
}

type Replica = Awaited<ReturnType<typeof openReplica>>;

async function twoReplicas() {
  const keyPrefix = `${runPrefix}${randomUUID()}:`;
  const replicas = [await openReplica(keyPrefix, 'replica-a'), await openReplica(keyPrefix, 'replica-b')];
  const a = replicas[0]!;
  const service = createScheduleService({
    store: a.store,
    settings: {
      timezone: 'UTC',
      minIntervalMinutes: 15,
      max: 50,
      destinations: ['team', 'forum', 'slackteam'],
    },
    commands: () => world.dispatcher,
    runNow: (record, asker) => a.runner.runNow(record, asker),
    channelChecks: channelChecks(a.channels),
    directChannels: directChannels(a.channels),
    landsRefusal: landsRefusal(config),
    now,
  });
  const add = async (creator: Actor, input: Omit<AddInput, 'when' | 'command'>) =>
    (await service.add({ when: EVERY_15, command: '/weather Oslo', ...input }, creator)).record;
  return { keyPrefix, replicas, service, add };
}

/** The channels one test posts into, so that tests do not count each other's posts. */
interface Where {
  discordChannel: string;
  slackChannel: string;
}

const discordIn = (where: Where) => ({
  platform: 'discord' as const,
  id: where.discordChannel,
  appPermissions: APP_PERMISSIONS,
});

/** A mode:edit schedule on each kind that can edit, and a thread:yes one on each that can thread. */
async function addBoth(add: Awaited<ReturnType<typeof twoReplicas>>['add'], where: Where) {
  return {
    edit: [
      await add(MANAGER, { to: 'team', mode: 'edit' }),
      await add(MANAGER, { channel: discordIn(where), mode: 'edit' }),
      await add(SLACKER, { channel: { platform: 'slack', id: where.slackChannel }, mode: 'edit' }),
    ],
    thread: [
      await add(MANAGER, { to: 'forum', thread: 'yes' }),
      await add(MANAGER, { channel: discordIn(where), thread: 'yes' }),
      await add(SLACKER, { channel: { platform: 'slack', id: where.slackChannel }, thread: 'yes' }),
    ],
  };
}

/** Both replicas race the slot's boundary (`HH:MM`, or a time past it), then each looks again. */
async function raceSlot(replicas: Replica[], slot: string) {
  at(slot.length === 5 ? `${slot}:00.300` : slot);
  await Promise.all(replicas.map((r) => r.runner.tick()));
  for (const r of replicas) await r.runner.tick();
}

const webhookMessages = (hook: string) => [...discord.messages.values()].filter((m) => m.webhookId === hook);
const botMessagesIn = (channel: string) =>
  [...discord.messages.values()].filter((m) => m.channelId === channel && m.webhookId === undefined);

/** One message per edit schedule, edited once per later slot; its id in every run's history. */
async function expectBoards(replica: Replica, records: ScheduleRecord[], where: Where, edits: number) {
  const [hook, channel, slackBoard] = records;
  const hooked = webhookMessages(TEAM_HOOK);
  expect(hooked.map((m) => m.edits)).toEqual([edits]);
  const posted = botMessagesIn(where.discordChannel).filter((m) => !discord.threads.has(m.id));
  expect(posted.map((m) => m.edits)).toEqual([edits]);
  const slackTs = slack.posted.get(where.slackChannel) ?? [];
  const boards = slackTs.filter((ts) => !slack.replies.has(ts));
  expect(boards.map((ts) => slack.edits.get(ts) ?? 0)).toEqual([edits]);
  const ids = async (record: ScheduleRecord) =>
    (await replica.store.history(record.id)).map((r) => r.messageId);
  expect(new Set(await ids(hook!))).toEqual(new Set([hooked[0]!.id]));
  expect(new Set(await ids(channel!))).toEqual(new Set([posted[0]!.id]));
  expect(new Set(await ids(slackBoard!))).toEqual(new Set([boards[0]]));
}

/** One first post per thread schedule and `replies` replies in its thread, and nothing else. */
function expectThreads(where: Where, replies: number) {
  // The forum webhook: its first post started the thread (thread_name), the rest went into it.
  const forum = webhookMessages(FORUM_HOOK);
  expect(forum).toHaveLength(replies + 1);
  expect(new Set(forum.map((m) => m.channelId)).size).toBe(1);
  expect(discord.threads.get(forum[0]!.channelId)).toBe(`forum:${FORUM_HOOK}`);
  // The Discord channel: the first post, its thread (the same id), the replies in it.
  const parents = botMessagesIn(where.discordChannel).filter((m) => discord.threads.has(m.id));
  expect(parents).toHaveLength(1);
  expect(discord.threads.get(parents[0]!.id)).toBe(where.discordChannel);
  expect(botMessagesIn(parents[0]!.id)).toHaveLength(replies);
  // Slack: the first post, the replies under its ts.
  const slackParents = (slack.posted.get(where.slackChannel) ?? []).filter((ts) => slack.replies.has(ts));
  expect(slackParents).toHaveLength(1);
  expect(slack.replies.get(slackParents[0]!)).toHaveLength(replies);
}

describe('two replicas on Redis: where each run lands', () => {
  it('over five slots: one board edited four times, one thread with four replies, on every kind', async () => {
    const where = { discordChannel: '1187421520894746741', slackChannel: 'C0LANDS1' };
    const { replicas, add } = await twoReplicas();
    const { edit, thread } = await addBoth(add, where);
    for (const slot of SLOTS) await raceSlot(replicas, slot);
    await expectBoards(replicas[1]!, edit, where, SLOTS.length - 1);
    expectThreads(where, SLOTS.length - 1);
    for (const record of [...edit, ...thread])
      expect((await replicas[0]!.store.history(record.id)).map((r) => r.outcome)).toEqual(
        SLOTS.map(() => 'posted'),
      );
    expect(await replicas[0]!.store.listOutbox('pending')).toEqual([]);
  }, 30_000);

  it('a deleted board is posted anew, then edited from then on', async () => {
    const where = { discordChannel: '1187421520894746742', slackChannel: 'C0LANDS2' };
    const { replicas, add } = await twoReplicas();
    const records = [
      await add(MANAGER, { to: 'team', mode: 'edit' }),
      await add(MANAGER, { channel: discordIn(where), mode: 'edit' }),
      await add(SLACKER, { channel: { platform: 'slack', id: where.slackChannel }, mode: 'edit' }),
    ];
    await raceSlot(replicas, '12:15');
    // Someone deletes each board: Discord then answers 10008 Unknown Message, Slack message_not_found.
    const [hooked] = webhookMessages(TEAM_HOOK);
    const [posted] = botMessagesIn(where.discordChannel);
    discord.messages.delete(hooked!.id);
    discord.messages.delete(posted!.id);
    slack.posted.set(where.slackChannel, []);
    await raceSlot(replicas, '12:30');
    await raceSlot(replicas, '12:45');
    expect(webhookMessages(TEAM_HOOK).map((m) => m.edits)).toEqual([1]);
    expect(botMessagesIn(where.discordChannel).map((m) => m.edits)).toEqual([1]);
    const [board] = slack.posted.get(where.slackChannel) ?? [];
    expect(slack.edits.get(board!)).toBe(1);
    const history = await replicas[1]!.store.history(records[1]!.id);
    expect(history.map((r) => r.outcome)).toEqual(['posted', 'posted', 'posted']);
    expect(history[0]!.messageId).not.toBe(posted!.id);
  }, 30_000);
});

/** The crash child (crash-child.ts) on `keyPrefix` at `time`, killed with SIGKILL once it runs `count` slots. */
async function killMidSlot(keyPrefix: string, time: string, count: number): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'test/schedule/crash-child.ts')], {
    cwd: ROOT,
    env: {
      ...CHILD_ENV,
      PATH: process.env.PATH,
      REDIS_URL,
      KEY_PREFIX: keyPrefix,
      NOW: iso(time),
      CRASH_AT: 'run',
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
    await waitFor(
      () => out.split('running').length - 1 === count || child.exitCode !== null,
      15_000,
      'the child to run its slots',
    );
  } finally {
    child.kill('SIGKILL');
  }
  expect(await exited, err.slice(0, 2_000)).toBe('SIGKILL');
}

describe('a replica killed with SIGKILL mid-slot (real Redis)', () => {
  it('the survivors edit the same board and reply in the same thread', async () => {
    const where = { discordChannel: '1187421520894746743', slackChannel: 'C0LANDS3' };
    const { keyPrefix, replicas, add } = await twoReplicas();
    const { edit, thread } = await addBoth(add, where);
    await raceSlot(replicas, '12:15');
    // The third replica claims the 12:30 slot of every schedule and dies running them.
    await killMidSlot(keyPrefix, '12:30:00.500', edit.length + thread.length);
    at('12:30:30.000');
    for (const r of replicas) await r.runner.tick();
    expect(webhookMessages(TEAM_HOOK).map((m) => m.edits)).toEqual([0]);
    // After its one-minute lease the survivors take the slot over, then the next slots come.
    await raceSlot(replicas, '12:31:01.000');
    for (const slot of SLOTS.slice(2)) await raceSlot(replicas, slot);
    await expectBoards(replicas[0]!, edit, where, SLOTS.length - 1);
    expectThreads(where, SLOTS.length - 1);
  }, 40_000);
});

describe('a destination that cannot land a post so', () => {
  it('a Slack incoming webhook is refused in one sentence naming what can; both options together too', async () => {
    const { add } = await twoReplicas();
    for (const lands of [{ mode: 'edit' }, { thread: 'yes' }] as const)
      await expect(add(SLACKER, { to: 'slackteam', ...lands })).rejects.toThrow(
        /^A Slack incoming webhook can neither edit a post nor reply in a thread; for (mode:edit|thread:yes), add the schedule in a Slack channel herald is in \(without to:\), or to a Discord destination\.$/,
      );
    await expect(add(MANAGER, { to: 'team', mode: 'edit', thread: 'yes' })).rejects.toThrow(
      'Choose mode:edit (one post, edited) or thread:yes (replies in a thread), not both.',
    );
    // A Discord webhook outside a forum cannot start a thread: its first run says so.
  });
});

describe('to:me: a direct message to the creator', () => {
  it('opens the DM at add (Create DM; conversations.open) and lands there, edited or threaded, seen only by its creator', async () => {
    const { replicas, service, add } = await twoReplicas();
    slack.scopes.add('im:write');
    closers.push(() => Promise.resolve(void slack.scopes.delete('im:write')));
    const board = await add(MANAGER, { to: 'me', mode: 'edit' });
    const thread = await add(SLACKER, { to: 'ME', thread: 'yes' });
    const discordDm = dmChannelOf(MANAGER.id);
    expect([board.destination, thread.destination]).toEqual([
      `channel:discord:${discordDm}`,
      `channel:slack:D${SLACKER.id.slice(1)}`,
    ]);
    // Read by its creator alone: their settings come before the DM channel's (docs/settings.md).
    expect([board.isDirect, thread.isDirect]).toEqual([true, true]);
    await raceSlot(replicas, '12:15');
    await raceSlot(replicas, '12:30');
    expect(botMessagesIn(discordDm).map((m) => m.edits)).toEqual([1]);
    const [parent] = slack.posted.get(`D${SLACKER.id.slice(1)}`) ?? [];
    expect(slack.replies.get(parent!)).toHaveLength(1);
    // Its creator sees it wherever they type; another member of the workspace does not.
    const seen = async (actor: Actor, channel?: string) =>
      (
        await service.list({
          actor,
          ...(channel ? { channel: { platform: 'slack', id: channel, teamId: 'T0HERALD' } } : {}),
        })
      ).schedules.map((s) => s.record.id);
    expect(await seen(SLACKER, 'C0GENERAL')).toEqual([thread.id]);
    expect(await seen(STRANGER, 'C0GENERAL')).toEqual([]);
  }, 30_000);

  it('refuses in one sentence: the console, a Discord DM thread, a Slack app without im:write', async () => {
    const { add } = await twoReplicas();
    await expect(add(OPERATOR, { to: 'me' })).rejects.toThrow(
      'to:me is a direct message from herald on Discord or Slack; add the schedule there.',
    );
    await expect(add(MANAGER, { to: 'me', thread: 'yes' })).rejects.toThrow(
      'Discord has no threads in a direct message; for thread:yes, add the schedule in a server channel.',
    );
    // The fake's app, as a default install, has no im:write.
    await expect(add(SLACKER, { to: 'me' })).rejects.toThrow(
      "herald's Slack app lacks the im:write scope to post in a direct message; add it to the app and reinstall it.",
    );
  });
});
