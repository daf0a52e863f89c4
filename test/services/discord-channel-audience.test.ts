// Who reads a Discord channel, for /schedule: a channel is private when @everyone may not view it
// (the overwrite of the role whose id is the guild's denies View Channel: what Discord's "Private
// Channel" switch sets, https://discord.com/developers/docs/topics/permissions#permission-overwrites),
// and a DM, group DM or private thread always is; read with the bot's GET /channels/{id} against the
// fake Discord. The member's own right to post comes from the interaction's member.permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maySendMessages } from '../../src/domain/discord.ts';
import { isPrivateDiscordChannel } from '../../src/services/webhook/discord-channel-access.ts';
import { createDiscordChannelClient } from '../../src/services/webhook/discord-channel.ts';
import { BOT_TOKEN, GUILD_ID, startFakeDiscord, type FakeDiscord } from '../adapters/discord/fake-discord.ts';

const VIEW = String(1n << 10n);

describe('isPrivateDiscordChannel', () => {
  it("reads @everyone's overwrite: View Channel denied is private, allowed or absent is not", () => {
    const channel = (deny: string, id = GUILD_ID) => ({
      type: 0,
      guild_id: GUILD_ID,
      permission_overwrites: [
        { id: '1187421520894746801', type: 0, deny: VIEW },
        { id, type: 0, deny },
      ],
    });
    expect(isPrivateDiscordChannel(channel(VIEW))).toBe(true);
    expect(isPrivateDiscordChannel(channel(String((1n << 10n) | (1n << 11n))))).toBe(true);
    expect(isPrivateDiscordChannel(channel('0'))).toBe(false);
    // Another role denied View Channel: @everyone still sees it.
    expect(isPrivateDiscordChannel(channel(VIEW, '1187421520894746802'))).toBe(false);
    expect(isPrivateDiscordChannel({ type: 0, guild_id: GUILD_ID })).toBe(false);
    expect(isPrivateDiscordChannel(channel('garbage'))).toBe(false);
  });

  it('calls a DM, a group DM and a private thread private', () => {
    for (const type of [1, 3, 12]) expect(isPrivateDiscordChannel({ type })).toBe(true);
    expect(isPrivateDiscordChannel({ type: 11, guild_id: GUILD_ID })).toBe(false);
  });
});

describe('maySendMessages (member.permissions)', () => {
  it('needs View Channel and Send Messages, or Administrator', () => {
    expect(maySendMessages(String((1n << 10n) | (1n << 11n)))).toBe(true);
    expect(maySendMessages('2248473465835073')).toBe(true);
    expect(maySendMessages(VIEW)).toBe(false);
    expect(maySendMessages(String(1n << 11n))).toBe(false);
    expect(maySendMessages(String(1n << 3n))).toBe(true);
    expect(maySendMessages('not a bitfield')).toBe(false);
  });
});

describe('the Discord channel client: audience', () => {
  let fake: FakeDiscord;
  let client: ReturnType<typeof createDiscordChannelClient>;
  beforeAll(async () => {
    fake = await startFakeDiscord();
    client = createDiscordChannelClient({ apiUrl: fake.apiUrl, token: BOT_TOKEN });
  });
  afterAll(async () => {
    await client.close();
    await fake.close();
  });

  it("asks GET /channels/{id} with the bot token and reads @everyone's overwrite", async () => {
    fake.privateChannels.add('1187421520894746799');
    expect(await client.audience('1187421520894746799')).toEqual({ isPrivate: true });
    expect(await client.audience('1187421520894746711')).toEqual({ isPrivate: false });
    const probe = fake.calls.filter((c) => c.kind === 'channel').at(-1);
    expect(probe).toMatchObject({
      path: '/api/v10/channels/1187421520894746711',
      authorization: `Bot ${BOT_TOKEN}`,
    });
  });

  it('fails typed when the bot cannot see the channel (403 Missing Access)', async () => {
    fake.hiddenChannels.add('1187421520894746798');
    await expect(client.audience('1187421520894746798')).rejects.toMatchObject({ code: 'forbidden' });
  });
});
