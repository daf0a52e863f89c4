// The faults of the matrix, as the providers send them: their own error bodies with Retry-After, an
// nginx page, a reset socket, a connection dropped mid-body, a stalled answer, and the sandbox's
// realistic answers cut short, reshaped or padded past the size bound. One msw handler each.
import { delay, getResponse, http, HttpResponse, type JsonBodyType, type RequestHandler } from 'msw';
import type { ServiceKey } from '../../src/core/services.ts';
import type { HttpOptions } from '../../src/http/policy.ts';
import { route } from '../../src/sandbox/layout.ts';

export type FaultName =
  | 'timeout'
  | 'reset'
  | 'cut mid-body'
  | '500'
  | '503'
  | '429'
  | 'malformed JSON'
  | 'schema'
  | 'HTML 502'
  | 'oversize';

export const FAULTS: readonly FaultName[] = [
  'timeout',
  'reset',
  'cut mid-body',
  '500',
  '503',
  '429',
  'malformed JSON',
  'schema',
  'HTML 502',
  'oversize',
];

/** The ServiceError codes each fault may end as (a 503 may say "unavailable" in its body). */
export const EXPECTED_CODES: Readonly<Record<FaultName, readonly string[]>> = {
  timeout: ['timeout'],
  reset: ['network'],
  'cut mid-body': ['network', 'timeout'],
  '500': ['upstream'],
  '503': ['upstream', 'unavailable'],
  '429': ['rate_limited'],
  'malformed JSON': ['bad_response'],
  schema: ['bad_response'],
  'HTML 502': ['upstream'],
  oversize: ['bad_response'],
};

/** Retry-After sent with every 429: past maxRetryAfterMs, so it is not waited for but reported. */
export const RETRY_AFTER_S = 30;

/** Small bounds so that the matrix stays fast: a timeout costs 400 ms, a body may be 128 KiB. */
export const FAST_HTTP: Partial<HttpOptions> = {
  connectTimeoutMs: 400,
  headersTimeoutMs: 400,
  bodyTimeoutMs: 400,
  requestTimeoutMs: 400,
  retryBaseMs: 1,
  maxResponseBytes: 128 * 1024,
};

export interface Upstream {
  service: ServiceKey;
  operation: string;
  method: 'get' | 'post';
  /** The msw path pattern under the service's sandbox prefix. */
  path: string;
  /** What a good answer carries: JSON, audio bytes, or nothing worth reading (S7's 204). */
  body: 'json' | 'audio' | 'empty';
}

/** The request as a careless upstream echoes it back: full URL with its query, and the headers. */
export function echoOf(request: Request): string {
  const url = new URL(request.url);
  const headers = ['authorization', 'x-api-key', 'xi-api-key']
    .map((name) => [name, request.headers.get(name)] as const)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  return `${request.method} ${url.pathname}${url.search}${headers ? ` (${headers})` : ''}`;
}

/** Marks every fault body, so that a reply quoting one is caught. */
export const BODY_MARKER = 'upstream-body-7d1c';

function providerError(service: ServiceKey, status: number, request: Request): Response {
  const text =
    status === 429
      ? 'Too many requests'
      : status === 503
        ? 'The service is currently unavailable'
        : 'Internal error';
  // The echo comes first: providers' messages are cut to a short excerpt for the log.
  const message = `${echoOf(request)}: ${text} [${BODY_MARKER}]`;
  const headers: Record<string, string> = status === 429 ? { 'retry-after': String(RETRY_AFTER_S) } : {};
  const json = (body: JsonBodyType, extra: Record<string, string> = {}) =>
    HttpResponse.json(body, { status, headers: { ...headers, ...extra } });
  switch (service) {
    case 'weather':
      return json({ cod: status, message }, { server: 'openresty' });
    case 'geocoding':
      return json(
        { message },
        status === 429 ? { 'x-rate-limit-limit': '600', 'x-rate-limit-interval': '60' } : {},
      );
    case 'hostscan':
      return json({ error: message });
    case 'jobSearch':
      return json({
        __CLASS__: 'Adzuna::API::Response::Exception',
        exception: status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL_ERROR',
        display: message,
        doc: 'https://api.adzuna.com/v1/doc',
      });
    case 'speech': {
      const code =
        status === 429
          ? 'too_many_concurrent_requests'
          : status === 503
            ? 'service_unavailable'
            : 'internal_error';
      return json({
        detail: {
          type: 'service_error',
          code,
          status: code,
          message,
          request_id: 'c0ffee00c0ffee00c0ffee00c0ffee00',
        },
      });
    }
    case 'email':
      return json(
        {
          statusCode: status,
          name: status === 429 ? 'rate_limit_exceeded' : 'application_error',
          message,
        },
        status === 429 ? { 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'ratelimit-reset': '30' } : {},
      );
    case 'analytics':
      return json({
        error: {
          code: status,
          message,
          status: status === 429 ? 'RESOURCE_EXHAUSTED' : status === 503 ? 'UNAVAILABLE' : 'INTERNAL',
        },
      });
    case 'webhook':
      return json(
        status === 429 ? { message, retry_after: RETRY_AFTER_S, global: false } : { message, code: 0 },
        status === 429 ? { 'x-ratelimit-scope': 'shared' } : {},
      );
  }
}

function nginxPage(request: Request): Response {
  const html = `<!DOCTYPE html>
<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<p>request: "${echoOf(request)}"</p>
<p>${BODY_MARKER}: upstream prematurely closed connection while reading response header from upstream</p>
<hr><center>nginx/1.25.3</center>
</body>
</html>
`;
  return new HttpResponse(html, { status: 502, headers: { 'content-type': 'text/html', server: 'nginx' } });
}

/** What the sandbox itself would answer: the realistic body a fault then distorts. */
async function realAnswer(base: RequestHandler[], request: Request): Promise<Response> {
  const response = await getResponse(base, request);
  if (!response) throw new Error(`the sandbox has no route for ${request.method} ${request.url}`);
  return response;
}

/** Every top-level field with a wrong type: what a changed or broken API sends. */
function breakShape(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== 'object') return { unexpected: value };
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      if (typeof field === 'string') return [key, 12345];
      if (typeof field === 'number') return [key, `${BODY_MARKER}-number`];
      if (typeof field === 'boolean') return [key, 'maybe'];
      if (Array.isArray(field)) return [key, { [BODY_MARKER]: field.length }];
      if (field === null) return [key, [BODY_MARKER]];
      return [key, BODY_MARKER];
    }),
  );
}

/** A body sent in pieces without Content-Length, so only the streaming bound can stop it. */
function streamed(parts: Uint8Array[], contentType: string): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  return new HttpResponse(stream, { status: 200, headers: { 'content-type': contentType } });
}

/** The handler that makes `upstream` fail with `fault`; `base` answers the realistic cases. */
export function faultHandler(upstream: Upstream, fault: FaultName, base: RequestHandler[]): RequestHandler {
  const on = upstream.method === 'get' ? http.get : http.post;
  const oversize = (FAST_HTTP.maxResponseBytes ?? 0) * 2;
  return on(route(upstream.service, upstream.path), async ({ request }) => {
    switch (fault) {
      case 'timeout':
        await delay('infinite');
        return HttpResponse.error();
      case 'reset':
        return HttpResponse.error();
      case 'cut mid-body': {
        // 200 and the first half of a real answer, then the connection drops.
        const real =
          upstream.body === 'empty'
            ? new TextEncoder().encode(JSON.stringify({ id: '1', content: 'x'.repeat(2_000) }))
            : new Uint8Array(await (await realAnswer(base, request)).arrayBuffer());
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(real.subarray(0, Math.floor(real.length / 2)));
            setTimeout(() => controller.error(new Error('connection dropped')), 20);
          },
        });
        return new HttpResponse(stream, {
          status: 200,
          headers: {
            'content-type': upstream.body === 'audio' ? 'audio/mpeg' : 'application/json',
            'content-length': String(real.length),
          },
        });
      }
      case '500':
      case '503':
      case '429':
        return providerError(upstream.service, Number(fault), request);
      case 'HTML 502':
        return nginxPage(request);
      case 'malformed JSON': {
        if (upstream.body !== 'json') {
          return new HttpResponse(`{"${BODY_MARKER}": "unterminated`, {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        }
        const text = await (await realAnswer(base, request)).text();
        return new HttpResponse(`${text.slice(0, Math.floor(text.length / 2))}${BODY_MARKER}`, {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        });
      }
      case 'schema': {
        if (upstream.body === 'audio') {
          // A 200 that says audio and carries none.
          return new HttpResponse(null, { status: 200, headers: { 'content-type': 'audio/mpeg' } });
        }
        const real = await realAnswer(base, request);
        return HttpResponse.json(breakShape(await real.json()) as JsonBodyType, { status: 200 });
      }
      case 'oversize': {
        // S7 answers 204; a 200 carrying a huge body must still be cut off at the bound.
        if (upstream.body === 'empty')
          return streamed([new Uint8Array(oversize).fill(32)], 'application/json');
        const real = await realAnswer(base, request);
        if (upstream.body === 'audio') {
          const audio = new Uint8Array(await real.arrayBuffer());
          return streamed([audio, new Uint8Array(oversize)], 'audio/mpeg');
        }
        // A valid answer with one huge extra field: only the size bound can refuse it.
        const body = { ...(await real.json()), x_debug_trace: 'x'.repeat(oversize) };
        const bytes = new TextEncoder().encode(JSON.stringify(body));
        const parts: Uint8Array[] = [];
        for (let at = 0; at < bytes.length; at += 16 * 1024) parts.push(bytes.subarray(at, at + 16 * 1024));
        return streamed(parts, 'application/json');
      }
    }
  });
}
