// Whether herald may post into a Discord channel, and who reads it, with the bot token through the
// one Discord REST client (discord-rest.ts). What @discordjs/rest does not serve: Discord drops an
// embed or a file silently where herald lacks Embed Links or Attach Files, so add time checks the
// four permissions it needs in the interaction's `app_permissions` and that the bot can reach the
// channel at all (Get Channel: a bot not in the guild gets 50001 however the interaction came)
// (https://discord.com/developers/docs/topics/permissions); and a channel is private when
// @everyone's overwrite denies View Channel, a permission computation no SDK call answers
// (https://discord.com/developers/docs/topics/permissions#permission-overwrites). Shown by
// test/adapters/discord/contract.test.ts and test/services/discord-channel-audience.test.ts.
import { z } from 'zod';
import { ServiceError } from '../../errors.ts';
import type { CallOptions } from '../../http/client.ts';
import type { ChannelClient } from './client.ts';
import type { DiscordRest } from './discord-rest.ts';

/** A channel's type and overwrites (https://discord.com/developers/docs/resources/channel#channel-object). */
const ChannelAudienceAnswer = z.object({
  type: z.number().int(),
  guild_id: z.string().optional(),
  permission_overwrites: z
    .array(z.object({ id: z.string(), type: z.number().int(), deny: z.string() }))
    .optional(),
});
const VIEW_CHANNEL = 1n << 10n;
/** DM, group DM and private thread: private whatever the overwrites say. */
const PRIVATE_TYPES = new Set([1, 3, 12]);

/**
 * Private when @everyone may not view it: the overwrite of the role whose id is the guild's (what
 * Discord's "Private Channel" switch sets, a category's overwrites being copied to its channels)
 * denies View Channel; or a DM, group DM or private thread.
 */
export function isPrivateDiscordChannel(channel: z.output<typeof ChannelAudienceAnswer>): boolean {
  if (PRIVATE_TYPES.has(channel.type)) return true;
  const everyone = channel.permission_overwrites?.find((o) => o.id === channel.guild_id && o.type === 0);
  return (
    everyone !== undefined &&
    /^\d{1,30}$/.test(everyone.deny) &&
    (BigInt(everyone.deny) & VIEW_CHANNEL) !== 0n
  );
}

/** What herald needs in a channel, by Discord's permission bits. */
const NEEDED: readonly (readonly [bigint, string])[] = [
  [1n << 10n, 'View Channel'],
  [1n << 11n, 'Send Messages'],
  [1n << 14n, 'Embed Links'],
  [1n << 15n, 'Attach Files'],
];
const ADMINISTRATOR = 1n << 3n;

/** The permissions of NEEDED that `bitfield` lacks; none when it is not a bitfield. */
function missingDiscordPermissions(bitfield: string): string[] {
  if (!/^\d{1,30}$/.test(bitfield)) return [];
  const bits = BigInt(bitfield);
  if ((bits & ADMINISTRATOR) !== 0n) return [];
  return NEEDED.filter(([bit]) => (bits & bit) === 0n).map(([, name]) => name);
}

type CheckOptions = Parameters<ChannelClient['check']>[1] & object;

/** The add-time check: undefined when herald may post there, else that it needs its permissions. */
export async function checkDiscordChannel(
  rest: DiscordRest,
  channelId: string,
  opts: CheckOptions,
): Promise<'discordPermissions' | undefined> {
  const missing = opts.appPermissions === undefined ? [] : missingDiscordPermissions(opts.appPermissions);
  if (missing.length > 0) return 'discordPermissions';
  try {
    await rest.send({
      operation: 'check',
      method: 'GET',
      route: (routes) => routes.channel(channelId),
      signal: opts.signal,
    });
    return undefined;
  } catch (err) {
    // 50001 Missing Access (403) or 10003 Unknown Channel (404): the bot cannot see the channel.
    if (err instanceof ServiceError && (err.code === 'forbidden' || err.code === 'not_found'))
      return 'discordPermissions';
    throw err;
  }
}

/** Whether the channel is private (Get Channel); whether the member may post there is the interaction's. */
export async function discordAudience(
  rest: DiscordRest,
  channelId: string,
  opts: CallOptions,
): Promise<{ isPrivate: boolean }> {
  const answer = await rest.send({
    operation: 'audience',
    method: 'GET',
    route: (routes) => routes.channel(channelId),
    signal: opts.signal,
  });
  const channel = ChannelAudienceAnswer.safeParse(answer.data);
  if (!channel.success)
    throw new ServiceError({ service: 'webhook', operation: 'audience', code: 'bad_response' });
  return { isPrivate: isPrivateDiscordChannel(channel.data) };
}
