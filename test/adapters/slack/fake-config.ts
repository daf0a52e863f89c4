// The Slack section of herald's configuration for an adapter that talks to a loopback SlackFake:
// HTTP mode with the fake's signing secret, its Web API, and a port the OS picks; and the real
// adapter started on it.
import { createSlackAdapter, SLACK_EVENTS_PATH, type SlackAdapter } from '../../../adapters/slack/adapter.ts';
import type { SlackConfig } from '../../../src/config/index.ts';
import type { AdapterHandlers, CommandRegistry } from '../../../src/core/adapter.ts';
import type { CommandLog } from '../../../src/core/command.ts';
import { BOT_TOKEN, SIGNING_SECRET, type SlackFake } from './fakes.ts';

export function fakeSlackConfig(fake: SlackFake): SlackConfig {
  return {
    botToken: BOT_TOKEN,
    appToken: undefined,
    signingSecret: SIGNING_SECRET,
    apiUrl: `${fake.server.url}/api/`,
    port: 0,
  };
}

/** The real Bolt app in HTTP mode on `fake`, started; `url` is its events endpoint, where Slack posts. */
export async function startSlackHttp(
  fake: SlackFake,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  log: CommandLog,
): Promise<{ adapter: SlackAdapter; url: string }> {
  const adapter = createSlackAdapter({ config: fakeSlackConfig(fake), log, host: '127.0.0.1' });
  await adapter.start(registry, handlers);
  return { adapter, url: `http://127.0.0.1:${adapter.port}${SLACK_EVENTS_PATH}` };
}
