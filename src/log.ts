// The root pino logger. JSON in production, readable on a terminal; always to stderr so that the
// console adapter's stdout holds only replies. Every credential carrier is redacted: by key
// (headers, query parameters) and by value (every configured secret, inside any string).
import pino, { type Logger } from 'pino';
import { REDACTED, redactText, SECRET_HEADERS, SECRET_QUERY_PARAMS } from './redact.ts';

export type { Logger };

// Keys whose values are blanked at any depth. This walk replaces pino's `redact` paths, whose
// wildcards cost about 8 µs a line (bench/), while scrub() walks every logged object anyway.
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

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
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

export interface LogOptions {
  level?: string;
  format?: 'json' | 'pretty';
  /** A stream of the caller's own, written line by line (tests). */
  destination?: pino.DestinationStream;
  /** A file to write instead of stderr, buffered as stderr is (the bench: /dev/null). */
  file?: string;
}

/** Buffered lines wait for at most this many bytes... */
const LOG_BUFFER_BYTES = 4096;
/** ...or this long, before one synchronous write. */
const LOG_FLUSH_MS = 100;
/** pino's level number of `warn`: lines at this level or worse are never held back. */
const WARN_LEVEL = 40;
/**
 * The routine lines logged once per command (src/core/dispatch-steps.ts): held back and written
 * with the next write (issue 16: one write per line was about a fifth of a command's CPU). Every
 * other line is written at once, so that a closed stderr is met at once as before.
 */
const BUFFERED_LINES: ReadonlySet<string> = new Set(['command.finished', 'command.failed']);

type Sink = ReturnType<typeof pino.destination>;

/**
 * stderr (or `file`), written synchronously: with asynchronous writes in flight at exit, pino's
 * exit hook (sonic-boom's flushSync) retries EPIPE forever once the reader of stderr is gone, and
 * the process hangs deaf to signals (issue 14, point 7). A synchronous write meets the EPIPE at
 * once instead. Held-back lines go out with the next line written at once, when 4 KiB gather,
 * every 100 ms, when the lifecycle flushes the log at stop, and at exit (one attempt, no retry).
 */
function bufferedSink(file: string | undefined): Sink {
  const sink = pino.destination({
    ...(file === undefined ? { fd: 2 } : { dest: file }),
    sync: true,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  process.once('exit', () => {
    try {
      sink.flush();
    } catch {
      // Destroyed or closed: nothing more can be written.
    }
  });
  return sink;
}

function messageOf(args: readonly unknown[]): unknown {
  return typeof args[0] === 'string' ? args[0] : args[1];
}

export function createLogger(opts: LogOptions = {}): Logger {
  const sink = opts.destination || opts.format === 'pretty' ? undefined : bufferedSink(opts.file);
  const options: pino.LoggerOptions = {
    level: opts.level ?? 'info',
    base: { app: 'herald' },
    formatters: {
      log: (obj) => scrub(obj) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method, level) {
        const safe = args.map((a) => (typeof a === 'string' ? redactText(a) : a));
        method.apply(this, safe as Parameters<typeof method>);
        if (sink === undefined) return;
        const held = level < WARN_LEVEL && BUFFERED_LINES.has(messageOf(args) as string);
        if (!held) sink.flush();
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
  return pino(options, sink);
}
