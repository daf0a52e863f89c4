import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  WEBHOOK_MAGIC,
  createWebhookInbox,
  webhookHandlers,
  webhookInbox,
} from '../../src/sandbox/webhook.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const ID = '1200000000000000001';
const TOKEN = 'sandbox-webhook-token-9c3e';
const inbox = createWebhookInbox();
let server: SandboxServer;
let base: string;

beforeAll(async () => {
  server = await startFake(
    webhookHandlers({ credential: TOKEN, inbox, now: () => Date.parse('2025-03-12T10:15:30.123Z') }),
  );
  base = sandboxBaseUrl(server.url, 'webhook');
});
afterAll(() => server.close());
afterEach(() => inbox.clear());

function post(body: unknown, opts: { id?: string; token?: string; query?: string } = {}): Promise<Response> {
  return fetch(`${base}/${opts.id ?? ID}/${opts.token ?? TOKEN}${opts.query ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function formErrors(body: unknown): Promise<unknown> {
  const res = await post(body);
  expect(res.status).toBe(400);
  const json = (await res.json()) as { code: number; message: string; errors: unknown };
  expect(json.code).toBe(50035);
  expect(json.message).toBe('Invalid Form Body');
  return json.errors;
}

const maxLength = (n: number) => ({
  _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${n} or fewer in length.` }],
});
const x = (n: number) => 'x'.repeat(n);

describe('webhook sandbox', () => {
  it('answers 204 with no body and rate-limit headers, and keeps the message in the inbox', async () => {
    const res = await post({ content: 'hello', username: ' herald ', allowed_mentions: { parse: [] } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(res.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]).toMatchObject({
      webhookId: ID,
      content: 'hello',
      username: 'herald',
      embeds: [],
    });
    expect(inbox.messages[0]!.id).toMatch(/^\d{17,20}$/);
  });

  it('answers 200 with the created message when wait=true', async () => {
    const res = await post(
      { content: 'Deploy finished', embeds: [{ title: 'ok', color: 3066993 }] },
      { query: '?wait=true' },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      type: 0,
      content: 'Deploy finished',
      webhook_id: ID,
      embeds: [{ type: 'rich', title: 'ok', color: 3066993 }],
      timestamp: '2025-03-12T10:15:30.123000+00:00',
      author: { bot: true },
    });
  });

  it('enforces the content, embed count and per-embed limits with nested 50035 errors', async () => {
    expect(await formErrors({ content: x(2001) })).toEqual({ content: maxLength(2000) });
    expect(await formErrors({ embeds: Array.from({ length: 11 }, () => ({ title: 't' })) })).toEqual({
      embeds: maxLength(10),
    });
    expect(
      await formErrors({
        embeds: [
          { title: 'fine' },
          {
            title: x(257),
            description: x(4097),
            footer: { text: x(2049) },
            fields: [{ name: x(257), value: 'v' }, { name: 'n', value: x(1025) }, { name: 'n' }],
          },
        ],
      }),
    ).toEqual({
      embeds: {
        // Also over 6000 in total: Discord reports every problem at once.
        _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' }],
        '1': {
          title: maxLength(256),
          description: maxLength(4096),
          footer: { text: maxLength(2048) },
          fields: {
            '0': { name: maxLength(256) },
            '1': { value: maxLength(1024) },
            '2': { value: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } },
          },
        },
      },
    });
    expect(
      await formErrors({
        embeds: [{ fields: Array.from({ length: 26 }, () => ({ name: 'a', value: 'b' })) }],
      }),
    ).toEqual({
      embeds: { '0': { fields: maxLength(25) } },
    });
  });

  it('counts all embeds together against 6000 characters, trimming whitespace', async () => {
    const atLimit = [{ description: x(4000) }, { description: `  ${x(2000)}  ` }];
    expect((await post({ embeds: atLimit })).status).toBe(204);
    expect(
      await formErrors({ embeds: [{ description: x(4000) }, { title: 'a', description: x(2000) }] }),
    ).toEqual({
      embeds: {
        _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' }],
      },
    });
  });

  it('refuses usernames with "discord", an empty message and invalid JSON like Discord', async () => {
    expect(await formErrors({ content: 'hi', username: 'My Discord Bot' })).toEqual({
      username: {
        _errors: [{ code: 'USERNAME_INVALID_CONTAINS', message: 'Username cannot contain "discord"' }],
      },
    });
    const empty = await post({ content: '   ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: 'Cannot send an empty message', code: 50006 });
    const invalid = await post('{"content": ');
    expect(await invalid.json()).toEqual({ message: 'The request body contains invalid JSON.', code: 50109 });
    expect(inbox.messages).toHaveLength(0);
  });

  it('answers 401 Invalid Webhook Token for a wrong token and 404 Unknown Webhook for an unknown id', async () => {
    const wrong = await post({ content: 'hi' }, { token: 'other-token-xyz' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'Invalid Webhook Token', code: 50027 });
    const unknown = await post({ content: 'hi' }, { id: WEBHOOK_MAGIC.unknownWebhookId });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Unknown Webhook', code: 10015 });
  });

  it('answers Get Webhook with Token with the webhook object, in no guild: a simulated webhook is in no real server', async () => {
    const res = await fetch(`${base}/${ID}/${TOKEN}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      application_id: null,
      avatar: null,
      channel_id: '1234567890123456789',
      guild_id: null,
      id: ID,
      name: 'herald',
      type: 1,
      token: TOKEN,
    });
    expect((await fetch(`${base}/${ID}/other-token-xyz`)).status).toBe(401);
    expect((await fetch(`${base}/${WEBHOOK_MAGIC.unknownWebhookId}/${TOKEN}`)).status).toBe(404);
  });

  it('uses a shared default inbox when no inbox is given', async () => {
    server.use(...webhookHandlers({ credential: TOKEN }));
    webhookInbox().clear();
    expect((await post({ content: 'to the default inbox' })).status).toBe(204);
    expect(webhookInbox().messages.map((m) => m.content)).toEqual(['to the default inbox']);
    expect(inbox.messages).toHaveLength(0);
    server.resetHandlers();
  });
});
