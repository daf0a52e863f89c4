// Test helpers for commands: a CommandContext with a fixed clock and a recording log, and `invoke`,
// which runs a command through the real dispatcher.
import { expect } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import type { Command, CommandContext, CommandLog } from '../../src/core/command.ts';
import type { Reply } from '../../src/core/reply.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { createRegistry } from '../../src/core/registry.ts';
import type { Services } from '../../src/core/services.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { ServiceError, type ServiceErrorCode, type ServiceName } from '../../src/errors.ts';
import { OPERATOR } from '../support/command-doubles.ts';
import { defaultPreferences } from '../../src/core/preferences.ts';
import type { Language } from '../../src/domain/preferences.ts';
import { translatorFor } from '../../src/i18n/translate.ts';

export const NOW = new Date('2026-11-22T10:00:00Z');

export { OPERATOR } from '../support/command-doubles.ts';

export const DISCORD_MEMBER: Actor = {
  platform: 'discord',
  id: '331245678901234567',
  displayName: 'Ada',
  roles: ['1098765432109876543'],
};

export const SLACK_MEMBER: Actor = { platform: 'slack', id: 'U04ABCDEF12', displayName: 'Grace', roles: [] };

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object;
  msg: string;
}

export interface TestContext extends CommandContext {
  logs: LogEntry[];
}

export function createContext(
  opts: { services?: Services; actor?: Actor; now?: Date; language?: Language } = {},
): TestContext {
  const logs: LogEntry[] = [];
  const record =
    (level: LogEntry['level']) =>
    (obj: object, msg: string): void => {
      logs.push({ level, obj, msg });
    };
  const log: CommandLog = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
  const now = opts.now ?? NOW;
  const language = opts.language ?? 'en-GB';
  const actor = opts.actor ?? OPERATOR;
  return {
    actor,
    services: opts.services ?? {},
    log,
    signal: new AbortController().signal,
    now: () => new Date(now),
    invocationId: 'inv-0001',
    preferences: { ...defaultPreferences('UTC'), language },
    // As the dispatcher makes it: commands named as the actor's platform lists them.
    t: translatorFor(language, actor.platform),
    locale: language,
    logs,
  };
}

/**
 * Runs a command through the real dispatcher (a registry of this one command, the context's
 * services, log and clock): its input read and validated, its access checked, its handler run
 * under the command deadline and its reply redacted, as a schedule runs it (no per-user rate
 * limit). A failure is thrown as it is, not turned into a sentence.
 */
export async function invoke<I>(
  command: Command<I>,
  input: Record<string, unknown>,
  ctx: CommandContext,
): Promise<Reply> {
  const dispatcher = createDispatcher({
    registry: createRegistry([command as Command]),
    services: ctx.services,
    log: ctx.log,
    commandTimeoutMs: 60_000,
    serviceVariables: {},
    now: ctx.now,
    // The context's preferences apply, as a book that holds nothing else would give them.
    preferences: {
      defaults: ctx.preferences,
      read: () => Promise.resolve({}),
      write: () => Promise.resolve({}),
      forCommand: () => Promise.resolve(ctx.preferences),
      forSchedule: () => Promise.resolve(ctx.preferences),
    },
  });
  return dispatcher.run({ command: command.name, rawInput: input }, ctx.actor, ctx.signal);
}

/** Every code a service call can fail with; each must reach the dispatcher untouched. */
export { SERVICE_ERROR_CODES } from '../support/service-errors.ts';

export function serviceError(service: ServiceName, operation: string, code: ServiceErrorCode): ServiceError {
  return new ServiceError({
    service,
    operation,
    code,
    status: code === 'rate_limited' ? 429 : undefined,
    ...(code === 'rate_limited' ? { retryAfterMs: 2_000 } : {}),
  });
}

/** Asserts the reply's shape every command promises: a one-line text fallback, sane embeds. */
export function expectWellFormed(reply: Reply): void {
  expect(reply.text.length).toBeGreaterThan(0);
  expect(reply.text).not.toContain('\n');
  expect(reply.text.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
  expect(reply.text).not.toMatch(/^\s*[@<]/);
  for (const embed of reply.embeds ?? []) {
    expect(embed.fields?.length ?? 0).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    expect(embed.title?.length ?? 0).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(embed.description?.length ?? 0).toBeLessThanOrEqual(DISCORD_LIMITS.description);
    for (const field of embed.fields ?? []) {
      expect(field.name.length).toBeGreaterThan(0);
      expect(field.value.length).toBeGreaterThan(0);
      expect(field.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    }
  }
}

/** The embed of a one-embed reply. */
export function onlyEmbed(reply: Reply) {
  expect(reply.embeds).toHaveLength(1);
  return reply.embeds![0]!;
}

/** The value of the field named `name` in the reply's first embed. */
export function field(reply: Reply, name: string): string | undefined {
  return reply.embeds?.[0]?.fields?.find((f) => f.name === name)?.value;
}
