// "This channel": /schedule add typed in a Discord or Slack channel, with no to:, posts into that
// channel through the bot's own connection (Discord: Create Message with the bot token; Slack:
// chat.postMessage), through the same slot claim, outbox and delivery as webhook posts. The
// bot's missing permission or absence is refused at add time; a 429 is waited out as the platform
// says; a 403/404 is given up on.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addedReply } from '../../commands/schedule-format.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import { UserError } from '../../src/errors.ts';
import type { Mention } from '../../src/domain/mentions.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { MISSING_PERMISSIONS, rateLimited } from '../adapters/discord/discord-answers.ts';
import {
  BOT_TOKEN,
  CHANNEL_ID,
  GUILD_ID,
  startFakeDiscord,
  type FakeDiscord,
} from '../adapters/discord/fake-discord.ts';
import { BOT_TOKEN as SLACK_BOT_TOKEN, startSlackFake, type SlackFake } from '../adapters/slack/fakes.ts';
import { channelBench, MANAGER, startWorld, type ChannelBench, type World } from './world.ts';

const SLACKER: Actor = { platform: 'slack', id: 'U0ADA', displayName: 'ada', roles: [] };
/** What Discord sends as app_permissions for a bot with the usual role (View, Send, Embed, Attach…). */
const APP_PERMISSIONS = '2248473465835073';
const HERE_DISCORD: ChatChannel = {
  platform: 'discord',
  id: CHANNEL_ID,
  appPermissions: APP_PERMISSIONS,
  guildId: GUILD_ID,
};
const HERE_SLACK: ChatChannel = { platform: 'slack', id: 'C0GENERAL' };

let world: World;
let discord: FakeDiscord;
let slack: SlackFake;
let channels: ChannelClients;
beforeAll(async () => {
  [world, discord, slack] = await Promise.all([startWorld(), startFakeDiscord(), startSlackFake()]);
});
// Each test's own clients, as each replica has its own: a client remembers the buckets Discord
// announced (a 429's 30 s wait holds its route), in real time, not the tests' clock.
beforeEach(() => {
  // Each test starts with Discord's buckets full: the fake counts them in real time.
  discord.contract.reset();
  channels = createChannelClients({
    discord: { token: BOT_TOKEN, apiUrl: discord.apiUrl },
    slack: { botToken: SLACK_BOT_TOKEN, apiUrl: `${slack.server.url}/api` },
  });
});
afterEach(() => closeChannelClients(channels));
afterAll(async () => {
  await Promise.all([world.close(), discord.close(), slack.server.close()]);
});

let benches: ChannelBench[] = [];
afterEach(async () => {
  await Promise.all(benches.map((b) => b.runner.stop()));
  benches = [];
});

function bench(opts: { store?: Store; maxWaitMs?: number; adminUsers?: string[] } = {}): ChannelBench {
  const made = channelBench(world, channels, opts);
  benches.push(made);
  return made;
}

/** Adds "every day at 12:05" /weather Oslo typed in `channel`, then runs the 12:05 slot twice. */
async function addAndRunSlot(b: ChannelBench, channel: ChatChannel, creator: Actor, ping?: Mention[]) {
  const { record } = await b.service.add(
    { when: 'every day at 12:05', command: '/weather Oslo', channel, ping },
    creator,
  );
  b.clock.at = new Date('2026-03-27T12:05:10Z');
  const first = await b.runner.tick();
  const second = await b.runner.tick();
  return { record, outcomes: [...first, ...second], stored: await b.schedules.getSchedule(record.id) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return (err as UserError).message;
}

const channelPosts = (id: string) =>
  discord.calls.filter((c) => c.kind === 'message' && c.path === `/api/v10/channels/${id}/messages`);

describe('Discord: this channel', () => {
  it('added in a channel with no to:, a slot posts once into that channel with the bot token', async () => {
    const b = bench();
    const before = channelPosts(CHANNEL_ID).length;
    const { record, outcomes, stored } = await addAndRunSlot(b, HERE_DISCORD, MANAGER);
    expect(record.destination).toBe(`channel:discord:${CHANNEL_ID}`);
    // Kept for the message links of /schedule history.
    expect(record.guildId).toBe(GUILD_ID);
    expect(
      discord.calls.some((c) => c.kind === 'channel' && c.path === `/api/v10/channels/${CHANNEL_ID}`),
    ).toBe(true);
    expect(outcomes.map((o) => o.status)).toEqual(['posted']);
    const posts = channelPosts(CHANNEL_ID).slice(before);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.authorization).toBe(`Bot ${BOT_TOKEN}`);
    expect(posts[0]!.json).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(posts[0]!.json?.username).toBeUndefined();
    expect(JSON.stringify(posts[0]!.json?.embeds)).toContain('Oslo');
    expect(stored?.lastRun).toMatchObject({ outcome: 'posted', messageId: expect.stringMatching(/^\d+$/) });
  });

  it('says where it will post: "in this channel"', async () => {
    const b = bench();
    const { record, nextRuns } = await b.service.add(
      { when: 'every day at 07:30', command: '/weather Oslo', channel: HERE_DISCORD },
      MANAGER,
    );
    expect(addedReply(record, nextRuns, 'UTC').text).toContain('/weather Oslo in this channel.');
  });

  it('refuses at add time, in one sentence, when the bot lacks a permission or cannot see the channel', async () => {
    const b = bench();
    const sentence =
      'To post here, herald needs View Channel, Send Messages, Embed Links and Attach Files in this channel';
    // app_permissions without Embed Links and Attach Files (View Channel and Send Messages only).
    const lacking = { ...HERE_DISCORD, appPermissions: String((1 << 10) | (1 << 11)) };
    expect(
      await refusal(b.service.add({ when: 'hourly', command: '/weather Oslo', channel: lacking }, MANAGER)),
    ).toContain(sentence);
    const hidden = '1187421520894746999';
    discord.hiddenChannels.add(hidden);
    const unseen = { ...HERE_DISCORD, id: hidden };
    expect(
      await refusal(b.service.add({ when: 'hourly', command: '/weather Oslo', channel: unseen }, MANAGER)),
    ).toContain(sentence);
    expect(await b.schedules.listSchedules()).toEqual([]);
  });

  it('to:<name> and to:default keep naming a webhook destination', async () => {
    const b = bench();
    const ops = await b.service.add(
      { when: 'hourly', command: '/weather Oslo', to: 'ops', channel: HERE_DISCORD },
      MANAGER,
    );
    const def = await b.service.add(
      { when: 'hourly', command: '/weather Oslo', to: 'default', channel: HERE_DISCORD },
      MANAGER,
    );
    const console = await b.service.add({ when: 'hourly', command: '/weather Oslo' }, MANAGER);
    expect([ops.record.destination, def.record.destination, console.record.destination]).toEqual([
      'ops',
      'default',
      'default',
    ]);
    // The interaction's guild belongs to its channel, not to a webhook's.
    expect([ops.record.guildId, def.record.guildId]).toEqual([undefined, undefined]);
  });

  it('waits out a 429 as its retry_after says, then posts once', async () => {
    const b = bench();
    const before = channelPosts(CHANNEL_ID).length;
    discord.nextMessageAnswers.push(rateLimited(0.05));
    const { outcomes, stored } = await addAndRunSlot(b, HERE_DISCORD, MANAGER);
    expect(outcomes.map((o) => o.status)).toEqual(['posted']);
    // The body's retry_after (0.05 s), not the header's whole second.
    expect(b.sleeps).toEqual([50]);
    expect(channelPosts(CHANNEL_ID).length - before).toBe(2);
    expect(stored?.lastRun?.outcome).toBe('posted');
  });

  it("holds back every replica sharing the store while one was told to wait (the 429's retry_after)", async () => {
    const store = createMemoryStore();
    // Waits longer than 10 ms are not slept in process: the post goes back to the outbox.
    const [a, b] = [bench({ store, maxWaitMs: 10 }), bench({ store, maxWaitMs: 10 })];
    const before = channelPosts(CHANNEL_ID).length;
    discord.nextMessageAnswers.push(rateLimited(30));
    const first = await addAndRunSlot(a, HERE_DISCORD, MANAGER);
    expect(first.outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['pending']);
    expect(channelPosts(CHANNEL_ID).length - before).toBe(1);
    // The other replica's post to the same channel waits too, without asking Discord again.
    const second = await addAndRunSlot(b, HERE_DISCORD, MANAGER);
    expect(second.outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['pending']);
    expect(channelPosts(CHANNEL_ID).length - before).toBe(1);
  });

  it.each([
    ['403 Missing Permissions', { status: 403, body: MISSING_PERMISSIONS }],
    ['404 Unknown Channel', { status: 404, body: { message: 'Unknown Channel', code: 10003 } }],
  ])('gives up on %s without retrying', async (_name, answer) => {
    const b = bench();
    const before = channelPosts(CHANNEL_ID).length;
    discord.nextMessageAnswers.push(answer);
    const { outcomes, stored } = await addAndRunSlot(b, HERE_DISCORD, MANAGER);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['given_up']);
    expect(channelPosts(CHANNEL_ID).length - before).toBe(1);
    expect(stored?.lastRun?.outcome).toBe('failed');
  });

  // A channel that worked at add time and refuses herald later: Discord's own answers, from the
  // contract fake, through the bot's REST client (deleted: 10003; no access: 50001; no permission: 50013).
  it.each([
    ['10003 (the channel deleted)', '1187421520894746951', (id: string) => discord.deletedChannels.add(id)],
    [
      '50001 (herald no longer sees it)',
      '1187421520894746952',
      (id: string) => discord.hiddenChannels.add(id),
    ],
    ['50013 (herald may not post)', '1187421520894746953', (id: string) => discord.mutedChannels.add(id)],
  ])(
    'refusal %s pauses the schedule and tells its creator by DM, naming the channel',
    async (_n, id, refuse) => {
      const b = bench();
      const { record } = await b.service.add(
        { when: 'every day at 12:05', command: '/weather Oslo', channel: { ...HERE_DISCORD, id } },
        MANAGER,
      );
      refuse(id);
      const before = discord.calls.length;
      b.clock.at = new Date('2026-03-27T12:05:10Z');
      await b.runner.tick();
      await b.runner.tick();
      expect((await b.schedules.getSchedule(record.id))?.paused).toBe(true);
      // Told by DM with the bot token: Create DM for the creator, then one message in that DM.
      const after = discord.calls.slice(before);
      expect(after.filter((c) => c.kind === 'dm').map((c) => c.json?.recipient_id)).toEqual([MANAGER.id]);
      const told = after.filter((c) => c.kind === 'message' && c.path !== `/api/v10/channels/${id}/messages`);
      expect(told).toHaveLength(1);
      expect(told[0]!.authorization).toBe(`Bot ${BOT_TOKEN}`);
      const words = JSON.stringify(told[0]!.json);
      expect(words).toContain(`<#${id}>`);
      for (const never of ['webhook service', 'check the input', 'channel:discord:'])
        expect(words).not.toContain(never);
    },
  );
});

describe('Slack: this channel', () => {
  const posts = () => slack.calls('chat.postMessage');

  it('added in a channel with no to:, a slot posts once into it with chat.postMessage', async () => {
    const b = bench();
    const before = posts().length;
    const { record, outcomes, stored } = await addAndRunSlot(b, HERE_SLACK, SLACKER);
    expect(record.destination).toBe('channel:slack:C0GENERAL');
    expect(slack.calls('conversations.info').at(-1)?.get('channel')).toBe('C0GENERAL');
    expect(outcomes.map((o) => o.status)).toEqual(['posted']);
    const sent = posts().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.get('channel')).toBe('C0GENERAL');
    expect(sent[0]!.get('text')).toBeTruthy();
    const blocks = JSON.parse(sent[0]!.get('blocks') ?? '[]') as { type: string }[];
    expect(blocks.length).toBeGreaterThan(0);
    expect(JSON.stringify(blocks)).toContain('Oslo');
    const request = slack.server.requests.filter((r) => r.pathname === '/api/chat.postMessage').at(-1);
    expect(request?.headers.authorization).toBe(`Bearer ${SLACK_BOT_TOKEN}`);
    expect(stored?.lastRun).toMatchObject({ outcome: 'posted', messageId: '1714560000.000200' });
  });

  it('refuses at add time when herald is not in the channel, saying to invite it', async () => {
    const b = bench();
    slack.notMember.add('C0PRIVATE');
    const message = await refusal(
      b.service.add(
        { when: 'hourly', command: '/weather Oslo', channel: { platform: 'slack', id: 'C0PRIVATE' } },
        SLACKER,
      ),
    );
    expect(message).toBe(
      'To post here, invite herald to this channel (/invite @herald); it needs chat:write and files:write.',
    );
  });

  it('waits out a 429 for its Retry-After, then posts once', async () => {
    const b = bench();
    const before = posts().length;
    slack.nextPostAnswers.push({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '1' },
    });
    const { outcomes } = await addAndRunSlot(b, HERE_SLACK, SLACKER);
    expect(outcomes.map((o) => o.status)).toEqual(['posted']);
    expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['delivered']);
    expect(b.sleeps).toEqual([1_000]);
    expect(posts().length - before).toBe(2);
  });

  it('gives up when Slack answers not_in_channel (the bot was removed after the add)', async () => {
    const b = bench();
    const before = posts().length;
    slack.nextPostAnswers.push({ status: 200, body: { ok: false, error: 'not_in_channel' } });
    const { outcomes, stored } = await addAndRunSlot(b, HERE_SLACK, SLACKER);
    expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['given_up']);
    expect(posts().length - before).toBe(1);
    expect(stored?.lastRun?.outcome).toBe('failed');
  });
});

describe('ping: on a channel post (a schedule admin’s)', () => {
  const ROLE = '500000000000000009';
  it('Discord: the post’s content leads with the role and allowed_mentions lists exactly it', async () => {
    const b = bench({ adminUsers: [MANAGER.id] });
    const before = channelPosts(CHANNEL_ID).length;
    const ping: Mention[] = [{ platform: 'discord', kind: 'role', id: ROLE }];
    const { outcomes } = await addAndRunSlot(b, HERE_DISCORD, MANAGER, ping);
    expect(outcomes.map((o) => o.status)).toEqual(['posted']);
    const [post] = channelPosts(CHANNEL_ID).slice(before);
    expect(post!.json).toMatchObject({
      content: `<@&${ROLE}>`,
      allowed_mentions: { parse: [], roles: [ROLE] },
    });
    expect(post!.json?.allowed_mentions).not.toHaveProperty('users');
  });

  it('Slack: the post’s first block is exactly the user group', async () => {
    const b = bench({ adminUsers: [SLACKER.id] });
    const before = slack.calls('chat.postMessage').length;
    const ping: Mention[] = [{ platform: 'slack', kind: 'role', id: 'S0ONCALL1' }];
    await addAndRunSlot(b, HERE_SLACK, SLACKER, ping);
    const [sent] = slack.calls('chat.postMessage').slice(before);
    const blocks = JSON.parse(sent!.get('blocks') ?? '[]') as { text?: { text: string } }[];
    expect(blocks[0]?.text?.text).toBe('<!subteam^S0ONCALL1>');
    expect(JSON.stringify(blocks.slice(1))).not.toMatch(/<@|<!(subteam|here|channel|everyone)/);
  });

  it('refuses it from someone who is not a schedule admin, and a mention of the other platform', async () => {
    const ping: Mention[] = [{ platform: 'discord', kind: 'role', id: ROLE }];
    expect(
      await refusal(
        bench().service.add(
          { when: 'hourly', command: '/weather Oslo', channel: HERE_DISCORD, ping },
          MANAGER,
        ),
      ),
    ).toBe(
      `Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES, user id ${MANAGER.id}) or the operator may set ping:, so that no schedule pings people unasked.`,
    );
    const admin = bench({ adminUsers: [SLACKER.id] });
    expect(
      await refusal(
        admin.service.add({ when: 'hourly', command: '/weather Oslo', channel: HERE_SLACK, ping }, SLACKER),
      ),
    ).toBe("ping: names a mention of another platform than this slack channel's.");
  });
});
