// Runs one invocation of the fault matrix: fresh clients over the loopback fake (no cache or breaker
// state carried between cells), the real dispatcher, a recording respond(), the redacting logger
// writing into memory, and every error a service call threw kept for inspection.
import type { RequestHandler } from 'msw';
import { buildCommands } from '../../commands/index.ts';
import { SERVICE_VARIABLES } from '../../src/config/index.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { createQuotas } from '../../src/user-limits.ts';
import { createRegistry, type Registry } from '../../src/core/registry.ts';
import type { Reply } from '../../src/core/reply.ts';
import type { Services } from '../../src/core/services.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { route } from '../../src/sandbox/layout.ts';
import { closeServices, createServices } from '../../src/services/index.ts';
import type { RecordedRequest, SandboxServer } from '../support/sandbox-server.ts';
import {
  ALLOWED_ACTOR,
  COMMAND_SETTINGS,
  serviceConfigs,
  type Cell,
  type CommandCase,
  type Credentials,
} from './fault-cells.ts';
import { FAST_HTTP, faultHandler, type Upstream } from './faults.ts';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A root logger (src/log.ts, redacting) writing JSON lines into memory. */
export function captureLog(level = 'debug') {
  const raw: string[] = [];
  const log = createLogger({
    level,
    format: 'json',
    destination: { write: (line: string) => raw.push(line) },
  });
  return {
    log,
    raw,
    lines: (): LogLine[] =>
      raw
        .flatMap((chunk) => chunk.split('\n').filter((l) => l.trim() !== ''))
        .map((l) => JSON.parse(l) as LogLine),
  };
}

/** Wraps every client so that each error a service call throws is kept (messages are checked). */
function recordingErrors(services: Services, errors: unknown[]): Services {
  const out: Record<string, unknown> = {};
  for (const [key, client] of Object.entries(services)) {
    out[key] = new Proxy(client, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function' || prop === 'close') return value;
        return async (...args: unknown[]) => {
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } catch (err) {
            errors.push(err);
            throw err;
          }
        };
      },
    });
  }
  return out;
}

/** What a run logged, what its service calls threw and what reached the fake. */
export interface Observed {
  log: LogLine[];
  rawLog: string;
  /** Errors thrown by service calls (before the dispatcher turned them into a sentence). */
  errors: unknown[];
  /** The requests the fake received during the run. */
  requests: RecordedRequest[];
}

export interface CellRun extends Observed {
  replies: Reply[];
  /** From the invocation to its first reply. */
  replyMs: number;
}

export interface Harness {
  server: SandboxServer;
  base: RequestHandler[];
  creds: Credentials;
  registry: Registry;
}

export function createHarness(server: SandboxServer, base: RequestHandler[], creds: Credentials): Harness {
  return { server, base, creds, registry: createRegistry(buildCommands(COMMAND_SETTINGS)) };
}

/**
 * Runs `body` with fresh clients (no cache or breaker state carried between runs) whose errors are
 * recorded, with `overrides` in front of the fake's handlers for its duration.
 */
async function withFreshServices<T>(
  h: Harness,
  overrides: RequestHandler[],
  body: (services: Services, log: Logger) => Promise<T>,
): Promise<Observed & { result: T }> {
  const capture = captureLog('debug');
  const errors: unknown[] = [];
  const first = h.server.requests.length;
  h.server.use(...overrides);
  const services = createServices(serviceConfigs(h.server.url, h.creds), {
    log: capture.log.child({ component: 'http' }),
    httpOptions: FAST_HTTP,
  });
  let result: T;
  try {
    result = await body(recordingErrors(services, errors), capture.log);
  } finally {
    h.server.resetHandlers();
    await closeServices(services);
  }
  return {
    result,
    log: capture.lines(),
    rawLog: capture.raw.join(''),
    errors,
    requests: h.server.requests.slice(first),
  };
}

/**
 * Runs one invocation with fresh clients (no cache or breaker state carried between cells),
 * with `overrides` in front of the fake's handlers for its duration.
 */
export async function runInvocation(
  h: Harness,
  c: Pick<CommandCase, 'command' | 'text'>,
  overrides: RequestHandler[] = [],
): Promise<CellRun> {
  const { result, ...observed } = await withFreshServices(h, overrides, async (services, log) => {
    const dispatcher = createDispatcher({
      registry: h.registry,
      services,
      log,
      commandTimeoutMs: 2_500,
      serviceVariables: SERVICE_VARIABLES,
      rateLimit: createQuotas(COMMAND_SETTINGS.limits).commands,
    });
    const replies: Reply[] = [];
    let replyMs = Number.POSITIVE_INFINITY;
    const started = performance.now();
    await dispatcher.onInvocation({
      command: c.command,
      rawInput: c.text,
      actor: ALLOWED_ACTOR,
      channelId: '400000000000000001',
      signal: new AbortController().signal,
      respond: async (reply) => {
        if (replies.length === 0) replyMs = performance.now() - started;
        replies.push(reply);
      },
    });
    // A second, late reply or a stray rejection would show up in this pause.
    await new Promise((resolve) => setTimeout(resolve, 15));
    return { replies, replyMs };
  });
  return { ...result, ...observed };
}

export function runCell(h: Harness, cell: Cell): Promise<CellRun> {
  return runInvocation(h, cell.case, [faultHandler(cell.upstream, cell.fault, h.base)]);
}

/** Requests that reached the upstream operation of a cell. */
export function requestsTo(run: Pick<CellRun, 'requests'>, upstream: Upstream): RecordedRequest[] {
  const pattern = new RegExp(
    `^${route(upstream.service, upstream.path)
      .slice(1)
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\/:[a-zA-Z]+/g, '/[^/]+')}$`,
  );
  return run.requests.filter((r) => r.method.toLowerCase() === upstream.method && pattern.test(r.pathname));
}

/** Each secret and its percent-encoded form found in `text`, by name. */
export function leaksIn(text: string, creds: Credentials): string[] {
  return (Object.entries(creds) as [string, string][])
    .filter(([, secret]) => text.includes(secret) || text.includes(encodeURIComponent(secret)))
    .map(([name]) => name);
}

/** Every message and providerMessage along an error's cause chain. */
export function errorTexts(err: unknown): string[] {
  const out: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (typeof e !== 'object') {
      if (typeof e === 'string') out.push(e);
      break;
    }
    const { message, providerMessage, stack } = e as {
      message?: unknown;
      providerMessage?: unknown;
      stack?: unknown;
    };
    for (const value of [message, providerMessage, stack]) if (typeof value === 'string') out.push(value);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

export interface CallRun extends Observed {
  outcome: PromiseSettledResult<unknown>;
}

/** Calls services directly (S7 is used by jobs, not commands), with the same clients and log. */
export async function runServiceCall(
  h: Harness,
  call: (services: Services, log: Logger) => Promise<unknown>,
  overrides: RequestHandler[] = [],
): Promise<CallRun> {
  const { result, ...observed } = await withFreshServices(h, overrides, async (services, log) => {
    const [outcome] = await Promise.allSettled([call(services, log)]);
    return outcome;
  });
  return { outcome: result, ...observed };
}
