// Where a schedule being added will post, and its home, which decides who sees it (visibility.ts).
import { refusal, userMessageFor } from '../errors.ts';
import type { PostingGrant } from '../i18n/schedule-refusals.ts';
import type { Actor } from '../core/actor.ts';
import { channelDestination, workspaceOf, type ChatChannel } from '../core/channel.ts';
import { maySendMessages } from '../domain/discord.ts';
import type { ScheduleHome } from './schedules.ts';

/** One for each platform herald posts into channels on. */
type PerPlatform<F> = Partial<Record<ChatChannel['platform'], F>>;

export interface DestinationSources {
  destinations: readonly string[];
  /** The bot's direct-message channel with a user, for `to:me` (Create DM; Slack's conversations.open). */
  directChannels?: PerPlatform<(userId: string) => Promise<string>> | undefined;
  /**
   * What to grant herald in `channel` before it may post there. Added on a platform without a
   * check, a schedule without `to:` posts to `default`.
   */
  channelChecks?: PerPlatform<(channel: ChatChannel) => Promise<PostingGrant | undefined>> | undefined;
  /** Whether `channel` is private, and whether `actor` is in it (Slack). */
  channelAudiences?:
    | PerPlatform<(channel: ChatChannel, actor: Actor) => Promise<{ isPrivate: boolean; isMember?: boolean }>>
    | undefined;
}

/** `to:` names a configured destination; else the channel typed in, once herald may post there; else `default`. */
export async function destinationFor(
  opts: DestinationSources,
  input: { to?: string | undefined; channel?: ChatChannel | undefined; thread?: string | undefined },
  creator: Actor,
) {
  if (input.to?.trim().toLowerCase() === 'me') return directTo(opts, creator, input.thread === 'yes');
  const channel = input.channel;
  const workspaceId = workspaceOf(channel);
  const home: ScheduleHome = workspaceId === undefined ? {} : { workspaceId };
  const check = channel === undefined ? undefined : opts.channelChecks?.[channel.platform];
  if (input.to !== undefined || channel === undefined || !check) {
    const name = (input.to ?? 'default').trim().toLowerCase();
    if (opts.destinations.includes(name)) return { destination: name, home };
    if (opts.destinations.length === 0) throw refusal((t) => t('scheduleRefusals:destination.none'));
    const known = opts.destinations.join(', ');
    throw refusal((t) => t('scheduleRefusals:destination.unknown', { name, known }));
  }
  const grant = await check(channel);
  if (grant !== undefined) throw refusal((t) => t(`scheduleRefusals:postHere.${grant}`));
  const audience = await opts.channelAudiences?.[channel.platform]?.(channel, creator);
  // herald posts into a channel for a member only where they may post themselves.
  const permissions = channel.platform === 'discord' ? channel.memberPermissions : undefined;
  if (permissions !== undefined && !maySendMessages(permissions))
    throw refusal((t) => t('scheduleRefusals:destination.notYourChannel'), 'forbidden');
  if (channel.platform === 'slack' && audience?.isMember === false)
    throw refusal((t) => t('scheduleRefusals:destination.notMember'), 'forbidden');
  const guildId = channel.platform === 'discord' ? channel.guildId : undefined;
  // In the order a schedule's record keeps them.
  return {
    destination: channelDestination(channel),
    ...(guildId ? { guildId } : {}),
    home: audience?.isPrivate === true ? { ...home, privateChannelId: channel.id } : home,
    ...(channel.name ? { channelName: channel.name } : {}),
  };
}

/** `to:me`: the creator's DM with the bot; its home names no workspace (only its creator and admins see it). */
async function directTo(opts: DestinationSources, creator: Actor, isThread: boolean) {
  const open = creator.platform === 'console' ? undefined : opts.directChannels?.[creator.platform];
  if (creator.platform === 'console' || !open) throw refusal((t) => t('scheduleRefusals:destination.meHere'));
  if (isThread && creator.platform === 'discord')
    throw refusal((t) => t('scheduleRefusals:destination.meThread'));
  const id = await open(creator.id).catch((err: unknown) =>
    Promise.reject(refusal((t, locale) => userMessageFor(err, t, locale))),
  );
  return { destination: channelDestination({ platform: creator.platform, id }), isDirect: true, home: {} };
}
