// Whose schedules /schedule shows on Discord, end to end, with global commands (one command set
// for every guild, as in production): the real discord.js client on the fake gateway and REST API
// takes interactions from two guilds. A member of guild B reads nothing of guild A's schedules
// (list, history, run, pause, remove: its id reads as unknown); a schedule posting into a private
// channel (@everyone may not view it) is listed only in that channel, to its creator and the
// admins; and adding a schedule "here" needs the member's own right to post here
// (member.permissions of the interaction: View Channel and Send Messages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAdapter } from '../../src/core/adapter.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import {
  BOT_TOKEN,
  CHANNEL_ID,
  GUILD_ID,
  USER_ID,
  slashCommand,
  startFakeDiscord,
  type FakeDiscord,
  type OptionValue,
} from '../adapters/discord/fake-discord.ts';
import { startDiscordGateway } from '../adapters/discord/fake-config.ts';
import { SILENT_LOG, startWorld, type World } from '../schedule/world.ts';

const GUILD_B = '1187421520894746900';
const CHANNEL_B = '1187421520894746911';
const PRIVATE_ID = '1187421520894746799';
const OTHER_CHANNEL = '1187421520894746712';
const MEMBER_A2 = '80351110224678913';
const MEMBER_B = '80351110224678914';
const ADMIN = '80351110224678915';
/** View Channel only: a member who may read the channel but not send there. */
const READ_ONLY = String(1n << 10n);

interface Where {
  guild: string;
  channel: string;
  user: string;
  permissions?: string;
}
const A: Where = { guild: GUILD_ID, channel: CHANNEL_ID, user: USER_ID };

let fake: FakeDiscord;
let channels: ChannelClients;
let world: World;
let adapter: ChatAdapter;
let n = 0;

beforeAll(async () => {
  fake = await startFakeDiscord();
  channels = createChannelClients({ discord: { token: BOT_TOKEN, apiUrl: fake.apiUrl } });
  world = await startWorld({
    channels,
    allow: { users: [USER_ID, MEMBER_A2, MEMBER_B, ADMIN], roles: [] },
    settings: { adminUsers: [ADMIN] },
  });
  adapter = await startDiscordGateway(fake, world.registry, world.dispatcher, SILENT_LOG);
});
afterAll(async () => {
  await adapter.stop();
  await closeChannelClients(channels);
  await world.close();
  await fake.close();
});

/** `/schedule <sub>` as Discord sends it from `where`; resolves with herald's answer, as JSON text. */
async function schedule(where: Where, subcommand: string, options: OptionValue[] = []): Promise<string> {
  const token = `e2e-guilds-${++n}-aW50ZXJhY3Rpb246`;
  const sent = slashCommand({ name: 'schedule', subcommand, token, options });
  const packet = {
    ...sent,
    guild_id: where.guild,
    guild: { ...sent.guild, id: where.guild },
    channel_id: where.channel,
    channel: { ...sent.channel, id: where.channel, guild_id: where.guild },
    member: {
      ...sent.member,
      user: { ...sent.member.user, id: where.user, username: `member${where.user.slice(-2)}` },
      permissions: where.permissions ?? sent.member.permissions,
    },
    authorizing_integration_owners: { '0': where.guild },
    data: { ...sent.data, guild_id: where.guild },
  };
  fake.dispatch('INTERACTION_CREATE', packet);
  // The answer: a refusal before any work as the first answer (type 4), else the deferral's edit
  // or a private follow-up; a failure's reference (8 hex digits) taken out.
  const answer = await fake.waitFor(
    (c) =>
      c.token === token &&
      ((c.kind === 'callback' && c.json?.type === 4) ||
        c.kind === 'followup' ||
        (c.kind === 'edit' && c.json?.content !== '…')),
    10_000,
  );
  return JSON.stringify(answer.json).replace(/ \(ref [0-9a-f]{8}\)/g, '');
}

const add = (where: Where, line: string) =>
  schedule(where, 'add', [
    { name: 'when', type: 3, value: 'every day at 09:00' },
    { name: 'command', type: 3, value: line },
  ]);
const byId = (id: string) => [{ name: 'id', type: 3, value: id }];
const unknown = (id: string) => `There is no schedule \\"${id}\\"; /schedule list shows them all.`;

describe("another guild's schedules, with global commands", () => {
  let id: string;

  beforeAll(async () => {
    expect(await add(A, '/weather Stavanger')).toContain('in this channel');
    id = (await world.store.listSchedules()).find((r) => r.command === '/weather Stavanger')!.id;
  });

  it('keeps the guild it was added in with the schedule', async () => {
    expect((await world.store.getSchedule(id))?.home).toEqual({ workspaceId: GUILD_ID });
  });

  it('shows a member of guild B none of them: not in the list, and not by id', async () => {
    const B: Where = { guild: GUILD_B, channel: CHANNEL_B, user: MEMBER_B };
    const listed = await schedule(B, 'list');
    expect(listed).not.toContain(id);
    expect(listed).not.toContain('Stavanger');
    expect(listed).not.toContain(CHANNEL_ID);
    for (const verb of ['history', 'run', 'pause', 'resume', 'remove'])
      expect(await schedule(B, verb, byId(id))).toContain(unknown(id));
    expect(await world.store.getSchedule(id)).toMatchObject({ paused: false });
    expect(fake.calls.filter((c) => c.kind === 'message')).toEqual([]);
  });

  it('shows them to another member of guild A, in any of its channels', async () => {
    const listed = await schedule({ guild: GUILD_ID, channel: OTHER_CHANNEL, user: MEMBER_A2 }, 'list');
    expect(listed).toContain(id);
    expect(listed).toContain('/weather Stavanger');
    // Seen is not theirs: managing another member's schedule still needs an admin.
    const paused = await schedule(
      { guild: GUILD_ID, channel: OTHER_CHANNEL, user: MEMBER_A2 },
      'pause',
      byId(id),
    );
    expect(paused).toContain(`Schedule ${id} was added by`);
    expect(await world.store.getSchedule(id)).toMatchObject({ paused: false });
  });
});

describe("a private channel's schedules", () => {
  let id: string;
  const HERE: Where = { guild: GUILD_ID, channel: PRIVATE_ID, user: USER_ID };

  beforeAll(async () => {
    fake.privateChannels.add(PRIVATE_ID);
    expect(await add(HERE, '/forecast Bergen')).toContain('in this channel');
    id = (await world.store.listSchedules()).find((r) => r.command === '/forecast Bergen')!.id;
  });

  it('keeps the guild and the private channel with the schedule', async () => {
    expect((await world.store.getSchedule(id))?.home).toEqual({
      workspaceId: GUILD_ID,
      privateChannelId: PRIVATE_ID,
    });
  });

  it('lists them in that channel to their creator and to an admin', async () => {
    expect(await schedule(HERE, 'list')).toContain(id);
    expect(await schedule({ ...HERE, user: ADMIN }, 'list')).toContain(id);
    expect(await schedule(HERE, 'history', byId(id))).not.toContain(unknown(id));
  });

  it('lists them nowhere else, and to no other member, even in that channel', async () => {
    expect(await schedule(A, 'list')).not.toContain(id);
    const other = { ...HERE, user: MEMBER_A2 };
    expect(await schedule(other, 'list')).not.toContain(id);
    expect(await schedule(other, 'history', byId(id))).toContain(unknown(id));
    expect(await schedule({ ...A, user: ADMIN }, 'list')).not.toContain(id);
  });
});

describe('adding a schedule that posts here', () => {
  it('refuses a member who may not send messages here themselves, in one sentence, and stores nothing', async () => {
    const before = (await world.store.listSchedules()).length;
    const answer = await add({ ...A, user: MEMBER_A2, permissions: READ_ONLY }, '/weather Tromsø');
    expect(answer).toContain(
      'You may not send messages in this channel yourself (View Channel and Send Messages), so herald will not post here for you; add the schedule with to:<destination> instead.',
    );
    expect(await world.store.listSchedules()).toHaveLength(before);
  });
});
