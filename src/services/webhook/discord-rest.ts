// The one way herald talks to Discord's REST API: @discordjs/rest, Discord's own maintained client,
// which keeps the contract (https://discord.com/developers/docs/reference): the
// `User-Agent: DiscordBot ($url, $versionNumber)` header, a Content-Type only on requests with a
// body (Discord answers 400 / 50109 to `application/json` with an empty body), multipart
// `payload_json` plus `files[n]`, and per-route buckets read from the X-RateLimit-* headers
// (https://discord.com/developers/docs/topics/rate-limits).
// Above the SDK stays herald's own: every request that is not an interaction response first takes
// from the rate budget shared by the replicas (src/domain/rate-budget.ts) and a global 429 pauses
// that budget for everyone; a 429 is handed back to the caller (the outbox waits it out, holding
// the destination's order) rather than waited out inside the SDK; every 401, 403 and 429 not of
// scope `shared` is counted as Discord counts invalid requests. Interaction responses are exempt
// from the global limit, never take from the budget, and their route 429s are waited out by the SDK.
// Failures are ServiceErrors of the webhook service with Discord's message and code for logs (never
// the URL: a webhook's or interaction's token is a path segment) and, for the codes that say a
// destination refuses herald for good, a `refusal`.
// Tests: test/adapters/discord/contract.test.ts ("herald's Discord clients obey it": the bodiless
// GET, the shared budget and its global pause, a route's 429 handed back and counted invalid).
import type { REST, RawFile } from '@discordjs/rest';
import { DISCORD_BOT_SCOPE, webhookHostScope, type RateScope } from '../../domain/rate-budget.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { bodyExcerpt, errorCode, statusToCode, TIMEOUT_CODES } from '../../http/failure.ts';
import type { AnswerHead, CallRecord } from '../../http/types.ts';
import type { ClientDeps } from '../deps.ts';
import { redactText, registerSecret } from '../../redact.ts';
import { discordTransport, type AnswerLike } from './discord-transport.ts';
import { readRateLimit, type RateLimitFacts } from './rate-limit.ts';

async function importSdk() {
  const [rest, types, undici] = await Promise.all([
    import('@discordjs/rest'),
    import('discord-api-types/rest/v10'),
    import('undici'),
  ]);
  return {
    REST: rest.REST,
    RateLimitError: rest.RateLimitError,
    DiscordAPIError: rest.DiscordAPIError,
    Routes: types.Routes,
    request: undici.request,
  };
}
type Sdk = Awaited<ReturnType<typeof importSdk>>;
/** discord-api-types' route builders, handed to a request's `route` once they are loaded. */
type DiscordRoutes = Sdk['Routes'];
let sdkLoading: Promise<Sdk> | undefined;
/**
 * @discordjs/rest and discord-api-types' routes, loaded with the first Discord request: the SDK
 * brings an undici of its own, about 36 MB of RSS with the routes (77 and 46 MB against 41 MB for a
 * bare Node), which a bot that posts nothing to Discord, or has not yet, does not pay (the idle
 * bound, docs/PERFORMANCE.md).
 */
const loadSdk = (): Promise<Sdk> => (sdkLoading ??= importSdk());

/**
 * What a Discord client takes besides its config: herald's usual deps (`httpOptions.requestTimeoutMs`
 * bounds one request; `rateBudget`, shared by the replicas: without one, only this process's SDK
 * limits apply).
 */
export type DiscordRestDeps = ClientDeps;

/**
 * Whose requests a client sends: the bot token's (`bot`), webhooks' (`webhook`, no token, limited
 * per source address and so budgeted per host), or interaction responses (`interaction`, no token,
 * outside the global limit).
 */
type DiscordCaller = { kind: 'bot'; token: string } | { kind: 'webhook' } | { kind: 'interaction' };

interface DiscordRestConfig {
  /** The REST base the routes hang from: DISCORD_API_URL, or a webhook address's part before /webhooks. */
  api: string;
  /** Whether routes go under `/v10` (false: a webhook address is posted to exactly as it was given). */
  versioned: boolean;
  caller: DiscordCaller;
}

export interface DiscordRequest {
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The route, or how to make it from discord-api-types' `Routes` (loaded with the SDK). */
  route: `/${string}` | ((routes: DiscordRoutes) => `/${string}`);
  body?: unknown;
  files?: RawFile[] | undefined;
  query?: URLSearchParams;
  signal?: AbortSignal | undefined;
  /** Told the rate-limit facts of the answer (a 429's too). */
  onRateLimit?: ((facts: RateLimitFacts) => void) | undefined;
}

interface DiscordAnswer {
  status: number;
  /** The parsed JSON answer; undefined for an empty one (204). */
  data: unknown;
}

export interface DiscordRest {
  send(request: DiscordRequest): Promise<DiscordAnswer>;
  close(): Promise<void>;
}

/** Discord's JSON codes that say the destination refuses herald for good (the schedule pauses). */
const DISCORD_REFUSALS: ReadonlySet<number> = new Set([
  10003, // Unknown Channel
  10015, // Unknown Webhook
  50001, // Missing Access
  50013, // Missing Permissions
]);

/** Discord's JSON codes that say more than the HTTP status. */
const CODE_MEANS: Readonly<Record<number, ServiceErrorCode>> = {
  // Both mean "stop using this webhook": it was deleted, or its token was reset.
  10015: 'not_found',
  50027: 'unauthorized',
};

const DEFAULT_TIMEOUT_MS = 15_000;

/** The longest route wait an interaction's answer sits out; a longer one fails the answer. */
const INTERACTION_MAX_WAIT_MS = 10_000;

/**
 * How often the SDK drops its idle route handlers for interaction tokens. It keys a handler by
 * route and token, so every interaction makes one, kept an hour by default (the SDK's sweep):
 * about 1.3 KB each, which a replica answering commands piles up in its old generation. One whose
 * token has no request queued or bucket waiting is of no more use; a later request makes a new one.
 */
const INTERACTION_HANDLER_SWEEP_MS = 10_000;

/** The budget a caller's requests take from: none for interaction responses. */
function scopeOf(config: DiscordRestConfig): RateScope | undefined {
  if (config.caller.kind === 'bot') return DISCORD_BOT_SCOPE;
  if (config.caller.kind === 'webhook') return webhookHostScope(config.api);
  return undefined;
}

/** What herald learns of one answer: its status and headers, and a failure's body text (for its message and wait). */
interface Answer {
  status: number;
  headers: {
    get(name: string): string | null;
    forEach(each: (value: string, name: string) => void): void;
  };
  text?: Promise<string>;
}

/**
 * An answer's head as the rate-limit reader takes it (names lower-case); made only when it is read
 * (a failure, or a caller told every answer's facts), not for each answer.
 */
function headOf({ status, headers }: Answer): AnswerHead {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name.toLowerCase()] = value));
  return { status, headers: out };
}

/** Whether Discord counts the answer as an invalid request (its rate-limit page). */
function isInvalid({ status, headers }: Answer): boolean {
  if (status === 401 || status === 403) return true;
  return status === 429 && headers.get('x-ratelimit-scope') !== 'shared';
}

/** Flattens Discord's nested form errors into "embeds.0.title: Must be 256 or fewer in length." */
function formErrors(errors: unknown, prefix: string[] = [], out: string[] = []): string[] {
  if (!errors || typeof errors !== 'object' || out.length >= 5) return out;
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const e of value as { message?: unknown }[])
        out.push(`${prefix.join('.') || '(body)'}: ${typeof e.message === 'string' ? e.message : 'invalid'}`);
    } else {
      formErrors(value, [...prefix, key], out);
    }
  }
  return out;
}

/** A failure's body as herald reads it: Discord's `{message, code, errors, retry_after}`, else an excerpt. */
function readFailureBody(text: string): { message?: string | undefined; retryAfterMs?: number } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: bodyExcerpt(text) };
  }
  const b = (body ?? {}) as { message?: unknown; code?: unknown; errors?: unknown; retry_after?: unknown };
  if (typeof b.message !== 'string') return { message: bodyExcerpt(text) };
  const head = typeof b.code === 'number' ? `${b.message} (${b.code})` : b.message;
  const retry =
    typeof b.retry_after === 'number' && b.retry_after >= 0 ? Math.ceil(b.retry_after * 1000) : undefined;
  return {
    message: redactText([head, ...formErrors(b.errors)].join('; ')),
    ...(retry === undefined ? {} : { retryAfterMs: retry }),
  };
}

/** The SDK's client for one caller: Discord's defaults, with herald's waits and retries. */
function sdkClient(sdk: Sdk, config: DiscordRestConfig, deps: DiscordRestDeps, refused: Set<string>): REST {
  const { caller } = config;
  const base = `${config.api}${config.versioned ? '/v10' : ''}`;
  const rest = new sdk.REST({
    api: config.api,
    version: '10',
    userAgentAppendix: 'herald',
    timeout: deps.httpOptions?.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    // The outbox retries a failed post itself; a repeat here could post twice.
    retries: 0,
    // An interaction's answer is outside the global limit and never waits behind posts.
    globalRequestsPerSecond: caller.kind === 'interaction' ? Infinity : 50,
    ...(caller.kind === 'interaction' ? { handlerSweepInterval: INTERACTION_HANDLER_SWEEP_MS } : {}),
    // A post's 429 goes back to the outbox, which keeps the destination's order and shares the wait;
    // an interaction's route wait is sat out, unless it outlasts the point of answering (a ban).
    rejectOnRateLimit:
      caller.kind === 'interaction'
        ? (limit) => limit.retryAfter > INTERACTION_MAX_WAIT_MS
        : (limit) =>
            refused.delete(`${limit.method.toUpperCase()} ${limit.url.slice(base.length).split('?')[0]}`),
    makeRequest: discordTransport(sdk.request, caller.kind === 'interaction') as never,
  });
  if (caller.kind === 'bot') {
    registerSecret(caller.token);
    rest.setToken(caller.token);
  }
  return rest;
}

/**
 * What names a request's answer in the SDK's `response` event: its body object, which each request
 * has of its own, else the signal `send` made for a request without one (a GET, a DELETE). A body
 * saves a controller and the SDK's two listeners on its signal for every edit and post.
 */
function keyOf(data: { body?: unknown; signal?: AbortSignal | undefined }): object | undefined {
  return typeof data.body === 'object' && data.body !== null ? data.body : data.signal;
}

/**
 * Keeps each answer's head (and a failure's body) for the request it answers, marks a 429's route
 * for rejection, and counts the answers Discord counts as invalid.
 */
function watchAnswers(
  rest: REST,
  answers: Map<object, Answer>,
  refused: Set<string> | undefined,
  deps: DiscordRestDeps,
): void {
  rest.on('response', (request, response) => {
    const { status } = response;
    const headers = response.headers as unknown as Answer['headers'];
    // A failure's body is read for its message. fetch's answer (a file upload) comes as a clone,
    // whose body a success lets go; the other answers' failure bodies are already read (transport).
    const clone = response as unknown as Response | AnswerLike;
    const text = status >= 400 ? clone.text().catch(() => '') : undefined;
    if (text === undefined && clone instanceof Response) void clone.body?.cancel().catch(() => undefined);
    const key = keyOf(request.data);
    if (key) answers.set(key, text === undefined ? { status, headers } : { status, headers, text });
    if (status === 429) refused?.add(`${request.method.toUpperCase()} ${request.path}`);
    if (deps.rateBudget && isInvalid({ status, headers }))
      deps.rateBudget
        .countInvalid()
        .catch((err: unknown) => deps.log?.warn({ err }, 'discord.budget_failed'));
  });
}

export function createDiscordRest(config: DiscordRestConfig, deps: DiscordRestDeps = {}): DiscordRest {
  const { caller } = config;
  const scope = scopeOf(config);
  const now = deps.now ?? Date.now;
  // The routes a 429 just came back on: that 429 goes back to the caller; a bucket the SDK knows is
  // empty (no request sent) is waited out by the SDK, as Discord's headers ask.
  const refused = new Set<string>();
  // Each request's answer by its key (keyOf), so that the SDK's `response` event names whose it is.
  const answers = new Map<object, Answer>();
  let client: Promise<REST> | undefined;
  // Once made, read without an await: two turns of the event loop less on every request.
  let loaded: { sdk: Sdk; rest: REST } | undefined;
  const restOf = (sdk: Sdk): Promise<REST> =>
    (client ??= Promise.resolve().then(() => {
      const rest = sdkClient(sdk, config, deps, refused);
      // An interaction's 429 is waited out by the SDK: none of its routes is marked for rejection.
      watchAnswers(rest, answers, caller.kind === 'interaction' ? undefined : refused, deps);
      loaded = { sdk, rest };
      return rest;
    }));

  const record = (
    req: DiscordRequest,
    status: number | undefined,
    code: CallRecord['code'],
    start: number,
  ) => {
    const rec: CallRecord = {
      service: 'webhook',
      operation: req.operation,
      method: req.method,
      status,
      code,
      attempts: 1,
      durationMs: now() - start,
      cached: false,
    };
    deps.log?.debug(rec, 'http.call');
    deps.onCall?.(rec);
  };

  async function send(req: DiscordRequest): Promise<DiscordAnswer> {
    const start = now();
    if (scope !== undefined && deps.rateBudget) await deps.rateBudget.take(scope, req.signal);
    const { sdk, rest } = loaded ?? { sdk: await loadSdk(), rest: await restOf(await loadSdk()) };
    const { signal } = req;
    // A request without a body gets a signal of its own to name its answer by (keyOf).
    const own = typeof req.body === 'object' && req.body !== null ? undefined : new AbortController();
    const stop = own && signal && (() => own.abort(signal.reason));
    if (stop && signal.aborted) stop();
    else if (stop) signal.addEventListener('abort', stop, { once: true });
    const key: object = own?.signal ?? (req.body as object);
    try {
      const data = await rest.request({
        fullRoute: typeof req.route === 'function' ? req.route(sdk.Routes) : req.route,
        method: req.method as never,
        auth: caller.kind === 'bot',
        versioned: config.versioned,
        signal: own?.signal ?? signal,
        body: req.body,
        files: req.files && req.files.length > 0 ? req.files : undefined,
        query: req.query,
      });
      const answer = answers.get(key);
      if (answer && req.onRateLimit) req.onRateLimit(readRateLimit(headOf(answer), now()));
      const status = answer?.status ?? 200;
      record(req, status, 'ok', start);
      return { status, data: data instanceof ArrayBuffer ? undefined : data };
    } catch (err) {
      const failure = await failureOf(err, req, answers.get(key), { sdk, now, scope, deps });
      if (failure instanceof ServiceError) record(req, failure.status, failure.code, start);
      throw failure;
    } finally {
      if (stop) signal.removeEventListener('abort', stop);
      answers.delete(key);
    }
  }

  return {
    send,
    close: async () => {
      const rest = await client;
      rest?.clearHashSweeper();
      rest?.clearHandlerSweeper();
    },
  };
}

/** What a failed request's error is made with: the clock, and the budget a global 429 pauses. */
interface FailureContext {
  sdk: Sdk;
  now: () => number;
  scope: RateScope | undefined;
  deps: DiscordRestDeps;
}

/** The ServiceError of a failed request; a global 429 pauses the budget first. */
async function failureOf(
  err: unknown,
  req: DiscordRequest,
  answer: Answer | undefined,
  { sdk, now, scope, deps }: FailureContext,
): Promise<Error> {
  const fail = (code: ServiceErrorCode, more: FailDetail) =>
    new ServiceError({ service: 'webhook', operation: req.operation, code, ...more });
  if (req.signal?.aborted && req.signal.reason instanceof Error) return req.signal.reason;
  if (!answer) return transportFailure(err, fail);
  const facts = readRateLimit(headOf(answer), now());
  req.onRateLimit?.(facts);
  const body = readFailureBody((await answer.text) ?? '');
  const { status } = answer;
  if (err instanceof sdk.RateLimitError || status === 429) {
    const waitMs = body.retryAfterMs ?? (facts.waitMs > 0 ? facts.waitMs : undefined);
    if (facts.isGlobal && scope !== undefined && deps.rateBudget)
      await deps.rateBudget
        .pause(scope, waitMs ?? 1_000)
        .catch((e: unknown) => deps.log?.warn({ err: e }, 'discord.budget_failed'));
    return fail('rate_limited', { status, retryAfterMs: waitMs, providerMessage: body.message });
  }
  const code = err instanceof sdk.DiscordAPIError && typeof err.code === 'number' ? err.code : undefined;
  return fail((code === undefined ? undefined : CODE_MEANS[code]) ?? statusToCode(status), {
    status,
    providerMessage: body.message,
    ...(code !== undefined && DISCORD_REFUSALS.has(code)
      ? { refusal: { platform: 'discord' as const, code: String(code) } }
      : {}),
  });
}

type FailDetail = Omit<ConstructorParameters<typeof ServiceError>[0], 'service' | 'operation' | 'code'>;

/** A request that got no answer: a timeout, the network, or herald's own fault. */
function transportFailure(err: unknown, fail: (code: ServiceErrorCode, more: FailDetail) => ServiceError) {
  const code = errorCode(err);
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || name === 'TimeoutError' || (code !== undefined && TIMEOUT_CODES.has(code)))
    return fail('timeout', { providerMessage: 'Discord did not answer in time' });
  if (code !== undefined) return fail('network', { providerMessage: code });
  return fail('internal', { providerMessage: redactText(err instanceof Error ? err.message : String(err)) });
}
