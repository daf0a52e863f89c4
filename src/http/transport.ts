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

type TooLarge = (req: HttpRequest, status: number, what: string) => ServiceError;
type Controller = { abort(reason: Error): void };

/**
 * One response read through undici's dispatch handler API: the status, the headers and the body
 * bytes under the size bound, with no stream or async iterator in between (issue 16: undici's
 * request() body stream and its signal listener cost more than the whole rest of a call). The
 * caller's signal aborts it at any point, before the request reaches a socket too.
 */
class OneResponse {
  private controller: Controller | undefined;
  private settled = false;
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  private readonly req: HttpRequest;
  private readonly signal: AbortSignal;
  private readonly maxBytes: number;
  private readonly tooLarge: TooLarge;
  private readonly resolve: (res: RawResponse) => void;
  private readonly reject: (err: unknown) => void;

  constructor(
    req: HttpRequest,
    signal: AbortSignal,
    maxBytes: number,
    tooLarge: TooLarge,
    resolve: (res: RawResponse) => void,
    reject: (err: unknown) => void,
  ) {
    this.req = req;
    this.signal = signal;
    this.maxBytes = maxBytes;
    this.tooLarge = tooLarge;
    this.resolve = resolve;
    this.reject = reject;
  }

  /** The signal fired: stop waiting now; the request, once on a socket, is aborted. */
  readonly onAbort = (): void => {
    const reason = this.signal.reason as Error;
    this.controller?.abort(reason);
    this.fail(reason);
  };

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.settled) controller.abort(this.signal.reason as Error);
  }

  onResponseStart(
    controller: Controller,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (status < 200) return; // 1xx: the final response follows
    this.status = status;
    this.headers = flattenHeaders(headers);
    const declared = Number(this.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      controller.abort(this.tooLarge(this.req, status, `response of ${declared} bytes is`));
    }
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) controller.abort(this.tooLarge(this.req, this.status, 'response'));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.signal.removeEventListener('abort', this.onAbort);
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    this.resolve({ status: this.status, headers: this.headers, bytes });
  }

  onResponseError(_controller: unknown, err: Error): void {
    this.fail(err);
  }

  private fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.signal.removeEventListener('abort', this.onAbort);
    this.reject(err);
  }
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

  /** The pool's origin and the path of `url`: the pool is per upstream, the path per request. */
  let origin = '';
  const split = (url: string): [string, string] => {
    if (origin !== '' && url.startsWith(origin) && url.charCodeAt(origin.length) === 47 /* / */) {
      return [origin, url.slice(origin.length)];
    }
    const { origin: o, pathname, search } = new URL(url);
    origin = o;
    return [o, pathname + search];
  };

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
        const [o, path] = split(url);
        const pool = poolOf(u);
        return await new Promise<RawResponse>((resolve, reject) => {
          const one = new OneResponse(req, signal, opts.maxResponseBytes, tooLarge, resolve, reject);
          if (signal.aborted) {
            one.onAbort();
            return;
          }
          signal.addEventListener('abort', one.onAbort);
          pool.dispatch({ origin: o, path, method: req.method, headers, body: encodeBody(req.body) }, one);
        });
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
