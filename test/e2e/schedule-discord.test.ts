// /schedule on Discord end to end: the command set `npm run register` publishes (src/app.ts's
// offered commands through adapters/discord/register.ts) holds /schedule; the real discord.js client
// (createDiscordAdapter) on the fake gateway and REST API takes `/schedule add` in a guild channel
// with no `to:`; the runner, its clock moved over two slot boundaries, posts each slot once into that
// channel with the bot token (Create Message); `/schedule history` then links each run's message.
// Added with mode:edit, its next slot edits the first post in place (Edit Message); with thread:yes
// it replies in the thread started from its first post; with to:me it posts into the creator's DM
// (Create DM); with a schedule admin's ping: its posts ping exactly that role (allowed_mentions).
// The fake enforces Discord's REST contract (test/adapters/discord/contract.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCommands } from '../../adapters/discord/register.ts';
import type { ChatAdapter } from '../../src/core/adapter.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import type { ScheduleRunner } from '../../src/schedule/runner.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import {
  APP_ID,
  BOT_TOKEN,
  CHANNEL_ID,
  GUILD_ID,
  USER_ID,
  dmChannelOf,
  slashCommand,
  startFakeDiscord,
  type DiscordCall,
  type FakeDiscord,
  type OptionValue,
} from '../adapters/discord/fake-discord.ts';
import { startDiscordGateway } from '../adapters/discord/fake-config.ts';
import { offeredRegistry, replica, SILENT_LOG, startWorld, type World } from '../schedule/world.ts';
import { postInTwoSlots } from './schedule-slots.ts';

const ENV = { DISCORD_TOKEN: BOT_TOKEN, DISCORD_APPLICATION_ID: APP_ID };
const ROLE_ID = '500000000000000009';
const clock = { at: new Date('2026-03-27T12:00:00Z') };
const now = () => clock.at;

let fake: FakeDiscord;
let channels: ChannelClients;
let world: World;
let runner: ScheduleRunner;
let adapter: ChatAdapter;
let n = 0;

beforeAll(async () => {
  fake = await startFakeDiscord();
  channels = createChannelClients({ discord: { token: BOT_TOKEN, apiUrl: fake.apiUrl } });
  world = await startWorld({
    now,
    channels,
    allow: { users: [USER_ID], roles: [] },
    settings: { adminUsers: [USER_ID] },
  });
  runner = replica(world, createMemoryStore({ now: () => clock.at.getTime() }), {
    now,
    owner: 'replica-a',
    channels,
  });
  adapter = await startDiscordGateway(fake, world.registry, world.dispatcher, SILENT_LOG);
});
afterAll(async () => {
  await runner.stop();
  await adapter.stop();
  await closeChannelClients(channels);
  await world.close();
  await fake.close();
});

/** Sends `/schedule <sub>` from the guild channel as Discord does, and resolves with the edited answer. */
async function schedule(subcommand: string, options: OptionValue[]): Promise<Record<string, unknown>> {
  const token = `e2e-schedule-${++n}-aW50ZXJhY3Rpb246`;
  fake.dispatch('INTERACTION_CREATE', slashCommand({ name: 'schedule', subcommand, token, options }));
  const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit', 10_000);
  return edit.json!;
}

const channelPosts = (): DiscordCall[] =>
  fake.calls.filter((c) => c.kind === 'message' && c.path === `/api/v10/channels/${CHANNEL_ID}/messages`);

describe('/schedule on Discord, end to end', () => {
  it('is in the command set npm run register publishes', async () => {
    const { config, registry } = offeredRegistry({ ...ENV, DISCORD_API_URL: fake.apiUrl });
    const result = await registerCommands({ config: config.discord!, registry, log: SILENT_LOG });
    expect(result.names).toContain('/schedule');
    const put = fake.calls.filter((c) => c.kind === 'commands').at(-1)!;
    expect(put.path).toBe(`/api/v10/applications/${APP_ID}/commands`);
    expect(put.authorization).toBe(`Bot ${BOT_TOKEN}`);
    const published = put.json as unknown as { name: string; options?: { name: string; type: number }[] }[];
    const command = published.find((c) => c.name === 'schedule');
    // Subcommands (type 1), add and history among them.
    expect(command?.options?.filter((o) => o.type === 1).map((o) => o.name)).toEqual(
      expect.arrayContaining(['add', 'history', 'list', 'remove', 'run']),
    );
  });

  it('added in a guild channel with no to:, posts once per slot there with the bot token; history links each run', async () => {
    const added = await schedule('add', [
      { name: 'when', type: 3, value: 'hourly' },
      { name: 'command', type: 3, value: '/weather Oslo' },
    ]);
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({
      destination: `channel:discord:${CHANNEL_ID}`,
      guildId: GUILD_ID,
      creator: { platform: 'discord', id: USER_ID },
    });
    expect(added.content ?? '').toBe('');
    expect(JSON.stringify(added.embeds)).toContain('in this channel');
    // Checked at add time with the bot's own token.
    const probe = fake.calls.filter((c) => c.kind === 'channel').at(-1);
    expect(probe).toMatchObject({
      path: `/api/v10/channels/${CHANNEL_ID}`,
      authorization: `Bot ${BOT_TOKEN}`,
    });
    // The fake enforces Discord's contract (contract.ts): the bodiless check carries no JSON content
    // type (Discord answers 400 / 50109 to one), every request names itself DiscordBot (…), and
    // nothing was refused (before @discordjs/rest, this add failed with "The webhook service did not
    // accept that request").
    const sent = fake.rest.requests.filter((r) => r.pathname.startsWith('/api/'));
    expect(
      sent.find((r) => r.pathname === `/api/v10/channels/${CHANNEL_ID}`)?.headers['content-type'],
    ).toBeUndefined();
    for (const r of sent) expect(r.headers['user-agent']).toMatch(/^DiscordBot \(\S+, \S+\)/);
    expect(fake.contract.counts).toMatchObject({ invalid: 0, globalRefusals: 0, routeRefusals: 0 });

    const inbox = world.inbox.messages.length;
    const perSlot = await postInTwoSlots(runner, clock, channelPosts);
    for (const [post] of perSlot) {
      expect(post!.method).toBe('POST');
      expect(post!.authorization).toBe(`Bot ${BOT_TOKEN}`);
      expect(post!.json).toMatchObject({ allowed_mentions: { parse: [] } });
      expect(JSON.stringify(post!.json?.embeds)).toContain('Oslo');
    }
    expect(world.inbox.messages.length).toBe(inbox);
    // Each slot's post carries its outbox entry's nonce, so a resend after a crash is not doubled.
    const nonces = perSlot.map(([post]) => post!.json?.nonce);
    expect(nonces.every((n) => typeof n === 'string' && n.length <= 25)).toBe(true);
    expect(new Set(nonces).size).toBe(2);

    const history = await schedule('history', [{ name: 'id', type: 3, value: record!.id }]);
    const [embed] = history.embeds as { fields: { name: string; value: string }[] }[];
    const [second, first] = [perSlot[1]![0]!.created!, perSlot[0]![0]!.created!];
    const link = (id: string) => `https://discord.com/channels/${GUILD_ID}/${CHANNEL_ID}/${id}`;
    // When each run posted: a timestamp token, each reader's own time (its minute read back here).
    const minute = (value: string) =>
      value.replace(/<t:(\d+):f>/, (_, unix: string) =>
        new Date(Number(unix) * 1000).toISOString().slice(0, 16),
      );
    expect(embed!.fields.map((f) => ({ ...f, value: minute(f.value) }))).toEqual([
      {
        name: expect.stringMatching(/^slot Fri, 27 Mar 2026, 14:00 UTC · \d+\.\d s$/),
        value: `posted 2026-03-27T14:00 [view message](${link(second)})`,
      },
      {
        name: expect.stringMatching(/^slot Fri, 27 Mar 2026, 13:00 UTC · \d+\.\d s$/),
        value: `posted 2026-03-27T13:00 [view message](${link(first)})`,
      },
    ]);
  });

  it('mode:edit typed as a Discord option: the next slot edits the first post in place (Edit Message, bot token)', async () => {
    for (const r of await world.store.listSchedules()) await world.store.removeSchedule(r.id);
    await schedule('add', [
      { name: 'when', type: 3, value: 'hourly' },
      { name: 'command', type: 3, value: '/weather Oslo' },
      { name: 'mode', type: 3, value: 'edit' },
    ]);
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({ lands: 'edit', destination: `channel:discord:${CHANNEL_ID}` });
    const before = channelPosts().length;
    for (const slot of ['13:00', '14:00']) {
      clock.at = new Date(`2026-03-28T${slot}:05Z`);
      expect((await runner.tick()).map((o) => o.status)).toEqual(['posted']);
    }
    const [post] = channelPosts().slice(before);
    expect(channelPosts().length - before).toBe(1);
    const edits = fake.calls.filter((c) => c.kind === 'message-edit');
    expect(edits.map((c) => [c.method, c.path, c.authorization])).toEqual([
      ['PATCH', `/api/v10/channels/${CHANNEL_ID}/messages/${post!.created!}`, `Bot ${BOT_TOKEN}`],
    ]);
    expect(JSON.stringify(edits[0]!.json?.embeds)).toContain('Oslo');
    expect(fake.messages.get(post!.created!)?.edits).toBe(1);
  });

  /** Adds one schedule (the earlier ones removed) and runs its two slots of a day of its own. */
  async function addAndRun(options: OptionValue[], day: string): Promise<void> {
    for (const r of await world.store.listSchedules()) await world.store.removeSchedule(r.id);
    const added = await schedule('add', [
      { name: 'when', type: 3, value: 'hourly' },
      { name: 'command', type: 3, value: '/weather Oslo' },
      ...options,
    ]);
    expect(JSON.stringify(added)).toMatch(/Schedule \w+ added/);
    for (const slot of ['13:00', '14:00']) {
      clock.at = new Date(`${day}T${slot}:05Z`);
      expect((await runner.tick()).map((o) => o.status)).toEqual(['posted']);
    }
  }

  it('thread:yes typed as a Discord option: the first slot posts, the next replies in the thread started from it', async () => {
    const before = channelPosts().length;
    await addAndRun([{ name: 'thread', type: 3, value: 'yes' }], '2026-03-29');
    const [parent] = channelPosts().slice(before);
    expect(channelPosts().length - before).toBe(1);
    expect(fake.threads.get(parent!.created!)).toBe(CHANNEL_ID);
    const replies = fake.calls.filter(
      (c) => c.kind === 'message' && c.path === `/api/v10/channels/${parent!.created!}/messages`,
    );
    expect(replies.map((c) => c.authorization)).toEqual([`Bot ${BOT_TOKEN}`]);
    expect(JSON.stringify(replies[0]!.json?.embeds)).toContain('Oslo');
  });

  it("to:me typed as a Discord option: each slot posts into the creator's DM (Create DM), not the channel", async () => {
    const before = channelPosts().length;
    await addAndRun([{ name: 'to', type: 3, value: 'me' }], '2026-03-30');
    const [record] = await world.store.listSchedules();
    const dm = dmChannelOf(USER_ID);
    expect(record).toMatchObject({ destination: `channel:discord:${dm}`, isDirect: true });
    expect(channelPosts().length).toBe(before);
    const inDm = fake.calls.filter(
      (c) => c.kind === 'message' && c.path === `/api/v10/channels/${dm}/messages`,
    );
    expect(inDm).toHaveLength(2);
    expect(inDm.every((c) => c.json?.allowed_mentions !== undefined)).toBe(true);
  });

  it("a schedule admin's ping: typed as a Discord option: each post pings exactly that role, and no one else", async () => {
    const before = channelPosts().length;
    await addAndRun([{ name: 'ping', type: 3, value: `<@&${ROLE_ID}>` }], '2026-03-31');
    const posts = channelPosts().slice(before);
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(String(post.json?.content).split('\n')[0]).toBe(`<@&${ROLE_ID}>`);
      expect(post.json?.allowed_mentions).toEqual({ parse: [], roles: [ROLE_ID] });
    }
  });
});
