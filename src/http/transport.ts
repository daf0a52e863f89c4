// One upstream's keep-alive pool (an undici Agent with connect, headers and body timeouts and the
// response size bound) and a single attempt over it with undici's `request`: a response of any
// status with its body read, or a ServiceError for what went wrong on the way (timeout, network,
// a body over the bound, herald's own fault).
import type * as UndiciModule from 'undici';
import type { Agent } from 'undici';
import { ServiceError } from '../errors.ts';
import { errorCode, isOwnFault, TIMEOUT_CODES, type Fail } from './failure.ts';
import type { HttpOptions } from './policy.ts';
import type { HttpRequest, RawResponse } from './types.ts';

export interface Transport {
  attempt(req: HttpRequest, url: string, signal: AbortSignal): Promise<RawResponse>;
  close(): Promise<void>;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  // undici's parsed headers are a plain object: its enumerable keys are its own.
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Bytes (a multipart upload) go as they are, with the caller's content-type; the rest is JSON. */
function encodeBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  return body instanceof Uint8Array ? body : JSON.stringify(body);
}

/** undici's error when a body crosses the Agent's maxResponseSize (it closes that socket). */
const TOO_LARGE_CODE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';

/** The transport failure of an attempt as a ServiceError; ServiceErrors pass through. */
function classify(err: unknown, req: HttpRequest, signal: AbortSignal, fail: Fail): ServiceError {
  if (err instanceof ServiceError) return err;
  if (signal.aborted) return fail(req, 'timeout', { cause: signal.reason ?? err });
  const code = errorCode(err);
  if (code !== undefined && TIMEOUT_CODES.has(code)) return fail(req, 'timeout', { cause: err });
  if (isOwnFault(err)) {
    return fail(req, 'internal', {
      providerMessage: err instanceof Error ? err.message : undefined,
      cause: err,
    });
  }
  return fail(req, 'network', { providerMessage: code, cause: err });
}

type Undici = typeof UndiciModule;
let undiciLoading: Promise<Undici> | undefined;
let undiciLoaded: Undici | undefined;

/**
 * undici, loaded by the first request of any client: an idle bot does not hold it. Once loaded it
 * is taken as it is, without another await per request.
 */
async function loadUndici(): Promise<Undici> {
  return (undiciLoaded ??= await (undiciLoading ??= import('undici')));
}

export function createTransport(
  opts: HttpOptions,
  defaultHeaders: Readonly<Record<string, string>> | undefined,
  fail: Fail,
): Transport {
  // The keep-alive pool, made by the first attempt; after close() it is made closed, so an
  // attempt fails as it would on a closed pool (a network error).
  let agent: Agent | undefined;
  let closed = false;
  const poolOf = (u: Undici): Agent => {
    if (agent) return agent;
    agent = new u.Agent({
      connect: { timeout: opts.connectTimeoutMs },
      headersTimeout: opts.headersTimeoutMs,
      bodyTimeout: opts.bodyTimeoutMs,
      connections: opts.connections,
      keepAliveTimeout: opts.keepAliveTimeoutMs,
      maxResponseSize: opts.maxResponseBytes,
      pipelining: 1,
    });
    if (closed) void agent.close();
    return agent;
  };
  const baseHeaders: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'herald/0.1',
    ...defaultHeaders,
  };
  const tooLarge = (req: HttpRequest, status: number, what: string) =>
    fail(req, 'bad_response', {
      status,
      providerMessage: `${what} larger than ${opts.maxResponseBytes} bytes`,
    });

  return {
    async attempt(req, url, signal) {
      const headers = { ...baseHeaders, ...req.headers };
      if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
      let status = 0;
      try {
        signal.throwIfAborted();
        const u = undiciLoaded ?? (await loadUndici());
        const res = await u.request(url, {
          dispatcher: poolOf(u),
          method: req.method,
          headers,
          body: encodeBody(req.body),
          signal,
        });
        status = res.statusCode;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxResponseBytes) {
          // dump() closes a body declared past its limit at once, and resolves when it has.
          await res.body.dump({ limit: opts.maxResponseBytes });
          throw tooLarge(req, status, `response of ${declared} bytes is`);
        }
        const body = await res.body.bytes();
        const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
        return { status, headers: flattenHeaders(res.headers), bytes };
      } catch (err) {
        if ((err as { code?: unknown } | null)?.code === TOO_LARGE_CODE) {
          throw tooLarge(req, status, 'response');
        }
        throw classify(err, req, signal, fail);
      }
    },
    close: async () => {
      closed = true;
      await agent?.close();
    },
  };
}
