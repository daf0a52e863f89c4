// Doubles of what a command runs with, for tests that drive an adapter or a runner with a stand-in
// for the dispatcher: the console's operator, a log that says nothing, a log that keeps its lines,
// and the context a handler gets when a test runs it straight from a registry.
import type { Actor } from '../../src/core/actor.ts';
import type { CommandContext, CommandLog } from '../../src/core/command.ts';
import { defaultPreferences } from '../../src/core/preferences.ts';
import { english } from '../../src/i18n/translate.ts';

/** Whoever types at the console, as the console adapter sends them: the operator. */
export const OPERATOR: Actor = {
  platform: 'console',
  id: 'local',
  displayName: 'operator',
  roles: [],
  isOperator: true,
};

export const SILENT_LOG: CommandLog = { debug() {}, info() {}, warn() {}, error() {} };

export interface LogLine {
  level: string;
  obj: object;
  msg: string;
}

/** A log that appends each line, with its level and fields, to `lines`. */
export function recordingLog(lines: LogLine[]): CommandLog {
  const at = (level: string) => (obj: object, msg: string) => lines.push({ level, obj, msg });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A handler's context without the dispatcher: no services, a silent log, the real clock. */
export function directContext(
  from: { actor: Actor; signal?: AbortSignal },
  invocationId: string,
): CommandContext {
  return {
    actor: from.actor,
    services: {},
    log: SILENT_LOG,
    signal: from.signal ?? new AbortController().signal,
    now: () => new Date(),
    invocationId,
    preferences: defaultPreferences('UTC'),
    t: english,
    locale: 'en-GB',
  };
}
