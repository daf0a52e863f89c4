import { describe, expect, it } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { createEmailClient } from '../../src/services/email/client.ts';
import { parseResendTimestamp } from '../../src/services/email/schemas.ts';
import { EMAIL_DELIVERY_MS, EMAIL_MAGIC, emailHandlers } from '../../src/sandbox/email.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  type Answer,
  clientMaker,
  errorText,
  expectFailureCodes,
  LATE_ANSWER_MS,
  expectNoSecret,
  failure,
  htmlPage,
  readFixture,
  useFakeServer,
} from '../support/service-harness.ts';

const TOKEN = 'test-email-token-4711';
const FROM = 'Herald Reports <reports@herald.example>';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const fixture = (name: string) => readFixture('email', name);

let clockMs = Date.parse('2025-04-03T22:13:42.674Z');
const server = useFakeServer(() => emailHandlers({ credential: TOKEN, now: () => clockMs }));
const makeClient = clientMaker(createEmailClient, () => ({
  baseUrl: sandboxBaseUrl(server.url, 'email'),
  accessToken: TOKEN,
  from: FROM,
}));

const message = { to: ['delivered@resend.dev'], subject: 'Weekly analytics', html: '<p>Sessions up 4%</p>' };
const posts = () => server.requests.filter((r) => r.method === 'POST');

describe('email client', () => {
  it('sends POST /emails under the base path with JSON, the bearer token and a generated Idempotency-Key', async () => {
    const { client } = makeClient();
    const { id } = await client.send(message);
    expect(id).toMatch(UUID_RE);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.pathname).toBe('/email/emails');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers['idempotency-key']).toMatch(UUID_RE);
    expect(JSON.parse(req.body)).toEqual({ from: FROM, ...message });
  });

  it('gives every send its own generated key', async () => {
    const { client } = makeClient();
    await client.send(message);
    await client.send(message);
    const [a, b] = posts().map((r) => r.headers['idempotency-key']);
    expect(a).not.toBe(b);
  });

  it('retries a failed send with the same Idempotency-Key, generated or given', async () => {
    for (const given of [undefined, 'report-2025-04-03']) {
      server.requests.length = 0;
      let calls = 0;
      server.use(
        http.post(route('email', '/emails'), () => {
          calls++;
          if (calls === 1)
            return HttpResponse.json(
              { statusCode: 503, name: 'application_error', message: 'x' },
              { status: 503 },
            );
          if (calls === 2) return HttpResponse.error();
          return undefined; // falls through to the fake
        }),
      );
      const { client } = makeClient();
      const { id } = await client.send({ ...message, idempotencyKey: given });
      expect(id).toMatch(UUID_RE);
      const keys = posts().map((r) => r.headers['idempotency-key']);
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);
      if (given) expect(keys[0]).toBe(given);
      server.resetHandlers();
    }
  });

  it('sends one email for a repeated key and payload, and refuses the key with a different payload', async () => {
    const { client } = makeClient();
    const key = 'digest-7f3a';
    const first = await client.send({ ...message, idempotencyKey: key });
    const again = await client.send({ ...message, idempotencyKey: key });
    expect(again.id).toBe(first.id);
    const e = await failure(client.send({ ...message, subject: 'Other', idempotencyKey: key }));
    expect(e.code).toBe('invalid_request');
    expect(e.status).toBe(409);
    expect(e.providerMessage).toBe('Same idempotency key used with a different request payload.');
    expect(posts()).toHaveLength(3);
  });

  it('looks up an email and maps it to camelCase, sent first and delivered later', async () => {
    const { client } = makeClient();
    const sentAt = clockMs;
    const { id } = await client.send({ ...message, to: ['ops@example.org', 'Dana <dana@example.org>'] });
    const early = await client.get(id);
    expect(early).toEqual({
      id,
      from: FROM,
      to: ['ops@example.org', 'Dana <dana@example.org>'],
      subject: 'Weekly analytics',
      createdAt: new Date(sentAt),
      lastEvent: 'sent',
    });
    clockMs += EMAIL_DELIVERY_MS + 1;
    expect((await client.get(id))?.lastEvent).toBe('delivered');
    const get = server.requests.find((r) => r.method === 'GET')!;
    expect(get.pathname).toBe(`/email/emails/${id}`);
    expect(get.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(get.body).toBe('');
  });

  it("ends with Resend's test recipients' events", async () => {
    const { client } = makeClient();
    const bounced = await client.send({ ...message, to: [EMAIL_MAGIC.bouncedRecipient] });
    const complained = await client.send({ ...message, to: [EMAIL_MAGIC.complainedRecipient] });
    clockMs += EMAIL_DELIVERY_MS + 1;
    expect((await client.get(bounced.id))?.lastEvent).toBe('bounced');
    expect((await client.get(complained.id))?.lastEvent).toBe('complained');
  });

  it('reads both created_at formats of a realistic record and ignores extra fields', async () => {
    const bodies: Record<string, Record<string, unknown>> = {
      pg: fixture('email-postgres-timestamp.json'),
      iso: fixture('email-iso-timestamp.json'),
    };
    server.use(
      http.get(route('email', '/emails/:id'), ({ params }) =>
        HttpResponse.json(bodies[String(params.id)] ?? {}),
      ),
    );
    const { client } = makeClient();
    const pg = await client.get('pg');
    expect(pg?.createdAt.toISOString()).toBe('2025-04-03T22:13:42.674Z');
    expect(pg?.lastEvent).toBe('delivered');
    expect(pg?.from).toBe('Acme <onboarding@resend.dev>');
    const iso = await client.get('iso');
    expect(iso?.createdAt.toISOString()).toBe('2023-04-03T22:13:42.674Z');
    expect(iso?.lastEvent).toBeUndefined();
    expect(iso?.to).toEqual(['ops@example.org', 'Dana Scully <dana@example.org>']);
    expect(Object.keys(iso!).sort()).toEqual(['createdAt', 'from', 'id', 'lastEvent', 'subject', 'to']);
  });

  it('parses Resend timestamps with and without zones', () => {
    expect(parseResendTimestamp('2025-04-03 22:13:42.674981+00')?.toISOString()).toBe(
      '2025-04-03T22:13:42.674Z',
    );
    expect(parseResendTimestamp('2025-04-03T22:13:42.674Z')?.toISOString()).toBe('2025-04-03T22:13:42.674Z');
    expect(parseResendTimestamp('2025-04-04T00:13:42+02:00')?.toISOString()).toBe('2025-04-03T22:13:42.000Z');
    expect(parseResendTimestamp('yesterday')).toBeUndefined();
  });

  it('answers undefined for an unknown id and keeps a hostile id inside its segment', async () => {
    const { client } = makeClient();
    await expect(client.get('a b/../?#é')).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe('/email/emails/a%20b%2F..%2F%3F%23%C3%A9');
    expect(server.requests[0]!.pathname).toBe('/email/emails/a%20b%2F..%2F%3F%23%C3%A9');
  });

  it('refuses a dot-only id, which URL parsing would turn into another endpoint', async () => {
    const { client } = makeClient();
    for (const id of ['..', '.', ' ']) expect((await failure(client.get(id))).code).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses input Resend would reject before any request', async () => {
    const { client } = makeClient();
    const bad = [
      { ...message, to: [] },
      { ...message, to: Array.from({ length: 51 }, (_, i) => `user${i}@example.org`) },
      { ...message, to: ['not-an-address'] },
      { ...message, subject: '  ' },
      { ...message, html: '' },
      { ...message, from: 'Herald' },
      { ...message, idempotencyKey: 'k'.repeat(257) },
    ];
    for (const input of bad) expect((await failure(client.send(input))).code).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
  });

  it("maps Resend's error bodies to typed codes, keeping the provider's message", async () => {
    const cases: [number, string, string, string][] = [
      [400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.', 'invalid_request'],
      [401, 'missing_api_key', 'Missing API key in the authorization header.', 'unauthorized'],
      [401, 'validation_error', 'API key is invalid', 'unauthorized'],
      [401, 'restricted_api_key', 'This API key is restricted to only send emails.', 'forbidden'],
      [403, 'invalid_api_key', 'API key is invalid.', 'unauthorized'],
      [403, 'validation_error', 'The example.com domain is not verified.', 'invalid_request'],
      [404, 'not_found', 'The requested endpoint does not exist.', 'invalid_request'],
      [422, 'validation_error', 'Invalid `to` field.', 'invalid_request'],
      [500, 'application_error', 'An unexpected error occurred.', 'upstream'],
    ];
    const { client } = makeClient({}, { maxRetries: 0 });
    for (const [status, name, text, code] of cases) {
      server.use(
        http.get(route('email', '/emails/:id'), () =>
          HttpResponse.json({ statusCode: status, name, message: text }, { status }),
        ),
      );
      const e = await failure(client.get('49a3999c-0ce1-4ea6-ab68-afcd6dc2e794'));
      expect({ status, name, code: e.code, providerMessage: e.providerMessage, http: e.status }).toEqual({
        status,
        name,
        code,
        providerMessage: text,
        http: status,
      });
    }
  });

  it('is refused by the fake with a wrong or missing key', async () => {
    const wrong = await failure(makeClient({ accessToken: 'another-token-0000' }).client.send(message));
    expect([wrong.code, wrong.status]).toEqual(['unauthorized', 403]);
    const missing = await failure(makeClient({ accessToken: '' }).client.get('x'));
    expect([missing.code, missing.status]).toEqual(['unauthorized', 401]);
  });

  it('reads a 429 with Retry-After into retryAfterMs', async () => {
    const { client } = makeClient({}, { maxRetries: 0 });
    const e = await failure(client.send({ ...message, subject: EMAIL_MAGIC.rateLimitedSubject }));
    expect(e.code).toBe('rate_limited');
    expect(e.retryAfterMs).toBe(1_000);
    expect(e.providerMessage).toMatch(/2 requests per second/);
  });

  it('does not retry a daily quota error and says when it resets', async () => {
    const { client } = makeClient();
    const e = await failure(client.send({ ...message, subject: EMAIL_MAGIC.quotaSubject }));
    expect(e.code).toBe('rate_limited');
    expect(e.retryAfterMs).toBeGreaterThan(0);
    expect(e.retryAfterMs).toBeLessThanOrEqual(24 * 3_600_000);
    expect(posts()).toHaveLength(1);
  });

  it('retries a 500 with the same key, then reports upstream', async () => {
    const { client } = makeClient();
    const e = await failure(client.send({ ...message, subject: EMAIL_MAGIC.errorSubject }));
    expect([e.code, e.status]).toEqual(['upstream', 500]);
    expect(new Set(posts().map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(posts()).toHaveLength(3);
  });

  it('maps a timeout, a reset, an HTML page and a misfit body to typed codes', async () => {
    const cases: [Answer, string][] = [
      [async () => (await delay(LATE_ANSWER_MS), HttpResponse.json({})), 'timeout'],
      [() => HttpResponse.error(), 'network'],
      [() => htmlPage('<html><body>Bad gateway</body></html>', 200), 'bad_response'],
      [() => htmlPage('<html><body>Bad gateway</body></html>', 502), 'upstream'],
      [() => HttpResponse.json({ id: 42, from: 'x' }), 'bad_response'],
      [
        () => HttpResponse.json({ ...fixture('email-iso-timestamp.json'), created_at: 'soon' }),
        'bad_response',
      ],
    ];
    const { client } = makeClient({}, { maxRetries: 0, requestTimeoutMs: 5_000 });
    await expectFailureCodes(
      server,
      cases,
      (answer) => http.get(route('email', '/emails/:id'), answer),
      () => client.get('some-id'),
    );
  });

  it('fails on a route the fake does not serve instead of answering undefined', async () => {
    const { client } = makeClient({ baseUrl: `${server.url}/nowhere` });
    const e = await failure(client.get('49a3999c-0ce1-4ea6-ab68-afcd6dc2e794'));
    expect([e.code, e.status]).toEqual(['invalid_request', 404]);
  });

  it('never lets the token reach an error, a provider message or a log line', async () => {
    server.use(
      http.get(route('email', '/emails/:id'), ({ request }) =>
        HttpResponse.json(
          {
            statusCode: 401,
            name: 'validation_error',
            message: `Key ${request.headers.get('authorization')} is invalid`,
          },
          { status: 401 },
        ),
      ),
    );
    const { client, lines } = makeClient({}, { maxRetries: 0 });
    const errors = [
      await failure(client.get('x')),
      await failure(client.send({ ...message, subject: EMAIL_MAGIC.errorSubject })),
      await failure(makeClient({ accessToken: `${TOKEN}-wrong` }).client.send(message)),
    ];
    expect(errors[0]!.providerMessage).toMatch(/^Key Bearer \[REDACTED\] is invalid$/);
    expectNoSecret([TOKEN], ...errors.map(errorText));
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret([TOKEN], lines.join('\n'));
  });
});
