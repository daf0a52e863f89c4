// The Slack adapter: a Bolt app (https://docs.slack.dev/tools/bolt-js/) in Socket Mode by default,
// or HTTP mode with the signing secret. Slash commands and buttons are acked at once (Slack allows
// 3 s), run through the dispatcher, and answered through response_url, or by the Web API when it expired.
// In HTTP mode Bolt's receiver is served on herald's public server on PORT (endpoint.ts), beside
// /healthz and /readyz, with the server's bounds on connections and bodies.
import { App, HTTPReceiver, SocketModeReceiver, type AppOptions, type webApi } from '@slack/bolt';
import type { SlackConfig } from '../../src/config/index.ts';
import type { AdapterHandlers, ChatAdapter, HttpRoutes, Invocation } from '../../src/core/adapter.ts';
import { createLocalClaims, type InteractionClaims } from '../../src/core/claims.ts';
import type { CommandLog } from '../../src/core/command.ts';
import { AdapterError } from '../../src/errors.ts';
import { createBoltLogger, createDispatchErrorHandler, describeSdkError } from './bolt-log.ts';
import {
  adapterError,
  createDelivery,
  RESPONSE_URL_WINDOW_MS,
  type Deliver,
  type ReplyTarget,
} from './deliver.ts';
import { listenToForms } from './forms.ts';
import { listenToHome } from './home.ts';
import { listen } from './listeners.ts';
import { slackRoute } from './endpoint.ts';
import { runOnce, signedRequestOf } from './once.ts';

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

export interface SlackAdapterOptions {
  config: SlackConfig;
  log: CommandLog;
  /** HTTP mode: herald's public server on PORT (src/health.ts), where Slack's events are served. */
  routes?: HttpRoutes;
  now?: () => number;
  /** Which requests already ran: the store shared by the replicas (Redis); in process by default. */
  claims?: InteractionClaims;
}

export type SlackAdapter = ChatAdapter;

// Bolt's respond() has no timeout of its own: every fetch without a signal gets one here.
const fetchWithTimeout: webApi.FetchFunction = (url, init) =>
  fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(RESPOND_TIMEOUT_MS) });

/** A Bolt app for `config`: Socket Mode with an app token, else HTTP mode with the signing secret. */
function buildApp(
  config: SlackConfig,
  log: CommandLog,
  secrets: readonly string[],
  now: () => number,
  onConnection: (isConnected: boolean) => void,
): { app: App; socketReceiver?: SocketModeReceiver; receiver?: HTTPReceiver } {
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
  if (config.appToken !== undefined) {
    const socketReceiver = new SocketModeReceiver({
      appToken: config.appToken,
      logger,
      installerOptions: { clientOptions },
    });
    const client = socketReceiver.client;
    client.on('connected', () => onConnection(true));
    client.on('reconnecting', () => onConnection(false));
    client.on('disconnected', () => onConnection(false));
    return { app: new App({ ...common, socketMode: true, receiver: socketReceiver }), socketReceiver };
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
    // The verified signature reaches the middleware that runs each request once (once.ts).
    customPropertiesExtractor: (req) => ({ ...signedRequestOf(req) }),
    dispatchErrorHandler: createDispatchErrorHandler(log, secrets),
  });
  return { app: new App({ ...common, receiver }), receiver };
}

/**
 * Authenticates, then connects (Socket Mode) or serves the receiver on herald's server (HTTP mode:
 * returns the function that takes the route off again).
 */
async function startApp(
  built: { app: App; socketReceiver?: SocketModeReceiver; receiver?: HTTPReceiver },
  deps: { routes: HttpRoutes | undefined; now: () => number; log: CommandLog },
): Promise<(() => void) | undefined> {
  try {
    await built.app.init();
    if (built.socketReceiver) {
      await built.app.start();
      return undefined;
    }
    if (!built.receiver || !deps.routes) {
      throw new AdapterError({
        platform: 'slack',
        code: 'connect_failed',
        message: 'Slack HTTP mode needs herald’s HTTP server on PORT',
      });
    }
    return deps.routes.add(SLACK_EVENTS_PATH, slackRoute(built.receiver.requestListener, deps));
  } catch (err) {
    await built.socketReceiver?.client.disconnect().catch(() => undefined);
    throw adapterError('connect_failed', 'Slack connection failed', err);
  }
}

/** The credentials of `config` that must never reach a log line. */
function secretsOf(config: SlackConfig): string[] {
  return [config.botToken, config.appToken, config.signingSecret].filter(
    (secret): secret is string => !!secret,
  );
}

/** Runs one invocation, answering `target`; logged when it fails, kept in `inFlight` while it runs. */
async function runInvocation(
  deps: { log: CommandLog; deliver: Deliver; inFlight: Set<Promise<void>>; stopping: AbortSignal },
  handlers: AdapterHandlers,
  target: ReplyTarget,
  request: Omit<Invocation, 'respond' | 'signal'> & Partial<Pick<Invocation, 'respond'>>,
): Promise<void> {
  const invocation: Invocation = {
    respond: (reply) => deps.deliver(target, reply),
    ...request,
    signal: AbortSignal.any([deps.stopping, AbortSignal.timeout(RESPONSE_URL_WINDOW_MS)]),
  };
  // Acknowledged already; the dispatcher holds the work back until its turn (turns.ts).
  const task = handlers.onInvocation(invocation).then(
    () => undefined,
    (err: unknown) => deps.log.error({ err, command: request.command }, 'slack.invocation_failed'),
  );
  deps.inFlight.add(task);
  try {
    await task;
  } finally {
    deps.inFlight.delete(task);
  }
}

/** Waits for the invocations under way, at most STOP_GRACE_MS. */
async function drain(inFlight: ReadonlySet<Promise<void>>): Promise<void> {
  const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
  await Promise.race([Promise.allSettled([...inFlight]), grace]);
}

export function createSlackAdapter(opts: SlackAdapterOptions): SlackAdapter {
  const { config, log } = opts;
  const now = opts.now ?? Date.now;
  const secrets = secretsOf(config);
  const isSocketMode = config.appToken !== undefined;
  let app: App | undefined;
  let socketReceiver: SocketModeReceiver | undefined;
  let unroute: (() => void) | undefined;
  let isConnected = false;
  let stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const deliver = createDelivery({ log, secrets, now });
  const claims = opts.claims ?? createLocalClaims(now);

  async function answerPrivately(target: ReplyTarget, usage: string): Promise<void> {
    try {
      await deliver(target, { text: usage, ephemeral: true });
    } catch (err) {
      log.warn({ err: describeSdkError(err, secrets) }, 'slack.usage_failed');
    }
  }

  return {
    platform: 'slack',
    isReady: () => app !== undefined && (isSocketMode ? isConnected : unroute !== undefined),

    async start(registry, handlers) {
      if (app)
        throw new AdapterError({ platform: 'slack', code: 'connect_failed', message: 'already started' });
      stopping = new AbortController();
      const built = buildApp(config, log, secrets, now, (connected) => (isConnected = connected));
      const bolt = built.app;
      socketReceiver = built.socketReceiver;
      bolt.use(runOnce(claims, log));
      const context = {
        log,
        secrets,
        now,
        run: (target: ReplyTarget, invocation: Parameters<typeof runInvocation>[3]) =>
          runInvocation({ log, deliver, inFlight, stopping: stopping.signal }, handlers, target, invocation),
        answerPrivately,
        deliver,
      };
      listen(bolt, registry, context);
      listenToForms(bolt, registry, context);
      listenToHome(bolt, registry, context);
      unroute = await startApp(built, { routes: opts.routes, now, log });
      isConnected = isSocketMode;
      app = bolt;
      log.info({ mode: isSocketMode ? 'socket' : 'http' }, 'slack.started');
    },

    async stop() {
      const bolt = app;
      if (!bolt) return;
      app = undefined;
      try {
        if (socketReceiver) await socketReceiver.client.disconnect();
      } catch (err) {
        log.warn({ err: describeSdkError(err, secrets) }, 'slack.stop_failed');
      }
      // HTTP mode: Slack's requests are refused (404) from now on; the server itself stays up.
      unroute?.();
      unroute = undefined;
      isConnected = false;
      // Replies already under way get a moment to finish before their signal aborts.
      await drain(inFlight);
      stopping.abort();
      log.info({}, 'slack.stopped');
    },
  };
}
