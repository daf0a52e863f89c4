// The root pino logger. JSON in production, readable on a terminal; always to stderr so that the
// console adapter's stdout holds only replies. Every credential carrier is redacted: by key
// (headers, query parameters) and by value (every configured secret, inside any string).
import pino, { type Logger } from 'pino';
import {
  mayNeedRedaction,
  REDACTED,
  redactText,
  SECRET_HEADERS,
  SECRET_QUERY_PARAMS,
  TOO_DEEP,
} from './redact.ts';

export type { Logger };

// Keys whose values are blanked at any depth. This walk replaces pino's `redact` paths, whose
// wildcards cost more per line than the walk that scrub() makes of every logged object anyway
// (docs/PERFORMANCE.md).
const SECRET_KEYS = new Set([
  ...SECRET_HEADERS,
  ...SECRET_QUERY_PARAMS,
  'token',
  'password',
  'secret',
  'apikey',
  'accesstoken',
  'bottoken',
  'apptoken',
  'signingsecret',
]);

/** The deepest level of a logged object that is walked; below it, an object is TOO_DEEP. */
const MAX_LOG_DEPTH = 6;

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_LOG_DEPTH) return TOO_DEEP;
  if (value instanceof Error) {
    const out: Record<string, unknown> = {
      type: value.name,
      message: redactText(value.message),
      stack: value.stack === undefined ? undefined : redactText(value.stack),
    };
    for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
    if (value.cause !== undefined) out.cause = scrub(value.cause, depth + 1);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  // A date has no own fields: walked as an object it would be logged as {}.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      SECRET_KEYS.has(k.toLowerCase()) && v !== undefined && v !== null ? REDACTED : scrub(v, depth + 1);
  }
  return out;
}

/**
 * Whether scrub would return `value` unchanged because it is flat: no key to blank, every value
 * a number, boolean or string and no string holding a carrier or secret (one scan of them all).
 * Most lines are such records (command.finished), and skip the walk and its copy.
 */
function isFlatAndClean(value: Record<string, unknown>): boolean {
  let text = '';
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'object' || SECRET_KEYS.has(key.toLowerCase())) return false;
    if (typeof v === 'string') text += `\n${v}`;
  }
  return !mayNeedRedaction(text);
}

/** The message (and any other string argument) redacted; the arguments as they are when clean. */
function redactArgs(args: unknown[]): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (typeof arg !== 'string') continue;
    const safe = redactText(arg);
    if (safe !== arg) (out ??= [...args])[i] = safe;
  }
  return out ?? args;
}

interface LogOptions {
  level?: string;
  format?: 'json' | 'pretty';
  /** Defaults to stderr (fd 2). */
  destination?: pino.DestinationStream;
}

export function createLogger(opts: LogOptions = {}): Logger {
  const options: pino.LoggerOptions = {
    level: opts.level ?? 'info',
    base: { app: 'herald' },
    formatters: {
      log: (obj) => (isFlatAndClean(obj) ? obj : (scrub(obj) as Record<string, unknown>)),
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, redactArgs(args) as Parameters<typeof method>);
      },
    },
    serializers: { err: (e: unknown) => scrub(e) },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (opts.format === 'pretty') {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        options: { destination: 2, colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,app' },
      },
    });
  }
  // Synchronous: with asynchronous writes in flight at exit, pino's exit hook (sonic-boom's
  // flushSync) retries EPIPE forever once the reader of stderr is gone, and the process hangs
  // deaf to signals. A synchronous write meets the EPIPE at once instead.
  return pino(options, pino.destination({ fd: 2, sync: true }));
}
