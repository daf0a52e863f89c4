// The Slack adapter: a Bolt app (https://docs.slack.dev/tools/bolt-js/) in Socket Mode by default,
// or HTTP mode with the signing secret. Slash commands and buttons are acked at once (Slack allows
// 3 s), run through the dispatcher, and answered through response_url, or by the Web API when it expired.
import {
  App,
  HTTPReceiver,
  SocketModeReceiver,
  type AppOptions,
  type BlockAction,
  type ButtonAction,
  type webApi,
} from '@slack/bolt';
import type { SlackConfig } from '../../src/config.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import type { CommandLog } from '../../src/core/command.ts';
import { AdapterError } from '../../src/errors.ts';
import { createBoltLogger, describeSdkError } from './bolt-log.ts';
import { adapterError, createDelivery, RESPONSE_URL_WINDOW_MS, type ReplyTarget } from './deliver.ts';
import { decodeSlackText } from './escape.ts';
import { ACTION_ID_PREFIX, decodeActionValue } from './render.ts';
import { route, topLevels } from './route.ts';

/** Where HTTP mode receives slash commands and interactivity (the app's Request URL path). */
export const SLACK_EVENTS_PATH = '/slack/events';
const RESPOND_TIMEOUT_MS = 10_000;
const WEB_API_TIMEOUT_MS = 30_000;
// The SDK's default retries for half an hour; a chat reply is worth a few quick tries only.
const WEB_API_RETRY: webApi.RetryOptions = {
  retries: 2,
  factor: 2,
  minTimeout: 500,
  maxTimeout: 4_000,
  randomize: true,
};
const STOP_GRACE_MS = 10_000;
const ACTION_ID_RE = new RegExp(`^${ACTION_ID_PREFIX.replaceAll(':', '\\:')}`);

export interface SlackAdapterOptions {
  config: SlackConfig;
  log: CommandLog;
  /** Interface HTTP mode listens on; every interface when unset. */
  host?: string;
  now?: () => number;
}

export interface SlackAdapter extends ChatAdapter {
  /** HTTP mode: the port the receiver listens on once started (PORT may be 0 in tests). */
  readonly port: number | undefined;
}

// Bolt's respond() has no timeout of its own: every fetch without a signal gets one here.
const fetchWithTimeout: webApi.FetchFunction = (url, init) =>
  fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(RESPOND_TIMEOUT_MS) });

export function createSlackAdapter(opts: SlackAdapterOptions): SlackAdapter {
  const { config, log } = opts;
  const now = opts.now ?? Date.now;
  const secrets = [config.botToken, config.appToken, config.signingSecret].filter((s): s is string => !!s);
  const isSocketMode = config.appToken !== undefined;
  let app: App | undefined;
  let socketReceiver: SocketModeReceiver | undefined;
  let port: number | undefined;
  let isConnected = false;
  let stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const deliver = createDelivery({ log, secrets, now });

  async function run(
    handlers: AdapterHandlers,
    target: ReplyTarget,
    inv: Omit<Invocation, 'respond' | 'signal'>,
  ): Promise<void> {
    const invocation: Invocation = {
      ...inv,
      signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(RESPONSE_URL_WINDOW_MS)]),
      respond: (reply) => deliver(target, reply),
    };
    const task = handlers.onInvocation(invocation).then(
      () => undefined,
      (err: unknown) => log.error({ err, command: inv.command }, 'slack.invocation_failed'),
    );
    inFlight.add(task);
    try {
      await task;
    } finally {
      inFlight.delete(task);
    }
  }

  async function answerPrivately(target: ReplyTarget, usage: string): Promise<void> {
    try {
      await deliver(target, { text: usage, ephemeral: true });
    } catch (err) {
      log.warn({ err: describeSdkError(err, secrets) }, 'slack.usage_failed');
    }
  }

  function register(registry: CommandRegistry, handlers: AdapterHandlers, bolt: App): void {
    for (const entry of topLevels(registry)) {
      bolt.command(`/${entry.name}`, async ({ command: payload, ack, respond, client }) => {
        await ack(); // first, always: Slack shows an error after 3 s without it
        const target: ReplyTarget = {
          respond,
          client,
          channelId: payload.channel_id,
          userId: payload.user_id,
          isAction: false,
          startedAtMs: now(),
          isCommandEphemeral: false,
          uses: 0,
        };
        const routed = route(entry, decodeSlackText(payload.text ?? '').trim());
        if ('usage' in routed) return answerPrivately(target, routed.usage);
        target.isCommandEphemeral = routed.command.ephemeral;
        const actor: Actor = {
          platform: 'slack',
          id: payload.user_id,
          displayName: payload.user_name,
          roles: [],
        };
        await run(handlers, target, {
          command: routed.command.name,
          rawInput: routed.rest,
          actor,
          channelId: payload.channel_id,
        });
      });
    }

    bolt.action<BlockAction<ButtonAction>>(
      { type: 'block_actions', action_id: ACTION_ID_RE },
      async ({ ack, body, action, respond, client }) => {
        await ack();
        const channelId = body.channel?.id ?? (body.container.channel_id as string | undefined);
        const target: ReplyTarget = {
          respond,
          client,
          channelId: channelId ?? body.user.id,
          userId: body.user.id,
          isAction: true,
          startedAtMs: now(),
          isCommandEphemeral: false,
          uses: 0,
        };
        const payload = decodeActionValue(action.value);
        if (!payload || channelId === undefined) {
          log.warn({ actionId: action.action_id }, 'slack.button_unreadable');
          return answerPrivately(target, 'That button no longer works; run the command again.');
        }
        target.isCommandEphemeral = registry.get(payload.command)?.ephemeral ?? false;
        const actor: Actor = {
          platform: 'slack',
          id: body.user.id,
          displayName: body.user.name ?? body.user.username,
          roles: [],
        };
        await run(handlers, target, { command: payload.command, rawInput: payload.input, actor, channelId });
      },
    );

    bolt.error((error) => {
      log.error({ err: describeSdkError(error, secrets) }, 'slack.event_failed');
      return Promise.resolve();
    });
  }

  function build(): App {
    const logger = createBoltLogger(log, secrets);
    const clientOptions: AppOptions['clientOptions'] = {
      slackApiUrl: config.apiUrl,
      timeout: WEB_API_TIMEOUT_MS,
      retryConfig: WEB_API_RETRY,
      fetch: fetchWithTimeout,
    };
    const common = {
      token: config.botToken,
      logger,
      clientOptions,
      convoStore: false as const,
      // init() runs auth.test, so a bad token fails start() instead of an unhandled rejection.
      deferInitialization: true,
    };
    if (isSocketMode) {
      socketReceiver = new SocketModeReceiver({
        appToken: config.appToken ?? '',
        logger,
        installerOptions: { clientOptions },
      });
      const client = socketReceiver.client;
      client.on('connected', () => (isConnected = true));
      client.on('reconnecting', () => (isConnected = false));
      client.on('disconnected', () => (isConnected = false));
      return new App({ ...common, socketMode: true, receiver: socketReceiver });
    }
    if (!config.signingSecret) {
      throw new AdapterError({
        platform: 'slack',
        code: 'connect_failed',
        message: 'Slack needs SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode)',
      });
    }
    const receiver = new HTTPReceiver({
      signingSecret: config.signingSecret,
      endpoints: SLACK_EVENTS_PATH,
      logger,
      // Ack sends the HTTP response at once; the command runs after it.
      processBeforeResponse: false,
    });
    return new App({ ...common, receiver });
  }

  return {
    platform: 'slack',
    get port() {
      return port;
    },
    isReady: () => app !== undefined && (isSocketMode ? isConnected : port !== undefined),

    async start(registry, handlers) {
      if (app)
        throw new AdapterError({ platform: 'slack', code: 'connect_failed', message: 'already started' });
      stopping = new AbortController();
      const bolt = build();
      register(registry, handlers, bolt);
      try {
        await bolt.init();
        if (isSocketMode) {
          await bolt.start();
          isConnected = true;
        } else {
          const server = await bolt.start({ port: config.port, host: opts.host });
          const address = server.address();
          port = typeof address === 'object' && address !== null ? address.port : config.port;
        }
      } catch (err) {
        await socketReceiver?.client.disconnect().catch(() => undefined);
        throw adapterError('connect_failed', 'Slack connection failed', err);
      }
      app = bolt;
      log.info({ mode: isSocketMode ? 'socket' : 'http', port }, 'slack.started');
    },

    async stop() {
      const bolt = app;
      if (!bolt) return;
      app = undefined;
      try {
        if (socketReceiver) await socketReceiver.client.disconnect();
        else await bolt.stop();
      } catch (err) {
        log.warn({ err: describeSdkError(err, secrets) }, 'slack.stop_failed');
      }
      port = undefined;
      isConnected = false;
      // Replies already under way get a moment to finish before their signal aborts.
      const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      stopping.abort();
      log.info({}, 'slack.stopped');
    },
  };
}
