// One attempt over undici's dispatch handler API: the size bound on a declared and on a
// streamed body, the caller's signal before and during a request (nothing left listening on it),
// 1xx responses skipped, repeated headers joined. A plain node:http server, so the test controls
// every byte and every pause.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureFor } from '../../src/http/failure.ts';
import { HTTP_DEFAULTS } from '../../src/http/policy.ts';
import { createTransport } from '../../src/http/transport.ts';
import type { HttpRequest } from '../../src/http/types.ts';
import { failure } from '../support/service-harness.ts';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Route>();
const seen: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const route = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const fail = failureFor('weather');
const transport = () =>
  createTransport({ ...HTTP_DEFAULTS, maxResponseBytes: 1000 }, { 'x-api-key': 'k' }, fail);
const get = (path: string): HttpRequest => ({ service: 'weather', operation: 'op', method: 'GET', path });

describe('transport attempt', () => {
  it('answers the status, the headers (repeats joined) and the body bytes', async () => {
    routes.set('/ok', (req, res) => {
      res.setHeader('x-seen-key', String(req.headers['x-api-key']));
      res.setHeader('x-many', ['a', 'b']);
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"a":1}');
    });
    const t = transport();
    const res = await t.attempt(get('/ok'), `${base}/ok?q=1`, new AbortController().signal);
    expect(res.status).toBe(201);
    expect(res.headers['x-seen-key']).toBe('k');
    expect(res.headers['x-many']).toBe('a, b');
    expect(res.bytes.toString()).toBe('{"a":1}');
    expect(seen.at(-1)).toBe('/ok?q=1');
    await t.close();
  });

  it('skips an informational 1xx answer and reads the final one', async () => {
    routes.set('/processing', (_req, res) => {
      res.writeProcessing();
      res.writeHead(200).end('done');
    });
    const t = transport();
    const res = await t.attempt(get('/processing'), `${base}/processing`, new AbortController().signal);
    expect(res.status).toBe(200);
    expect(res.bytes.toString()).toBe('done');
    await t.close();
  });

  it('refuses a declared body over the bound, and a streamed one as it crosses it', async () => {
    routes.set('/declared', (_req, res) =>
      res.writeHead(200, { 'content-length': 5000 }).end('x'.repeat(5000)),
    );
    routes.set('/streamed', (_req, res) => {
      res.writeHead(200); // chunked: no length to check first
      for (let i = 0; i < 30; i++) res.write('y'.repeat(100));
      res.end();
    });
    const t = transport();
    const declared = await failure(
      t.attempt(get('/declared'), `${base}/declared`, new AbortController().signal),
    );
    expect(declared.code).toBe('bad_response');
    expect(declared.providerMessage).toBe('response of 5000 bytes is larger than 1000 bytes');
    const streamed = await failure(
      t.attempt(get('/streamed'), `${base}/streamed`, new AbortController().signal),
    );
    expect(streamed.code).toBe('bad_response');
    expect(streamed.providerMessage).toBe('response larger than 1000 bytes');
    // The pool still serves.
    routes.set('/after', (_req, res) => res.end('fine'));
    const after = await t.attempt(get('/after'), `${base}/after`, new AbortController().signal);
    expect(after.bytes.toString()).toBe('fine');
    await t.close();
  });

  it('stops at once when the signal fires mid-request, and leaves no listener on it', async () => {
    let held: ServerResponse | undefined;
    routes.set('/hang', (_req, res) => {
      held = res;
    });
    const t = transport();
    const caller = new AbortController();
    const pending = failure(t.attempt(get('/hang'), `${base}/hang`, caller.signal));
    await waitUntil(() => held !== undefined);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort(new Error('deadline'));
    const err = await pending;
    expect(err.code).toBe('timeout');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    held?.end();
    await t.close();
  });

  it('sends nothing for a signal that has already fired', async () => {
    routes.set('/never', (_req, res) => res.end('no'));
    const before = seen.length;
    const t = transport();
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    const err = await failure(t.attempt(get('/never'), `${base}/never`, caller.signal));
    expect(err.code).toBe('timeout');
    expect(seen.length).toBe(before);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await t.close();
  });

  it('leaves no listener on the signal after answers and failures', async () => {
    routes.set('/fine', (_req, res) => res.end('ok'));
    const t = transport();
    const caller = new AbortController();
    for (let i = 0; i < 20; i++) await t.attempt(get('/fine'), `${base}/fine`, caller.signal);
    await failure(t.attempt(get('/declared'), `${base}/declared`, caller.signal));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await t.close();
  });

  it('fails as a network error after close', async () => {
    const t = transport();
    await t.close();
    const err = await failure(t.attempt(get('/fine'), `${base}/fine`, new AbortController().signal));
    expect(err.code).toBe('network');
  });
});

async function waitUntil(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((done) => setImmediate(done));
}
