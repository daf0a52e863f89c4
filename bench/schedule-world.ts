// What the schedules bench's rows share (schedules.ts, schedules-slack.ts): the stores (a SQLite
// file or a Redis prefix holding the engine's store and the schedules, store calls counted), the
// clock the engine reads, the command each schedule runs, a silent log, and a row of the table.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { CommandLineRunner } from '../src/schedule/slot-run.ts';
import { createSqliteStore, type Store } from '../src/store/index.ts';
import { createRedisStore } from '../src/store/redis-store.ts';

export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const SILENT = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface Row {
  scenario: string;
  measured: string;
  target: string;
  met: boolean;
}

/** Each schedule's command: it fetches from the upstream and replies `<line>: <its text>`. */
export function weatherCommands(upstream: string): () => CommandLineRunner {
  const agent = new Agent({ connections: 256 });
  return () => ({
    async run(line, _actor, signal) {
      const res = await request(`${upstream}/weather?q=${encodeURIComponent(line)}`, {
        dispatcher: agent,
        signal,
      });
      const body = (await res.body.json()) as { text: string };
      return { text: `${line}: ${body.text}` };
    },
  });
}

/** `target` with every method call counted: one call is one store round trip. */
export function counted<T extends object>(target: T, calls: { n: number }): T {
  return new Proxy(target, {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.n++;
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

export interface World {
  store: Store;
  /** The same store, for adding schedules (its pause reads are not counted). */
  schedules: Store;
  /** The deliverer's reads of a destination's shared pause, counted. */
  pauseReads: { n: number };
  close(): Promise<void>;
}

/** `store` with its reads of `delivery-pause:` keys counted in `reads`. */
function pauseReadsOf(store: Store, reads: { n: number }): Store {
  return new Proxy(store, {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver) as unknown;
      if (key !== 'getValue' || typeof value !== 'function') return value;
      return (k: string) => {
        if (k.startsWith('delivery-pause:')) reads.n++;
        return (value as (k: string) => Promise<string | undefined>).call(t, k);
      };
    },
  });
}

/** The store as a World, the deliverer's pause reads counted. */
function worldOf(store: Store): World {
  const pauseReads = { n: 0 };
  return { store: pauseReadsOf(store, pauseReads), schedules: store, pauseReads, close: () => store.close() };
}

export async function openSqlite(dir: string): Promise<World> {
  const file = join(dir, `${randomUUID()}.sqlite`);
  return worldOf(createSqliteStore(file, { now: () => clock.now }));
}

export async function openRedis(keyPrefix: string): Promise<World> {
  return worldOf(await createRedisStore(REDIS_URL, { now: () => clock.now, keyPrefix }));
}

/**
 * The engine's clock: set to a moment (a minute boundary, the end of a downtime), it runs on with
 * the wall clock from there, as a real one does; a rate limit's pause ends as the platform meant.
 */
export const clock = {
  at: Date.parse('2026-11-27T12:00:00Z'),
  since: performance.now(),
  get now(): number {
    return this.at + Math.floor(performance.now() - this.since);
  },
  set now(ms: number) {
    this.at = ms;
    this.since = performance.now();
  },
};

/** Deletes the keys a Redis row wrote under its own prefix (SCAN, not KEYS). */
export async function dropKeys(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}
