// A fault of herald's own making (a request that cannot be built, an invalid argument,
// a programming error) is an `internal` fault: never "try again in a moment", never retried, and
// never counted toward opening the circuit breaker. Driven through real requests.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { createHttpClient, type CallRecord } from '../../src/http/client.ts';
import { userMessageFor } from '../../src/errors.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { failure } from '../support/service-harness.ts';

const Thing = z.looseObject({ name: z.string() });
let server: SandboxServer;

beforeAll(async () => {
  server = await startFake([http.get('*/base/v1/things', () => HttpResponse.json({ name: 'ok' }))]);
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const THRESHOLD = 2;

function client(calls: CallRecord[]) {
  return createHttpClient({
    service: 'weather',
    baseUrl: `${server.url}/base/v1`,
    options: { retryBaseMs: 1, requestTimeoutMs: 3_000, breakerFailureThreshold: THRESHOLD },
    onCall: (r) => calls.push(r),
  });
}

/** Requests herald cannot send: each fails before anything leaves the process. */
const UNSENDABLE: readonly [string, Parameters<ReturnType<typeof createHttpClient>['send']>[0]][] = [
  [
    'a header value above U+00FF (a city name in a header)',
    {
      service: 'weather',
      operation: 'current',
      method: 'GET',
      path: '/things',
      headers: { 'x-city': '東京' },
    },
  ],
  [
    'a header name that is not a token',
    {
      service: 'weather',
      operation: 'current',
      method: 'GET',
      path: '/things',
      headers: { 'x city': 'Oslo' },
    },
  ],
  [
    'a body that JSON cannot hold',
    {
      service: 'weather',
      operation: 'current',
      method: 'POST',
      path: '/things',
      body: { n: 1n },
      retryable: true,
    },
  ],
];

describe('faults of herald’s own making', () => {
  it.each(UNSENDABLE)(
    '%s is an internal fault: not sent, not retried, not "try again", and the breaker stays closed',
    async (_label, req) => {
      const calls: CallRecord[] = [];
      const c = client(calls);
      for (let i = 0; i < THRESHOLD * 3; i++) {
        const err = await failure(c.send(req, Thing));
        expect(err.code).toBe('internal');
        expect(err.status).toBeUndefined();
        expect(userMessageFor(err)).toBe(
          'The weather service was not asked: herald could not send that request, and the fault has been logged.',
        );
        expect(userMessageFor(err)).not.toMatch(/try again|trouble|busy/);
      }
      expect(server.requests).toHaveLength(0);
      expect(calls.map((r) => [r.code, r.attempts])).toEqual(Array(THRESHOLD * 3).fill(['internal', 1]));
      expect(c.health().breaker).toBe('closed');
      // The upstream is fine, and the next good request goes straight through.
      await expect(
        c.send({ service: 'weather', operation: 'current', method: 'GET', path: '/things' }, Thing),
      ).resolves.toEqual({ name: 'ok' });
      expect(server.requests).toHaveLength(1);
      await c.close();
    },
  );

  it('does not hold the breaker half-open when the trial request is one herald cannot send', async () => {
    let now = 0;
    const calls: CallRecord[] = [];
    const c = createHttpClient({
      service: 'weather',
      baseUrl: `${server.url}/base/v1`,
      options: { retryBaseMs: 1, maxRetries: 0, breakerFailureThreshold: 1, breakerCooldownMs: 1_000 },
      onCall: (r) => calls.push(r),
      now: () => now,
    });
    server.use(http.get('*/base/v1/down', () => HttpResponse.json({ message: 'down' }, { status: 500 })));
    const get = (p: string, headers?: Record<string, string>) =>
      c.send({ service: 'weather', operation: 'current', method: 'GET', path: p, headers }, Thing);
    expect((await failure(get('/down'))).code).toBe('upstream');
    expect(c.health().breaker).toBe('open');
    now += 1_001;
    // The half-open trial is one herald cannot send: it must not keep the circuit shut.
    expect((await failure(get('/things', { 'x-city': 'Tōkyō\u4e00' }))).code).toBe('internal');
    await expect(get('/things')).resolves.toEqual({ name: 'ok' });
    expect(c.health().breaker).toBe('closed');
    await c.close();
  });
});
