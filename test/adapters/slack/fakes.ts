// Test doubles for the Slack adapter: the fake Slack Web API (fake-slack.ts, re-exported here), signed
// requests for Bolt's HTTP receiver, tiny commands and a tiny dispatcher standing in for the real ones.
import { createHmac, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { AdapterHandlers, CommandRegistry, Invocation } from '../../../src/core/adapter.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { nextTurn } from '../../../src/core/turns.ts';
import { defineCommand, type Command, type CommandContext } from '../../../src/core/command.ts';
import { ServiceError, UserError, userMessageFor } from '../../../src/errors.ts';

export const APP_TOKEN = 'test-app-level-token-not-a-real-one';
export const SIGNING_SECRET = 'test-signing-secret-0123456789';
export const MP3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00, 0xff, 0xfb, 0x90, 0x64, 0x00, 0x80, 0xfe]);

export * from './fake-slack.ts';

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

/** A slash command's fields as Slack sends them, with those real payloads carry. */
export function slashPayload(
  command: string,
  text: string,
  responseUrl: string,
  trigger = triggerId(),
): Record<string, string> {
  return {
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
  };
}

/** A slash command as Slack posts it over HTTP (a form body). */
export function slashBody(command: string, text: string, responseUrl: string, trigger = triggerId()): string {
  return new URLSearchParams(slashPayload(command, text, responseUrl, trigger)).toString();
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

/** A view_submission payload for `view` (as views.open took it), its inputs filled with `values`. */
export function viewSubmissionBody(view: Record<string, unknown>, values: Record<string, string>): string {
  const blocks = (view.blocks ?? []) as { block_id: string; element: { action_id: string } }[];
  const state = Object.fromEntries(
    blocks.map((b) => [
      b.block_id,
      { [b.element.action_id]: { type: 'plain_text_input', value: values[b.block_id] ?? null } },
    ]),
  );
  const payload = {
    type: 'view_submission',
    team: { id: 'T0HERALD', domain: 'herald-test' },
    user: { id: 'U0ALICE', username: 'alice', name: 'alice', team_id: 'T0HERALD' },
    api_app_id: 'A0HERALD',
    token: 'legacy-verification-token',
    trigger_id: triggerId(),
    view: {
      id: 'V0FORM1',
      team_id: 'T0HERALD',
      app_id: 'A0HERALD',
      bot_id: 'B0HERALDBOT',
      root_view_id: 'V0FORM1',
      previous_view_id: null,
      hash: '1714560000.abcdef12',
      clear_on_close: false,
      notify_on_close: false,
      external_id: '',
      ...view,
      state: { values: state },
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
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
/** A stand-in for the dispatcher; `onWork` is told as each command's handler starts. */
export function createFakeDispatcher(
  registry: CommandRegistry,
  onWork?: (inv: Invocation) => void,
): FakeDispatcher {
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
        const input = command.options.parse(raw);
        // As the dispatcher: the checks passed, the work begins on its turn.
        inv.beginWork?.();
        await nextTurn();
        onWork?.(inv);
        reply = await command.handler(input, ctx);
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
