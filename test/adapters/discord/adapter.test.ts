// End to end: the real discord.js Client, connected through a fake gateway on loopback, answering
// interactions against a fake REST API. The dispatcher and the commands are small test doubles.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDiscordAdapter } from '../../../adapters/discord/adapter.ts';
import { english } from '../../../src/i18n/translate.ts';

const EXPIRED_BUTTON_MESSAGE = english('common:expiredButton');
import type { AdapterHandlers, ChatAdapter, Invocation } from '../../../src/core/adapter.ts';
import { defineCommand, type Command, type CommandContext } from '../../../src/core/command.ts';
import type { Reply } from '../../../src/core/reply.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { nextTurn } from '../../../src/core/turns.ts';
import { withRef } from '../../../src/core/dispatch-steps.ts';
import { AdapterError, userMessageFor, UserError } from '../../../src/errors.ts';
import {
  APP_ID,
  autocomplete,
  BOT_TOKEN,
  buttonClick,
  CHANNEL_ID,
  GUILD_ID,
  ROLE_IDS,
  slashCommand,
  startFakeDiscord,
  USER_ID,
  type DiscordCall,
  type FakeDiscord,
} from './fake-discord.ts';
import { fakeDiscordConfig } from './fake-config.ts';
import { directContext, recordingLog, SILENT_LOG, type LogLine } from '../../support/command-doubles.ts';

/** The first bytes of a real MP3: an ID3v2 header, then an MPEG-1 Layer III frame header. */
const MP3 = new Uint8Array([
  0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfb, 0x90, 0x64, 0x00, 0x0f, 0xf0, 0x00,
  0x00, 0x69, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x0d, 0x20, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0xa4, 0x00,
  0x00,
]);

/** A real 1×1 PNG (discord.js sniffs the content type from the bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const VOICES = Array.from({ length: 40 }, (_, i) => ({ name: `Voice ${i}`, value: `voice-${i}` }));

const commands: Command[] = [
  defineCommand({
    name: 'weather',
    description: 'Current weather',
    options: z.object({
      city: z.string().describe('City'),
      units: z.enum(['metric', 'imperial']).default('metric').describe('Units'),
    }),
    needs: [],
    handler: async (input) => ({
      text: `Weather in ${input.city}: light rain`,
      embeds: [
        {
          title: `Weather in ${input.city}`,
          description: 'light rain, ping @everyone and <@&1187421520894746801>',
          color: 'info',
          fields: [
            { name: 'Temperature', value: input.units === 'metric' ? '12 °C' : '54 °F', inline: true },
            { name: 'Humidity', value: '81 %', inline: true },
          ],
          footer: 'OpenWeatherMap',
          timestamp: '2024-05-01T10:00:00.000Z',
        },
      ],
    }),
  }),
  defineCommand({
    name: 'slow',
    description: 'Takes longer than Discord’s 3 seconds',
    options: z.object({}),
    needs: [],
    handler: async () => {
      await sleep(3_200);
      return { text: 'done, slowly' };
    },
  }),
  defineCommand({
    name: 'broken',
    description: 'Always fails',
    options: z.object({}),
    needs: [],
    handler: () => Promise.reject(new Error('db password hunter2 leaked at https://internal.example/x')),
  }),
  defineCommand({
    name: 'say',
    description: 'Speak',
    options: z.object({ text: z.string().describe('Text'), voice: z.string().optional().describe('Voice') }),
    needs: [],
    autocomplete: {
      voice: async (partial) => {
        if (partial === 'boom') throw new Error('voices unavailable');
        if (partial === 'slow') await sleep(2_000);
        return VOICES.filter((v) => v.name.toLowerCase().includes(partial.toLowerCase()));
      },
    },
    handler: async (input) => ({
      text: `“${input.text}” read aloud`,
      attachments: [{ filename: 'say.mp3', contentType: 'audio/mpeg', bytes: MP3 }],
    }),
  }),
  defineCommand({
    name: 'report',
    description: 'A chart shown as the embed image',
    options: z.object({}),
    needs: [],
    handler: async () => ({
      text: 'Sessions: 1,204',
      embeds: [{ title: 'Analytics', fields: [{ name: 'Sessions', value: '1,204' }], image: 'report.png' }],
      attachments: [
        { filename: 'report.png', contentType: 'image/png', bytes: PNG, description: 'Line chart' },
      ],
    }),
  }),
  defineCommand({
    name: 'jobs',
    description: 'Job search',
    options: z.object({
      what: z.string().describe('Keywords'),
      page: z.number().int().min(1).default(1).describe('Page'),
    }),
    needs: [],
    handler: async (input) => ({
      text: `Jobs for ${input.what}, page ${input.page}`,
      embeds: [
        {
          title: `${input.what}: page ${input.page}`,
          description: `Listings ${input.page * 5 - 4}-${input.page * 5}`,
        },
      ],
      actions: [{ label: 'Next page', command: 'jobs', input: { what: input.what, page: input.page + 1 } }],
    }),
  }),
  defineCommand({
    name: 'email send',
    description: 'Send an email',
    options: z.object({ to: z.string().describe('Recipient'), subject: z.string().describe('Subject') }),
    needs: [],
    ephemeral: true,
    handler: async (input) => ({ text: `Sent to ${input.to}`, ephemeral: true }),
  }),
];

const registry = createRegistry(commands);

function serialize(lines: LogLine[]): string {
  return JSON.stringify(lines, (_key, value: unknown) =>
    value instanceof Error
      ? Object.assign({}, value, { name: value.name, message: value.message, cause: value.cause })
      : value,
  );
}

/** The reference the stand-in dispatcher gives every failure. */
const FAKE_REF = 'f00dfeed';

/** A small stand-in for src/core/dispatch.ts: validate, run, turn errors into one sentence. */
function createFakeDispatcher() {
  const invocations: Invocation[] = [];
  const respondErrors: unknown[] = [];
  const contextFor = (inv: Pick<Invocation, 'actor' | 'signal'>): CommandContext =>
    directContext(inv, 'test');
  const handlers: AdapterHandlers = {
    async onInvocation(inv) {
      invocations.push(inv);
      let reply: Reply;
      try {
        const command = registry.get(inv.command);
        if (!command)
          throw new UserError({ code: 'unknown_command', message: `There is no /${inv.command} command.` });
        const input = command.options.parse(inv.rawInput);
        // As the dispatcher: the checks passed, the work begins on its turn.
        inv.beginWork?.();
        await nextTurn();
        reply = await command.handler(input, contextFor(inv));
      } catch (err) {
        reply = { text: withRef(userMessageFor(err), FAKE_REF), ephemeral: true, failureRef: FAKE_REF };
      }
      await inv.respond(reply).catch((err: unknown) => respondErrors.push(err));
    },
    async onAutocomplete(request) {
      const fn = registry.get(request.command)?.autocomplete[request.option];
      if (!fn) return [];
      return fn(request.partial, contextFor({ actor: request.actor, signal: new AbortController().signal }));
    },
  };
  return { handlers, invocations, respondErrors };
}

let fake: FakeDiscord;
let adapter: ChatAdapter;
let dispatcher: ReturnType<typeof createFakeDispatcher>;
const logs: LogLine[] = [];
let tokenCount = 0;

function newToken(): string {
  tokenCount += 1;
  return `interaction-token-${tokenCount}-aW50ZXJhY3Rpb246`;
}

function callsFor(token: string): DiscordCall[] {
  return fake.calls.filter((c) => c.token === token);
}

async function invokeAndWait(
  payload: { token: string },
  until: (call: DiscordCall) => boolean,
  timeoutMs = 5_000,
) {
  fake.dispatch('INTERACTION_CREATE', payload);
  return fake.waitFor((c) => c.token === payload.token && until(c), timeoutMs);
}

beforeAll(async () => {
  fake = await startFakeDiscord();
  dispatcher = createFakeDispatcher();
  adapter = createDiscordAdapter({
    config: fakeDiscordConfig(fake),
    webhook: fake.webhook,
    log: recordingLog(logs),
    autocompleteDeadlineMs: 300,
  });
  await adapter.start(registry, dispatcher.handlers);
});

afterAll(async () => {
  await adapter?.stop();
  await fake?.close();
});

beforeEach(() => {
  fake.rest.resetHandlers();
});

describe('Discord adapter against a fake Discord', () => {
  it('logs in through the REST API and the gateway, and reports ready', () => {
    expect(adapter.isReady()).toBe(true);
    const gateway = fake.calls.find((c) => c.kind === 'gateway')!;
    expect(gateway.authorization).toBe(`Bot ${BOT_TOKEN}`);
    expect(fake.identifies).toHaveLength(1);
    expect(fake.identifies[0]).toMatchObject({ token: BOT_TOKEN, intents: 0, shard: [0, 1] });
  });

  it('defers a slash command at once, then edits the reply with embeds and no mentions', async () => {
    const token = newToken();
    const payload = slashCommand({
      name: 'weather',
      token,
      options: [
        { name: 'city', type: 3, value: 'Paris' },
        { name: 'units', type: 3, value: 'metric' },
      ],
    });
    const edit = await invokeAndWait(payload, (c) => c.kind === 'edit');
    const [callback] = callsFor(token);
    expect(callback).toMatchObject({
      kind: 'callback',
      interactionId: payload.id,
      json: { type: 5, data: {} },
    });
    expect(callback!.authorization).toBeNull();
    expect(decodeURIComponent(edit.path)).toBe(`/api/v10/webhooks/${APP_ID}/${token}/messages/@original`);
    expect(edit.json).toMatchObject({
      content: '',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'Weather in Paris',
          description: 'light rain, ping @everyone and <@&1187421520894746801>',
          color: 0x3b82f6,
          fields: [
            { name: 'Temperature', value: '12 °C', inline: true },
            { name: 'Humidity', value: '81 %', inline: true },
          ],
          footer: { text: 'OpenWeatherMap' },
          timestamp: '2024-05-01T10:00:00.000Z',
        },
      ],
    });
    const invocation = dispatcher.invocations.find((i) => i.command === 'weather')!;
    expect(invocation.rawInput).toEqual({ city: 'Paris', units: 'metric' });
    // Where /schedule add posts by default, with the bot's permissions there (app_permissions), the
    // member's own (member.permissions) and the guild it is in (message links, who sees schedules).
    expect(invocation.channel).toEqual({
      platform: 'discord',
      id: CHANNEL_ID,
      appPermissions: '2248473465835073',
      memberPermissions: '2248473465835073',
      guildId: GUILD_ID,
    });
    expect(invocation.actor).toEqual({
      platform: 'discord',
      id: USER_ID,
      displayName: 'Ada',
      roles: ROLE_IDS,
    });
    expect(invocation.channelId).toBe(CHANNEL_ID);
    expect(invocation.signal.aborted).toBe(false);
  });

  it('defers privately and names a subcommand in full for an ephemeral command group', async () => {
    const token = newToken();
    const payload = slashCommand({
      name: 'email',
      subcommand: 'send',
      token,
      options: [
        { name: 'to', type: 3, value: 'ops@example.com' },
        { name: 'subject', type: 3, value: 'Hi' },
      ],
    });
    const edit = await invokeAndWait(payload, (c) => c.kind === 'edit');
    expect(callsFor(token)[0]!.json).toEqual({ type: 5, data: { flags: 64 } });
    expect(edit.json).toMatchObject({ content: 'Sent to ops@example.com', allowed_mentions: { parse: [] } });
    expect(callsFor(token).some((c) => c.kind === 'followup' || c.kind === 'delete')).toBe(false);
    const invocation = dispatcher.invocations.find((i) => i.command === 'email send')!;
    expect(invocation.rawInput).toEqual({ to: 'ops@example.com', subject: 'Hi' });
  });

  it('still answers a command whose handler takes longer than 3 seconds', async () => {
    const token = newToken();
    const sentAt = Date.now();
    const edit = await invokeAndWait(slashCommand({ name: 'slow', token }), (c) => c.kind === 'edit', 8_000);
    const callback = callsFor(token)[0]!;
    expect(callback.kind).toBe('callback');
    expect(callback.at - sentAt).toBeLessThan(1_000);
    expect(edit.at - sentAt).toBeGreaterThanOrEqual(3_000);
    expect(edit.json).toMatchObject({ content: 'done, slowly', allowed_mentions: { parse: [] } });
  });

  it('turns the loading message of a command failing during its work into one sentence', async () => {
    const token = newToken();
    await invokeAndWait(slashCommand({ name: 'broken', token }), (c) => c.kind === 'edit');
    await sleep(100);
    const sequence = callsFor(token).map((c) => `${c.method} ${c.kind}`);
    expect(sequence).toEqual(['POST callback', 'PATCH edit']);
    const [callback, edit] = callsFor(token);
    expect(callback!.json).toEqual({ type: 5, data: {} });
    expect(edit!.json).toMatchObject({
      content: `Something went wrong while running that command; it has been logged (ref ${FAKE_REF}).`,
      allowed_mentions: { parse: [] },
      embeds: [],
    });
    expect(JSON.stringify(edit!.json)).not.toContain('hunter2');
  });

  it('uploads the audio as a multipart file with the mp3 bytes', async () => {
    const token = newToken();
    const edit = await invokeAndWait(
      slashCommand({ name: 'say', token, options: [{ name: 'text', type: 3, value: 'hello' }] }),
      (c) => c.kind === 'edit',
    );
    expect(edit.files).toHaveLength(1);
    expect(edit.files[0]).toMatchObject({ field: 'files[0]', name: 'say.mp3', contentType: 'audio/mpeg' });
    expect(Array.from(edit.files[0]!.bytes)).toEqual(Array.from(MP3));
    expect(edit.json).toMatchObject({
      content: '“hello” read aloud',
      attachments: [{ id: 0, filename: 'say.mp3' }],
      allowed_mentions: { parse: [] },
    });
  });

  it('shows a chart as the embed image through attachment://, with its alt text', async () => {
    const token = newToken();
    const edit = await invokeAndWait(
      slashCommand({ name: 'report', token, options: [] }),
      (c) => c.kind === 'edit',
    );
    expect(edit.files[0]).toMatchObject({ field: 'files[0]', name: 'report.png', contentType: 'image/png' });
    expect(edit.json).toMatchObject({
      embeds: [{ title: 'Analytics', image: { url: 'attachment://report.png' } }],
      attachments: [{ id: 0, description: 'Line chart' }],
    });
  });

  it('re-invokes the command with the next page when its button is clicked', async () => {
    const first = newToken();
    const edit = await invokeAndWait(
      slashCommand({
        name: 'jobs',
        token: first,
        options: [{ name: 'what', type: 3, value: 'rust developer' }],
      }),
      (c) => c.kind === 'edit',
    );
    const rows = edit.json!.components as { components: { custom_id: string; label: string }[] }[];
    const button = rows[0]!.components[0]!;
    expect(button.label).toBe('Next page');

    const click = newToken();
    const update = await invokeAndWait(
      buttonClick({ customId: button.custom_id, token: click }),
      (c) => c.kind === 'edit',
    );
    expect(callsFor(click)[0]!.json).toEqual({ type: 6 });
    const invocation = dispatcher.invocations.at(-1)!;
    expect(invocation.command).toBe('jobs');
    expect(invocation.rawInput).toEqual({ what: 'rust developer', page: 2 });
    expect(update.json).toMatchObject({
      embeds: [{ title: 'rust developer: page 2', description: 'Listings 6-10' }],
      attachments: [],
      allowed_mentions: { parse: [] },
    });
    const next = (update.json!.components as { components: { custom_id: string }[] }[])[0]!.components[0]!;
    expect(next.custom_id).toBe('h1:["jobs",{"what":"rust developer","page":3}]');
  });

  it('answers a failing button click privately and leaves the clicked message alone', async () => {
    const click = newToken();
    await invokeAndWait(
      buttonClick({ customId: 'h1:["broken",{}]', token: click }),
      (c) => c.kind === 'followup',
    );
    await sleep(100); // nothing else may follow: no edit, no delete of the clicked message
    expect(callsFor(click).map((c) => `${c.method} ${c.kind}`)).toEqual(['POST callback', 'POST followup']);
    expect(callsFor(click)[0]!.json).toEqual({ type: 6 });
    expect(callsFor(click)[1]!.json).toMatchObject({
      content: `Something went wrong while running that command; it has been logged (ref ${FAKE_REF}).`,
      flags: 64,
      allowed_mentions: { parse: [] },
    });
  });

  it('remembers a button whose input is too long for a custom id', async () => {
    const what =
      'senior rust developer with embedded linux and kubernetes experience, remote friendly, europe';
    const first = newToken();
    const edit = await invokeAndWait(
      slashCommand({ name: 'jobs', token: first, options: [{ name: 'what', type: 3, value: what }] }),
      (c) => c.kind === 'edit',
    );
    const customId = (edit.json!.components as { components: { custom_id: string }[] }[])[0]!.components[0]!
      .custom_id;
    expect(customId.length).toBeLessThanOrEqual(100);
    const click = newToken();
    await invokeAndWait(buttonClick({ customId, token: click }), (c) => c.kind === 'edit');
    expect(dispatcher.invocations.at(-1)!.rawInput).toEqual({ what, page: 2 });
  });

  it('answers an unknown or expired button privately without running anything', async () => {
    const before = dispatcher.invocations.length;
    const token = newToken();
    const callback = await invokeAndWait(
      buttonClick({ customId: 'h1#AAAAAAAAAAAAAAAAAAAAAAAA', token }),
      (c) => c.kind === 'callback',
    );
    expect(callback.json).toEqual({
      type: 4,
      data: expect.objectContaining({
        content: EXPIRED_BUTTON_MESSAGE,
        flags: 64,
        allowed_mentions: { parse: [] },
      }),
    });
    expect(dispatcher.invocations.length).toBe(before);
  });

  it('answers autocomplete with at most 25 choices', async () => {
    const token = newToken();
    const callback = await invokeAndWait(
      autocomplete({
        name: 'say',
        token,
        options: [{ name: 'voice', type: 3, value: 'voice', focused: true }],
      }),
      (c) => c.kind === 'callback',
    );
    const choices = (callback.json as { type: number; data: { choices: unknown[] } }).data.choices;
    expect(callback.json!.type).toBe(8);
    expect(choices).toHaveLength(25);
    expect(choices[0]).toEqual({ name: 'Voice 0', value: 'voice-0' });

    const narrow = newToken();
    const filtered = await invokeAndWait(
      autocomplete({
        name: 'say',
        token: narrow,
        options: [{ name: 'voice', type: 3, value: 'voice 3', focused: true }],
      }),
      (c) => c.kind === 'callback',
    );
    expect(
      (filtered.json as { data: { choices: { value: string }[] } }).data.choices.map((c) => c.value),
    ).toEqual([
      'voice-3',
      'voice-30',
      'voice-31',
      'voice-32',
      'voice-33',
      'voice-34',
      'voice-35',
      'voice-36',
      'voice-37',
      'voice-38',
      'voice-39',
    ]);
  });

  it('answers autocomplete with no choices when the lookup fails or is too slow', async () => {
    const failing = newToken();
    const failed = await invokeAndWait(
      autocomplete({
        name: 'say',
        token: failing,
        options: [{ name: 'voice', type: 3, value: 'boom', focused: true }],
      }),
      (c) => c.kind === 'callback',
    );
    expect(failed.json).toEqual({ type: 8, data: { choices: [] } });

    const slow = newToken();
    const sentAt = Date.now();
    const late = await invokeAndWait(
      autocomplete({
        name: 'say',
        token: slow,
        options: [{ name: 'voice', type: 3, value: 'slow', focused: true }],
      }),
      (c) => c.kind === 'callback',
    );
    expect(late.json).toEqual({ type: 8, data: { choices: [] } });
    expect(late.at - sentAt).toBeLessThan(1_500);
  });

  it('aborts the work and reports an AdapterError when the deferral is refused, without logging tokens', async () => {
    const { http, HttpResponse } = await import('msw');
    fake.rest.use(
      http.post('*/api/v10/interactions/:id/:token/callback', () =>
        HttpResponse.json({ message: 'Unknown interaction', code: 10062 }, { status: 404 }),
      ),
    );
    const token = newToken();
    fake.dispatch(
      'INTERACTION_CREATE',
      slashCommand({ name: 'weather', token, options: [{ name: 'city', type: 3, value: 'Oslo' }] }),
    );
    const deadline = Date.now() + 5_000;
    while (!dispatcher.invocations.some((i) => i.signal.aborted) && Date.now() < deadline) await sleep(10);
    const invocation = dispatcher.invocations.find((i) => i.signal.aborted)!;
    expect(invocation.command).toBe('weather');
    expect(invocation.signal.reason).toBeInstanceOf(AdapterError);
    expect((invocation.signal.reason as AdapterError).code).toBe('send_failed');
    while (dispatcher.respondErrors.length === 0 && Date.now() < deadline) await sleep(10);
    expect(dispatcher.respondErrors[0]).toBeInstanceOf(AdapterError);
    const logged = serialize(logs);
    expect(logged).toContain('discord.defer_failed');
    expect(logged).toContain('Unknown interaction');
    expect(logged).not.toContain(token);
    expect(String((dispatcher.respondErrors[0] as Error).message)).not.toContain(token);
  });

  it('sends allowed_mentions {parse: []} with every message and never logs a token', () => {
    const messages = fake.calls.filter(
      (c) => c.kind === 'edit' || c.kind === 'followup' || (c.kind === 'callback' && c.json?.type === 4),
    );
    expect(messages.length).toBeGreaterThan(5);
    for (const call of messages) {
      const body = (call.kind === 'callback' ? (call.json!.data as Record<string, unknown>) : call.json)!;
      expect(body.allowed_mentions).toEqual({ parse: [] });
    }
    const logged = serialize(logs);
    expect(logged).not.toContain(BOT_TOKEN);
    for (let i = 1; i <= tokenCount; i += 1) expect(logged).not.toContain(`interaction-token-${i}-`);
  });
});

describe('Discord adapter lifecycle', () => {
  it('aborts an invocation before the reply window closes, and disconnects on stop', async () => {
    const own = await startFakeDiscord();
    const seen: Invocation[] = [];
    const handlers: AdapterHandlers = {
      async onInvocation(inv) {
        seen.push(inv);
        inv.beginWork?.();
        await new Promise((resolve) => inv.signal.addEventListener('abort', resolve, { once: true }));
      },
      onAutocomplete: async () => [],
    };
    const short = createDiscordAdapter({
      config: fakeDiscordConfig(own),
      webhook: own.webhook,
      log: recordingLog([]),
      replyWindowMs: 200,
    });
    try {
      expect(short.isReady()).toBe(false);
      await short.start(registry, handlers);
      expect(short.isReady()).toBe(true);
      expect(own.connections()).toBe(1);
      const token = 'interaction-token-window';
      own.dispatch('INTERACTION_CREATE', slashCommand({ name: 'slow', token }));
      await own.waitFor((c) => c.token === token && c.kind === 'callback');
      const deadline = Date.now() + 3_000;
      while (!seen[0]?.signal.aborted && Date.now() < deadline) await sleep(10);
      expect(seen[0]!.signal.aborted).toBe(true);
      expect((seen[0]!.signal.reason as AdapterError).code).toBe('expired');
      await short.stop();
      expect(short.isReady()).toBe(false);
      while (own.connections() > 0 && Date.now() < deadline) await sleep(10);
      expect(own.connections()).toBe(0);
    } finally {
      await short.stop();
      await own.close();
    }
  });

  it('fails to start with an AdapterError when Discord rejects the token', async () => {
    const own = await startFakeDiscord();
    const lines: LogLine[] = [];
    const wrong = createDiscordAdapter({
      config: {
        token: 'not-the-right-token-123',
        applicationId: APP_ID,
        guildId: undefined,
        apiUrl: own.apiUrl,
      },
      webhook: own.webhook,
      log: recordingLog(lines),
      connectTimeoutMs: 5_000,
    });
    try {
      const error = await wrong
        .start(registry, { onInvocation: async () => {}, onAutocomplete: async () => [] })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(error).toBeInstanceOf(AdapterError);
      expect((error as AdapterError).code).toBe('connect_failed');
      expect((error as AdapterError).message).not.toContain('not-the-right-token-123');
      expect(wrong.isReady()).toBe(false);
      expect(own.connections()).toBe(0);
    } finally {
      await wrong.stop();
      await own.close();
    }
  });
});

describe('Discord adapter with the real dispatcher', () => {
  it('runs a command with typed options and shows a missing service privately', async () => {
    const { createDispatcher } = await import('../../../src/core/dispatch.ts');
    const own = await startFakeDiscord();
    const needsWeather = defineCommand({
      name: 'forecast',
      description: 'Needs the weather service',
      options: z.object({ city: z.string().describe('City') }),
      needs: ['weather'],
      handler: async () => ({ text: 'never runs' }),
    });
    const jobsCommand = commands.find((c) => c.name === 'jobs')!;
    const realRegistry = createRegistry([jobsCommand, needsWeather]);
    const real = createDispatcher({
      registry: realRegistry,
      services: {},
      log: SILENT_LOG,
      commandTimeoutMs: 5_000,
      serviceVariables: { weather: 'WEATHER_API_KEY' },
    });
    const ownAdapter = createDiscordAdapter({
      config: fakeDiscordConfig(own),
      webhook: own.webhook,
      log: SILENT_LOG,
    });
    try {
      await ownAdapter.start(realRegistry, real);
      own.dispatch(
        'INTERACTION_CREATE',
        slashCommand({
          name: 'jobs',
          token: 'real-dispatch-ok',
          options: [
            { name: 'what', type: 3, value: 'go' },
            { name: 'page', type: 4, value: 4 },
          ],
        }),
      );
      const edit = await own.waitFor((c) => c.token === 'real-dispatch-ok' && c.kind === 'edit');
      expect(edit.json).toMatchObject({ embeds: [{ title: 'go: page 4' }], allowed_mentions: { parse: [] } });

      own.dispatch(
        'INTERACTION_CREATE',
        slashCommand({
          name: 'forecast',
          token: 'real-dispatch-denied',
          options: [{ name: 'city', type: 3, value: 'Rome' }],
        }),
      );
      // Refused before any work: the private first answer is the only call.
      const refusal = await own.waitFor((c) => c.token === 'real-dispatch-denied');
      expect(refusal.json).toMatchObject({
        type: 4,
        data: { flags: 64, allowed_mentions: { parse: [] } },
      });
      expect((refusal.json!.data as { content: string }).content).toMatch(
        /^The weather service is not configured; set WEATHER_API_KEY \(ref [0-9a-f]{8}\)\.$/,
      );
      await sleep(100);
      expect(own.calls.filter((c) => c.token === 'real-dispatch-denied')).toHaveLength(1);
    } finally {
      await ownAdapter.stop();
      await own.close();
    }
  });
});
