// "This channel" as a schedule's destination: the chat channel /schedule add was typed in, posted to
// through the bot's own connection (Discord: a channel message with the bot token; Slack:
// chat.postMessage). Stored on the schedule as `channel:<platform>:<id>`, beside the named webhook
// destinations, which never contain a colon.

/** Where a command was typed, as the adapter saw it. */
export interface ChatChannel {
  platform: 'discord' | 'slack';
  /** Discord's channel snowflake, or Slack's C…/G…/D… id. */
  id: string;
  /** Discord's `app_permissions` of the interaction: the bot's permissions in the channel (decimal bitfield). */
  appPermissions?: string;
  /** Discord's `guild_id` of the interaction: the server the channel is in (absent in a DM). */
  guildId?: string;
  /** Slack's `team_id` of the slash command: the workspace the channel is in. */
  teamId?: string;
  /**
   * Discord's `member.permissions` of the interaction: the invoker's own permissions in the channel,
   * overwrites included (decimal bitfield; absent in a DM).
   */
  memberPermissions?: string;
  /** The channel's name as its users know it (Slack's `channel_name`: `general`), where the platform said. */
  name?: string;
}

/** The Discord server or Slack workspace a channel is in; undefined for a DM on Discord. */
export function workspaceOf(channel: ChatChannel | undefined): string | undefined {
  return channel?.platform === 'discord' ? channel.guildId : channel?.teamId;
}

const PREFIX = 'channel:';
const CHANNEL_RE = /^channel:(discord|slack):([A-Za-z0-9]{1,32})$/;

/** The destination name a schedule stores for a post into `channel`. */
export function channelDestination(channel: Pick<ChatChannel, 'platform' | 'id'>): string {
  return `${PREFIX}${channel.platform}:${channel.id}`;
}

/** The channel a destination name posts to; undefined for a named webhook destination. */
export function parseChannelDestination(name: string | undefined): ChatChannel | undefined {
  const match = name === undefined ? null : CHANNEL_RE.exec(name);
  if (!match) return undefined;
  return { platform: match[1] as ChatChannel['platform'], id: match[2]! };
}
