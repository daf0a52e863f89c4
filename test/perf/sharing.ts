// One suite, run once per cached service client: identical concurrent calls share one upstream
// request, a repeat within the TTL is answered from the cache, and the TTL is read from the
// client's injected clock (ClientDeps.now). Proven by request counts at the loopback fake.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpResponse, http, type JsonBodyType, type RequestHandler } from 'msw';
import { ServiceError } from '../../src/errors.ts';
import type { CallOptions, CallRecord } from '../../src/http/client.ts';
import type { ClientDeps, Closable } from '../../src/services/deps.ts';
import { closeAfterEach, useFakeServer } from '../support/service-harness.ts';

/** lru-cache treats a start time of 0 as "no TTL", so the fake clock starts at a real date. */
export const START_MS = Date.parse('2025-06-01T12:00:00Z');

export interface SharingSpec<C extends Closable> {
  /** "weather.current" */
  name: string;
  ttlMs: number;
  /** The sandbox's handlers for this service, reading the same fake clock. */
  handlers(now: () => number): RequestHandler[];
  /** The msw route of the cached operation (for a failing override). */
  route: string;
  create(origin: string, deps: ClientDeps): C;
  /** One call of the cached operation; `input` picks a distinct input where the operation has one. */
  call(client: C, input: number, opts?: CallOptions): Promise<unknown>;
  /** The request path every call must hit. */
  pathname: string;
  /** False for operations without input (speech.voices). */
  hasInput: boolean;
  /** A realistic failure body for the route (what the provider sends with a 503), and its code. */
  failureBody: JsonBodyType;
  failureCode: ServiceError['code'];
}

interface Harness<C> {
  client: C;
  calls: CallRecord[];
  advance(ms: number): void;
}

export function describeSharing<C extends Closable>(spec: SharingSpec<C>): void {
  describe(`${spec.name} sharing and caching`, () => {
    let nowMs = START_MS;
    const server = useFakeServer(() => spec.handlers(() => nowMs));
    const clients = closeAfterEach<Closable>();
    afterEach(() => {
      server.setLatency(0);
      nowMs = START_MS;
    });

    function harness(): Harness<C> {
      const calls: CallRecord[] = [];
      const client = spec.create(server.url, {
        now: () => nowMs,
        onCall: (record) => calls.push(record),
        httpOptions: { maxRetries: 0, retryBaseMs: 1, requestTimeoutMs: 5_000 },
      });
      clients.track(client);
      return { client, calls, advance: (ms) => (nowMs += ms) };
    }

    const concurrent = (n: number, run: (i: number) => Promise<unknown>) =>
      Promise.all(Array.from({ length: n }, (_, i) => run(i)));

    it('sends exactly one upstream request for 100 concurrent identical calls, and every caller gets the answer', async () => {
      const { client, calls } = harness();
      const answers = await concurrent(100, () => spec.call(client, 1));

      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.pathname).toBe(spec.pathname);
      expect(answers[0]).toBeDefined();
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      // The shared request is logged once; the 99 joiners add no call records.
      expect(calls.filter((c) => !c.cached)).toHaveLength(1);
    });

    it('answers a repeat within the TTL from the cache, with no new upstream request', async () => {
      const { client, calls, advance } = harness();
      const first = await spec.call(client, 1);
      advance(spec.ttlMs - 1);
      const again = await concurrent(100, () => spec.call(client, 1));

      expect(server.requests).toHaveLength(1);
      for (const answer of again) expect(answer).toEqual(first);
      expect(calls.filter((c) => c.cached)).toHaveLength(100);
    });

    it('asks the upstream again once the TTL has passed on the injected clock, still once for 100 callers', async () => {
      const { client, advance } = harness();
      await spec.call(client, 1);
      advance(spec.ttlMs + 1);
      await concurrent(100, () => spec.call(client, 1));
      expect(server.requests).toHaveLength(2);

      // Fresh again: the second answer is cached for a whole TTL from when it arrived.
      advance(spec.ttlMs - 1);
      await spec.call(client, 1);
      expect(server.requests).toHaveLength(2);
    });

    if (spec.hasInput) {
      it('sends one request per distinct input, never sharing across inputs', async () => {
        const { client } = harness();
        await concurrent(30, (i) => spec.call(client, i % 10));
        expect(server.requests).toHaveLength(10);
        expect(new Set(server.requests.map((r) => r.url)).size).toBe(10);
      });
    }

    it('shares a failure among concurrent callers but does not keep it: the next call asks again', async () => {
      const { client } = harness();
      server.use(http.get(spec.route, () => HttpResponse.json(spec.failureBody, { status: 503 })));
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => spec.call(client, 1)));

      expect(server.requests).toHaveLength(1);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        const reason = (outcome as PromiseRejectedResult).reason as unknown;
        expect(reason).toBeInstanceOf(ServiceError);
        expect((reason as ServiceError).code).toBe(spec.failureCode);
      }
      server.resetHandlers();
      expect(await spec.call(client, 1)).toBeDefined();
      expect(server.requests).toHaveLength(2);
    });

    it('lets one caller stop waiting on its own signal without cancelling the shared request', async () => {
      const { client } = harness();
      server.setLatency(60);
      const impatient = new AbortController();
      const patient = [spec.call(client, 1), spec.call(client, 1)];
      const gaveUp = spec.call(client, 1, { signal: impatient.signal }).then(
        () => undefined,
        (err: unknown) => err,
      );
      setTimeout(() => impatient.abort(), 10);

      const err = await gaveUp;
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).code).toBe('timeout');
      const [a, b] = await Promise.all(patient);
      expect(a).toBeDefined();
      expect(b).toEqual(a);
      expect(server.requests).toHaveLength(1);

      // The answer the impatient caller left behind was still cached for the next one.
      server.setLatency(0);
      expect(await spec.call(client, 1)).toEqual(a);
      expect(server.requests).toHaveLength(1);
    });
  });
}
