import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse, delay } from 'msw';
import { z } from 'zod';
import { createHttpClient } from '../../src/http/client.ts';
import { createBreaker } from '../../src/http/guard.ts';
import type { ServiceError } from '../../src/errors.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const Any = z.looseObject({});
let server: SandboxServer;
beforeAll(async () => {
  server = await startFake([]);
});
afterAll(() => server.close());
afterEach(() => {
  server.resetHandlers();
  server.requests.length = 0;
});

describe('circuit breaker', () => {
  it('opens after consecutive failures, fails fast, then lets one trial through after the cooldown', () => {
    let t = 0;
    const b = createBreaker({ failureThreshold: 3, cooldownMs: 1000 }, () => t);
    b.failure();
    b.failure();
    expect(b.blockedForMs()).toBeUndefined();
    b.failure();
    expect(b.state()).toBe('open');
    expect(b.blockedForMs()).toBe(1000);
    t = 1000;
    expect(b.blockedForMs()).toBeUndefined(); // the trial
    expect(b.blockedForMs()).toBe(1000); // a second caller waits while the trial runs
    b.failure();
    expect(b.state()).toBe('open');
    t = 2000;
    expect(b.blockedForMs()).toBeUndefined();
    b.success();
    expect(b.state()).toBe('closed');
  });

  it('answers a dead upstream fast with "unavailable" instead of stacking timeouts', async () => {
    let calls = 0;
    server.use(
      http.get('*/dead', () => {
        calls++;
        return HttpResponse.json({ message: 'down' }, { status: 503 });
      }),
    );
    const c = createHttpClient({
      service: 'weather',
      baseUrl: server.url,
      options: { maxRetries: 0, breakerFailureThreshold: 3, breakerCooldownMs: 60_000 },
    });
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const e = await c
        .send({ service: 'weather', operation: 'dead', method: 'GET', path: '/dead' }, Any)
        .catch((err: unknown) => err);
      codes.push((e as ServiceError).code);
    }
    expect(codes).toEqual(['upstream', 'upstream', 'upstream', 'unavailable', 'unavailable', 'unavailable']);
    expect(calls).toBe(3);
    const e = await c
      .send({ service: 'weather', operation: 'dead', method: 'GET', path: '/dead' }, Any)
      .catch((err: unknown) => err as ServiceError);
    expect(e.retryAfterMs).toBeGreaterThan(50_000);
    expect(c.health().breaker).toBe('open');
    await c.close();
  });
});

describe('upstream limits', () => {
  it('never has more requests in flight than the concurrency limit', async () => {
    let inFlight = 0;
    let peak = 0;
    server.use(
      http.get('*/slow/:n', async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await delay(30);
        inFlight--;
        return HttpResponse.json({});
      }),
    );
    const c = createHttpClient({ service: 'geocoding', baseUrl: server.url, options: { maxConcurrent: 3 } });
    await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        c.send({ service: 'geocoding', operation: 'slow', method: 'GET', path: `/slow/${n}` }, Any),
      ),
    );
    expect(peak).toBe(3);
    await c.close();
  });

  it('gives up waiting in the queue when the caller gives up', async () => {
    server.use(
      http.get('*/hang', async () => {
        await delay(500);
        return HttpResponse.json({});
      }),
    );
    const c = createHttpClient({ service: 'hostscan', baseUrl: server.url, options: { maxConcurrent: 1 } });
    const first = c.send({ service: 'hostscan', operation: 'hang', method: 'GET', path: '/hang' }, Any);
    const second = c
      .send({ service: 'hostscan', operation: 'hang', method: 'GET', path: '/hang?x=2' }, Any, {
        signal: AbortSignal.timeout(50),
      })
      .catch((e: unknown) => e as ServiceError);
    expect((await second).code).toBe('timeout');
    await first;
    await c.close();
  });
});
