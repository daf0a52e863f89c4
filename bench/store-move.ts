// The rows of `npm run bench -- schedules` for moving a store (src/store-move/): 10,000 schedules,
// each with a full history (RUN_HISTORY runs), 1,000 of them watches with a memory of 100 digests,
// imported from a file into SQLite, exported from it, imported into Redis and exported from it.
// Each row times what `npm run store` does past its start: reading and checking the file, then
// writing the store; or reading the store, then writing the file's text.
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseStoreFile, serializeStoreFile, type StoreFile } from '../src/store-move/export-file.ts';
import { exportStore, importStore } from '../src/store-move/move.ts';
import { RUN_HISTORY, type ScheduleRun } from '../src/schedule/schedules.ts';
import { createSqliteStore, type Store } from '../src/store/index.ts';
import { createRedisStore } from '../src/store/redis-store.ts';
import { dropKeys, REDIS_URL, type Row } from './schedule-world.ts';

const SCHEDULES = 10_000;
const WATCH_EVERY = 10;
const DIGESTS = 100;
const TARGET_S = 10;
const DAY_MS = 86_400_000;

/** A store's worth of schedules, as an export of a store that has run for RUN_HISTORY days. */
function storeFile(now: number): StoreFile {
  const first = now - RUN_HISTORY * DAY_MS;
  const schedules = Array.from({ length: SCHEDULES }, (_, i) => {
    const id = `m${i.toString(36).padStart(5, '0')}`;
    const minute = i % 60;
    const history: ScheduleRun[] = Array.from({ length: RUN_HISTORY }, (_, d) => {
      const slot = Math.floor(now / DAY_MS) * DAY_MS - d * DAY_MS + 7 * 3_600_000 + minute * 60_000;
      return {
        slotId: new Date(slot).toISOString(),
        at: slot + 1_200,
        outcome: 'posted',
        messageId: `${1_300_000_000_000_000_000n + BigInt(i * 100 + d)}`,
        channelId: '1200000000000000001',
        durationMs: 840,
      };
    });
    const record = {
      id,
      when: `every day at 07:${String(minute).padStart(2, '0')}`,
      cron: `${minute} 7 * * *`,
      words: `every day at 07:${String(minute).padStart(2, '0')}`,
      timezone: 'Europe/Berlin',
      destination: `channel:discord:${1_200_000_000_000_000_000n + BigInt(i % 100)}`,
      guildId: '1100000000000000001',
      command: i % WATCH_EVERY === 0 ? '/jobs what:"rust developer" where:Berlin' : `/weather City${i}`,
      creator: { platform: 'discord' as const, id: '400000000000000001', displayName: 'Ada', roles: [] },
      paused: false,
      ...(i % WATCH_EVERY === 0 ? { onlyNew: true } : {}),
      createdAt: first,
    };
    return { record, history };
  });
  const values: Record<string, string> = {};
  for (let i = 0; i < SCHEDULES; i += WATCH_EVERY) {
    const seen = Array.from({ length: DIGESTS }, (_, k) =>
      createHash('sha256').update(`${i}:${k}`).digest('base64'),
    );
    values[`watch:${schedules[i]!.record.id}`] = JSON.stringify({ v: 2, facts: { seen } });
  }
  return {
    herald: 'store',
    format: 1,
    exportedAt: new Date(now).toISOString(),
    from: 'sqlite',
    schedules,
    values,
  };
}

/** Wall time, and this process's CPU time (Redis's own is not in it). */
async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; cpu: number; value: T }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6, value };
}

function row(what: string, backend: string, time: { seconds: number; cpu: number }, detail: string): Row {
  return {
    scenario: `${what} ${SCHEDULES.toLocaleString('en')} schedules (${backend}; ${detail})`,
    measured: `${time.seconds.toFixed(2)} s (CPU ${time.cpu.toFixed(2)} s)`,
    target: `≤ ${TARGET_S} s`,
    met: time.seconds <= TARGET_S,
  };
}

async function moveRows(backend: string, store: Store, text: string): Promise<{ rows: Row[]; text: string }> {
  const imported = await timed(async () => importStore(store, parseStoreFile(text)));
  const { runs, values } = imported.value;
  const exported = await timed(async () => serializeStoreFile((await exportStore(store)).file));
  const size = `${(exported.value.length / 1024 / 1024).toFixed(1)} MB file`;
  return {
    rows: [
      row(
        'import of',
        backend,
        imported,
        `${runs.toLocaleString('en')} runs, ${values.toLocaleString('en')} watch memories`,
      ),
      row('export of', backend, exported, size),
    ],
    text: exported.value,
  };
}

/** Import into SQLite, export from it, then the same through Redis; the file read back is the one written. */
export async function storeMoveRows(dir: string): Promise<Row[]> {
  const text = serializeStoreFile(storeFile(Date.parse('2026-11-27T12:00:00Z')));
  const sqlite = createSqliteStore(join(dir, `${randomUUID()}-move.sqlite`));
  const fromSqlite = await moveRows('SQLite', sqlite, text);
  await sqlite.close();
  const prefix = `herald:bench-${randomUUID()}:`;
  const redis = await createRedisStore(REDIS_URL, { keyPrefix: prefix });
  try {
    const fromRedis = await moveRows('Redis', redis, fromSqlite.text);
    const count = (t: string) => parseStoreFile(t).schedules.length;
    if (count(fromRedis.text) !== SCHEDULES) throw new Error('the store move lost schedules');
    return [...fromSqlite.rows, ...fromRedis.rows];
  } finally {
    await redis.close();
    await dropKeys(prefix);
  }
}
