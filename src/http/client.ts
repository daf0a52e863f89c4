// The one place herald talks HTTP: an undici Agent (keep-alive pool) per upstream, timeouts on
// connect/headers/body plus a whole-request bound joined with the caller's signal, retries with
// jittered backoff that honour Retry-After, GET coalescing and TTL caching, typed errors.
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import { ServiceError, type QuotaExhausted, type ServiceErrorCode } from '../errors.ts';
import { errorCode, isOwnFault, readCommonError, statusToCode, TIMEOUT_CODES } from './failure.ts';
import { createBreaker, createLimiter, PROVIDER_RATE_LIMITS } from './guard.ts';
import { joinUrl } from './path.ts';
import { createProviderQuota, PROVIDER_QUOTAS } from './quota.ts';
import { HTTP_DEFAULTS, parseRetryAfter, retryDelayMs, type HttpOptions } from './policy.ts';
import { redactText } from '../redact.ts';
import type { CallRecord, HttpClient, HttpClientConfig, HttpRequest, RawResponse } from './types.ts';

export type * from './types.ts';
export { bodyExcerpt, readCommonError, statusToCode } from './failure.ts';

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function buildUrl(baseUrl: string, req: HttpRequest): string {
  const url = joinUrl(baseUrl, req.path);
  if (!req.query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) if (v !== undefined) params.append(k, String(v));
  const qs = params.toString();
  return qs === '' ? url : `${url}?${qs}`;
}

export function createHttpClient(config: HttpClientConfig): HttpClient {
  const opts: HttpOptions = { ...HTTP_DEFAULTS, ...config.options };
  const now = config.now ?? Date.now;
  const random = config.random ?? Math.random;
  const readError = config.readError ?? readCommonError;
  const { service } = config;
  const agent = new Agent({
    connect: { timeout: opts.connectTimeoutMs },
    headersTimeout: opts.headersTimeoutMs,
    bodyTimeout: opts.bodyTimeoutMs,
    connections: opts.connections,
    keepAliveTimeout: opts.keepAliveTimeoutMs,
    pipelining: 1,
  });
  const cache = new LRUCache<string, { value: unknown }>({
    max: 2_000,
    ttlAutopurge: false,
    ttlResolution: 0,
    perf: { now },
  });
  const inflight = new Map<string, Promise<unknown>>();
  const breaker = createBreaker(
    { failureThreshold: opts.breakerFailureThreshold, cooldownMs: opts.breakerCooldownMs },
    now,
  );
  const quotaLimits = opts.providerRateLimit ? PROVIDER_QUOTAS[service] : undefined;
  const quota =
    quotaLimits &&
    createProviderQuota({
      service,
      limits: quotaLimits,
      redis: config.quotaStore?.redis,
      prefix: config.quotaStore?.prefix,
      now,
    });
  const limiter = createLimiter({
    maxConcurrent: opts.maxConcurrent,
    rate: opts.providerRateLimit ? PROVIDER_RATE_LIMITS[service] : undefined,
  });

  /** One attempt through the breaker and the queue; feeds the breaker with its outcome. */
  async function guardedAttempt(req: HttpRequest, url: string, signal: AbortSignal): Promise<RawResponse> {
    const blockedMs = breaker.blockedForMs();
    if (blockedMs !== undefined) {
      throw fail(req, 'unavailable', { retryAfterMs: blockedMs, providerMessage: 'circuit open' });
    }
    // Every attempt, a retry too, is a call the provider counts.
    const exhausted = await quota?.take();
    if (exhausted) {
      breaker.release();
      throw fail(req, 'rate_limited', {
        retryAfterMs: Math.max(0, exhausted.nextAt.getTime() - now()),
        providerMessage: `herald's quota of ${exhausted.limit} calls a ${exhausted.per} is used up`,
        quota: exhausted,
      });
    }
    let res: RawResponse;
    try {
      res = await limiter.run(() => attempt(req, url, signal), signal);
    } catch (err) {
      const error = err instanceof ServiceError ? err : fail(req, 'timeout', { cause: err });
      // Only the upstream's own failures count; anything else (herald's fault, a body too large)
      // says nothing about its health, and must not hold a half-open trial either.
      if (error.code === 'network' || error.code === 'timeout') breaker.failure();
      else breaker.release();
      throw error;
    }
    if (res.status >= 500) breaker.failure();
    else breaker.success();
    return res;
  }

  function fail(
    req: HttpRequest,
    code: ServiceErrorCode,
    extra: {
      status?: number;
      providerMessage?: string | undefined;
      retryAfterMs?: number;
      quota?: QuotaExhausted;
      cause?: unknown;
    },
  ): ServiceError {
    return new ServiceError({
      service,
      operation: req.operation,
      code,
      status: extra.status,
      retryAfterMs: extra.retryAfterMs,
      providerMessage: extra.providerMessage === undefined ? undefined : redactText(extra.providerMessage),
      quota: extra.quota,
      cause: extra.cause,
    });
  }

  async function readBody(body: AsyncIterable<Buffer>, req: HttpRequest, status: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > opts.maxResponseBytes) {
        throw fail(req, 'bad_response', {
          status,
          providerMessage: `response larger than ${opts.maxResponseBytes} bytes`,
        });
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  /** One attempt: a response of any status, or a thrown ServiceError for transport failures. */
  async function attempt(req: HttpRequest, url: string, signal: AbortSignal): Promise<RawResponse> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'herald/0.1',
      ...config.headers,
      ...req.headers,
    };
    if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
    try {
      const res = await request(url, {
        method: req.method,
        headers,
        // Bytes (a multipart upload) go as they are, with the caller's content-type; the rest is JSON.
        body:
          req.body === undefined
            ? undefined
            : req.body instanceof Uint8Array
              ? req.body
              : JSON.stringify(req.body),
        dispatcher: agent,
        signal,
      });
      const resHeaders = flattenHeaders(res.headers);
      const declared = Number(resHeaders['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxResponseBytes) {
        res.body.on('error', () => undefined);
        res.body.destroy();
        throw fail(req, 'bad_response', {
          status: res.statusCode,
          providerMessage: `response of ${declared} bytes is larger than ${opts.maxResponseBytes}`,
        });
      }
      const bytes = await readBody(res.body, req, res.statusCode);
      return { status: res.statusCode, headers: resHeaders, bytes };
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      if (signal.aborted) throw fail(req, 'timeout', { cause: signal.reason ?? err });
      const code = errorCode(err);
      if (code !== undefined && TIMEOUT_CODES.has(code)) throw fail(req, 'timeout', { cause: err });
      if (isOwnFault(err)) {
        throw fail(req, 'internal', {
          providerMessage: err instanceof Error ? err.message : undefined,
          cause: err,
        });
      }
      throw fail(req, 'network', { providerMessage: code, cause: err });
    }
  }

  function toError(req: HttpRequest, res: RawResponse): ServiceError {
    const text = res.bytes.toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const provider = readError({ status: res.status, headers: res.headers, body, text });
    const retryAfterMs = provider.retryAfterMs ?? parseRetryAfter(res.headers['retry-after'], now());
    return fail(req, provider.code ?? statusToCode(res.status), {
      status: res.status,
      providerMessage: provider.message,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }

  /** All attempts: the first 2xx response, or the last failure as a ServiceError. */
  async function exchange(req: HttpRequest, callerSignal?: AbortSignal): Promise<RawResponse> {
    const url = buildUrl(config.baseUrl, req);
    const deadline = AbortSignal.timeout(opts.requestTimeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
    const retryableMethod =
      req.method === 'GET' ||
      req.method === 'PUT' ||
      req.method === 'DELETE' ||
      req.idempotencyKey !== undefined ||
      req.retryable === true;
    const started = performance.now();
    let attempts = 0;
    let last: ServiceError | undefined;
    let status: number | undefined;
    for (;;) {
      attempts++;
      let error: ServiceError;
      try {
        const res = await guardedAttempt(req, url, signal);
        status = res.status;
        if (res.status >= 200 && res.status < 300) {
          record(req, status, 'ok', attempts, started);
          return res;
        }
        error = toError(req, res);
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        error = err;
      }
      last = error;
      const delay = signal.aborted
        ? undefined
        : retryDelayMs({
            attempt: attempts,
            maxRetries: opts.maxRetries,
            status: error.status,
            isNetworkError:
              error.code === 'network' || (error.code === 'timeout' && error.status === undefined),
            isRetryableMethod: retryableMethod,
            retryAfterMs: error.retryAfterMs,
            baseMs: opts.retryBaseMs,
            maxRetryAfterMs: opts.maxRetryAfterMs,
            random,
          });
      if (delay === undefined) break;
      config.log?.debug(
        {
          service,
          operation: req.operation,
          status: error.status,
          code: error.code,
          attempt: attempts,
          delayMs: delay,
        },
        'http.retry',
      );
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        last = fail(req, 'timeout', { cause: error });
        break;
      }
    }
    record(req, last.status ?? status, last.code, attempts, started);
    throw last;
  }

  function record(
    req: HttpRequest,
    status: number | undefined,
    code: ServiceErrorCode | 'ok',
    attempts: number,
    started: number,
    cached = false,
  ): void {
    const rec: CallRecord = {
      service,
      operation: req.operation,
      method: req.method,
      status,
      code,
      attempts,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      cached,
    };
    config.log?.debug({ ...rec }, 'http.call');
    config.onCall?.(rec);
  }

  function parseJson<S extends z.ZodType>(req: HttpRequest, res: RawResponse, schema: S): z.output<S> {
    let body: unknown;
    try {
      body = res.bytes.length === 0 ? undefined : JSON.parse(res.bytes.toString('utf8'));
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
    return parsed.data;
  }

  /** Coalesces identical concurrent GETs and caches their parsed answer; callers keep their own signal. */
  async function shared<T>(req: HttpRequest, load: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (req.method !== 'GET') return load();
    const key = `${req.operation} ${buildUrl(config.baseUrl, req)}`;
    if (req.cacheTtlMs !== undefined && req.cacheTtlMs > 0) {
      const hit = cache.get(key);
      if (hit) {
        record(req, 200, 'ok', 0, performance.now(), true);
        return hit.value as T;
      }
    }
    let pending = inflight.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = load().then((value) => {
        if (req.cacheTtlMs !== undefined && req.cacheTtlMs > 0)
          cache.set(key, { value }, { ttl: req.cacheTtlMs });
        return value;
      });
      inflight.set(key, pending);
      const clear = () => inflight.delete(key);
      pending.then(clear, clear);
    }
    if (!signal) return pending;
    return raceSignal(pending, signal, () => fail(req, 'timeout', { cause: signal.reason }));
  }

  return {
    service,
    send(req, schema, callOpts) {
      // The shared request runs on its own deadline; each caller stops waiting when its signal fires.
      return shared(
        req,
        async () =>
          parseJson(req, await exchange(req, req.method === 'GET' ? undefined : callOpts?.signal), schema),
        req.method === 'GET' ? callOpts?.signal : undefined,
      );
    },
    async sendBytes(req, callOpts) {
      const res = await exchange(req, callOpts?.signal);
      return { bytes: res.bytes, contentType: res.headers['content-type'] ?? 'application/octet-stream' };
    },
    async sendEmpty(req, callOpts) {
      const res = await exchange(req, callOpts?.signal);
      return { status: res.status, headers: res.headers };
    },
    health: () => ({ breaker: breaker.state(), queued: limiter.pending() }),
    async close() {
      cache.clear();
      await agent.close();
    },
  };
}

function raceSignal<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
