// Scaffolding the service-client tests share: a loopback fake started once per file and reset after
// every test, a capturing HttpLog, `failure()` for calls that must reject with a ServiceError, and
// the no-credential checks.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { HttpResponse, type RequestHandler } from 'msw';
import { ServiceError } from '../../src/errors.ts';
import type { HttpLog } from '../../src/http/client.ts';
import type { HttpOptions } from '../../src/http/policy.ts';
import type { ClientDeps } from '../../src/services/deps.ts';
import { startFake, type SandboxServer } from './sandbox-server.ts';

/**
 * Starts the fake before the file's tests and closes it after them; after every test its overrides
 * and recorded requests are dropped. The returned server forwards to the running one, so it can be
 * held in a `const` at module level and used inside tests and hooks.
 */
export function useFakeServer(handlers: () => RequestHandler[]): SandboxServer {
  let current: SandboxServer | undefined;
  const live = (): SandboxServer => {
    if (!current) throw new Error('the fake server runs only between beforeAll and afterAll');
    return current;
  };
  beforeAll(async () => {
    current = await startFake(handlers());
  });
  afterAll(() => current?.close());
  afterEach(() => {
    live().resetHandlers();
    live().requests.length = 0;
  });
  return {
    get url() {
      return live().url;
    },
    get port() {
      return live().port;
    },
    get requests() {
      return live().requests;
    },
    use: (...overrides) => live().use(...overrides),
    resetHandlers: () => live().resetHandlers(),
    setLatency: (ms) => live().setLatency(ms),
    close: () => live().close(),
  };
}

/** Registers clients to be closed after each test; `track` hands the client back. */
export function closeAfterEach<T extends { close(): Promise<void> }>(): { track(client: T): T } {
  const open: T[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  return {
    track: (client) => {
      open.push(client);
      return client;
    },
  };
}

/**
 * The client factory of a service test file: each client built by `create` over `config()` and the
 * test's overrides, with its own captured log, retries that do not wait and a breaker that does not
 * open, and closed after the test.
 */
export function clientMaker<Config, Client extends { close(): Promise<void> }>(
  create: (config: Config, deps: ClientDeps) => Client,
  config: () => Config,
) {
  const clients = closeAfterEach<Client>();
  return (overrides: Partial<Config> = {}, httpOptions: Partial<HttpOptions> = {}, deps: ClientDeps = {}) => {
    const { log, lines } = captureLog();
    const client = create(
      { ...config(), ...overrides },
      { log, httpOptions: { retryBaseMs: 1, breakerFailureThreshold: 1_000, ...httpOptions }, ...deps },
    );
    return { client: clients.track(client), lines };
  };
}

export interface LogCapture {
  log: HttpLog;
  /** One JSON line per call: `{ level, ...obj, msg }`. Empty it with `lines.length = 0`. */
  lines: string[];
}

export function captureLog(): LogCapture {
  const lines: string[] = [];
  const write = (level: 'debug' | 'warn') => (obj: object, msg: string) =>
    lines.push(JSON.stringify({ level, ...obj, msg }));
  return { log: { debug: write('debug'), warn: write('warn') }, lines };
}

/** A captured log whose lines are emptied after every test, for module-level clients. */
export function useLogCapture(): LogCapture {
  const capture = captureLog();
  afterEach(() => {
    capture.lines.length = 0;
  });
  return capture;
}

/** What a test's handler override answers with, in the tables of failure cases. */
export type Answer = () => Response | Promise<Response>;

/** An HTML page where JSON was expected: a proxy's error page or a login wall. */
export function htmlPage(html: string, status = 200, headers: Record<string, string> = {}): Response {
  return new HttpResponse(html, { status, headers: { 'content-type': 'text/html', ...headers } });
}

/** A JSON file under test/fixtures/<dir>/. */
export function readFixture<T = Record<string, unknown>>(dir: string, name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/${dir}/${name}`, import.meta.url), 'utf8')) as T;
}

/** Asserts that none of `secrets` occurs in any of `texts`. */
export function expectNoSecret(secrets: readonly string[], ...texts: string[]): void {
  for (const secret of secrets) {
    for (const text of texts) expect(text).not.toContain(secret);
  }
}

/** Everything of an error that could end up in a log or a chat: its fields, message, stack and cause. */
export function errorText(e: Error): string {
  return JSON.stringify({ ...e, message: e.message, stack: e.stack, cause: String(e.cause) });
}

/**
 * Awaits a promise that must reject with a ServiceError and returns the error. None of `secrets`
 * may appear in it, its message or its provider message.
 */
export async function failure(p: Promise<unknown>, ...secrets: string[]): Promise<ServiceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  const serviceError = err as ServiceError;
  expectNoSecret(
    secrets,
    JSON.stringify(serviceError),
    serviceError.message,
    serviceError.providerMessage ?? '',
  );
  return serviceError;
}

/**
 * For each case in turn: serves its answer through `serve`, expects `call(index)` to fail with the
 * case's code, then drops the override.
 */
export async function expectFailureCodes(
  server: SandboxServer,
  cases: readonly (readonly [Answer, string])[],
  serve: (answer: Answer) => RequestHandler,
  call: (index: number) => Promise<unknown>,
): Promise<void> {
  for (const [i, [answer, code]] of cases.entries()) {
    server.use(serve(answer));
    if (code === 'timeout') await expectTimeoutOnFakeClock(server, () => call(i));
    else expect((await failure(call(i))).code).toBe(code);
    server.resetHandlers();
  }
}

/** Longer than any client deadline the service tests set; shorter than a late answer's delay. */
const PAST_THE_DEADLINE_MS = 10_000;

/**
 * The client's deadline and the fake upstream's late answer both wait on a faked `setTimeout`, so
 * the answer is late because the clock says so, never because a loaded machine was slow.
 */
async function expectTimeoutOnFakeClock(server: SandboxServer, call: () => Promise<unknown>) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const before = server.requests.length;
    const result = failure(call());
    await vi.waitFor(() => expect(server.requests.length).toBeGreaterThan(before));
    await vi.advanceTimersByTimeAsync(PAST_THE_DEADLINE_MS);
    expect((await result).code).toBe('timeout');
    // Lets the late answer go, to a request that is no longer waiting.
    await vi.advanceTimersByTimeAsync(LATE_ANSWER_MS);
  } finally {
    vi.useRealTimers();
  }
}

/** How late a case's answer comes when it is meant to miss the deadline. */
export const LATE_ANSWER_MS = 60_000;
