// End to end through the real Bolt App in HTTP mode: signed requests into its receiver on
// loopback, a fake Slack Web API, upload URL and response_url on another loopback server.
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../adapters/slack/adapter.ts';
import { ACTION_ID_PREFIX } from '../../../src/render/slack.ts';
import { AdapterError } from '../../../src/errors.ts';
import {
  BOT_TOKEN,
  MP3,
  SIGNING_SECRET,
  buttonBody,
  createFakeDispatcher,
  createTestRegistry,
  postSigned,
  slashBody,
  startSlackFake,
  waitFor,
  type FakeDispatcher,
  type SlackFake,
} from './fakes.ts';
import { fakeSlackConfig, serveSlack, type ServedSlack } from './fake-config.ts';
import { recordingLog, type LogLine } from '../../support/command-doubles.ts';

let fake: SlackFake;
let adapter: SlackAdapter;
let served: ServedSlack;
let dispatcher: FakeDispatcher;
let eventsUrl: string;
const logs: LogLine[] = [];
const registry = createTestRegistry();
let seq = 0;
let authCallsAtStart: { authorization: string | undefined }[] = [];

beforeAll(async () => {
  fake = await startSlackFake();
  served = await serveSlack({ config: fakeSlackConfig(fake), log: recordingLog(logs) });
  adapter = served.adapter;
  dispatcher = createFakeDispatcher(registry);
  expect(adapter.isReady()).toBe(false);
  await adapter.start(registry, dispatcher);
  authCallsAtStart = fake.server.requests
    .filter((r) => r.pathname === '/api/auth.test')
    .map((r) => ({ authorization: r.headers.authorization }));
  eventsUrl = served.url;
});

afterAll(async () => {
  await served.stop();
  await fake.server.close();
});

afterEach(() => {
  fake.server.resetHandlers();
  fake.server.requests.length = 0;
  fake.uploads.clear();
  dispatcher.invocations.length = 0;
  dispatcher.respondErrors.length = 0;
});

/** Runs one slash command and returns what reached its response_url. */
async function slash(command: string, text: string) {
  const id = `cmd-${++seq}`;
  const res = await postSigned(eventsUrl, slashBody(command, text, fake.responseUrl(id)));
  return { id, res };
}

describe('Slack adapter, HTTP mode', () => {
  it('checks the bot token once at start and is ready', () => {
    expect(authCallsAtStart).toEqual([{ authorization: `Bearer ${BOT_TOKEN}` }]);
    expect(adapter.isReady()).toBe(true);
  });

  it('acks a slash command at once, then posts the rendered reply to response_url', async () => {
    const { id, res } = await slash('/weather', 'Paris');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.elapsedMs).toBeLessThan(3_000);

    const [reply] = await waitFor(() => (fake.responses(id).length > 0 ? fake.responses(id) : undefined));
    expect(reply!.response_type).toBe('in_channel');
    expect(reply!.text).toBe('Weather for Paris');
    const blocks = reply!.blocks as { type: string; text?: { text: string } }[];
    expect(blocks.map((b) => b.type)).toEqual([
      'section',
      'divider',
      'header',
      'section',
      'section',
      'context',
    ]);
    expect(blocks[2]!.text!.text).toBe('Paris, FR');

    const [inv] = dispatcher.invocations;
    expect(inv!.command).toBe('weather');
    expect(inv!.rawInput).toBe('Paris');
    expect(inv!.channelId).toBe('C0GENERAL');
    // Where /schedule add posts by default, the workspace (who sees schedules), and Slack's
    // channel_name, so that herald names the channel as its users know it.
    expect(inv!.channel).toEqual({ platform: 'slack', id: 'C0GENERAL', name: 'general', teamId: 'T0HERALD' });
    expect(inv!.actor).toEqual({ platform: 'slack', id: 'U0ALICE', displayName: 'alice', roles: [] });
  });

  it('acks before a handler that takes longer than 3 seconds, and still answers', async () => {
    const { id, res } = await slash('/slow', '');
    expect(res.status).toBe(200);
    expect(res.elapsedMs).toBeLessThan(1_000);
    expect(fake.responses(id)).toHaveLength(0); // the handler is still running

    const [reply] = await waitFor(
      () => (fake.responses(id).length > 0 ? fake.responses(id) : undefined),
      6_000,
    );
    expect(reply!.text).toBe('slow done');
    expect(reply!.response_type).toBe('in_channel');
  });

  it('answers a failing command with one ephemeral sentence', async () => {
    const { id } = await slash('/broken', '');
    const replies = await waitFor(() => (fake.responses(id).length > 0 ? fake.responses(id) : undefined));
    expect(replies).toHaveLength(1);
    expect(replies[0]!.response_type).toBe('ephemeral');
    const sentence = 'The weather service took too long to answer; try again in a moment.';
    expect(replies[0]!.text).toBe(sentence);
    expect(replies[0]!.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: sentence, verbatim: true } },
    ]);
  });

  it('uploads the audio into the channel with the current upload flow after the reply', async () => {
    const { id } = await slash('/say', 'hello there');
    const complete = await waitFor(() => fake.calls('files.completeUploadExternal')[0]);

    const [reply] = fake.responses(id);
    expect(reply!.text).toBe('Here is your audio');
    const [getUrl] = fake.calls('files.getUploadURLExternal');
    expect(getUrl!.get('filename')).toBe('speech.mp3');
    expect(getUrl!.get('length')).toBe(String(MP3.byteLength));
    // The attachment's description is its alt text for screen readers.
    expect(getUrl!.get('alt_text')).toBe('Spoken version: hello');
    const files = JSON.parse(complete.get('files')!) as { id: string; title: string }[];
    expect(files).toEqual([{ id: expect.stringMatching(/^F0AUDIO\d+$/), title: 'speech.mp3' }]);
    expect(fake.uploads.get(files[0]!.id)).toEqual(MP3);
    expect(complete.get('channel_id')).toBe('C0GENERAL');

    const order = fake.server.requests.map((r) => r.pathname);
    expect(order.indexOf(`/respond/${id}`)).toBeLessThan(order.indexOf('/api/files.getUploadURLExternal'));
    expect(order.indexOf(`/upload/v1/${files[0]!.id}`)).toBeLessThan(
      order.indexOf('/api/files.completeUploadExternal'),
    );
  });

  it('re-invokes the command from a page button and replaces the original message', async () => {
    const { id } = await slash('/jobs', 'rust');
    const [first] = await waitFor(() => (fake.responses(id).length > 0 ? fake.responses(id) : undefined));
    const actions = (
      first!.blocks as {
        type: string;
        elements?: { action_id: string; value: string; text: { text: string } }[];
      }[]
    ).find((b) => b.type === 'actions')!;
    const button = actions.elements![0]!;
    expect(button.action_id.startsWith(ACTION_ID_PREFIX)).toBe(true);

    const clickUrl = 'click-1';
    const res = await postSigned(
      eventsUrl,
      buttonBody(
        { action_id: button.action_id, value: button.value, text: button.text.text },
        fake.responseUrl(clickUrl),
      ),
    );
    expect(res.status).toBe(200);
    const [replaced] = await waitFor(() =>
      fake.responses(clickUrl).length > 0 ? fake.responses(clickUrl) : undefined,
    );
    expect(replaced!.replace_original).toBe(true);
    expect(replaced!.text).toBe('Jobs for rust, page 2');

    const click = dispatcher.invocations.at(-1)!;
    expect(click.command).toBe('jobs');
    expect(click.rawInput).toEqual({ what: 'rust', page: 2 });
    expect(click.actor.id).toBe('U0BOB');
  });

  it('answers a button whose value it cannot read privately, without running anything', async () => {
    const res = await postSigned(
      eventsUrl,
      buttonBody(
        { action_id: `${ACTION_ID_PREFIX}0`, value: '{"cmd":', text: 'Next page' },
        fake.responseUrl('click-bad'),
      ),
    );
    expect(res.status).toBe(200);
    const [reply] = await waitFor(() =>
      fake.responses('click-bad').length > 0 ? fake.responses('click-bad') : undefined,
    );
    expect(reply!.response_type).toBe('ephemeral');
    expect(reply!.replace_original).toBe(false);
    expect(reply!.text).toBe('That button no longer works; run the command again.');
    expect(dispatcher.invocations).toHaveLength(0);
  });

  it('rejects a request with a wrong signature and runs nothing', async () => {
    const id = 'forged';
    const res = await postSigned(eventsUrl, slashBody('/weather', 'Paris', fake.responseUrl(id)), {
      secret: 'some-other-secret-value',
    });
    expect(res.status).toBe(401);
    const stale = await postSigned(eventsUrl, slashBody('/weather', 'Paris', fake.responseUrl(id)), {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(stale.status).toBe(401);
    await new Promise((r) => setTimeout(r, 100));
    expect(dispatcher.invocations).toHaveLength(0);
    expect(fake.responses(id)).toHaveLength(0);
  });

  it('shows usage from the option descriptions for empty text on a command with required options', async () => {
    const { id } = await slash('/weather', '   ');
    const [reply] = await waitFor(() => (fake.responses(id).length > 0 ? fake.responses(id) : undefined));
    expect(reply!.response_type).toBe('ephemeral');
    expect(reply!.text).toContain('Usage: /weather &lt;city&gt; [units:metric|imperial]');
    expect(reply!.text).toContain('• city (required): City name, e.g. Paris');
    expect(dispatcher.invocations).toHaveLength(0);
  });

  it('picks a group subcommand from the first word and passes the rest as raw input', async () => {
    const { id } = await slash('/email', 'status em_123');
    const [reply] = await waitFor(() => (fake.responses(id).length > 0 ? fake.responses(id) : undefined));
    expect(dispatcher.invocations[0]!.command).toBe('email status');
    expect(dispatcher.invocations[0]!.rawInput).toBe('em_123');
    expect(reply!.response_type).toBe('ephemeral'); // the command is declared ephemeral
    expect(reply!.text).toBe('Email em_123: delivered');
  });

  it('answers a missing or unknown subcommand with the group usage, privately', async () => {
    const missing = await slash('/email', '');
    const unknown = await slash('/email', 'bounce x');
    const [a] = await waitFor(() =>
      fake.responses(missing.id).length > 0 ? fake.responses(missing.id) : undefined,
    );
    const [b] = await waitFor(() =>
      fake.responses(unknown.id).length > 0 ? fake.responses(unknown.id) : undefined,
    );
    expect(a!.response_type).toBe('ephemeral');
    expect(a!.text).toContain('/email needs a subcommand:');
    expect(a!.text).toContain('• /email send to:text subject:text: Send an email');
    expect(b!.text).toContain('/email has no subcommand "bounce". Use one of:');
    expect(dispatcher.invocations).toHaveLength(0);
  });

  it('decodes the entities and link markup Slack puts in the text', async () => {
    const { id } = await slash('/email', 'send to:<mailto:ops@example.com|ops@example.com> subject:Q&amp;A');
    await waitFor(() => (fake.responses(id).length > 0 ? fake.responses(id) : undefined));
    expect(dispatcher.invocations[0]!.rawInput).toBe('to:ops@example.com subject:Q&A');
  });

  it('falls back to chat.postMessage when the response_url has expired', async () => {
    fake.server.use(http.post('*/respond/expired-1', () => new HttpResponse('expired_url', { status: 404 })));
    await postSigned(eventsUrl, slashBody('/weather', 'Lyon', fake.responseUrl('expired-1')));
    const post = await waitFor(() => fake.calls('chat.postMessage')[0]);
    expect(post.get('channel')).toBe('C0GENERAL');
    expect(post.get('text')).toBe('Weather for Lyon');
    expect(JSON.parse(post.get('blocks')!)[2].text.text).toBe('Lyon, FR');
    expect(dispatcher.respondErrors).toEqual([]);
  });

  it('reports a rejected upload to the dispatcher as an AdapterError', async () => {
    fake.server.use(
      http.post('*/api/files.completeUploadExternal', () =>
        HttpResponse.json({ ok: false, error: 'not_in_channel' }),
      ),
    );
    await slash('/say', 'hi');
    const err = await waitFor(() => dispatcher.respondErrors[0]);
    expect(err).toBeInstanceOf(AdapterError);
    expect((err as AdapterError).code).toBe('upload_failed');
    expect((err as AdapterError).message).toBe('Slack did not take the file upload (not_in_channel)');
  });

  it('wraps a send failure that is not an expiry as an AdapterError', async () => {
    fake.server.use(http.post('*/respond/broken-url', () => new HttpResponse('oops', { status: 500 })));
    await postSigned(eventsUrl, slashBody('/weather', 'Nice', fake.responseUrl('broken-url')));
    const err = await waitFor(() => dispatcher.respondErrors[0]);
    expect((err as AdapterError).code).toBe('send_failed');
    expect(fake.calls('chat.postMessage').filter((c) => c.get('text') === 'Weather for Nice')).toHaveLength(
      0,
    );
  });

  it('answers a request to another path 404 on the same server, logging nothing of it', async () => {
    // Anyone can reach the endpoint's port: a long path, and one past the 8 KiB of headers taken.
    const before = logs.length;
    const res = await fetch(`${served.origin}/${'a'.repeat(5_000)}`);
    expect(res.status).toBe(404);
    const over = await fetch(`${served.origin}/${'a'.repeat(15_000)}`);
    expect(over.status).toBe(431);
    expect(logs.slice(before)).toEqual([]);
  });

  it('serves /healthz and /readyz on the same port as its endpoint (PORT)', async () => {
    const health = await fetch(`${served.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${served.origin}/readyz`)).status).toBe(200);
  });

  it('never logs a token or the signing secret', () => {
    expect(logs.length).toBeGreaterThan(0);
    const text = JSON.stringify(logs);
    expect(text).not.toContain(BOT_TOKEN);
    expect(text).not.toContain(SIGNING_SECRET);
  });
});

describe('Slack adapter start-up', () => {
  it("fails start with an AdapterError naming Slack's reason when the token is rejected", async () => {
    const bad = await startSlackFake();
    bad.server.use(
      http.post('*/api/auth.test', () => HttpResponse.json({ ok: false, error: 'invalid_auth' })),
    );
    const entries: LogLine[] = [];
    const badServed = await serveSlack({ config: fakeSlackConfig(bad), log: recordingLog(entries) });
    const a = badServed.adapter;
    const err = await a.start(createTestRegistry(), createFakeDispatcher(createTestRegistry())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AdapterError);
    expect((err as AdapterError).code).toBe('connect_failed');
    expect((err as AdapterError).message).toBe('Slack connection failed (invalid_auth)');
    expect(a.isReady()).toBe(false);
    expect(JSON.stringify(entries)).not.toContain(BOT_TOKEN);
    await badServed.stop();
    await bad.server.close();
  });
});
