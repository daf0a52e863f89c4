// The whole-request deadline of exchange(): one timer per request, joined with the caller's signal,
// a typed `timeout` on expiry, and nothing left pending (no timer, no listener on the caller's
// signal) once a request settles, however it settles.
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exchange, type ExchangeDeps } from '../../src/http/exchange.ts';
import { failureFor } from '../../src/http/failure.ts';
import { HTTP_DEFAULTS } from '../../src/http/policy.ts';
import type { HttpRequest, RawResponse } from '../../src/http/types.ts';
import { failure } from '../support/service-harness.ts';

const fail = failureFor('weather');
const req: HttpRequest = { service: 'weather', operation: 'forecast', method: 'GET', path: '/forecast' };
const ok: RawResponse = { status: 200, headers: {}, bytes: Buffer.from('{"ok":true}') };

/** An attempt that answers `status`, or, when `hang`, waits for the signal like the transport. */
function deps(answer: 'ok' | 'hang' | 503): ExchangeDeps {
  return {
    service: 'weather',
    opts: { ...HTTP_DEFAULTS, requestTimeoutMs: 1_000, retryBaseMs: 400, maxRetries: 5 },
    random: () => 0.5,
    log: undefined,
    fail,
    attempt: (r, _url, signal) => {
      if (answer === 'ok') return Promise.resolve(ok);
      if (answer === 503) return Promise.resolve({ status: 503, headers: {}, bytes: Buffer.alloc(0) });
      return new Promise((_, reject) => {
        const stop = () => reject(fail(r, 'timeout', { cause: signal.reason }));
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      });
    },
    toError: (r, res) => fail(r, 'upstream', { status: res.status }),
    record: () => undefined,
  };
}

describe('the whole-request deadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('leaves no timer and no listener on the caller signal after many calls', async () => {
    const caller = new AbortController();
    for (let i = 0; i < 50; i++) await exchange(deps('ok'), req, 'http://x/forecast', caller.signal);
    for (let i = 0; i < 50; i++) await exchange(deps('ok'), req, 'http://x/forecast');
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('clears the deadline of a failed request too', async () => {
    const caller = new AbortController();
    const p = failure(
      exchange({ ...deps(503), opts: { ...HTTP_DEFAULTS, maxRetries: 0 } }, req, 'u', caller.signal),
    );
    expect((await p).code).toBe('upstream');
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('ends a hanging request at the deadline as a typed timeout', async () => {
    const p = failure(exchange(deps('hang'), req, 'u'));
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const err = await p;
    expect(err.code).toBe('timeout');
    expect((err.cause as Error).name).toBe('TimeoutError');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('bounds all the attempts and retry waits together, not each one', async () => {
    const p = failure(exchange(deps(503), req, 'u'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await p).code).toBe('timeout');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops when the caller's signal fires, with the caller's reason, and when it already has", async () => {
    const caller = new AbortController();
    const p = failure(exchange(deps('hang'), req, 'u', caller.signal));
    const reason = new Error('caller gave up');
    caller.abort(reason);
    const err = await p;
    expect(err.code).toBe('timeout');
    expect(err.cause).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);

    const late = await failure(exchange(deps('hang'), req, 'u', AbortSignal.abort(reason)));
    expect(late.cause).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });
});
