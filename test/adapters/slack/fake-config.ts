// The Slack section of herald's configuration for an adapter that talks to a loopback SlackFake:
// HTTP mode with the fake's signing secret and its Web API; and the real adapter started on
// herald's public server (src/health.ts) on a port the OS picks, as main.ts serves it.
import {
  createSlackAdapter,
  SLACK_EVENTS_PATH,
  type SlackAdapter,
  type SlackAdapterOptions,
} from '../../../adapters/slack/adapter.ts';
import type { SlackConfig } from '../../../src/config/index.ts';
import type { AdapterHandlers, CommandRegistry } from '../../../src/core/adapter.ts';
import type { CommandLog } from '../../../src/core/command.ts';
import { createRoutes, startHealthServer, type ConnectionLimits } from '../../../src/health.ts';
import { createMetrics } from '../../../src/metrics.ts';
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

export interface ServedSlack {
  adapter: SlackAdapter;
  /** The events endpoint, where Slack posts. */
  url: string;
  /** The server's address, for its other paths. */
  origin: string;
  /** Stops the adapter, then the server. */
  stop(): Promise<void>;
}

/** The real Bolt app in HTTP mode, not yet started, on herald's server (listening). */
export async function serveSlack(
  opts: Omit<SlackAdapterOptions, 'routes'>,
  limits?: ConnectionLimits,
): Promise<ServedSlack> {
  const routes = createRoutes();
  const server = await startHealthServer({
    port: 0,
    checks: [],
    metrics: createMetrics({ defaultMetrics: false }),
    routes,
    ...(limits ? { limits } : {}),
  });
  const adapter = createSlackAdapter({ ...opts, routes });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    adapter,
    url: `${origin}${SLACK_EVENTS_PATH}`,
    origin,
    async stop() {
      await adapter.stop();
      await server.close();
    },
  };
}

/** The real Bolt app in HTTP mode on `fake`, started; `url` is its events endpoint, where Slack posts. */
export async function startSlackHttp(
  fake: SlackFake,
  registry: CommandRegistry,
  handlers: AdapterHandlers,
  log: CommandLog,
): Promise<ServedSlack> {
  const served = await serveSlack({ config: fakeSlackConfig(fake), log });
  await served.adapter.start(registry, handlers);
  return served;
}
