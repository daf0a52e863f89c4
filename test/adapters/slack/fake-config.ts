// The Slack section of herald's configuration for an adapter that talks to a loopback SlackFake:
// HTTP mode with the fake's signing secret, its Web API, and a port the OS picks.
import type { SlackConfig } from '../../../src/config/index.ts';
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
