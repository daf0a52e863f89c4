// The edit of @original and the follow-ups in HTTP mode, against the fake Discord as its webhook
// routes answer: JSON, multipart with `payload_json` and `files[n]`, a route's 429 (retry_after, a
// float of seconds) then success, and 404 Unknown Webhook for a token Discord no longer knows.
// https://discord.com/developers/docs/interactions/receiving-and-responding#edit-original-interaction-response
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimited, UNKNOWN_WEBHOOK } from './discord-answers.ts';
import {
  APP_ID,
  BOT_TOKEN,
  buttonClick,
  slashCommand,
  startFakeDiscord,
  type DiscordCall,
  type FakeDiscord,
} from './fake-discord.ts';
import {
  generateKeys,
  PNG,
  post,
  signedHeaders,
  startHttpReplica,
  type HttpReplica,
} from './http-support.ts';
import { recordingLog, type LogLine } from '../../support/command-doubles.ts';

const keys = generateKeys();
let fake: FakeDiscord;
let replica: HttpReplica;
const logs: LogLine[] = [];
const log = recordingLog(logs);
let tokens = 0;
const newToken = () => `edit-token-${(tokens += 1)}-aW50ZXJhY3Rpb246`;

async function command(name: string, token: string, options: unknown[] = []) {
  const body = JSON.stringify(slashCommand({ name, token, options: options as never }));
  return post(replica.url, body, signedHeaders(keys, body));
}

const callsFor = (token: string, kind: DiscordCall['kind']) =>
  fake.calls.filter((c) => c.token === token && c.kind === kind);

beforeAll(async () => {
  fake = await startFakeDiscord();
  replica = await startHttpReplica({ keys, apiUrl: fake.apiUrl, webhook: fake.webhook, log });
});

afterAll(async () => {
  await replica?.stop();
  await fake?.close();
});

describe('the edit of @original in HTTP mode', () => {
  it('is one JSON PATCH with the whole message, its buttons, no files and no flags', async () => {
    const token = newToken();
    await command('weather', token, [{ name: 'city', type: 3, value: 'Bergen' }]);
    const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    expect(edit.method).toBe('PATCH');
    expect(decodeURIComponent(edit.path)).toBe(`/api/v10/webhooks/${APP_ID}/${token}/messages/@original`);
    expect(edit.files).toEqual([]);
    expect(edit.json).toEqual({
      content: '',
      embeds: [expect.objectContaining({ title: 'Weather in Bergen', description: 'light rain' })],
      components: [
        { type: 1, components: [expect.objectContaining({ type: 2, style: 2, label: 'Refresh' })] },
      ],
      allowed_mentions: { parse: [] },
      // An edit replaces the message's files: an earlier page's go away.
      attachments: [],
    });
  });

  it('uploads a chart PNG as multipart: payload_json naming files[0], shown in the embed', async () => {
    const token = newToken();
    await command('chart', token);
    const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    expect(edit.files).toEqual([
      { field: 'files[0]', name: 'report.png', contentType: 'image/png', bytes: PNG },
    ]);
    expect(edit.json).toMatchObject({
      embeds: [{ title: 'Analytics', image: { url: 'attachment://report.png' } }],
      attachments: [{ id: 0, filename: 'report.png', description: 'Line chart' }],
      allowed_mentions: { parse: [] },
    });
  });

  it('never sends the bot token: the interaction token in the path is the credential', async () => {
    const token = newToken();
    await command('broken', token);
    await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    const sent = fake.calls.filter((c) => c.token === token);
    expect(sent.map((c) => c.kind)).toEqual(['edit']);
    for (const call of sent) expect(call.authorization).toBeNull();
    expect(JSON.stringify(sent)).not.toContain(BOT_TOKEN);
  });

  it('waits out a 429 for its retry_after, then sends the edit once more', async () => {
    const token = newToken();
    const before = logs.length;
    fake.nextWebhookAnswers.push(rateLimited(0.02));
    await command('weather', token, [{ name: 'city', type: 3, value: 'Oslo' }]);
    await expect.poll(() => callsFor(token, 'edit')).toHaveLength(2);
    const [first, second] = callsFor(token, 'edit');
    expect(second!.json).toEqual(first!.json);
    // retry_after is 0.02 s: the second try waited at least that long.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(20);
    expect(logs.slice(before).filter((l) => l.level !== 'debug')).toEqual([]);
  });

  it('waits out a 429 on a follow-up too, sending it once after the wait', async () => {
    const token = newToken();
    // A failing button on a public message: its private answer is a follow-up.
    fake.nextWebhookAnswers.push(rateLimited(0.02));
    const body = JSON.stringify(buttonClick({ customId: 'h1:["broken",{}]', token }));
    await post(replica.url, body, signedHeaders(keys, body));
    await expect.poll(() => callsFor(token, 'followup')).toHaveLength(2);
    expect(callsFor(token, 'followup')[1]!.json).toMatchObject({ flags: 64 });
  });

  it('logs a 404 Unknown Webhook once, with Discord’s message and no token, and does not retry', async () => {
    const token = newToken();
    const before = logs.length;
    fake.nextWebhookAnswers.push(UNKNOWN_WEBHOOK);
    await command('weather', token, [{ name: 'city', type: 3, value: 'Tromsø' }]);
    await fake.waitFor((c) => c.token === token && c.kind === 'edit');
    await expect.poll(() => logs.slice(before).filter((l) => l.level === 'error')).toHaveLength(1);
    const failed = logs.slice(before).filter((l) => l.level !== 'debug');
    expect(failed.map((l) => l.msg)).toEqual(['command.respond_failed']);
    const err = (failed[0]!.obj as { err: Record<string, unknown> }).err;
    expect(err).toMatchObject({ code: 'send_failed' });
    expect(err.cause).toMatchObject({
      status: 404,
      code: 'not_found',
      providerMessage: 'Unknown Webhook (10015)',
    });
    expect(callsFor(token, 'edit')).toHaveLength(1);
    const cause = err.cause as Error;
    expect(`${String(err.message)} ${cause.message} ${JSON.stringify(failed)}`).not.toContain(token);
  });
});
