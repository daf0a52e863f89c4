// Test doubles for the Slack adapter: a fake Slack Web API, upload URL and response_url (msw
// handlers on a loopback server), signed requests for Bolt's HTTP receiver, tiny commands and a
// tiny dispatcher standing in for the real ones.
import { createHmac, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { AdapterHandlers, CommandRegistry, Invocation } from '../../../src/core/adapter.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { defineCommand, type Command, type CommandContext } from '../../../src/core/command.ts';
import { ServiceError, UserError, userMessageFor } from '../../../src/errors.ts';
import { startFake, type SandboxServer } from '../../support/sandbox-server.ts';

export const BOT_TOKEN = 'test-bot-token-not-a-real-one';
export const APP_TOKEN = 'test-app-level-token-not-a-real-one';
export const SIGNING_SECRET = 'test-signing-secret-0123456789';
export const MP3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00, 0xff, 0xfb, 0x90, 0x64, 0x00, 0x80, 0xfe]);

/** What the fake saw besides the recorded requests: uploaded bytes by file id. */
export interface SlackFake {
  server: SandboxServer;
  uploads: Map<string, Uint8Array>;
  responseUrl(id: string): string;
  /** The JSON bodies posted to one response_url, in order. */
  responses(id: string): Record<string, unknown>[];
  /** The arguments of each call to one Web API method (form fields, or a GET's query), in order. */
  calls(method: string): URLSearchParams[];
  /** Channels the bot was not invited to (conversations.info is_member false, posts not_in_channel). */
  notMember: Set<string>;
  /** Answers for the next chat.postMessage calls, in order (then: the posted message). */
  nextPostAnswers: { status: number; body: unknown; headers?: Record<string, string> }[];
  /** The `ts` of each message chat.postMessage posted, by channel, in order. */
  posted: Map<string, string[]>;
}

/** The workspace's address, as auth.test and every permalink name it. */
export const WORKSPACE_URL = 'https://herald-test.slack.com/';

/** A message's permalink as Slack forms it: the archive address, `p` and the ts without its dot. */
export function permalinkOf(channel: string, ts: string): string {
  return `${WORKSPACE_URL}archives/${channel}/p${ts.replace('.', '')}`;
}

export async function startSlackFake(): Promise<SlackFake> {
  const uploads = new Map<string, Uint8Array>();
  const notMember = new Set<string>();
  const nextPostAnswers: SlackFake['nextPostAnswers'] = [];
  const posted = new Map<string, string[]>();
  let postCount = 0;
  let fileCount = 0;
  const server = await startFake([
    http.post('*/api/auth.test', () =>
      HttpResponse.json({
        ok: true,
        url: WORKSPACE_URL,
        team: 'Herald Test',
        user: 'herald',
        team_id: 'T0HERALD',
        user_id: 'U0HERALDBOT',
        bot_id: 'B0HERALDBOT',
        is_enterprise_install: false,
      }),
    ),
    http.post('*/api/files.getUploadURLExternal', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      fileCount += 1;
      const id = `F0AUDIO${fileCount}`;
      const origin = new URL(request.url).origin;
      return HttpResponse.json({
        ok: true,
        upload_url: `${origin}/upload/v1/${id}?filename=${form.get('filename') ?? ''}`,
        file_id: id,
      });
    }),
    http.post('*/upload/v1/:id', async ({ request, params }) => {
      const form = await request.formData();
      const file = [...form.values()].find((v): v is File => typeof v !== 'string');
      if (!file) return new HttpResponse('no file', { status: 400 });
      uploads.set(String(params.id), new Uint8Array(await file.arrayBuffer()));
      return new HttpResponse(`OK - ${file.size}`, {
        status: 200,
        headers: { 'content-type': 'text/plain' },
      });
    }),
    http.post('*/api/files.completeUploadExternal', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const files = JSON.parse(form.get('files') ?? '[]') as { id: string; title?: string }[];
      return HttpResponse.json({
        ok: true,
        files: files.map((f) => ({
          id: f.id,
          name: f.title,
          title: f.title,
          mimetype: 'audio/mpeg',
          filetype: 'mp3',
        })),
        response_metadata: { warnings: [] },
      });
    }),
    http.post('*/api/conversations.info', async ({ request }) => {
      const id = new URLSearchParams(await request.text()).get('channel') ?? '';
      if (!id.startsWith('C')) return HttpResponse.json({ ok: false, error: 'channel_not_found' });
      return HttpResponse.json({
        ok: true,
        channel: {
          id,
          name: 'general',
          is_channel: true,
          is_group: false,
          is_im: false,
          is_mpim: false,
          is_private: false,
          created: 1714000000,
          is_archived: false,
          is_general: true,
          is_shared: false,
          is_org_shared: false,
          is_member: !notMember.has(id),
          topic: { value: '', creator: '', last_set: 0 },
          purpose: { value: '', creator: '', last_set: 0 },
          previous_names: [],
        },
      });
    }),
    http.post('*/api/chat.postMessage', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      if (notMember.has(form.get('channel') ?? ''))
        return HttpResponse.json({ ok: false, error: 'not_in_channel' });
      const scripted = nextPostAnswers.shift();
      if (scripted)
        return HttpResponse.json(scripted.body as Record<string, unknown>, {
          status: scripted.status,
          ...(scripted.headers ? { headers: scripted.headers } : {}),
        });
      // Each message its own ts, as in Slack: seconds, a dot and six digits.
      const channel = form.get('channel') ?? '';
      const ts = `1714560000.${String(200 + postCount++).padStart(6, '0')}`;
      posted.set(channel, [...(posted.get(channel) ?? []), ts]);
      return HttpResponse.json({
        ok: true,
        channel,
        ts,
        message: { type: 'message', subtype: 'bot_message', text: form.get('text'), bot_id: 'B0HERALDBOT' },
      });
    }),
    // chat.getPermalink: GET with query arguments (its documented method), the bot token as Bearer.
    http.get('*/api/chat.getPermalink', ({ request }) => {
      if (request.headers.get('authorization') !== `Bearer ${BOT_TOKEN}`)
        return HttpResponse.json({ ok: false, error: 'invalid_auth' });
      const query = new URL(request.url).searchParams;
      const channel = query.get('channel') ?? '';
      const ts = query.get('message_ts') ?? '';
      if (!channel.startsWith('C')) return HttpResponse.json({ ok: false, error: 'channel_not_found' });
      if (!(posted.get(channel) ?? []).includes(ts))
        return HttpResponse.json({ ok: false, error: 'message_not_found' });
      return HttpResponse.json({ ok: true, channel, permalink: permalinkOf(channel, ts) });
    }),
    http.post('*/api/chat.postEphemeral', () =>
      HttpResponse.json({ ok: true, message_ts: '1714560000.000300' }),
    ),
    http.post('*/respond/:id', () => HttpResponse.json({ ok: true })),
  ]);
  return {
    server,
    uploads,
    notMember,
    nextPostAnswers,
    posted,
    responseUrl: (id) => `${server.url}/respond/${id}`,
    responses: (id) =>
      server.requests
        .filter((r) => r.pathname === `/respond/${id}`)
        .map((r) => JSON.parse(r.body) as Record<string, unknown>),
    calls: (method) =>
      server.requests
        .filter((r) => r.pathname === `/api/${method}`)
        .map((r) => (r.method === 'GET' ? r.query : new URLSearchParams(r.body))),
  };
}

/** Polls until `probe` returns something, failing after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing arrived within ${timeoutMs} ms`);
    await sleep(20);
  }
}

export function signature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** POSTs a form body to Bolt's receiver, signed like Slack does (or not, when told). */
export async function postSigned(
  url: string,
  body: string,
  opts: { secret?: string; timestamp?: number; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string; elapsedMs: number }> {
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature(opts.secret ?? SIGNING_SECRET, timestamp, body),
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...opts.headers,
    },
    body,
    signal: AbortSignal.timeout(5_000),
  });
  const text = await res.text();
  return { status: res.status, text, elapsedMs: performance.now() - started };
}

let triggers = 0;
/** A fresh trigger_id, as Slack gives each command and click its own (its shape: three dotted parts). */
export function triggerId(): string {
  triggers += 1;
  return `${7_000_000_000_000 + triggers}.7000000000002.${randomBytes(16).toString('hex')}`;
}

/** A slash command as Slack sends it, with the fields real payloads carry. */
export function slashBody(command: string, text: string, responseUrl: string, trigger = triggerId()): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: 'T0HERALD',
    team_domain: 'herald-test',
    channel_id: 'C0GENERAL',
    channel_name: 'general',
    user_id: 'U0ALICE',
    user_name: 'alice',
    command,
    text,
    api_app_id: 'A0HERALD',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: trigger,
  }).toString();
}

/** A block_actions payload for a click on `button` of a message herald posted. */
export function buttonBody(
  button: { action_id: string; value: string; text: string },
  responseUrl: string,
): string {
  const payload = {
    type: 'block_actions',
    user: { id: 'U0BOB', username: 'bob', name: 'bob', team_id: 'T0HERALD' },
    api_app_id: 'A0HERALD',
    token: 'legacy-verification-token',
    container: {
      type: 'message',
      message_ts: '1714560000.000100',
      channel_id: 'C0GENERAL',
      is_ephemeral: false,
    },
    trigger_id: triggerId(),
    team: { id: 'T0HERALD', domain: 'herald-test' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: 'C0GENERAL', name: 'general' },
    message: {
      type: 'message',
      subtype: 'bot_message',
      text: 'Jobs',
      ts: '1714560000.000100',
      bot_id: 'B0HERALDBOT',
    },
    state: { values: {} },
    response_url: responseUrl,
    actions: [
      {
        action_id: button.action_id,
        block_id: 'b0Xy',
        text: { type: 'plain_text', text: button.text, emoji: true },
        value: button.value,
        type: 'button',
        action_ts: '1714560005.123456',
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

const weather = defineCommand({
  name: 'weather',
  description: 'Current weather for a city',
  options: z.object({
    city: z.string().min(1).describe('City name, e.g. Paris'),
    units: z.enum(['metric', 'imperial']).optional().describe('Unit system'),
  }),
  positional: ['city'],
  needs: [],
  examples: ['/weather Paris units:imperial'],
  handler: async ({ city }) => ({
    text: `Weather for ${city}`,
    embeds: [
      {
        title: `${city}, FR`,
        description: 'Clear sky',
        color: 'info',
        fields: [{ name: 'Temperature', value: '21.4 °C', inline: true }],
        footer: 'OpenWeather',
        timestamp: '2026-05-01T12:00:00Z',
      },
    ],
  }),
});

const slow = defineCommand({
  name: 'slow',
  description: 'Answers after 3.5 seconds',
  options: z.object({}),
  needs: [],
  handler: async (_input, ctx) => {
    await sleep(3_500, undefined, { signal: ctx.signal });
    return { text: 'slow done' };
  },
});

const broken = defineCommand({
  name: 'broken',
  description: 'Always fails upstream',
  options: z.object({}),
  needs: [],
  handler: () =>
    Promise.reject(new ServiceError({ service: 'weather', operation: 'current', code: 'timeout' })),
});

const say = defineCommand({
  name: 'say',
  description: 'Speak text',
  options: z.object({ text: z.string().describe('What to say') }),
  positional: ['text'],
  needs: [],
  handler: async () => ({
    text: 'Here is your audio',
    attachments: [
      { filename: 'speech.mp3', contentType: 'audio/mpeg', bytes: MP3, description: 'Spoken version: hello' },
    ],
  }),
});

const jobs = defineCommand({
  name: 'jobs',
  description: 'Search jobs',
  options: z.object({
    what: z.string().describe('Job title or keywords'),
    page: z.coerce.number().int().min(1).default(1).describe('Result page'),
  }),
  positional: ['what'],
  needs: [],
  handler: async ({ what, page }) => ({
    text: `Jobs for ${what}, page ${page}`,
    actions: [{ label: 'Next page', command: 'jobs', input: { what, page: page + 1 } }],
  }),
});

const emailSend = defineCommand({
  name: 'email send',
  description: 'Send an email',
  options: z.object({ to: z.string().describe('Recipient'), subject: z.string().describe('Subject') }),
  needs: [],
  handler: async ({ to }) => ({ text: `Sent to ${to}` }),
});

const emailStatus = defineCommand({
  name: 'email status',
  description: "Show an email's status",
  options: z.object({ id: z.string().describe('Email id') }),
  positional: ['id'],
  needs: [],
  ephemeral: true,
  handler: async ({ id }) => ({ text: `Email ${id}: delivered` }),
});

export const TEST_COMMANDS: readonly Command[] = [
  weather,
  slow,
  broken,
  say,
  jobs,
  emailSend,
  emailStatus,
] as Command[];

export function createTestRegistry(commands: readonly Command[] = TEST_COMMANDS): CommandRegistry {
  return createRegistry(commands);
}

/** `positional words key:value` → a record; enough grammar for the test commands. */
function parseTiny(command: Command, text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const loose: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const m = /^([a-z]+):(.+)$/.exec(word);
    if (m) out[m[1]!] = m[2];
    else loose.push(word);
  }
  if (loose.length > 0 && command.positional[0]) out[command.positional[0]] = loose.join(' ');
  return out;
}

export interface FakeDispatcher extends AdapterHandlers {
  invocations: Invocation[];
  /** Errors from respond() itself (the adapter's AdapterErrors). */
  respondErrors: unknown[];
}

/** Runs a command like the real dispatcher would: parse, handle, reply; errors as one ephemeral sentence. */
export function createFakeDispatcher(registry: CommandRegistry): FakeDispatcher {
  const invocations: Invocation[] = [];
  const respondErrors: unknown[] = [];
  return {
    invocations,
    respondErrors,
    onAutocomplete: async () => [],
    async onInvocation(inv) {
      invocations.push(inv);
      const command = registry.get(inv.command);
      let reply;
      try {
        if (!command)
          throw new UserError({ code: 'unknown_command', message: `There is no /${inv.command}.` });
        const raw = typeof inv.rawInput === 'string' ? parseTiny(command, inv.rawInput) : inv.rawInput;
        const ctx = { signal: inv.signal, actor: inv.actor } as unknown as CommandContext;
        reply = await command.handler(command.options.parse(raw), ctx);
        reply = { ...reply, ephemeral: reply.ephemeral ?? command.ephemeral };
      } catch (err) {
        reply = { text: userMessageFor(err), ephemeral: true };
      }
      try {
        await inv.respond(reply);
      } catch (err) {
        respondErrors.push(err);
      }
    },
  };
}
