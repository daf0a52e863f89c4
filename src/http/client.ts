// The one place herald talks HTTP: an undici Agent (keep-alive pool) per upstream, timeouts on
// connect/headers/body plus a whole-request bound joined with the caller's signal, retries with
// jittered backoff that honour Retry-After, GET coalescing and TTL caching, typed errors.
// The parts live beside it: transport.ts (pool and one attempt), exchange.ts (the retry loop),
// share.ts (coalescing and cache), guard.ts (breaker and queue), provider-quota.ts (provider quotas).
import type { z } from 'zod';
import { ServiceError, type ServiceErrorCode } from '../errors.ts';
import { bytesHoldSecret, redactSecrets, redactValue } from '../redact.ts';
import { exchange, type ExchangeDeps } from './exchange.ts';
import { errorFromResponse, failureFor, readCommonError, type Fail } from './failure.ts';
import {
  createBreaker,
  createLimiter,
  createProviderRate,
  rateLimitFor,
  type Breaker,
  type Limiter,
  type ProviderRate,
} from './guard.ts';
import { joinUrl } from './path.ts';
import { HTTP_DEFAULTS, type HttpOptions } from './policy.ts';
import { createProviderQuota, PROVIDER_QUOTAS, type ProviderQuota } from './provider-quota.ts';
import { createShare } from './share.ts';
import { createTransport, type Transport } from './transport.ts';
import type {
  CallOptions,
  CallRecord,
  HttpClient,
  HttpClientConfig,
  HttpRequest,
  RawResponse,
} from './types.ts';

export type * from './types.ts';
export { bodyExcerpt, readCommonError, statusToCode } from './failure.ts';
export { parseRetryAfter } from './policy.ts';

function buildUrl(baseUrl: string, req: HttpRequest): string {
  const url = joinUrl(baseUrl, req.path);
  if (!req.query) return url;
  const params = new URLSearchParams();
  for (const k in req.query) {
    const v = req.query[k];
    if (v !== undefined) params.append(k, String(v));
  }
  const qs = params.toString();
  return qs === '' ? url : `${url}?${qs}`;
}

interface Guards {
  breaker: Breaker;
  quota: ProviderQuota | undefined;
  rate: ProviderRate | undefined;
  limiter: Limiter;
  transport: Transport;
  fail: Fail;
  now: () => number;
}

/** One attempt through the breaker, the provider's quota and the queue; feeds the breaker. */
async function guardedAttempt(
  g: Guards,
  req: HttpRequest,
  url: string,
  signal: AbortSignal,
): Promise<RawResponse> {
  const blockedMs = g.breaker.blockedForMs();
  if (blockedMs !== undefined) {
    throw g.fail(req, 'unavailable', { retryAfterMs: blockedMs, providerMessage: 'circuit open' });
  }
  // Every attempt, a retry too, is a call the provider counts.
  const exhausted = g.quota && (await g.quota.take());
  if (exhausted) {
    g.breaker.release();
    throw g.fail(req, 'rate_limited', {
      retryAfterMs: Math.max(0, exhausted.nextAt.getTime() - g.now()),
      providerMessage: `herald's quota of ${exhausted.limit} calls a ${exhausted.per} is used up`,
      quota: exhausted,
    });
  }
  if (g.rate) {
    try {
      await g.rate.take(req.operation, signal);
    } catch (err) {
      g.breaker.release();
      throw err;
    }
  }
  let res: RawResponse;
  try {
    res = await g.limiter.run(() => g.transport.attempt(req, url, signal), signal);
  } catch (err) {
    const error = err instanceof ServiceError ? err : g.fail(req, 'timeout', { cause: err });
    // Only the upstream's own failures count; anything else (herald's fault, a body too large)
    // says nothing about its health, and must not hold a half-open trial either.
    if (error.code === 'network' || error.code === 'timeout') g.breaker.failure();
    else g.breaker.release();
    throw error;
  }
  if (res.status >= 500) g.breaker.failure();
  else g.breaker.success();
  return res;
}

/**
 * The JSON body validated by `schema`, with every configured secret in its strings blanked: an
 * upstream that echoes a credential (in a city name, a job title) hands it to no command, so no
 * later cut of a title can leave part of it. A body that is not JSON or does not fit is bad_response.
 */
function parseJson<S extends z.ZodType>(
  fail: Fail,
  req: HttpRequest,
  res: RawResponse,
  schema: S,
): z.output<S> {
  let body: unknown;
  const text = res.bytes.length === 0 ? '' : res.bytes.toString('utf8');
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch (err) {
    throw fail(req, 'bad_response', {
      status: res.status,
      providerMessage: 'the body is not JSON',
      cause: err,
    });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw fail(req, 'bad_response', {
      status: res.status,
      providerMessage: parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; '),
    });
  }
  return redactValue(parsed.data, redactSecrets);
}

type RecordCall = (
  req: HttpRequest,
  status: number | undefined,
  code: ServiceErrorCode | 'ok',
  attempts: number,
  started: number,
  cached?: boolean,
) => void;

/** Each call's record, to the debug log and to onCall (metrics). */
function recorder(config: HttpClientConfig): RecordCall {
  return (req, status, code, attempts, started, cached = false) => {
    const rec: CallRecord = {
      service: config.service,
      operation: req.operation,
      method: req.method,
      status,
      code,
      attempts,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      cached,
    };
    config.log?.debug(rec, 'http.call');
    config.onCall?.(rec);
  };
}

function createQuota(
  config: HttpClientConfig,
  opts: HttpOptions,
  now: () => number,
): ProviderQuota | undefined {
  const limits = opts.providerRateLimit ? PROVIDER_QUOTAS[config.service] : undefined;
  if (!limits) return undefined;
  const { redis, prefix } = config.quotaStore ?? {};
  return createProviderQuota({ service: config.service, limits, redis, prefix, now });
}

function createRate(config: HttpClientConfig, opts: HttpOptions): ProviderRate | undefined {
  const rate = opts.providerRateLimit ? rateLimitFor(config.service, opts.rateLimitPerMinute) : undefined;
  if (!rate) return undefined;
  const { redis, prefix } = config.quotaStore ?? {};
  return createProviderRate({
    service: config.service,
    rate,
    redis,
    prefix,
    baseUrl: config.baseUrl,
    maxWaitMs: opts.requestTimeoutMs,
  });
}

export function createHttpClient(config: HttpClientConfig): HttpClient {
  const opts: HttpOptions = { ...HTTP_DEFAULTS, ...config.options };
  const now = config.now ?? Date.now;
  const { service } = config;
  const fail = failureFor(service);
  const transport = createTransport(opts, config.headers, fail);
  const share = createShare(now);
  const breaker = createBreaker(
    { failureThreshold: opts.breakerFailureThreshold, cooldownMs: opts.breakerCooldownMs },
    now,
  );
  const limiter = createLimiter({ maxConcurrent: opts.maxConcurrent });
  const guards: Guards = {
    breaker,
    quota: createQuota(config, opts, now),
    rate: createRate(config, opts),
    limiter,
    transport,
    fail,
    now,
  };
  const readError = config.readError ?? readCommonError;
  const record = recorder(config);
  const deps: ExchangeDeps = {
    service,
    opts,
    random: config.random ?? Math.random,
    log: config.log,
    fail,
    attempt: (req, url, signal) => guardedAttempt(guards, req, url, signal),
    toError: (req, res) => errorFromResponse(req, res, { readError, now, fail }),
    record,
  };
  const send = (req: HttpRequest, callOpts?: CallOptions, url = buildUrl(config.baseUrl, req)) =>
    exchange(deps, req, url, callOpts?.signal, callOpts?.onAnswer);

  return {
    service,
    send<S extends z.ZodType, T>(
      req: HttpRequest,
      schema: S,
      callOpts?: CallOptions,
      map?: (wire: z.output<S>) => T,
    ): Promise<T> {
      const answer = (res: RawResponse): T => {
        const wire = parseJson(fail, req, res, schema);
        return map ? map(wire) : (wire as T);
      };
      if (req.method !== 'GET') return send(req, callOpts).then(answer);
      // The shared request runs on its own deadline; each caller stops waiting when its signal fires.
      const url = buildUrl(config.baseUrl, req);
      const load = () =>
        send(req, undefined, url).then((res) => ({ value: answer(res), bytes: res.bytes.length }));
      const signal = callOpts?.signal;
      const waiter = signal && { signal, onAbort: () => fail(req, 'timeout', { cause: signal.reason }) };
      const onHit = () => record(req, 200, 'ok', 0, performance.now(), true);
      return share.get(`${req.operation} ${url}`, req.cacheTtlMs, load, waiter, onHit);
    },
    async sendBytes(req, callOpts) {
      const res = await send(req, callOpts);
      // Bytes are not JSON and cannot be redacted: one that carries a credential (raw, percent- or
      // base64-encoded) is refused whole, before anything keeps it or posts it.
      if (bytesHoldSecret(res.bytes)) {
        const err = fail(req, 'bad_response', {
          status: res.status,
          providerMessage: 'the answer holds a configured secret',
        });
        config.log?.warn({ err, operation: req.operation }, 'http.answer_holds_secret');
        throw err;
      }
      return { bytes: res.bytes, contentType: res.headers['content-type'] ?? 'application/octet-stream' };
    },
    async sendEmpty(req, callOpts) {
      const res = await send(req, callOpts);
      return { status: res.status, headers: res.headers };
    },
    health: () => ({ breaker: breaker.state(), queued: limiter.pending() }),
    async close() {
      share.clear();
      await transport.close();
    },
  };
}
