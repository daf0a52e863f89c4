// The Lua scripts of the Redis store (redis-store.ts): each read-then-write is one script, which
// Redis runs atomically; every key it touches is passed in KEYS (Redis Cluster).

// KEYS: slot, running (the job's one live slot, for an exclusive job), records, paused, kv (a
// watch's memory). ARGV: job, slotId, owner, now, leaseMs, retention, the rules (ClaimRules, JSON).
// Returns store.ts's ClaimResult as JSON, a claim's with the schedule's stored record and paused.
export const CLAIM = `
local now = tonumber(ARGV[4])
local rules = cjson.decode(ARGV[7])
local schedule = rules.schedule or {}
local function held(owner, lease)
  return cjson.encode({status = 'held', owner = owner, leaseUntil = tonumber(lease)})
end
local record, paused
if schedule.id then
  record = redis.call('HGET', KEYS[3], schedule.id)
  if not record then return '{"status":"gone"}' end
  paused = redis.call('HEXISTS', KEYS[4], schedule.id) == 1 and '1' or '0'
  if paused == '1' and not schedule.manual then return '{"status":"gone"}' end
end
local s = redis.call('HMGET', KEYS[1], 'status', 'owner', 'leaseUntil', 'attempts', 'updatedAt')
if s[1] == 'posted' then return '{"status":"already-posted"}' end
if s[1] == 'claimed' and tonumber(s[3]) > now then return held(s[2], s[3]) end
if s[1] == 'failed' then
  if rules.maxAttempts and tonumber(s[4]) >= rules.maxAttempts then return '{"status":"given-up"}' end
  local retry_at = tonumber(s[5]) + (rules.retryDelayMs or 0)
  if retry_at > now then return cjson.encode({status = 'waiting', ['until'] = retry_at}) end
end
local lease_end = string.format('%.0f', now + tonumber(ARGV[5]))
if rules.exclusive then
  local r = redis.call('HMGET', KEYS[2], 'slotId', 'owner', 'leaseUntil')
  if r[1] and r[1] ~= ARGV[2] and tonumber(r[3]) > now then return held(r[2], r[3]) end
  redis.call('HSET', KEYS[2], 'slotId', ARGV[2], 'owner', ARGV[3], 'leaseUntil', lease_end)
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
local attempts = (tonumber(s[4]) or 0) + 1
redis.call('HSET', KEYS[1], 'job', ARGV[1], 'slotId', ARGV[2], 'status', 'claimed', 'owner', ARGV[3],
  'leaseUntil', lease_end, 'attempts', attempts, 'updatedAt', ARGV[4])
redis.call('HDEL', KEYS[1], 'error')
if not s[1] then redis.call('PEXPIRE', KEYS[1], ARGV[6]) end
local memory = schedule.memoryKey and redis.call('GET', KEYS[5]) or nil
return cjson.encode({status = 'claimed', attempt = attempts, record = record, paused = paused, memory = memory})
`;

// For the scripts below: a slot or entry in `status` held by `owner`; a job's run (CLAIM's KEYS[2]) freed.
const SHARED = `
local function holds(key, status, owner)
  local s = redis.call('HMGET', key, 'status', 'owner')
  return s[1] == status and s[2] == owner
end
local function release(key, slot_id)
  if redis.call('HGET', key, 'slotId') == slot_id then redis.call('DEL', key) end
end
`;

// KEYS: slot, due, all, kv (the memory's key, or a placeholder), running, entry... ARGV: owner,
// now, retention, lease end ('' for due now), slotId, the post (JSON: the memory written with it,
// if any, and the entries, each payload as JSON, in KEYS' order). Leased entries are in flight
// from now: their sends start at once.
export const POST = `${SHARED}
if not holds(KEYS[1], 'claimed', ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'status', 'posted', 'updatedAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'error')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
release(KEYS[5], ARGV[5])
local post = cjson.decode(ARGV[6])
if post.memory then redis.call('SET', KEYS[4], post.memory) end
local owner, attempts, due_at = '', 0, ARGV[2]
if ARGV[4] ~= '' then owner, attempts, due_at = ARGV[1], 1, ARGV[4] end
for i, e in ipairs(post.entries) do
  local k = KEYS[5 + i]
  if redis.call('EXISTS', k) == 0 then
    redis.call('HSET', k, 'id', e.id, 'job', e.job, 'slotId', e.slotId, 'kind', e.kind, 'payload', e.payload,
      'status', 'pending', 'attempts', attempts, 'nextAttemptAt', due_at, 'owner', owner, 'createdAt', ARGV[2],
      'updatedAt', ARGV[2])
    if e.memory then redis.call('HSET', k, 'memoryKey', e.memory.key, 'memoryValue', e.memory.value) end
    if owner ~= '' then redis.call('HSET', k, 'inFlightAt', ARGV[2]) end
    redis.call('ZADD', KEYS[2], due_at, e.id)
    redis.call('ZADD', KEYS[3], ARGV[2], e.id)
  end
end
return 1
`;

// KEYS: slot, running. ARGV: owner, error, now, slotId, job, retention. Failed: a slot `owner`
// holds, or with owner '' a slot whose window passed unrun, unless it has a record.
export const FAIL = `${SHARED}
if ARGV[1] == '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
  redis.call('HSET', KEYS[1], 'job', ARGV[5], 'slotId', ARGV[4], 'owner', '', 'attempts', 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
elseif holds(KEYS[1], 'claimed', ARGV[1]) then
  release(KEYS[2], ARGV[4])
else
  return 0
end
redis.call('HSET', KEYS[1], 'status', 'failed', 'error', ARGV[2], 'leaseUntil', 0, 'updatedAt', ARGV[3])
return 1
`;

// KEYS: due, entry... ARGV: now, leaseMs, limit, owner, then the entries' ids in KEYS' order.
// Leases the due pending ones (ids read just before; each is checked again here).
export const CLAIM_DUE = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
local lease_end = string.format('%.0f', now + tonumber(ARGV[2]))
local out = {}
for i = 2, #KEYS do
  if #out >= limit then break end
  local k, id = KEYS[i], ARGV[3 + i]
  local e = redis.call('HMGET', k, 'status', 'owner', 'nextAttemptAt')
  if e[1] ~= 'pending' then
    redis.call('ZREM', KEYS[1], id)
  elseif tonumber(e[3]) <= now or e[2] == '' then
    redis.call('HINCRBY', k, 'attempts', 1)
    redis.call('HSET', k, 'owner', ARGV[4], 'nextAttemptAt', lease_end, 'updatedAt', ARGV[1])
    redis.call('ZADD', KEYS[1], lease_end, id)
    local h, entry = redis.call('HGETALL', k), {}
    for j = 1, #h, 2 do entry[h[j]] = h[j + 1] end
    table.insert(out, cjson.encode(entry))
  end
end
return out
`;

// KEYS: entry, due, and the kv key of the entry's memory when it has one. ARGV: id, now,
// retention, receipt ('' for none). A delivered entry keeps its receipt, not its payload.
export const DELIVERED = `
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
if #KEYS >= 3 then
  local memory = redis.call('HGET', KEYS[1], 'memoryValue')
  if memory then redis.call('SET', KEYS[3], memory) end
end
redis.call('HDEL', KEYS[1], 'payload', 'memoryKey', 'memoryValue')
redis.call('HSET', KEYS[1], 'status', 'delivered', 'updatedAt', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'receipt', ARGV[4]) end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

// KEYS: due, entry... ARGV: owner, the fields to set (JSON; null deletes one), retention, then the
// entries' ids in KEYS' order. Only on the entries `owner` holds; returns their ids. A new status
// (given up) leaves the due index, and the entry expires; a new nextAttemptAt moves it there.
export const UPDATE_HELD = `${SHARED}
local set, out = cjson.decode(ARGV[2]), {}
for i = 2, #KEYS do
  local id = ARGV[2 + i]
  if holds(KEYS[i], 'pending', ARGV[1]) then
    for field, value in pairs(set) do
      if value == cjson.null then redis.call('HDEL', KEYS[i], field) else redis.call('HSET', KEYS[i], field, value) end
    end
    if set.status then
      redis.call('ZREM', KEYS[1], id)
      redis.call('PEXPIRE', KEYS[i], ARGV[3])
    elseif set.nextAttemptAt then
      redis.call('ZADD', KEYS[1], set.nextAttemptAt, id)
    end
    table.insert(out, id)
  end
end
return out
`;

// The schedules: `records` maps id → the record as added (JSON, never rewritten), `paused` and
// `last` hold what changes, `next` is the index of next fire times (a schedule not paused is in it).

// KEYS: records, paused, next. ARGV: id, record, max, paused (1 or 0), created at.
export const SCHEDULE_ADD = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'exists' end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[4] == '1' then redis.call('HSET', KEYS[2], ARGV[1], '1') else redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1]) end
return 'added'
`;

// KEYS: records, paused, next. ARGV: id, paused (1 or 0). Paused leaves the index; resumed is due
// at once (0), so the next tick looks at it.
export const SET_PAUSED = `
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
export const SCHEDULE_REMOVE = `
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])
`;

// KEYS: next, records, paused, last. ARGV: t, limit. Returns [record, paused, last ('' for none)]
// for each due schedule.
export const DUE_SCHEDULES = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local raw = redis.call('HGET', KEYS[2], id)
  if raw then
    table.insert(out, {raw, redis.call('HGET', KEYS[3], id) or '', redis.call('HGET', KEYS[4], id) or ''})
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`;

// KEYS: records, paused, next. ARGV: id, time, id, time, ... (only schedules still there and not paused).
export const SET_NEXT = `
for i = 1, #ARGV, 2 do
  local id = ARGV[i]
  if redis.call('HEXISTS', KEYS[1], id) == 1 and redis.call('HEXISTS', KEYS[2], id) == 0 then
    redis.call('ZADD', KEYS[3], ARGV[i + 1], id)
  end
end
return 1
`;

// KEYS: records, paused, next. Schedules written before the index existed are looked at once.
export const BACKFILL = `
for _, id in ipairs(redis.call('HKEYS', KEYS[1])) do
  if redis.call('HEXISTS', KEYS[2], id) == 0 then redis.call('ZADD', KEYS[3], 'NX', 0, id) end
end
return 1
`;

// KEYS: records, last, runs, paused, next. ARGV: id, the runs (a JSON array), runs kept, next fire
// time ('' to leave the index). A run replaces its slot's earlier record; the newest run is the last one.
export const RECORD_RUNS = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local raw = redis.call('HGET', KEYS[3], ARGV[1])
local added, slots, runs = cjson.decode(ARGV[2]), {}, {}
for _, r in ipairs(added) do slots[r.slotId] = true end
if raw then
  for _, r in ipairs(cjson.decode(raw)) do
    if not slots[r.slotId] then table.insert(runs, r) end
  end
end
for _, r in ipairs(added) do table.insert(runs, r) end
table.sort(runs, function(a, b) return a.at > b.at end)
local kept = {}
for i = 1, math.min(#runs, tonumber(ARGV[3])) do kept[i] = cjson.encode(runs[i]) end
redis.call('HSET', KEYS[3], ARGV[1], '[' .. table.concat(kept, ',') .. ']')
redis.call('HSET', KEYS[2], ARGV[1], kept[1])
if ARGV[4] ~= '' and redis.call('HEXISTS', KEYS[4], ARGV[1]) == 0 then redis.call('ZADD', KEYS[5], ARGV[4], ARGV[1]) end
return 1
`;
