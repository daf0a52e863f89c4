// Schedules in Redis, shared by every replica: `<prefix>schedules` maps id → the record as added
// (JSON, never rewritten), `<prefix>schedules:paused` and `<prefix>schedules:last` hold what
// changes. Multi-key steps are Lua scripts (atomic in Redis), so the SCHEDULE_MAX check and the
// insert cannot race, and a pause or a run record never resurrects a removed schedule.
import { connectStoreRedis } from './connect.ts';
import { scriptsOf } from './redis-store.ts';
import type { AddResult, ScheduleRecord, ScheduleRun, ScheduleStore } from '../core/schedules.ts';

export interface RedisScheduleStoreOptions {
  /** Defaults to "herald:", the prefix of the other store keys. */
  keyPrefix?: string;
  connectTimeoutMs?: number;
}

// KEYS: records, paused. ARGV: id, record, max, paused (1 or 0).
const ADD = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'exists' end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[4] == '1' then redis.call('HSET', KEYS[2], ARGV[1], '1') end
return 'added'
`;

// KEYS: records, the hash to write. ARGV: id, value ('' deletes).
const SET_IF_EXISTS = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[2], ARGV[1]) else redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 1
`;

// KEYS: records, paused, last. ARGV: id.
const REMOVE = `
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])
`;

export async function createRedisScheduleStore(
  url: string,
  opts: RedisScheduleStoreOptions = {},
): Promise<ScheduleStore> {
  const p = opts.keyPrefix ?? 'herald:';
  const keys = { records: `${p}schedules`, paused: `${p}schedules:paused`, last: `${p}schedules:last` };
  const redis = await connectStoreRedis(url, opts.connectTimeoutMs);
  const script = scriptsOf(redis);
  function merge(raw: string, paused: string | undefined, last: string | undefined): ScheduleRecord {
    const record = JSON.parse(raw) as ScheduleRecord;
    record.paused = paused === '1';
    if (last !== undefined) record.lastRun = JSON.parse(last) as ScheduleRun;
    else delete record.lastRun;
    return record;
  }
  const setIfExists = async (hash: string, id: string, value: string) =>
    (await script(SET_IF_EXISTS, 2, keys.records, hash, id, value)) === 1;

  return {
    async list() {
      const [records, paused, last] = await Promise.all([
        redis.hgetall(keys.records),
        redis.hgetall(keys.paused),
        redis.hgetall(keys.last),
      ]);
      const all = Object.entries(records).map(([id, raw]) => merge(raw, paused[id], last[id]));
      return all.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },
    async get(id) {
      const [raw, paused, last] = await Promise.all([
        redis.hget(keys.records, id),
        redis.hget(keys.paused, id),
        redis.hget(keys.last, id),
      ]);
      return raw === null ? undefined : merge(raw, paused ?? undefined, last ?? undefined);
    },
    async add(record, max) {
      const { paused, lastRun: _lastRun, ...rest } = record;
      const args = [record.id, JSON.stringify(rest), String(max), paused ? '1' : '0'];
      return (await script(ADD, 2, keys.records, keys.paused, ...args)) as AddResult;
    },
    async remove(id) {
      return (await script(REMOVE, 3, keys.records, keys.paused, keys.last, id)) === 1;
    },
    setPaused: (id, paused) => setIfExists(keys.paused, id, paused ? '1' : ''),
    async recordRun(id, run) {
      await setIfExists(keys.last, id, JSON.stringify(run));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
