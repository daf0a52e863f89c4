// The Discord section of herald's configuration for an adapter that talks to a loopback FakeDiscord:
// gateway mode with the fake's bot token and REST API, no guild; and the real adapter started on it.
import { createDiscordAdapter } from '../../../adapters/discord/adapter.ts';
import type { DiscordConfig } from '../../../src/config/index.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry } from '../../../src/core/adapter.ts';
import type { CommandLog } from '../../../src/core/command.ts';
import { APP_ID, BOT_TOKEN, type FakeDiscord } from './fake-discord.ts';

export function fakeDiscordConfig(fake: Pick<FakeDiscord, 'apiUrl'>): DiscordConfig {
  return { token: BOT_TOKEN, applicationId: APP_ID, guildId: undefined, apiUrl: fake.apiUrl };
}

/** The real discord.js client on `fake`'s gateway, started with `registry` and `handlers`. */
export async function startDiscordGateway(
  fake: FakeDiscord,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  log: CommandLog,
): Promise<ChatAdapter> {
  const adapter = createDiscordAdapter({ config: fakeDiscordConfig(fake), webhook: fake.webhook, log });
  await adapter.start(registry, handlers);
  return adapter;
}
