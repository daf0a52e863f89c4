// What the property tests feed herald: the command list they run against, arbitraries for argument
// text (quotes of every kind, colons, escapes, control characters, very long strings), and a real
// dispatcher over services whose every method records the call and throws.
import fc from 'fast-check';
import { expect } from 'vitest';
import { buildCommands, type CommandSettings } from '../../commands/index.ts';
import { SERVICE_VARIABLES } from '../../src/config/index.ts';
import type { Actor } from '../../src/core/actor.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import type { DispatchLog } from '../../src/core/dispatch-contract.ts';
import { createRegistry } from '../../src/core/registry.ts';
import type { Reply } from '../../src/core/reply.ts';
import { SERVICE_KEYS, type Services } from '../../src/core/services.ts';
import { ServiceError } from '../../src/errors.ts';

/** eleven_v3 takes 5,000 characters a request: the smallest limit, so over-long texts stay cheap. */
export const MODEL_LIMIT = 5_000;
export const ALLOWED: Actor = {
  platform: 'discord',
  id: '500000000000000001',
  displayName: 'ops',
  roles: [],
};
export const STRANGER: Actor = { platform: 'slack', id: 'U0STRANGER1', displayName: 'visitor', roles: [] };

export const SETTINGS: CommandSettings = {
  access: {
    emailUsers: [ALLOWED.id],
    emailRoles: [],
    emailDomains: ['example.com'],
    hostUsers: [ALLOWED.id],
    hostRoles: [],
  },
  limits: { perUserPerMinute: 10, sayDailyChars: 2_000 },
  speechModelId: 'eleven_v3',
  jobsCountry: 'gb',
};
export const COMMANDS = buildCommands(SETTINGS);
const registry = createRegistry(COMMANDS);

// ---------------------------------------------------------------------------------------------
// Services that record every call and fail it, and a dispatcher over them

interface Call {
  service: string;
  method: string;
}

function throwingServices(calls: Call[]): Services {
  const services: Record<string, unknown> = {};
  for (const service of SERVICE_KEYS) {
    services[service] = new Proxy(
      {},
      {
        get: (_target, method) => {
          if (method === 'then') return undefined;
          return (): Promise<never> => {
            calls.push({ service, method: String(method) });
            return Promise.reject(
              new ServiceError({ service, operation: String(method), code: 'upstream', status: 500 }),
            );
          };
        },
      },
    );
  }
  return services;
}

const quietLog: DispatchLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

const calls: Call[] = [];
export const dispatcher = createDispatcher({
  registry,
  services: throwingServices(calls),
  log: quietLog,
  commandTimeoutMs: 5_000,
  serviceVariables: SERVICE_VARIABLES,
});

export interface Outcome {
  replies: Reply[];
  calls: Call[];
}

/** Runs one invocation; any exception out of the dispatcher fails the property. */
export async function invoke(
  command: string,
  rawInput: string | Record<string, unknown>,
  actor: Actor = ALLOWED,
): Promise<Outcome> {
  calls.length = 0;
  const replies: Reply[] = [];
  await dispatcher.onInvocation({
    command,
    rawInput,
    actor,
    channelId: 'C0PROPERTY',
    signal: new AbortController().signal,
    respond: async (reply) => {
      replies.push(reply);
    },
  });
  return { replies, calls: [...calls] };
}

export function expectOneReply(outcome: Outcome): Reply {
  expect(outcome.replies).toHaveLength(1);
  const reply = outcome.replies[0]!;
  expect(typeof reply.text).toBe('string');
  expect(reply.text.trim()).not.toBe('');
  return reply;
}

/** An invalid input: one private sentence, and nothing sent anywhere. */
export function expectRefusedLocally(outcome: Outcome): void {
  const reply = expectOneReply(outcome);
  expect(outcome.calls).toEqual([]);
  expect(reply.ephemeral).toBe(true);
  expect(reply.text).not.toMatch(/[\r\n]/);
}

/** A valid input: it reached the (failing) upstream. */
export function expectSent(outcome: Outcome, service: string): void {
  expectOneReply(outcome);
  expect(outcome.calls.length).toBeGreaterThan(0);
  expect(outcome.calls.every((c) => c.service === service)).toBe(true);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Pieces that have broken argument parsers: quotes of every kind, colons, escapes, controls. */
export const TRICKY = [
  '"',
  "'",
  '“',
  '”',
  '‘',
  '’',
  '\\',
  '\\"',
  ':',
  '::',
  'key:',
  ':value',
  'a:b:c',
  'http://x.test/a?b=c',
  'fe80::1%eth0',
  '::ffff:127.0.0.1',
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\n',
  '\r\n',
  '\t',
  '\u2028',
  '\u00a0',
  '\u200b',
  '\ud800',
  '@everyone',
  '<@&123456789012345678>',
  '<!channel>',
  '..',
  '../..',
  ';',
  '%2F',
  '-1',
  '0',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '9'.repeat(40),
  'x'.repeat(300),
];

export const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);
export const tricky = fc.constantFrom(...TRICKY);
export const optionName = fc.constantFrom(
  ...new Set(COMMANDS.flatMap((c) => Object.keys(c.options.shape))),
  'Units',
  'bogus',
  'x',
);
/** Quotes a value so that the grammar reads it back exactly: `"` and `\` escaped. */
export function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

export const word = fc.oneof(
  anyString,
  tricky,
  fc.oneof(anyString, tricky).map(quoted),
  fc.tuple(optionName, fc.oneof(anyString, tricky, tricky.map(quoted))).map(([k, v]) => `${k}:${v}`),
);
export const separator = fc.constantFrom(' ', '  ', '\t', '\n', '\u3000', '');
/** Argument text as people (and fuzzers) type it. */
export const argText = fc.oneof(
  fc
    .array(fc.tuple(word, separator), { maxLength: 10 })
    .map((parts) => parts.map(([w, s]) => w + s).join('')),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ minLength: 200, maxLength: 6_000 }),
);
