// Shared pieces of the job and scheduler tests: a logger that keeps its JSON lines (the real
// redacting pino logger), a loopback fake webhook (the sandbox's S7 handlers) with a real client,
// a fake clock and a sleep that only records, the stores a test runs on, and a tiny job that posts one message per slot.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { RequestHandler } from 'msw';
import { defineJob, type Job, type JobContext, type JobSchedule } from '../../src/schedule/job.ts';
import {
  createScheduleRunner,
  type ScheduleRunner,
  type ScheduleRunnerOptions,
} from '../../src/schedule/runner.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { createWebhookInbox, webhookHandlers, type WebhookInbox } from '../../src/sandbox/webhook.ts';
import { type WebhookClient, type WebhookConfig } from '../../src/services/webhook/client.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

export interface CapturedLog {
  log: Logger;
  lines: Record<string, unknown>[];
  /** Every line as written, for "never contains" checks. */
  raw: string[];
  find(msg: string): Record<string, unknown>[];
}

export function captureLog(): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const log = createLogger({
    level: 'debug',
    destination: {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  });
  return { log, lines, raw, find: (msg) => lines.filter((l) => l.msg === msg) };
}

export const WEBHOOK_ID = '1349081729583431690';
/** Not a real token format; long enough to be registered for redaction. */
export const WEBHOOK_TOKEN = 'herald-test-webhook-token-7c2e91';

export interface WebhookFake {
  server: SandboxServer;
  inbox: WebhookInbox;
  config: WebhookConfig;
  client(overrides?: Partial<WebhookConfig>, requestTimeoutMs?: number): WebhookClient;
  close(): Promise<void>;
}

export async function startWebhookFake(extra: RequestHandler[] = []): Promise<WebhookFake> {
  const inbox = createWebhookInbox(10_000);
  const server = await startFake([
    ...webhookHandlers({ credential: WEBHOOK_TOKEN, webhookId: WEBHOOK_ID, inbox }),
    ...extra,
  ]);
  const config = { baseUrl: sandboxBaseUrl(server.url, 'webhook'), id: WEBHOOK_ID, token: WEBHOOK_TOKEN };
  const clients: WebhookClient[] = [];
  return {
    server,
    inbox,
    config,
    client(overrides = {}, requestTimeoutMs = 5_000) {
      const c = createWebhookClient({ ...config, ...overrides }, { httpOptions: { requestTimeoutMs } });
      clients.push(c);
      return c;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    },
  };
}

export interface FakeClock {
  ms: number;
  now(): Date;
  nowMs(): number;
  set(iso: string): void;
  advance(ms: number): void;
}

export function fakeClock(iso: string): FakeClock {
  const clock: FakeClock = {
    ms: Date.parse(iso),
    now: () => new Date(clock.ms),
    nowMs: () => clock.ms,
    set: (to) => void (clock.ms = Date.parse(to)),
    advance: (ms) => void (clock.ms += ms),
  };
  return clock;
}

/** A kind of store a test runs on, opened afresh on its fake clock; `name` for describe.each. */
export interface StoreBackend {
  name: string;
  open(clock: FakeClock): Promise<Store>;
}

/**
 * Memory, node:sqlite (a new file in `dir`) and the real Redis (keys under `keyPrefix`, for the
 * test file to delete afterwards).
 */
export function storeBackends(dir: string, keyPrefix: string): StoreBackend[] {
  return [
    { name: 'memory', open: async (clock) => createMemoryStore({ now: clock.nowMs }) },
    {
      name: 'node:sqlite',
      open: async (clock) => createSqliteStore(join(dir, `${randomUUID()}.sqlite`), { now: clock.nowMs }),
    },
    {
      name: 'Redis',
      open: (clock) =>
        createRedisStore(REDIS_URL, { now: clock.nowMs, keyPrefix: `${keyPrefix}${randomUUID()}:` }),
    },
  ];
}

/**
 * A deliverer's sleep that waits nothing: it records each wait asked for and hands it to `advance`
 * (a fake clock's), rejecting as node's timers/promises one does once `signal` has fired.
 */
export function fakeSleep(advance: (ms: number) => void = () => undefined) {
  const sleeps: number[] = [];
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    sleeps.push(ms);
    advance(ms);
    return Promise.resolve();
  };
  return { sleeps, sleep };
}

/** A job that posts "report for <slot id>" through the webhook; `run` replaces its body. */
export function reportJob(run?: (ctx: JobContext) => Promise<void>): Job {
  return defineJob({
    name: 'report',
    description: 'posts one message per slot',
    needs: ['webhook'],
    run:
      run ??
      ((ctx) => {
        ctx.deliver({
          kind: 'webhook',
          message: { username: 'herald', content: `report for ${ctx.slot.id}` },
        });
        return Promise.resolve();
      }),
  });
}

export function hourly(job: Job = reportJob(), cron = '0 * * * *', timezone = 'UTC'): JobSchedule {
  return { job, cron, timezone, variables: { cron: 'REPORT_CRON', timezone: 'REPORT_TZ' } };
}

/** The one engine running only built-in schedules (no chat schedules), as the job tests need it. */
export function builtInRunner(
  opts: Omit<ScheduleRunnerOptions, 'builtIns'> & { builtIns: JobSchedule[] },
): ScheduleRunner {
  return createScheduleRunner(opts);
}

/** Fast delivery settings for tests: millisecond backoffs, retries a second later on the fake clock. */
export const FAST_DELIVERY = { backoffMs: 5, retryBaseMs: 1_000, maxWaitMs: 2_000 };

/** Posts the fake accepted, by content. */
export function postedContents(inbox: WebhookInbox): string[] {
  return inbox.messages.map((m) => m.content ?? '');
}

/** Waits until `check` is true, polling; fails after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
