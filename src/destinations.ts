// The named webhook destinations of /schedule (WEBHOOK_URL_<NAME>), one client each, and how a
// reply becomes a post for each: a Discord webhook's post from the one Discord renderer, a Slack
// incoming webhook's from the one Slack renderer. `default` is the webhook service itself
// (WEBHOOK_URL, or the simulator's), so its client is not built here.
import type { ScheduleConfig } from './config-schedule.ts';
import type { Reply } from './core/reply.ts';
import { renderDiscordWebhook } from './render/discord.ts';
import { renderSlack } from './render/slack.ts';
import type { ClientDeps } from './services/deps.ts';
import {
  createWebhookClient,
  type SlackWebhookMessage,
  type WebhookClient,
  type WebhookMessage,
} from './services/webhook/client.ts';
import { createSlackWebhookClient } from './services/webhook/slack.ts';

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
  return (reply, destination) =>
    config.destinations[destination ?? 'default']?.kind === 'slack'
      ? slackWebhookMessage(reply)
      : renderDiscordWebhook(reply, { username });
}
