// Schedules in Redis, shared by every replica: `<prefix>{sched}:schedules` maps id → the record as
// added (JSON, never rewritten), `…:schedules:paused` and `…:schedules:last` hold what changes, and
// the sorted set `…:schedules:next` is the index of next fire times (a schedule not paused is in
// it), so a tick reads only the due ones. Multi-key steps are Lua scripts (atomic in Redis), so the
// SCHEDULE_MAX check and the insert cannot race, and a pause or a run record never resurrects a
// removed schedule. Every key carries the `{sched}` hash tag and every key a script touches is
// passed in KEYS, so the scripts run on Redis Cluster too.
import type { Redis } from 'ioredis';
import { connectStoreRedis } from './connect.ts';
import { moveLegacyKeys, scriptsOf, storeKeyPrefix } from './redis-common.ts';
import {
  RUN_HISTORY,
  type AddResult,
  type ScheduleRecord,
  type ScheduleRun,
  type ScheduleStore,
} from '../schedule/schedules.ts';

export interface RedisScheduleStoreOptions {
  /** Defaults to "herald:", the prefix of the other store keys. */
  keyPrefix?: string;
  connectTimeoutMs?: number;
  /** Whether a rediss:// server's certificate is checked (REDIS_TLS_VERIFY). */
  verifyTls?: boolean;
}

// KEYS: records, paused, next. ARGV: id, record, max, paused (1 or 0), created at.
const ADD = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'exists' end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[4] == '1' then redis.call('HSET', KEYS[2], ARGV[1], '1') else redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1]) end
return 'added'
`;

// KEYS: records, paused, next. ARGV: id, paused (1 or 0). Paused leaves the index; resumed is due
// at once (0), so the next tick looks at it.
const SET_PAUSED = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[2], ARGV[1], '1')
  redis.call('ZREM', KEYS[3], ARGV[1])
else
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZADD', KEYS[3], 0, ARGV[1])
end
return 1
`;

// KEYS: records, paused, last, next, runs. ARGV: id.
const REMOVE = `
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])
`;

// KEYS: next, records, paused, last. ARGV: t, limit. Returns id, record, paused, last ('' for none)
// for each due schedule.
const DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local raw = redis.call('HGET', KEYS[2], id)
  if raw then
    table.insert(out, id)
    table.insert(out, raw)
    table.insert(out, redis.call('HGET', KEYS[3], id) or '')
    table.insert(out, redis.call('HGET', KEYS[4], id) or '')
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`;

// KEYS: records, paused, next. ARGV: id, time, id, time, ... (only schedules still there and not paused).
const SET_NEXT = `
for i = 1, #ARGV, 2 do
  local id = ARGV[i]
  if redis.call('HEXISTS', KEYS[1], id) == 1 and redis.call('HEXISTS', KEYS[2], id) == 0 then
    redis.call('ZADD', KEYS[3], ARGV[i + 1], id)
  end
end
return 1
`;

// KEYS: records, paused, next. Schedules written before the index existed are looked at once.
const BACKFILL = `
local n = 0
for _, id in ipairs(redis.call('HKEYS', KEYS[1])) do
  if redis.call('HEXISTS', KEYS[2], id) == 0 and not redis.call('ZSCORE', KEYS[3], id) then
    redis.call('ZADD', KEYS[3], 0, id)
    n = n + 1
  end
end
return n
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
  const t = storeKeyPrefix(p);
  const keys = {
    records: `${t}schedules`,
    paused: `${t}schedules:paused`,
    last: `${t}schedules:last`,
    next: `${t}schedules:next`,
    runs: `${t}schedules:runs`,
  };
  const redis: Redis = await connectStoreRedis(url, opts);
  const script = scriptsOf(redis);
  await moveLegacyKeys(redis, p);
  await script(BACKFILL, 3, keys.records, keys.paused, keys.next);
  function merge(raw: string, paused: string | undefined, last: string | undefined): ScheduleRecord {
    const record = JSON.parse(raw) as ScheduleRecord;
    record.paused = paused === '1';
    if (last !== undefined && last !== '') record.lastRun = JSON.parse(last) as ScheduleRun;
    else delete record.lastRun;
    return record;
  }

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
    async due(at, limit) {
      const flat = (await script(
        DUE,
        4,
        keys.next,
        keys.records,
        keys.paused,
        keys.last,
        String(at),
        String(limit),
      )) as string[];
      const out: ScheduleRecord[] = [];
      for (let i = 0; i + 3 < flat.length; i += 4) out.push(merge(flat[i + 1]!, flat[i + 2], flat[i + 3]));
      return out;
    },
    async setNextRuns(next) {
      if (next.size === 0) return;
      const args = [...next].flatMap(([id, at]) => [id, String(at)]);
      await script(SET_NEXT, 3, keys.records, keys.paused, keys.next, ...args);
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
      const args = [
        record.id,
        JSON.stringify(rest),
        String(max),
        paused ? '1' : '0',
        String(record.createdAt),
      ];
      return (await script(ADD, 3, keys.records, keys.paused, keys.next, ...args)) as AddResult;
    },
    async remove(id) {
      return (await script(REMOVE, 5, keys.records, keys.paused, keys.last, keys.next, keys.runs, id)) === 1;
    },
    async setPaused(id, paused) {
      const r = await script(SET_PAUSED, 3, keys.records, keys.paused, keys.next, id, paused ? '1' : '0');
      return r === 1;
    },
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
