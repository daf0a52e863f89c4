// The contract every chat adapter keeps (vercel/chat's idea: one suite, run by every adapter), as a
// function taking a small driver that plays the platform: start the adapter, send a command the way
// the platform would, read back what the platform received, click a button, stop.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AdapterHandlers, ChatAdapter, CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import { readInput, resolveCommand } from '../../src/core/args.ts';
import { defineCommand, type Command } from '../../src/core/command.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { UserError } from '../../src/errors.ts';
import { registerSecret } from '../../src/redact.ts';

/** An ID3 header then an MPEG-1 Layer III frame header. */
export const CONTRACT_MP3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0xff, 0xfb, 0x90, 0x64]);
export const REFUSAL = 'Nothing to do here; this command always refuses.';
/** A configured credential that an upstream echoes back in its data (registered as config does). */
export const ECHOED_SECRET = 'contract-upstream-key-5d1c9e7a';

/** A command as the platform sends it: handle for reading back what the platform received. */
export interface Sent {
  readonly id: string;
}

/** One message the platform shows, as the contract sees it. */
export interface Delivered {
  /** Every visible piece of text, as a reader sees it (entities decoded). */
  text: string;
  /** Seen by the invoker alone. */
  isPrivate: boolean;
  files: { name: string; bytes: Uint8Array }[];
  /** Buttons or their equivalent; `ref` is what the driver needs to press one. */
  actions: { label: string; ref: unknown }[];
}

export interface AdapterDriver {
  readonly platform: ChatAdapter['platform'];
  /** Who the driver's commands come from. */
  readonly invokerId: string;
  /** False where nobody but the invoker ever reads a reply (the console). */
  readonly hasAudience: boolean;
  /**
   * Whether a public command shows the channel a loading message while it works (Discord's
   * deferral): a failure during the work then becomes that message, seen where it already is.
   */
  readonly showsLoading: boolean;
  start(registry: CommandRegistry, handlers: AdapterHandlers): Promise<ChatAdapter>;
  send(command: string, input: Record<string, string | number | boolean>): Promise<Sent>;
  /** How many platform calls the command has caused so far (to know when it has settled). */
  activity(sent: Sent): number;
  /** What the platform shows for the command now. */
  delivered(sent: Sent): Promise<Delivered[]>;
  click(delivered: Delivered, label: string): Promise<Sent>;
  /** Stops the adapter (may be called twice). */
  stop(): Promise<void>;
  /** Frees the fake platform. */
  close(): Promise<void>;
}

const SETTLE_MS = 200;

/** Waits for the command's first platform call, then until no new one comes for SETTLE_MS. */
export async function received(driver: AdapterDriver, sent: Sent, timeoutMs = 5_000): Promise<Delivered[]> {
  const deadline = Date.now() + timeoutMs;
  while (driver.activity(sent) === 0) {
    if (Date.now() > deadline) return [];
    await sleep(10);
  }
  let seen = driver.activity(sent);
  let quietSince = Date.now();
  while (Date.now() - quietSince < SETTLE_MS) {
    await sleep(20);
    if (driver.activity(sent) !== seen) {
      seen = driver.activity(sent);
      quietSince = Date.now();
    }
  }
  return driver.delivered(sent);
}

export const contractCommands = [
  defineCommand({
    name: 'echo',
    description: 'Echoes text',
    options: z.object({
      text: z.string().min(1).describe('Text to echo'),
      count: z.number().int().min(1).max(9).default(1).describe('How many times'),
    }),
    positional: ['text'],
    needs: [],
    handler: async ({ text, count }) => ({
      text: `echo: ${text}`,
      embeds: [
        { title: 'Echo', description: `echo: ${text}`, fields: [{ name: 'Count', value: String(count) }] },
      ],
    }),
  }),
  defineCommand({
    name: 'secret',
    description: 'Answers the invoker alone',
    options: z.object({ note: z.string().min(1).describe('A note') }),
    needs: [],
    ephemeral: true,
    handler: async ({ note }) => ({ text: `secret: ${note}` }),
  }),
  defineCommand({
    name: 'refuse',
    description: 'Always refuses',
    options: z.object({}),
    needs: [],
    handler: () => Promise.reject(new UserError({ code: 'invalid_input', message: REFUSAL })),
  }),
  defineCommand({
    name: 'file',
    description: 'Replies with an mp3',
    options: z.object({
      name: z
        .string()
        .regex(/^[a-z-]+$/)
        .describe('File name'),
    }),
    needs: [],
    handler: async ({ name }) => ({
      text: `Here is ${name}.mp3`,
      attachments: [{ filename: `${name}.mp3`, contentType: 'audio/mpeg', bytes: CONTRACT_MP3 }],
    }),
  }),
  defineCommand({
    name: 'place',
    description: 'Shows a place name as an upstream returned it',
    options: z.object({}),
    needs: [],
    // Stands for a service whose response data carries the configured key (a city name).
    handler: async () => ({
      text: `Weather for Zocca ${ECHOED_SECRET}`,
      embeds: [{ title: `Zocca ${ECHOED_SECRET}`, fields: [{ name: 'Place', value: ECHOED_SECRET }] }],
    }),
  }),
  defineCommand({
    name: 'page',
    description: 'A page of results with a next-page button',
    options: z.object({
      what: z.string().min(1).describe('Search terms'),
      page: z.number().int().min(1).default(1).describe('Page'),
    }),
    needs: [],
    handler: async ({ what, page }) => ({
      text: `page ${page} of ${what}`,
      actions: [{ label: 'Next page', command: 'page', input: { what, page: page + 1 } }],
    }),
  }),
] as Command[];

export const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** The command and typed input an invocation stands for, read the way the dispatcher reads it. */
function understood(registry: CommandRegistry, inv: Invocation) {
  const { command, rest } =
    typeof inv.rawInput === 'string'
      ? resolveCommand(registry, inv.command, inv.rawInput)
      : { command: registry.get(inv.command)!, rest: inv.rawInput };
  return { command: command.name, input: readInput(command, rest) };
}

export function runAdapterContract(name: string, createDriver: () => Promise<AdapterDriver>): void {
  describe(`${name} adapter contract`, () => {
    // Registered per suite, not at import: this module is loaded once per worker, and the
    // registry is forgotten after every test file (test/support/setup.ts).
    beforeAll(() => registerSecret(ECHOED_SECRET));
    const registry = createRegistry(contractCommands);
    let driver: AdapterDriver;
    let adapter: ChatAdapter;
    let invocations: Invocation[];

    beforeEach(async () => {
      invocations = [];
      const dispatcher = createDispatcher({
        registry,
        services: {},
        log: quiet,
        commandTimeoutMs: 5_000,
        serviceVariables: {},
      });
      const handlers: AdapterHandlers = {
        onInvocation: (inv) => {
          invocations.push(inv);
          return dispatcher.onInvocation(inv);
        },
        onAutocomplete: (req) => dispatcher.onAutocomplete(req),
      };
      driver = await createDriver();
      adapter = await driver.start(registry, handlers);
    });

    afterEach(async () => {
      await driver.stop();
      await driver.close();
    });

    it('is ready once started, and names its platform', () => {
      expect(adapter.isReady()).toBe(true);
      expect(adapter.platform).toBe(driver.platform);
    });

    it('hands a command to onInvocation with its name, typed input and the invoker', async () => {
      await received(driver, await driver.send('echo', { text: 'hello contract', count: 3 }));
      expect(invocations).toHaveLength(1);
      const [inv] = invocations;
      expect(understood(registry, inv!)).toEqual({
        command: 'echo',
        input: { text: 'hello contract', count: 3 },
      });
      expect(inv!.actor.platform).toBe(driver.platform);
      expect(inv!.actor.id).toBe(driver.invokerId);
      expect(inv!.channelId).not.toBe('');
    });

    it('delivers the reply exactly once, where the channel can see it', async () => {
      const messages = await received(driver, await driver.send('echo', { text: 'once only' }));
      expect(messages).toHaveLength(1);
      expect(messages[0]!.text).toContain('echo: once only');
      expect(messages[0]!.isPrivate).toBe(!driver.hasAudience);
    });

    it('shows an ephemeral reply to the invoker alone', async () => {
      const messages = await received(driver, await driver.send('secret', { note: 'for your eyes' }));
      expect(messages).toHaveLength(1);
      expect(messages[0]!.text).toContain('secret: for your eyes');
      expect(messages[0]!.isPrivate).toBe(true);
    });

    it('answers a refusal before any work as one sentence to the invoker alone', async () => {
      const messages = await received(driver, await driver.send('echo', { text: 'x', count: 42 }));
      expect(invocations).toHaveLength(1);
      expect(messages).toHaveLength(1);
      expect(messages[0]!.text).toMatch(/count/);
      // A chat user gets a reference to quote; the console's operator reads the log beside it.
      if (driver.platform !== 'console') expect(messages[0]!.text).toMatch(/\(ref [0-9a-f]{8}\)\.$/);
      expect(messages[0]!.isPrivate).toBe(true);
    });

    it('shows a failure during the work as one sentence, where its loading message was', async () => {
      const messages = await received(driver, await driver.send('refuse', {}));
      expect(messages).toHaveLength(1);
      // Its reference, if any, comes before the full stop.
      expect(messages[0]!.text).toContain(REFUSAL.slice(0, -1));
      expect(messages[0]!.isPrivate).toBe(!driver.showsLoading);
    });

    it('delivers an attachment with its bytes', async () => {
      const messages = await received(driver, await driver.send('file', { name: 'contract-audio' }));
      const files = messages.flatMap((m) => m.files);
      expect(files).toHaveLength(1);
      expect(files[0]!.name).toMatch(/contract-audio\.mp3$/);
      expect([...files[0]!.bytes]).toEqual([...CONTRACT_MP3]);
    });

    it('renders an action as something that re-invokes its command with its input', async () => {
      const [first] = await received(driver, await driver.send('page', { what: 'rust developer' }));
      expect(first!.actions.map((a) => a.label)).toEqual(['Next page']);

      const next = await received(driver, await driver.click(first!, 'Next page'));
      expect(invocations).toHaveLength(2);
      expect(understood(registry, invocations[1]!)).toEqual({
        command: 'page',
        input: { what: 'rust developer', page: 2 },
      });
      expect(next.map((m) => m.text).join('\n')).toContain('page 2 of rust developer');
    });

    it('shows no bidi control of a user’s text, so none can reorder what readers see', async () => {
      const typed = 'invoice \u202egnp.exe\u2066 \u200fdone';
      const messages = await received(driver, await driver.send('echo', { text: typed }));
      expect(invocations).toHaveLength(1);
      const shown = messages.map((m) => m.text).join('\n');
      expect(shown).toContain('gnp.exe');
      expect(shown).not.toMatch(/\p{Bidi_Control}/u);
    });

    it('shows a configured secret echoed in upstream data redacted, as the logs do', async () => {
      const messages = await received(driver, await driver.send('place', {}));
      const shown = messages.map((m) => m.text).join('\n');
      expect(shown).toContain('[REDACTED]');
      expect(shown).not.toContain(ECHOED_SECRET);
      expect(shown).not.toContain(ECHOED_SECRET.slice(0, 12));
    });

    it('takes no new events once stopped', async () => {
      await driver.stop();
      expect(adapter.isReady()).toBe(false);
      const messages = await received(driver, await driver.send('echo', { text: 'too late' }), 400);
      expect(messages).toEqual([]);
      expect(invocations).toEqual([]);
    });
  });
}
