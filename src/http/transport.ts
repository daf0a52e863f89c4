// One upstream's keep-alive pool (an undici Agent with connect, headers and body timeouts) and a
// single attempt over it: a response of any status with its body read under the size bound, or a
// ServiceError for what went wrong on the way (timeout, network, herald's own fault).
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
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Bytes (a multipart upload) go as they are, with the caller's content-type; the rest is JSON. */
function encodeBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  return body instanceof Uint8Array ? body : JSON.stringify(body);
}

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
let undiciModule: Undici | undefined;
let undiciLoading: Promise<Undici> | undefined;

/** undici, loaded by the first request of any client: an idle bot does not hold it (issue 16). */
async function loadUndici(): Promise<Undici> {
  undiciModule ??= await (undiciLoading ??= import('undici'));
  return undiciModule;
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
      pipelining: 1,
    });
    if (closed) void agent.close();
    return agent;
  };
  const baseHeaders: Record<string, string> = Object.freeze({
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'herald/0.1',
    ...defaultHeaders,
  });
  const tooLarge = (req: HttpRequest, status: number, what: string) =>
    fail(req, 'bad_response', {
      status,
      providerMessage: `${what} larger than ${opts.maxResponseBytes} bytes`,
    });

  async function readBody(body: AsyncIterable<Buffer>, req: HttpRequest, status: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > opts.maxResponseBytes) throw tooLarge(req, status, 'response');
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  return {
    async attempt(req, url, signal) {
      // The client's own headers are merged once; a request copies them only to add its own.
      let headers = baseHeaders;
      if (req.headers !== undefined || req.idempotencyKey !== undefined) {
        headers = { ...baseHeaders, ...req.headers };
        if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
      }
      try {
        const u = undiciModule ?? (await loadUndici());
        const res = await u.request(url, {
          method: req.method,
          headers,
          body: encodeBody(req.body),
          dispatcher: poolOf(u),
          signal,
        });
        const resHeaders = flattenHeaders(res.headers);
        const declared = Number(resHeaders['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxResponseBytes) {
          res.body.on('error', () => undefined);
          res.body.destroy();
          throw tooLarge(req, res.statusCode, `response of ${declared} bytes is`);
        }
        const bytes = await readBody(res.body, req, res.statusCode);
        return { status: res.statusCode, headers: resHeaders, bytes };
      } catch (err) {
        throw classify(err, req, signal, fail);
      }
    },
    close: async () => {
      closed = true;
      await agent?.close();
    },
  };
}
