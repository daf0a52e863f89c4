// End to end: Discord's HTTP interactions endpoint on herald's one HTTP server. Requests are
// signed with a generated Ed25519 key pair as Discord signs them; the edits and follow-ups go to
// the fake Discord REST API, through the same renderer and respond rules as the gateway's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customIdFor } from '../../../adapters/discord/custom-id.ts';
import { INTERACTION_BODY_MAX } from '../../../adapters/discord/http.ts';
import { APP_ID, buttonClick, slashCommand, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';
import {
  generateKeys,
  MP3,
  post,
  signedHeaders,
  startHttpReplica,
  type HttpReplica,
} from './http-support.ts';
import { recordingLog, type LogLine } from '../../support/command-doubles.ts';

const keys = generateKeys();
const otherKeys = generateKeys();
let fake: FakeDiscord;
let replica: HttpReplica;
const logs: LogLine[] = [];
const log = recordingLog(logs);
let tokens = 0;
const newToken = () => `http-token-${(tokens += 1)}-aW50ZXJhY3Rpb246`;

function signedPost(payload: unknown, opts: { timestamp?: number; keys?: typeof keys } = {}) {
  const body = JSON.stringify(payload);
  return post(replica.url, body, signedHeaders(opts.keys ?? keys, body, opts.timestamp));
}

beforeAll(async () => {
  fake = await startFakeDiscord();
  replica = await startHttpReplica({ keys, apiUrl: fake.apiUrl, webhook: fake.webhook, log });
});

afterAll(async () => {
  await replica?.stop();
  await fake?.close();
});

describe('Discord HTTP interactions', () => {
  it('is ready once its route is on the server, with no gateway connection', () => {
    expect(replica.adapter.isReady()).toBe(true);
    expect(fake.connections()).toBe(0);
    expect(fake.calls.filter((c) => c.kind === 'gateway')).toEqual([]);
  });

  it('answers a PING with a PONG', async () => {
    const ping = { id: '1300000000000000001', application_id: APP_ID, type: 1, token: 'ping', version: 1 };
    expect(await signedPost(ping)).toEqual({ status: 200, json: { type: 1 } });
  });

  it('defers a command in the response, then edits @original with embeds and buttons', async () => {
    const token = newToken();
    const answer = await signedPost(
      slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: 'Oslo' }] }),
    );
    expect(answer).toEqual({ status: 200, json: { type: 5, data: {} } });
    const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    expect(edit.method).toBe('PATCH');
    expect(decodeURIComponent(edit.path)).toBe(`/api/v10/webhooks/${APP_ID}/${token}/messages/@original`);
    // Webhook endpoints of an interaction need no bot token.
    expect(edit.authorization).toBeNull();
    expect(edit.json).toMatchObject({
      embeds: [{ title: 'Weather in Oslo', description: 'light rain' }],
      allowed_mentions: { parse: [] },
      components: [{ type: 1, components: [{ type: 2, label: 'Refresh' }] }],
    });
    // Nothing went through the REST callback: the deferral was the HTTP answer.
    expect(fake.calls.filter((c) => c.token === token && c.kind === 'callback')).toEqual([]);
    expect(replica.runs.at(-1)).toMatchObject({ command: 'weather', rawInput: { city: 'Oslo' } });
  });

  it('defers an ephemeral command privately and uploads its file as multipart', async () => {
    const token = newToken();
    const answer = await signedPost(
      slashCommand({ name: 'say', token, options: [{ name: 'text', type: 3, value: 'hello' }] }),
    );
    expect(answer).toEqual({ status: 200, json: { type: 5, data: { flags: 64 } } });
    const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    expect(edit.files).toEqual([
      expect.objectContaining({ name: 'say.mp3', contentType: 'audio/mpeg', bytes: MP3 }),
    ]);
  });

  it('turns the loading message of a public command failing during its work into the error', async () => {
    const token = newToken();
    expect(await signedPost(slashCommand({ name: 'broken', token }))).toEqual({
      status: 200,
      json: { type: 5, data: {} },
    });
    const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    expect(String(edit.json?.content)).toMatch(/ \(ref f00dfeed\)\.$/);
    expect(String(edit.json?.content)).not.toContain('upstream is down');
    expect(fake.calls.filter((c) => c.token === token).map((c) => c.kind)).toEqual(['edit']);
  });

  it('answers autocomplete inline with type 8', async () => {
    const token = newToken();
    const payload = {
      ...slashCommand({
        name: 'say',
        token,
        options: [
          { name: 'text', type: 3, value: 'hi' },
          { name: 'voice', type: 3, value: 'ra', focused: true },
        ],
      }),
      type: 4,
    };
    expect(await signedPost(payload)).toEqual({
      status: 200,
      json: { type: 8, data: { choices: [{ name: 'Rachel', value: '21m00Tcm4TlvDq8ikWAM' }] } },
    });
  });

  it('defers a button press as an update (type 6), then edits the clicked message', async () => {
    const token = newToken();
    const customId = customIdFor({ command: 'weather', input: { city: 'Bergen' } });
    expect(await signedPost(buttonClick({ customId, token }))).toEqual({ status: 200, json: { type: 6 } });
    const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    expect(edit.json).toMatchObject({ embeds: [{ title: 'Weather in Bergen' }] });
  });

  it('answers an unreadable button privately at once (type 4), running nothing', async () => {
    const runs = replica.runs.length;
    const answer = await signedPost(buttonClick({ customId: 'h1:s:unknown-target', token: newToken() }));
    expect(answer).toMatchObject({
      status: 200,
      json: { type: 4, data: { flags: 64, allowed_mentions: { parse: [] } } },
    });
    expect(replica.runs).toHaveLength(runs);
  });

  describe('refuses before parsing', () => {
    const command = () => JSON.stringify(slashCommand({ name: 'weather', token: newToken() }));

    it.each([
      [
        'a tampered body',
        () => {
          const body = command();
          return { body: body.replace('weather', 'broken'), headers: signedHeaders(keys, body) };
        },
      ],
      [
        'a signature by another key',
        () => {
          const body = command();
          return { body, headers: signedHeaders(otherKeys, body) };
        },
      ],
      [
        'a timestamp older than 5 minutes',
        () => {
          const body = command();
          return { body, headers: signedHeaders(keys, body, Math.floor(Date.now() / 1000) - 301) };
        },
      ],
      [
        'a timestamp more than a minute ahead',
        () => {
          const body = command();
          return { body, headers: signedHeaders(keys, body, Math.floor(Date.now() / 1000) + 120) };
        },
      ],
      ['no signature headers', () => ({ body: command(), headers: { 'content-type': 'application/json' } })],
      [
        'a signature that is not hex',
        () => {
          const body = command();
          return { body, headers: { ...signedHeaders(keys, body), 'x-signature-ed25519': 'z'.repeat(128) } };
        },
      ],
    ])('%s with 401, running nothing', async (_name, make) => {
      const runs = replica.runs.length;
      const calls = fake.calls.length;
      const { body, headers } = make();
      const answer = await post(replica.url, body, headers);
      expect(answer.status).toBe(401);
      expect(replica.runs).toHaveLength(runs);
      expect(fake.calls).toHaveLength(calls);
    });

    it('a body over the bound with 413, signed or not', async () => {
      const body = JSON.stringify({
        ...slashCommand({ name: 'weather', token: newToken() }),
        pad: 'x'.repeat(INTERACTION_BODY_MAX),
      });
      const answer = await post(replica.url, body, signedHeaders(keys, body));
      expect(answer.status).toBe(413);
    });

    it('a GET with 405', async () => {
      const res = await fetch(replica.url);
      expect(res.status).toBe(405);
      await res.body?.cancel();
    });
  });

  it('leaves the health paths where they were', async () => {
    const res = await fetch(replica.url.replace('/interactions', '/healthz'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('still answers when the store cannot take the claim, and says so', async () => {
    const lines: LogLine[] = [];
    const failing = await startHttpReplica({
      keys,
      apiUrl: fake.apiUrl,
      webhook: fake.webhook,
      log: recordingLog(lines),
      claims: { claimOnce: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) },
    });
    try {
      const token = newToken();
      const body = JSON.stringify(
        slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: 'Tromsø' }] }),
      );
      const answer = await post(failing.url, body, signedHeaders(keys, body));
      expect(answer).toEqual({ status: 200, json: { type: 5, data: {} } });
      await fake.waitFor((c) => c.token === token && c.kind === 'edit');
      expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'discord.claim_failed' }));
    } finally {
      await failing.stop();
    }
  });

  it('never logs a token or an error', () => {
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    expect(JSON.stringify(logs)).not.toContain('http-token-');
  });
});
