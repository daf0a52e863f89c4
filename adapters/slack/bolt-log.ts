// Bolt's and the Slack SDK's log calls (varargs strings and errors) bridged into herald's logger,
// with every Slack token, the signing secret and response_url capabilities blanked first.
import {
  ErrorCode,
  LogLevel,
  type Logger as BoltLogger,
  type ReceiverDispatchErrorHandlerArgs,
} from '@slack/bolt';
import type { CommandLog } from '../../src/core/command.ts';
import { loggedText } from '../../src/domain/text.ts';
import { redactText } from '../../src/redact.ts';

const RANK: Readonly<Record<LogLevel, number>> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

/** A log-safe summary of an SDK error: its type, code and scrubbed message, never its request. */
export function describeSdkError(err: unknown, secrets: readonly string[]): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: redactText(String(err), secrets) };
  const out: Record<string, unknown> = { type: err.name, message: redactText(err.message, secrets) };
  const { code, statusCode, data } = err as {
    code?: unknown;
    statusCode?: unknown;
    data?: { error?: unknown };
  };
  if (typeof code === 'string') out.code = code;
  if (typeof statusCode === 'number') out.status = statusCode;
  if (typeof data?.error === 'string') out.slackError = data.error;
  return out;
}

export function createBoltLogger(log: CommandLog, secrets: readonly string[]): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  let name = 'bolt';
  const emit =
    (at: LogLevel, write: (obj: object, msg: string) => void) =>
    (...args: unknown[]): void => {
      if (RANK[at] < RANK[level]) return;
      const errors = args
        .filter((a): a is Error => a instanceof Error)
        .map((e) => describeSdkError(e, secrets));
      const text = args
        .filter((a) => !(a instanceof Error))
        .map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))
        .join(' ');
      const obj = errors.length > 0 ? { sdk: name, err: errors[0] } : { sdk: name };
      write(obj, redactText(text || (errors[0]?.message as string | undefined) || 'slack sdk', secrets));
    };
  return {
    debug: emit(LogLevel.DEBUG, (fields, message) => log.debug(fields, message)),
    info: emit(LogLevel.INFO, (fields, message) => log.info(fields, message)),
    warn: emit(LogLevel.WARN, (fields, message) => log.warn(fields, message)),
    error: emit(LogLevel.ERROR, (fields, message) => log.error(fields, message)),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: (next) => {
      name = next;
    },
  };
}

/**
 * The HTTP receiver's answer to a request it could not route (404) or dispatch (500), as Bolt's
 * default gives it, but with at most loggedText's share of the path: anyone who reaches the port
 * chooses it, up to Node's 16 kB of headers, and Bolt's default logs it whole.
 */
export function createDispatchErrorHandler(
  log: CommandLog,
  secrets: readonly string[],
): (args: ReceiverDispatchErrorHandlerArgs) => void {
  return ({ error, request, response }) => {
    const fields = { method: request.method, path: loggedText(request.url ?? '') };
    const isUnrouted =
      (error as { code?: unknown } | null | undefined)?.code === ErrorCode.HTTPReceiverDeferredRequestError;
    if (isUnrouted) log.info(fields, 'slack.request_unrouted');
    else log.error({ ...fields, err: describeSdkError(error, secrets) }, 'slack.request_failed');
    response.writeHead(isUnrouted ? 404 : 500);
    response.end();
  };
}
