// The named webhook destinations of /schedule (WEBHOOK_URL_<NAME>), one client each. `default` is
// the webhook service itself (WEBHOOK_URL, or the simulator's), so it is not built here.
import type { ScheduleConfig } from './config-schedule.ts';
import type { ClientDeps } from './services/deps.ts';
import { createWebhookClient, type WebhookClient } from './services/webhook/client.ts';

export function createDestinationClients(
  config: Pick<ScheduleConfig, 'destinations'>,
  deps: ClientDeps = {},
): Record<string, WebhookClient> {
  const out: Record<string, WebhookClient> = {};
  for (const [name, webhook] of Object.entries(config.destinations)) {
    if (name !== 'default') out[name] = createWebhookClient(webhook, deps);
  }
  return out;
}

export async function closeDestinationClients(clients: Record<string, WebhookClient>): Promise<void> {
  await Promise.allSettled(Object.values(clients).map((c) => c.close()));
}
