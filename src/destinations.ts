// The named webhook destinations of /schedule (WEBHOOK_URL_<NAME>), one client each, the bot's own
// channel clients for "this channel" (`channel:<platform>:<id>`), and how a reply becomes a post
// for each: a Discord webhook's post from the one Discord renderer, a Slack incoming webhook's from
// the one Slack renderer. `default` is the webhook service itself (WEBHOOK_URL, or the
// simulator's), so its client is not built here.
import type { ScheduleConfig } from './config/schedule.ts';
import type { DiscordConfig, SlackConfig } from './config/index.ts';
import { parseChannelDestination } from './core/channel.ts';
import type { Reply } from './core/reply.ts';
import type { Said } from './errors.ts';
import { DISCORD_API_URL } from './domain/discord.ts';
import { ownEntry } from './domain/lookup.ts';
import { renderDiscordWebhook } from './render/discord.ts';
import { renderSlack } from './render/slack.ts';
import type { ClientDeps } from './services/deps.ts';
import {
  type ChannelClient,
  type SlackWebhookMessage,
  type WebhookClient,
  type WebhookMessage,
} from './services/webhook/client.ts';
import { createDiscordChannelClient } from './services/webhook/discord-channel.ts';
import { createWebhookClient } from './services/webhook/discord-webhook.ts';
import { createSlackChannelClient } from './services/webhook/slack-web-api.ts';
import { createSlackWebhookClient } from './services/webhook/slack.ts';

/** The bot's own posting clients, one per connected platform, for "this channel" destinations. */
export interface ChannelClients {
  discord?: ChannelClient;
  slack?: ChannelClient;
}

const SLACK_API = 'https://slack.com/api';

/** A channel client for each platform herald is connected to, with that platform's bot token. */
export function createChannelClients(
  config: {
    discord?: Pick<DiscordConfig, 'token' | 'apiUrl'> | undefined;
    slack?: Pick<SlackConfig, 'botToken' | 'apiUrl'> | undefined;
  },
  deps: ClientDeps = {},
): ChannelClients {
  const out: ChannelClients = {};
  if (config.discord)
    out.discord = createDiscordChannelClient(
      { apiUrl: config.discord.apiUrl ?? DISCORD_API_URL, token: config.discord.token },
      deps,
    );
  if (config.slack)
    out.slack = createSlackChannelClient(
      { apiUrl: config.slack.apiUrl ?? SLACK_API, botToken: config.slack.botToken },
      deps,
    );
  return out;
}

export async function closeChannelClients(clients: ChannelClients): Promise<void> {
  await Promise.allSettled([clients.discord?.close(), clients.slack?.close()]);
}

/**
 * A post into a Slack channel through the bot: Block Kit with buttons (the app answers their
 * clicks), and the reply's files, uploaded into the channel with it (slack-web-api.ts).
 */
export function slackChannelMessage(reply: Reply): SlackWebhookMessage {
  const { text, blocks, files } = renderSlack(reply);
  return files.length === 0
    ? { platform: 'slack', text, blocks }
    : { platform: 'slack', text, blocks, files };
}

export function createDestinationClients(
  config: Pick<ScheduleConfig, 'destinations'>,
  deps: ClientDeps = {},
): Record<string, WebhookClient> {
  const out: Record<string, WebhookClient> = {};
  for (const [name, webhook] of Object.entries(config.destinations)) {
    if (name === 'default') continue;
    out[name] =
      webhook.kind === 'slack' ? createSlackWebhookClient(webhook, deps) : createWebhookClient(webhook, deps);
  }
  return out;
}

export async function closeDestinationClients(clients: Record<string, WebhookClient>): Promise<void> {
  await Promise.allSettled(Object.values(clients).map((c) => c.close()));
}

/** A webhook post of `reply` for a Slack incoming webhook: Block Kit, no files, no buttons. */
export function slackWebhookMessage(reply: Reply): SlackWebhookMessage {
  const { text, blocks } = renderSlack(reply, { files: 'none', buttons: false });
  return { platform: 'slack', text, blocks };
}

/**
 * Turns a reply into the post for the named destination, rendered for its platform; an unknown
 * name renders for Discord (its delivery then says the destination is not configured).
 */
export function destinationMessages(
  config: Pick<ScheduleConfig, 'destinations'>,
  username: string | undefined,
): (reply: Reply, destination: string | undefined) => WebhookMessage {
  return (reply, destination) => {
    // A bot's channel message has no username of its own to set: it is the bot's.
    const channel = parseChannelDestination(destination);
    if (channel?.platform === 'slack') return slackChannelMessage(reply);
    if (channel?.platform === 'discord') return renderDiscordWebhook(reply);
    return ownEntry(config.destinations, destination ?? 'default')?.kind === 'slack'
      ? slackWebhookMessage(reply)
      : renderDiscordWebhook(reply, { username });
  };
}

/**
 * Why a destination cannot land a schedule's post as `lands` asks, one sentence naming what can (in
 * the reader's language); else
 * undefined. The bot's channel posts can edit and reply in threads; a Discord webhook edits its own
 * posts and starts threads in a forum channel (a post elsewhere says so); a Slack incoming webhook
 * names no message, so it can do neither.
 */
export function landsRefusal(
  config: Pick<ScheduleConfig, 'destinations'>,
): (destination: string, lands: 'edit' | 'thread') => Said | undefined {
  return (destination, lands) => {
    if (parseChannelDestination(destination) || ownEntry(config.destinations, destination)?.kind !== 'slack')
      return undefined;
    const option = lands === 'edit' ? 'mode:edit' : 'thread:yes';
    return (t) => t('scheduleRefusals:destination.slackWebhook', { option });
  };
}
