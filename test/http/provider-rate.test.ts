// The provider's rate: the free tier unless a plan is configured per minute, waited for while the
// request's deadline allows, refused with one sentence past it, and counted once across replicas
// through Redis.
import { Redis } from 'ioredis';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { RateQuotaError, userMessageFor, type ServiceName } from '../../src/errors.ts';
import { createHttpClient } from '../../src/http/client.ts';
import { createProviderRate, rateLimitFor, type RateLimit } from '../../src/http/guard.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../support/redis.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { failure } from '../support/service-harness.ts';

const prefix = testKeyPrefix();
let redis: Redis;
let server: SandboxServer;
beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  server = await startFake([]);
});
afterAll(async () => {
  await deleteKeys(prefix);
  redis.disconnect();
  await server.close();
});

describe('the rate of a provider', () => {
  it('is the free tier unless a plan sets calls per minute', () => {
    expect(rateLimitFor('weather', undefined)).toEqual({ points: 60, durationS: 60 });
    expect(rateLimitFor('hostscan', undefined)).toEqual({ points: 1, durationS: 1 });
    expect(rateLimitFor('weather', 3000)).toEqual({ points: 3000, durationS: 60 });
    expect(rateLimitFor('speech', undefined)).toBeUndefined();
    expect(rateLimitFor('speech', 100)).toEqual({ points: 100, durationS: 60 });
  });
});

describe('waiting for the rate', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-26T10:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const signal = new AbortController().signal;
  /** A wait on the fake clock that records how long each one was. */
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
    vi.advanceTimersByTime(ms);
  };
  /** The rate in memory, waited for at most 20 seconds, through `waitFor` (the recorded wait). */
  const rateOf = (
    service: ServiceName,
    rate: RateLimit,
    baseUrl: string,
    waitFor: (ms: number, signal: AbortSignal) => Promise<unknown> = wait,
  ) => createProviderRate({ service, rate, baseUrl, maxWaitMs: 20_000, wait: waitFor });

  it('holds a request until the next window instead of failing it (email: 2 a second)', async () => {
    waits.length = 0;
    const rate = rateOf('email', { points: 2, durationS: 1 }, 'https://api.resend.example');
    for (let i = 0; i < 5; i++) await rate.take('send', signal);
    // Two in the first second, two in the next, one in the third.
    expect(waits).toEqual([1000, 1000]);
  });

  it('refuses with one sentence when the window frees up only after the deadline', async () => {
    const rate = rateOf('weather', { points: 2, durationS: 60 }, 'https://api.openweathermap.example');
    await rate.take('current', signal);
    vi.advanceTimersByTime(30_000);
    await rate.take('current', signal);
    const err = await rate.take('current', signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateQuotaError);
    expect(err).toMatchObject({ code: 'rate_limited', service: 'weather', retryAfterMs: 30_000 });
    expect(userMessageFor(err)).toBe("The weather service's quota for this minute is used up.");
  });

  it('gives up waiting, with the same sentence, when the caller gives up first', async () => {
    const rate = rateOf(
      'weather',
      { points: 1, durationS: 10 },
      'https://api.openweathermap.example',
      // As node's timers/promises sleep: rejects when the signal fires, or at once if it has.
      (_ms, s) =>
        new Promise((_resolve, reject) => {
          if (s.aborted) reject(s.reason as Error);
          s.addEventListener('abort', reject);
        }),
    );
    await rate.take('current', signal);
    const caller = new AbortController();
    const pending = rate.take('current', caller.signal).catch((e: unknown) => e);
    caller.abort(new Error('deadline'));
    const err = await pending;
    expect(err).toBeInstanceOf(RateQuotaError);
    expect(userMessageFor(err)).toBe("The weather service's quota for this second is used up.");
  });
});

describe('the rate across replicas', () => {
  it('is counted once in Redis for one upstream, separately for another', async () => {
    const replica = (baseUrl: string) =>
      createProviderRate({
        service: 'weather',
        rate: { points: 3, durationS: 60 },
        redis,
        prefix,
        baseUrl,
        maxWaitMs: 20_000,
      });
    const a = replica('https://api.openweathermap.example');
    const b = replica('https://api.openweathermap.example');
    const signal = new AbortController().signal;
    await a.take('current', signal);
    await b.take('current', signal);
    await a.take('current', signal);
    await expect(b.take('current', signal)).rejects.toBeInstanceOf(RateQuotaError);
    // Another webhook or provider address has its own count.
    await replica('https://other.example').take('current', signal);
    // No key holds the address itself (a webhook's token is part of it).
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('openweathermap');
  });
});

describe('the rate in the client', () => {
  it('sends nothing past the plan and answers with the sentence', async () => {
    let calls = 0;
    server.use(
      http.get('*/weather', () => {
        calls++;
        return HttpResponse.json({ ok: true, extra: 'field' });
      }),
    );
    const c = createHttpClient({
      service: 'weather',
      baseUrl: server.url,
      options: { providerRateLimit: true, rateLimitPerMinute: 2, requestTimeoutMs: 5_000 },
      quotaStore: { redis, prefix },
    });
    const get = () =>
      c.send({ service: 'weather', operation: 'current', method: 'GET', path: '/weather' }, z.object({}));
    await get();
    await get();
    const err = await failure(get());
    expect(userMessageFor(err)).toBe("The weather service's quota for this minute is used up.");
    expect(calls).toBe(2);
    await c.close();
  });
});
