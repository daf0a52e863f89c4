// Schedules in Redis, shared by every replica: `<prefix>schedules` maps id → the record as added
// (JSON, never rewritten), `<prefix>schedules:paused` and `<prefix>schedules:last` hold what
// changes. Multi-key steps are Lua scripts (atomic in Redis), so the SCHEDULE_MAX check and the
// insert cannot race, and a pause or a run record never resurrects a removed schedule.
import { connectStoreRedis } from './connect.ts';
import { scriptsOf } from './redis-store.ts';
import {
  RUN_HISTORY,
  type AddResult,
  type ScheduleRecord,
  type ScheduleRun,
  type ScheduleStore,
} from '../core/schedules.ts';

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

// KEYS: records, paused, last, runs. ARGV: id.
const REMOVE = `
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])
`;

// KEYS: records, last, runs. ARGV: id, the run (JSON), its slot id, its time, runs kept.
// The run replaces its slot's earlier record; the newest run is the last one.
const RECORD_RUN = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local raw = redis.call('HGET', KEYS[3], ARGV[1])
local runs = {}
if raw then
  for _, r in ipairs(cjson.decode(raw)) do
    if r.slotId ~= ARGV[3] then table.insert(runs, r) end
  end
end
table.insert(runs, cjson.decode(ARGV[2]))
table.sort(runs, function(a, b) return a.at > b.at end)
local kept = {}
for i = 1, math.min(#runs, tonumber(ARGV[5])) do kept[i] = cjson.encode(runs[i]) end
redis.call('HSET', KEYS[3], ARGV[1], '[' .. table.concat(kept, ',') .. ']')
redis.call('HSET', KEYS[2], ARGV[1], kept[1])
return 1
`;

export async function createRedisScheduleStore(
  url: string,
  opts: RedisScheduleStoreOptions = {},
): Promise<ScheduleStore> {
  const p = opts.keyPrefix ?? 'herald:';
  const keys = {
    records: `${p}schedules`,
    paused: `${p}schedules:paused`,
    last: `${p}schedules:last`,
    runs: `${p}schedules:runs`,
  };
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
      return (await script(REMOVE, 4, keys.records, keys.paused, keys.last, keys.runs, id)) === 1;
    },
    setPaused: (id, paused) => setIfExists(keys.paused, id, paused ? '1' : ''),
    async recordRun(id, run) {
      const args = [id, JSON.stringify(run), run.slotId, String(run.at), String(RUN_HISTORY)];
      await script(RECORD_RUN, 3, keys.records, keys.last, keys.runs, ...args);
    },
    async history(id) {
      const raw = await redis.hget(keys.runs, id);
      return raw === null ? [] : (JSON.parse(raw) as ScheduleRun[]);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
