import { afterEach, describe, expect, it } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  WEBHOOK_MAGIC,
  createWebhookInbox,
  discordRateLimitResponse,
  webhookHandlers,
} from '../../src/sandbox/webhook.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { type WebhookConfig, type WebhookEmbed } from '../../src/services/webhook/client.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import type { ClientDeps } from '../../src/services/deps.ts';
import {
  expectNoSecret,
  failure as serviceFailure,
  htmlPage,
  useFakeServer,
  useLogCapture,
} from '../support/service-harness.ts';

const WEBHOOK_ID = '1349081729583431690';
const TOKEN = 'test-webhook-token-4f1d2c-0b9e';
const POST_ROUTE = route('webhook', '/:id/:token');
const inbox = createWebhookInbox();

const server = useFakeServer(() => webhookHandlers({ credential: TOKEN, webhookId: WEBHOOK_ID, inbox }));
const { log: capturingLog, lines: logLines } = useLogCapture();
afterEach(() => {
  inbox.clear();
});

function client(config: Partial<WebhookConfig> = {}, deps: ClientDeps = {}) {
  return createWebhookClient(
    { baseUrl: sandboxBaseUrl(server.url, 'webhook'), id: WEBHOOK_ID, token: TOKEN, ...config },
    { log: capturingLog, httpOptions: { retryBaseMs: 1, requestTimeoutMs: 2_000 }, ...deps },
  );
}

const failure = (p: Promise<unknown>, token = TOKEN) => serviceFailure(p, token, encodeURIComponent(token));

const file = (name: string, size = 3) => ({ name, contentType: 'text/plain', bytes: new Uint8Array(size) });

const embed = (over: Partial<WebhookEmbed> = {}): WebhookEmbed => ({
  title: 'Daily analytics',
  description: 'Sessions are up 12% on the previous day.',
  color: 0x2ecc71,
  fields: [{ name: 'Sessions', value: '1,204', inline: true }],
  footer: { text: 'herald' },
  timestamp: '2025-03-12T08:00:00.000Z',
  ...over,
});

describe('webhook client', () => {
  it('posts JSON to /{id}/{token}?wait=true with no auth header and suppressed mentions, and returns the created message', async () => {
    const webhook = client();
    const posted = await webhook.post({
      content: 'Deploy finished ✅ @everyone',
      username: 'herald',
      embeds: [embed()],
    });

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.pathname).toBe(`/webhook/api/webhooks/${WEBHOOK_ID}/${TOKEN}`);
    expect(req.query.toString()).toBe('wait=true');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(JSON.parse(req.body)).toEqual({
      content: 'Deploy finished ✅ @everyone',
      username: 'herald',
      embeds: [embed()],
      allowed_mentions: { parse: [] },
    });
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]).toMatchObject({
      webhookId: WEBHOOK_ID,
      content: 'Deploy finished ✅ @everyone',
      allowedMentions: { parse: [] },
    });
    expect(posted).toEqual({ id: inbox.messages[0]!.id, channelId: '1234567890123456789' });
    await webhook.close();
  });

  it('uploads files in the same post as multipart (payload_json plus files[n]) that an embed can show', async () => {
    const webhook = client();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
    const mp3 = new Uint8Array(4096).map((_, i) => (i * 7) & 0xff);
    const posted = await webhook.post({
      content: 'Morning briefing @here',
      embeds: [embed({ image: { url: 'attachment://sessions.png' } })],
      files: [
        { name: 'sessions.png', contentType: 'image/png', bytes: png, description: 'Sessions, 7 days' },
        { name: 'briefing.mp3', contentType: 'audio/mpeg', bytes: mp3 },
      ],
    });
    const req = server.requests[0]!;
    expect(req.query.toString()).toBe('wait=true');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const message = inbox.messages[0]!;
    expect(posted.id).toBe(message.id);
    expect(message.body).toEqual({
      content: 'Morning briefing @here',
      embeds: [embed({ image: { url: 'attachment://sessions.png' } })],
      allowed_mentions: { parse: [] },
      attachments: [
        { id: 0, filename: 'sessions.png', description: 'Sessions, 7 days' },
        { id: 1, filename: 'briefing.mp3' },
      ],
    });
    expect(message.files.map((f) => [f.field, f.filename, f.contentType])).toEqual([
      ['files[0]', 'sessions.png', 'image/png'],
      ['files[1]', 'briefing.mp3', 'audio/mpeg'],
    ]);
    expect(message.files[0]!.bytes).toEqual(png);
    expect(message.files[1]!.bytes).toEqual(mp3);
    await webhook.close();
  });

  it('treats an answer that is not a created message as not posted (bad_response)', async () => {
    const answers = [
      () => new HttpResponse(null, { status: 204 }),
      () => HttpResponse.json({ ok: true }),
      () => htmlPage('<html><body>Welcome to the proxy</body></html>', 200),
    ];
    for (const answer of answers) {
      server.use(http.post(POST_ROUTE, answer));
      const webhook = client();
      const err = await failure(webhook.post({ content: 'hi' }));
      expect(err.code).toBe('bad_response');
      await webhook.close();
    }
    expect(server.requests).toHaveLength(3);
  });

  it('leaves a username to Discord: the one renderer keeps only names Discord accepts', async () => {
    const webhook = client();
    const err = await failure(webhook.post({ content: 'hi', username: 'Discord Bot' }));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(400);
    await webhook.post({ content: 'hi', username: 'herald for everyone' });
    expect(server.requests).toHaveLength(2);
    await webhook.close();
  });

  it('sends only the fields that are set, and still suppresses mentions', async () => {
    const webhook = client();
    await webhook.post({ embeds: [embed({ fields: undefined })] });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      embeds: [embed({ fields: undefined })],
      allowed_mentions: { parse: [] },
    });
    await webhook.close();
  });

  it('keeps a hostile id and token inside their segments, and a wrong id is not_found', async () => {
    const token = 'tok/../x?y=1#z é';
    const webhook = client({ id: 'a b/../?#é', token });
    const err = await failure(webhook.post({ content: 'hi' }), token);
    expect(server.requests[0]!.pathname).toBe(
      '/webhook/api/webhooks/a%20b%2F..%2F%3F%23%C3%A9/tok%2F..%2Fx%3Fy%3D1%23z%20%C3%A9',
    );
    expect(err.code).toBe('not_found');
    expect(err.status).toBe(404);
    expect(err.providerMessage).toBe('Unknown Webhook (10015)');
    await webhook.close();
  });

  it('maps a deleted webhook (404 Unknown Webhook) to not_found', async () => {
    const webhook = client({ id: WEBHOOK_MAGIC.unknownWebhookId });
    expect((await failure(webhook.post({ content: 'hi' }))).code).toBe('not_found');
    await webhook.close();
  });

  it('maps a wrong token (401 Invalid Webhook Token) to unauthorized without leaking either token', async () => {
    const wrong = 'wrong-webhook-token-77aa1';
    const webhook = client({ token: wrong });
    const err = await failure(webhook.post({ content: 'hi' }), wrong);
    expect(err.code).toBe('unauthorized');
    expect(err.status).toBe(401);
    expect(err.providerMessage).toBe('Invalid Webhook Token (50027)');
    await webhook.close();
  });

  it('sends what it is given and maps Discord refusing a message over a limit to invalid_request (the renderer keeps the limits)', async () => {
    const webhook = client();
    const L = DISCORD_LIMITS;
    const long = (n: number) => 'x'.repeat(n);
    const bad = [
      {},
      { content: '   ' },
      { content: long(L.content + 1) },
      { content: 'hi', username: 'Discord Bot' },
      { content: 'hi', username: long(L.username + 1) },
      { content: 'hi', files: Array.from({ length: L.files + 1 }, (_, i) => file(`f${i}.txt`)) },
      { embeds: Array.from({ length: L.embeds + 1 }, () => embed()) },
      { embeds: [embed({ title: long(L.title + 1) })] },
      { embeds: [embed({ description: long(L.description + 1) })] },
      {
        embeds: [embed({ fields: Array.from({ length: L.fields + 1 }, () => ({ name: 'a', value: 'b' })) })],
      },
      { embeds: [embed({ fields: [{ name: long(L.fieldName + 1), value: 'b' }] })] },
      { embeds: [embed({ fields: [{ name: 'a', value: long(L.fieldValue + 1) }] })] },
      { embeds: [embed({ fields: [{ name: 'a', value: ' ' }] })] },
      { embeds: [embed({ footer: { text: long(L.footer + 1) } })] },
      { embeds: [embed({ color: 0x1000000 })] },
      {
        embeds: [
          embed({ title: undefined, description: long(4000), fields: [], footer: undefined }),
          embed({ title: undefined, description: long(2001), fields: [], footer: undefined }),
        ],
      },
    ];
    for (const message of bad) {
      const err = await failure(webhook.post(message));
      expect([JSON.stringify(message).slice(0, 80), err.code]).toEqual([
        JSON.stringify(message).slice(0, 80),
        'invalid_request',
      ]);
    }
    expect(server.requests).toHaveLength(bad.length);
    expect(inbox.messages).toHaveLength(0);
    await webhook.close();
  });

  it('sends a message exactly at every limit, and the simulated Discord accepts it', async () => {
    const webhook = client();
    const long = (n: number) => 'y'.repeat(n);
    await webhook.post({ content: long(DISCORD_LIMITS.content), username: long(DISCORD_LIMITS.username) });
    await webhook.post({
      embeds: [
        embed({ title: long(256), description: long(4096), fields: [], footer: undefined }),
        embed({ title: undefined, description: long(1648), fields: [], footer: undefined }),
      ],
    });
    expect(server.requests).toHaveLength(2);
    expect(inbox.messages).toHaveLength(2);
    await webhook.close();
  });

  it('maps a 400 form error to invalid_request with the nested field path', async () => {
    server.use(
      http.post(POST_ROUTE, () =>
        HttpResponse.json(
          {
            message: 'Invalid Form Body',
            code: 50035,
            errors: {
              embeds: {
                '0': {
                  fields: {
                    '0': {
                      value: {
                        _errors: [
                          { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1024 or fewer in length.' },
                        ],
                      },
                    },
                  },
                },
              },
            },
          },
          { status: 400 },
        ),
      ),
    );
    const webhook = client();
    const err = await failure(webhook.post({ content: 'hi' }));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(400);
    expect(err.providerMessage).toBe(
      'Invalid Form Body (50035); embeds.0.fields.0.value: Must be 1024 or fewer in length.',
    );
    await webhook.close();
  });

  it('maps a 403 to forbidden', async () => {
    server.use(
      http.post(POST_ROUTE, () =>
        HttpResponse.json({ message: 'Missing Access', code: 50001 }, { status: 403 }),
      ),
    );
    const webhook = client();
    expect((await failure(webhook.post({ content: 'hi' }))).code).toBe('forbidden');
    await webhook.close();
  });

  it('maps a 429 to rate_limited with retry_after (float seconds) rounded up to ms, without retrying the POST', async () => {
    server.use(http.post(POST_ROUTE, () => discordRateLimitResponse({ retryAfterS: 1.2341 })));
    const webhook = client();
    const err = await failure(webhook.post({ content: 'hi' }));
    expect(err.code).toBe('rate_limited');
    expect(err.status).toBe(429);
    expect(err.retryAfterMs).toBe(1_235);
    expect(err.providerMessage).toBe('You are being rate limited.');
    expect(server.requests).toHaveLength(1);
    await webhook.close();
  });

  it('maps a Cloudflare HTML 429 to rate_limited using the Retry-After header', async () => {
    server.use(
      http.post(POST_ROUTE, () =>
        htmlPage(
          '<!DOCTYPE html><html><head><title>Access denied | discord.com used Cloudflare</title></head></html>',
          429,
          { 'retry-after': '600' },
        ),
      ),
    );
    const webhook = client();
    const err = await failure(webhook.post({ content: 'hi' }));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(600_000);
    expect(err.providerMessage).toBe('Access denied | discord.com used Cloudflare');
    await webhook.close();
  });

  it('gets a 429 from the simulator when its bucket is enforced and exhausted', async () => {
    let nowMs = 1_741_766_400_000;
    server.use(
      ...webhookHandlers({
        inbox,
        credential: TOKEN,
        rateLimit: { limit: 2, windowMs: 2_000 },
        now: () => nowMs,
      }),
    );
    const webhook = client();
    await webhook.post({ content: 'one' });
    await webhook.post({ content: 'two' });
    nowMs += 500;
    const err = await failure(webhook.post({ content: 'three' }));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(1_500);
    nowMs += 1_500;
    await webhook.post({ content: 'four' });
    expect(inbox.messages.map((m) => m.content)).toEqual(['one', 'two', 'four']);
    await webhook.close();
  });

  it('maps a 5xx HTML page to upstream, once: a POST without an idempotency key is not retried', async () => {
    server.use(
      http.post(POST_ROUTE, () =>
        htmlPage('<html><body><h1>502 Bad Gateway</h1>There was not a gateway available.</body></html>', 502),
      ),
    );
    const webhook = client();
    const err = await failure(webhook.post({ content: 'hi' }));
    expect(err.code).toBe('upstream');
    expect(err.status).toBe(502);
    expect(err.providerMessage).toBe('502 Bad Gateway There was not a gateway available.');
    expect(server.requests).toHaveLength(1);
    await webhook.close();
  });

  it('maps an error body that does not fit Discord shape to the status code, keeping an excerpt', async () => {
    server.use(http.post(POST_ROUTE, () => HttpResponse.json({ error: 'bad' }, { status: 400 })));
    const webhook = client();
    const err = await failure(webhook.post({ content: 'hi' }));
    expect(err.code).toBe('invalid_request');
    expect(err.providerMessage).toBe('{"error":"bad"}');
    await webhook.close();
  });

  it('fails with timeout when Discord is slower than the request timeout', async () => {
    server.use(
      http.post(POST_ROUTE, async () => {
        await delay(1_000);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const webhook = client({}, { httpOptions: { retryBaseMs: 1, requestTimeoutMs: 100 } });
    expect((await failure(webhook.post({ content: 'hi' }))).code).toBe('timeout');
    await webhook.close();
  });

  it('fails with network when the connection is reset', async () => {
    server.use(http.post(POST_ROUTE, () => HttpResponse.error()));
    const webhook = client();
    expect((await failure(webhook.post({ content: 'hi' }))).code).toBe('network');
    await webhook.close();
  });

  it('never writes the token into log lines or errors, even when Discord echoes the URL', async () => {
    const webhook = client();
    await webhook.post({ content: 'ok' });
    server.use(
      http.post(POST_ROUTE, ({ request }) =>
        HttpResponse.json({ message: `No route for ${request.url}`, code: 0 }, { status: 404 }),
      ),
    );
    const err = await failure(webhook.post({ content: 'hi' }));
    expect(err.providerMessage).toContain(`/webhooks/${WEBHOOK_ID}/[REDACTED]`);
    expect(logLines.length).toBeGreaterThanOrEqual(2);
    expectNoSecret([TOKEN], ...logLines);
    await webhook.close();
  });
});
