// The chat-webhook service's shapes (S7, docs/SERVICES.md): a destination's webhook, the message it
// carries (Discord's or Slack's), what a platform confirms it posted, and the clients that post it.
// Discord's clients are in discord-webhook.ts and discord-channel.ts (on @discordjs/rest, through
// discord-rest.ts); Slack's in slack.ts (incoming webhooks) and slack-web-api.ts (the bot's Web API).
import type { CallOptions } from '../../http/client.ts';
import type { PostingGrant } from '../../i18n/schedule-refusals.ts';
import type { Closable } from '../deps.ts';
import type { DiscordEmbed, DiscordWebhookMessage } from '../../render/discord.ts';
import type { SlackFile, SlackMessage } from '../../render/slack.ts';
import type { PostOptions } from './rate-limit.ts';

export interface WebhookConfig {
  /** Base URL carrying api/webhooks (Discord) or services/T… (Slack). */
  baseUrl: string;
  id: string;
  token: string;
}

/** A destination's webhook: Discord's execute webhook, or a Slack incoming webhook (slack.ts). */
export interface WebhookDestination extends WebhookConfig {
  kind: 'discord' | 'slack';
}

/** An embed as Discord takes it. */
export type WebhookEmbed = DiscordEmbed;

/**
 * A Slack post: the one Slack renderer's message, tagged so it cannot go to Discord. `files` only in
 * a post into a channel through the bot (uploaded beside it); an incoming webhook carries none, and
 * its renderer has said in the message which it left out.
 */
export interface SlackWebhookMessage extends SlackMessage {
  platform: 'slack';
  // None of a Discord post's parts, so code reading a WebhookMessage's Discord parts finds none here.
  content?: undefined;
  username?: undefined;
  embeds?: undefined;
  files?: SlackFile[];
}

/**
 * What a webhook post carries: a Discord message (src/render/discord.ts renderDiscordWebhook) or a
 * Slack one (platform: 'slack'). Each client posts only its own platform's.
 */
export type WebhookMessage = DiscordWebhookMessage | SlackWebhookMessage;

/** What Discord confirmed it created. */
export interface PostedMessage {
  /** The message's snowflake id. */
  id: string;
  channelId?: string;
  /** With `Landing`: where the next post lands, when this one changed it (a new board, a new thread). */
  landed?: Place;
}

/** What a schedule's earlier posts left: the message edited in place, or the thread replied in. */
export interface Place {
  /** The status board, or the thread's first post: Discord's snowflake, Slack's `ts`. */
  messageId: string;
  channelId?: string | undefined;
  /** The thread the replies go in: Discord's thread channel, Slack's parent `ts`. */
  threadId?: string | undefined;
}

/**
 * How a schedule's post lands besides as a new message (docs/SCHEDULING.md, "Where a report
 * lands"): `edit` edits the earlier post in place, posting anew when it was deleted; `thread`
 * replies in the thread its first post started. `at`: what its earlier posts left, absent at first.
 */
export interface Landing {
  how: 'edit' | 'thread';
  at?: Place | undefined;
  /** A new thread's name (Discord asks for one, 1-100 characters). */
  title: string;
}

/** A post's options with where it lands. */
export type LandingOptions = PostOptions & { lands?: Landing | undefined };

/** A posted message as its platform named it: enough to find its address. */
export interface MessageRef {
  /** Discord's snowflake, Slack's `ts`. */
  messageId: string;
  /** The channel the platform said the message is in. */
  channelId?: string;
  /** Discord: the server (guild) the channel is in, when it is known. */
  guildId?: string;
}

export interface WebhookClient extends Closable {
  /**
   * Posts and waits for Discord's confirmation (`wait=true`); resolves with the created message.
   * An answer that is not a message (a 204, an HTML page) is a `bad_response` failure.
   * Mentions are always suppressed (allowed_mentions parse: []). `opts.onRateLimit` is told the
   * rate-limit facts of every answer, a failure's too.
   */
  post(message: WebhookMessage, opts?: LandingOptions): Promise<PostedMessage>;
  /**
   * The address of a message this webhook posted, where the platform gives one (Discord; a Slack
   * incoming webhook names no message, so it has none); undefined when it cannot say.
   */
  messageLink?(ref: MessageRef, opts?: CallOptions): Promise<string | undefined>;
}

/**
 * A channel post made in parts (Slack: the message, then its files): what an earlier try already
 * posted, and where to record a part the moment it is posted, so that a retry sends only the rest.
 */
export interface PostProgress {
  /** The id of the message an earlier try posted (the outbox entry's receipt). */
  posted?: string | undefined;
  /** Records the posted message's id before the next part is sent. */
  record(id: string): Promise<void>;
}

/**
 * Posts into a chat channel through the bot's own connection (a Discord bot token's channel
 * message, Slack's chat.postMessage), and says at add time whether it can.
 */
interface ChannelAudience {
  isPrivate: boolean;
  isMember?: boolean;
}

export interface ChannelClient extends Closable {
  /** Posts `message` into the channel; resolves with the created message. As WebhookClient.post. */
  post(
    channelId: string,
    message: WebhookMessage,
    opts?: LandingOptions & {
      progress?: PostProgress;
      /** The same on every resend of one post (the outbox entry's id): Discord's `nonce` is made from it. */
      idempotencyKey?: string | undefined;
    },
  ): Promise<PostedMessage>;
  /**
   * What to grant when the bot cannot post into the channel (its sentence is the catalogue's
   * `scheduleRefusals:postHere`), else undefined. `appPermissions`: Discord's bitfield from the
   * interaction, when the caller has it.
   */
  check(
    channelId: string,
    opts?: CallOptions & { appPermissions?: string },
  ): Promise<PostingGrant | undefined>;
  /**
   * Who reads the channel, for /schedule: whether it is private (Discord: @everyone may not view
   * it, or a DM or private thread; Slack: a private conversation or a DM) and, given `userId`,
   * whether that user is in it (Slack; undefined where the platform's interaction says instead).
   */
  audience(channelId: string, opts?: CallOptions & { userId?: string }): Promise<ChannelAudience>;
  /** The address of a message the bot posted; undefined when the platform cannot say (a DM). */
  messageLink(ref: MessageRef, opts?: CallOptions): Promise<string | undefined>;
  /** Sends `text` to a user privately (a schedule's creator), where the platform lets the bot. */
  directMessage?(userId: string, text: string, opts?: CallOptions): Promise<PostedMessage>;
  /** The bot's direct-message channel with `userId` (opened if need be), for a schedule's `to:me`. */
  openDirect?(userId: string, opts?: CallOptions): Promise<string>;
}
