// A loopback HTTP server that answers with msw handlers (msw's getResponse), so the real undici
// path runs over real sockets: the built-in simulator and every test fake share this one server.
// msw (and, given as a function, the handlers) load on the first request: a bot that never calls
// the sandbox never holds them in memory.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { getResponse as GetResponse, RequestHandler } from 'msw';

// Not `import ... from 'node:http'`: an ES import of node:http fills its whole namespace, whose lazy
// getters (WebSocket, EventSource...) load Node's internal undici, http2, tls and zlib: about 13 MB
// of resident memory an idle bot never uses. The CommonJS module itself loads only http.
const { createServer } = process.getBuiltinModule('node:http');

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received (still percent-encoded). */
  url: string;
  pathname: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
}

export interface SandboxServerOptions {
  /** The handlers, or how to load them (called once, on the first request). */
  handlers: RequestHandler[] | (() => Promise<RequestHandler[]>);
  port?: number;
  host?: string;
  /** Added before every answer (demos and benchmarks). */
  latencyMs?: number;
  /** Share of requests answered with a 503 (0 to 1). */
  faultRate?: number;
  /** Keep every request for assertions (tests); off for the simulator and benchmarks. */
  record?: boolean;
  random?: () => number;
}

export interface SandboxServer {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Handlers that take precedence until resetHandlers (one test's override). */
  use(...handlers: RequestHandler[]): void;
  resetHandlers(): void;
  setLatency(ms: number): void;
  close(): Promise<void>;
}

/** An incoming request's URL, headers (repeated ones joined) and whole body. */
async function readIncoming(
  req: IncomingMessage,
  origin: string,
): Promise<{ url: URL; headers: Headers; body: Buffer<ArrayBuffer> }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const url = new URL(req.url ?? '/', origin);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return { url, headers, body };
}

function recordOf(req: IncomingMessage, url: URL, headers: Headers, body: Buffer): RecordedRequest {
  const flat: Record<string, string> = {};
  headers.forEach((v, k) => (flat[k] = v));
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    pathname: url.pathname,
    query: url.searchParams,
    headers: flat,
    body: body.toString('utf8'),
  };
}

/** Streams a fetch Response to the node response, honouring backpressure. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((v, k) => (outHeaders[k] = v));
  res.writeHead(response.status, outHeaders);
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((r) => res.once('drain', r));
    }
  }
  res.end();
}

/** The handlers and msw's getResponse, loaded on the first request (msw is a heavy import). */
function lazyHandlers(handlers: SandboxServerOptions['handlers']) {
  let loaded: Promise<{ base: RequestHandler[]; getResponse: typeof GetResponse }> | undefined;
  return () =>
    (loaded ??= Promise.all([
      typeof handlers === 'function' ? handlers() : [...handlers],
      import('msw'),
    ]).then(([base, msw]) => ({ base, getResponse: msw.getResponse })));
}

function toFetchRequest(
  req: IncomingMessage,
  url: URL,
  headers: Headers,
  body: Buffer<ArrayBuffer>,
): Request {
  return new Request(url, {
    method: req.method,
    headers,
    body: req.method === 'GET' || req.method === 'HEAD' || body.length === 0 ? undefined : body,
  });
}

/** Sends msw's answer: a 404 when no handler matched, a connection reset for HttpResponse.error(). */
async function answer(req: IncomingMessage, res: ServerResponse, url: URL, response: Response | undefined) {
  if (!response) {
    res
      .writeHead(404, { 'content-type': 'application/json', 'x-sandbox-unhandled': '1' })
      .end(JSON.stringify({ message: `no sandbox route for ${req.method} ${url.pathname}` }));
    return;
  }
  if (response.type === 'error') {
    // msw's HttpResponse.error(): a connection reset.
    req.socket.destroy();
    return;
  }
  await writeResponse(res, response);
}

/** A handler that threw: a 500 if nothing was sent yet, else the connection is cut. */
function failed(res: ServerResponse, err: unknown): void {
  if (!res.headersSent) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: `sandbox handler failed: ${String(err)}` }));
  } else {
    res.destroy();
  }
}

export async function startSandboxServer(opts: SandboxServerOptions): Promise<SandboxServer> {
  const load = lazyHandlers(opts.handlers);
  let overrides: RequestHandler[] = [];
  let latencyMs = opts.latencyMs ?? 0;
  const requests: RecordedRequest[] = [];
  const random = opts.random ?? Math.random;
  const host = opts.host ?? '127.0.0.1';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
    const { url, headers, body } = await readIncoming(req, origin);
    if (opts.record) requests.push(recordOf(req, url, headers, body));
    if (latencyMs > 0) await sleep(latencyMs);
    if (opts.faultRate && random() < opts.faultRate) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"simulated fault"}');
      return;
    }
    const { base, getResponse } = await load();
    const response = await getResponse([...overrides, ...base], toFetchRequest(req, url, headers, body));
    await answer(req, res, url, response);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => failed(res, err));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    use: (...handlers) => {
      overrides = [...handlers, ...overrides];
    },
    resetHandlers: () => {
      overrides = [];
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
