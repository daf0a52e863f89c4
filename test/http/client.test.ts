import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse, delay } from 'msw';
import { z } from 'zod';
import { createHttpClient, type CallRecord } from '../../src/http/client.ts';
import { path, UnsafePathSegmentError } from '../../src/http/path.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { failure } from '../support/service-harness.ts';

const Thing = z.looseObject({ name: z.string() });
let server: SandboxServer;

beforeAll(async () => {
  server = await startFake([
    http.get('*/base/v1/things/:id', ({ params }) => HttpResponse.json({ name: params.id, extra: 1 })),
  ]);
});
afterAll(() => server.close());
afterEach(() => {
  server.resetHandlers();
  server.requests.length = 0;
});

function client(extra: Partial<Parameters<typeof createHttpClient>[0]> = {}) {
  return createHttpClient({
    service: 'weather',
    baseUrl: `${server.url}/base/v1`,
    options: { retryBaseMs: 5, requestTimeoutMs: 3000 },
    ...extra,
  });
}

describe('http client', () => {
  it('keeps the base path, encodes the segment and keeps unknown fields', async () => {
    const c = client();
    const out = await c.send(
      { service: 'weather', operation: 'get', method: 'GET', path: path`/things/${'a b/../?#é'}` },
      Thing,
    );
    expect(out).toEqual({ name: 'a b/../?#é', extra: 1 });
    expect(server.requests[0]!.pathname).toBe('/base/v1/things/a%20b%2F..%2F%3F%23%C3%A9');
    await c.close();
  });

  it('refuses a segment that URL parsing would turn into a climb or drop', () => {
    expect(() => path`/x/${'..'}/y`).toThrow(UnsafePathSegmentError);
    expect(() => path`/x/${'.'}/y`).toThrow(UnsafePathSegmentError);
    expect(() => path`/x/${''}/y`).toThrow(UnsafePathSegmentError);
    expect(path`/x/${'...'}/y`).toBe('/x/.../y');
    expect(path`/x/${'..'}.json`.length).toBeGreaterThan(0);
  });

  it("tells onAnswer each attempt's status and headers, a failure's too", async () => {
    let calls = 0;
    server.use(
      http.post('*/base/v1/posts', () =>
        ++calls === 1
          ? HttpResponse.json(
              { message: 'slow down' },
              { status: 429, headers: { 'Retry-After': '0', 'X-RateLimit-Remaining': '0' } },
            )
          : HttpResponse.json({ name: 'posted' }, { headers: { 'X-RateLimit-Remaining': '4' } }),
      ),
    );
    const answers: { status: number; remaining?: string }[] = [];
    const c = client();
    const out = await c.send(
      {
        service: 'weather',
        operation: 'post',
        method: 'POST',
        path: '/posts',
        idempotencyKey: 'k9',
        body: {},
      },
      Thing,
      { onAnswer: (a) => answers.push({ status: a.status, remaining: a.headers['x-ratelimit-remaining'] }) },
    );
    expect(out).toEqual({ name: 'posted' });
    expect(answers).toEqual([
      { status: 429, remaining: '0' },
      { status: 200, remaining: '4' },
    ]);
    await c.close();
  });

  it('retries a 503 and succeeds, counting upstream calls', async () => {
    let calls = 0;
    server.use(
      http.get('*/base/v1/flaky', () => {
        calls++;
        return calls < 3
          ? HttpResponse.json({ message: 'down' }, { status: 503 })
          : HttpResponse.json({ name: 'ok' });
      }),
    );
    const records: CallRecord[] = [];
    const c = client({ onCall: (r) => records.push(r) });
    await expect(
      c.send({ service: 'weather', operation: 'flaky', method: 'GET', path: '/flaky' }, Thing),
    ).resolves.toEqual({ name: 'ok' });
    expect(calls).toBe(3);
    expect(records[0]!.attempts).toBe(3);
    await c.close();
  });

  it('does not retry a POST without an idempotency key, and retries one with it', async () => {
    let calls = 0;
    server.use(
      http.post('*/base/v1/send', () => {
        calls++;
        return HttpResponse.json({ message: 'boom' }, { status: 500 });
      }),
    );
    const c = client();
    const e = await failure(
      c.send({ service: 'weather', operation: 'send', method: 'POST', path: '/send', body: {} }, Thing),
    );
    expect(e.code).toBe('upstream');
    expect(calls).toBe(1);
    calls = 0;
    await failure(
      c.send(
        {
          service: 'weather',
          operation: 'send',
          method: 'POST',
          path: '/send',
          body: {},
          idempotencyKey: 'k1',
        },
        Thing,
      ),
    );
    expect(calls).toBe(3);
    const keys = server.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key']);
    expect(keys.slice(-3)).toEqual(['k1', 'k1', 'k1']);
    await c.close();
  });

  it('honours Retry-After on a 429', async () => {
    let calls = 0;
    server.use(
      http.get('*/base/v1/limited', () => {
        calls++;
        return calls === 1
          ? HttpResponse.json({ message: 'slow down' }, { status: 429, headers: { 'retry-after': '1' } })
          : HttpResponse.json({ name: 'ok' });
      }),
    );
    // The wait is the fake clock's: the second request goes once a second has passed on it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const retries: object[] = [];
    const log = {
      debug: (obj: object, msg: string) => msg === 'http.retry' && retries.push(obj),
      info() {},
      warn() {},
      error() {},
    };
    const c = client({ log });
    try {
      const sent = c.send(
        { service: 'weather', operation: 'limited', method: 'GET', path: '/limited' },
        Thing,
      );
      await vi.waitFor(() => expect(retries).toHaveLength(1));
      const { delayMs } = retries[0] as { delayMs: number };
      expect(retries[0]).toMatchObject({ status: 429, attempt: 1 });
      // Retry-After: 1, plus the retry's jitter.
      expect(delayMs).toBeGreaterThanOrEqual(1000);
      expect(delayMs).toBeLessThan(1100);
      await vi.advanceTimersByTimeAsync(delayMs - 1);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(sent).resolves.toEqual({ name: 'ok' });
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
      await c.close();
    }
  });

  it('maps statuses, resets, timeouts, non-JSON and schema misfits to typed errors', async () => {
    server.use(
      http.get('*/base/v1/s/:status', ({ params }) =>
        HttpResponse.json({ message: 'nope' }, { status: Number(params.status) }),
      ),
      http.get('*/base/v1/reset', () => HttpResponse.error()),
      http.get('*/base/v1/slow', async () => {
        await delay(2000);
        return HttpResponse.json({ name: 'late' });
      }),
      http.get(
        '*/base/v1/html',
        () => new HttpResponse('<html>oops</html>', { headers: { 'content-type': 'text/html' } }),
      ),
      http.get('*/base/v1/misfit', () => HttpResponse.json({ name: 42 })),
    );
    const c = client({ options: { retryBaseMs: 1, requestTimeoutMs: 300, maxRetries: 0 } });
    const get = (p: string) =>
      failure(c.send({ service: 'weather', operation: 'op', method: 'GET', path: p }, Thing));
    const cases: [string, string][] = [
      ['/s/400', 'invalid_request'],
      ['/s/401', 'unauthorized'],
      ['/s/403', 'forbidden'],
      ['/s/404', 'not_found'],
      ['/s/429', 'rate_limited'],
      ['/s/502', 'upstream'],
      ['/reset', 'network'],
      ['/slow', 'timeout'],
      ['/html', 'bad_response'],
      ['/misfit', 'bad_response'],
    ];
    for (const [p, code] of cases) {
      const e = await get(p);
      expect({ p, code: e.code }).toEqual({ p, code });
    }
    expect((await get('/s/404')).providerMessage).toBe('nope');
    await c.close();
  });

  it('coalesces identical concurrent GETs and caches with a TTL on an injectable clock', async () => {
    let calls = 0;
    server.use(
      http.get('*/base/v1/once', async () => {
        calls++;
        await delay(30);
        return HttpResponse.json({ name: 'x' });
      }),
    );
    let nowMs = 1_000_000;
    const c = client({ now: () => nowMs });
    const req = {
      service: 'weather' as const,
      operation: 'once',
      method: 'GET' as const,
      path: '/once',
      cacheTtlMs: 60_000,
    };
    await Promise.all(Array.from({ length: 20 }, () => c.send(req, Thing)));
    expect(calls).toBe(1);
    await c.send(req, Thing);
    expect(calls).toBe(1);
    nowMs += 61_000;
    await c.send(req, Thing);
    expect(calls).toBe(2);
    await c.close();
  });

  it('keeps its cached answers to itself: a second client in the process asks the upstream', async () => {
    let calls = 0;
    server.use(
      http.get('*/base/v1/own', () => {
        calls++;
        return HttpResponse.json({ name: `answer ${calls}` });
      }),
    );
    const req = {
      service: 'weather' as const,
      operation: 'own',
      method: 'GET' as const,
      path: '/own',
      cacheTtlMs: 60_000,
    };
    const first = client();
    const second = client();
    expect(await first.send(req, Thing)).toEqual({ name: 'answer 1' });
    expect(await second.send(req, Thing)).toEqual({ name: 'answer 2' });
    expect(await first.send(req, Thing)).toEqual({ name: 'answer 1' });
    await first.close();
    const third = client();
    expect(await third.send(req, Thing)).toEqual({ name: 'answer 3' });
    expect(await second.send(req, Thing)).toEqual({ name: 'answer 2' });
    expect(calls).toBe(3);
    await Promise.all([second.close(), third.close()]);
  });

  it('keeps what the caller maps the answer to, mapped once per upstream answer', async () => {
    let calls = 0;
    server.use(
      http.get('*/base/v1/mapped', () => {
        calls++;
        return HttpResponse.json({ name: 'Oslo', unread: 'x'.repeat(1000) });
      }),
    );
    const c = client();
    const req = {
      service: 'weather' as const,
      operation: 'mapped',
      method: 'GET' as const,
      path: '/mapped',
      cacheTtlMs: 60_000,
    };
    let maps = 0;
    const toCity = (wire: z.output<typeof Thing>) => {
      maps++;
      return { city: wire.name };
    };
    const first = await c.send(req, Thing, undefined, toCity);
    const again = await Promise.all(Array.from({ length: 5 }, () => c.send(req, Thing, undefined, toCity)));
    expect(first).toEqual({ city: 'Oslo' });
    expect(again.every((a) => a === first)).toBe(true);
    expect({ calls, maps }).toEqual({ calls: 1, maps: 1 });
    await c.close();
  });

  it('refuses a body larger than the bound', async () => {
    server.use(http.get('*/base/v1/huge', () => HttpResponse.json({ name: 'x'.repeat(5000) })));
    const c = client({ options: { maxResponseBytes: 1000 } });
    const e = await failure(
      c.send({ service: 'weather', operation: 'huge', method: 'GET', path: '/huge' }, Thing),
    );
    expect(e.code).toBe('bad_response');
    await c.close();
  });
});

describe('http client: read-only POST', () => {
  it('retries a POST marked retryable (a report query) on 503', async () => {
    let calls = 0;
    server.use(
      http.post('*/base/v1/report', () => {
        calls++;
        return calls < 2
          ? HttpResponse.json({ message: 'busy' }, { status: 503 })
          : HttpResponse.json({ name: 'r' });
      }),
    );
    const c = client();
    await expect(
      c.send(
        {
          service: 'analytics',
          operation: 'runReport',
          method: 'POST',
          path: '/report',
          body: {},
          retryable: true,
        },
        Thing,
      ),
    ).resolves.toEqual({ name: 'r' });
    expect(calls).toBe(2);
    await c.close();
  });
});

describe('http client: a POST repeated only after a 429', () => {
  const post = {
    service: 'webhook',
    operation: 'follow_up',
    method: 'POST',
    path: '/post',
    body: {},
    retryable: 'after-429',
  } as const;

  it('is sent again after a 429, which the provider answered without acting', async () => {
    let calls = 0;
    server.use(
      http.post('*/base/v1/post', () => {
        calls++;
        return calls < 2
          ? HttpResponse.json({ message: 'You are being rate limited.', retry_after: 0.01 }, { status: 429 })
          : HttpResponse.json({ name: 'sent' });
      }),
    );
    const c = client();
    await expect(c.send(post, Thing)).resolves.toEqual({ name: 'sent' });
    expect(calls).toBe(2);
    await c.close();
  });

  it('is not sent again after a 5xx, where it may have been acted on', async () => {
    let calls = 0;
    server.use(
      http.post('*/base/v1/post', () => {
        calls++;
        return HttpResponse.json({ message: 'boom' }, { status: 502 });
      }),
    );
    const c = client();
    expect((await failure(c.send(post, Thing))).code).toBe('upstream');
    expect(calls).toBe(1);
    await c.close();
  });
});
