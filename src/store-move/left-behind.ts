// The start-up report's (and `npm start -- --check`'s) word on a SQLite store left behind: with
// REDIS_URL the store is in Redis, and the schedules of the SQLite file beside it are read no more.
import { DEFAULT_STORE_PATH, type Config } from '../config/index.ts';
import { plural } from '../format.ts';
import { describeStore } from '../store/index.ts';
import { countStoredSchedules } from '../store/sqlite-file.ts';

/** The warning, with the commands that move them, when such a file holds schedules. */
export function sqliteLeftBehind(
  config: Pick<Config, 'storeUrl' | 'redisUrl'>,
): { text: string; fields: Record<string, unknown>; warn: true } | undefined {
  if (config.redisUrl === undefined || !describeStore(config).startsWith('redis ')) return undefined;
  const isPath = !/^rediss?:\/\//.test(config.storeUrl) && config.storeUrl !== ':memory:';
  const path = isPath ? config.storeUrl : DEFAULT_STORE_PATH;
  const schedules = countStoredSchedules(path);
  if (schedules === 0) return undefined;
  const file = 'herald-store.json';
  return {
    text: `REDIS_URL puts the store in Redis, but the SQLite store ${path} beside it holds ${plural(schedules, 'schedule')} that herald no longer reads: move them with \`npm run --silent store -- export --store ${path} > ${file}\` then \`npm run store -- import < ${file}\` (docs/store-move.md), and remove ${path} once they are moved`,
    fields: { sqliteStore: path, schedules },
    warn: true,
  };
}
