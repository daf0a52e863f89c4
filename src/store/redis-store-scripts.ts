// The Lua scripts of the Redis store's slots and outbox (redis-store.ts): every read-then-write is
// one script, which Redis runs atomically
// (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/), so a claim cannot
// race. Every key a script touches is passed in KEYS, never built inside it (Redis Cluster).

// KEYS: slot. ARGV: job, slotId, owner, now, leaseMs, retention.
export const CLAIM = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner', 'leaseUntil', 'attempts')
local now = tonumber(ARGV[4])
local lease_end = string.format('%.0f', now + tonumber(ARGV[5]))
if not s[1] then
  redis.call('HSET', KEYS[1], 'job', ARGV[1], 'slotId', ARGV[2], 'status', 'claimed', 'owner', ARGV[3],
    'leaseUntil', lease_end, 'attempts', 1, 'updatedAt', ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return {'claimed', 1}
end
if s[1] == 'posted' then return {'already-posted'} end
local live = s[1] == 'claimed' and tonumber(s[3]) > now
if live and s[2] ~= ARGV[3] then return {'held', s[2], s[3]} end
local attempts = tonumber(s[4])
if not live then attempts = attempts + 1 end
redis.call('HSET', KEYS[1], 'status', 'claimed', 'owner', ARGV[3], 'leaseUntil', lease_end,
  'attempts', attempts, 'updatedAt', ARGV[4])
redis.call('HDEL', KEYS[1], 'error')
return {'claimed', attempts}
`;

// KEYS: slot, due, all, kv (the memory's key, or a placeholder when ARGV[5] is '0'), entry...
// ARGV: owner, now, retention, lease end ('' for due now), has memory (1 or 0), memory, then id,
// job, slotId, kind, payload, memory key, memory value per entry.
export const POST = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'claimed' or s[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'posted', 'updatedAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'error')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[5] == '1' then redis.call('SET', KEYS[4], ARGV[6]) end
local owner, attempts, due_at = '', 0, ARGV[2]
if ARGV[4] ~= '' then owner, attempts, due_at = ARGV[1], 1, ARGV[4] end
for i = 5, #KEYS do
  local a = 7 + (i - 5) * 7
  if redis.call('EXISTS', KEYS[i]) == 0 then
    redis.call('HSET', KEYS[i], 'id', ARGV[a], 'job', ARGV[a + 1], 'slotId', ARGV[a + 2], 'kind', ARGV[a + 3],
      'payload', ARGV[a + 4], 'status', 'pending', 'attempts', attempts, 'nextAttemptAt', due_at, 'owner', owner,
      'createdAt', ARGV[2], 'updatedAt', ARGV[2])
    if ARGV[a + 5] ~= '' then redis.call('HSET', KEYS[i], 'memoryKey', ARGV[a + 5], 'memoryValue', ARGV[a + 6]) end
    redis.call('ZADD', KEYS[2], due_at, ARGV[a])
    redis.call('ZADD', KEYS[3], ARGV[2], ARGV[a])
  end
end
return 1
`;

// KEYS: entry, due, all. ARGV: now, id, job, slotId, kind, payload.
export const ADD = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[2], 'job', ARGV[3], 'slotId', ARGV[4], 'kind', ARGV[5], 'payload', ARGV[6],
  'status', 'pending', 'attempts', 0, 'nextAttemptAt', ARGV[1], 'owner', '', 'createdAt', ARGV[1], 'updatedAt', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[2])
return 1
`;

// KEYS: slot. ARGV: owner, error, now.
export const FAIL = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'claimed' or s[2] ~= ARGV[1] then return 0 end
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
    table.insert(out, redis.call('HGETALL', k))
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

// KEYS: due, entry... ARGV: now, leaseMs, owner, then the entries' ids in KEYS' order. Renews the
// lease of each entry the owner still holds; returns their ids.
export const RENEW = `
local now = tonumber(ARGV[1])
local lease_end = string.format('%.0f', now + tonumber(ARGV[2]))
local out = {}
for i = 2, #KEYS do
  local id = ARGV[2 + i]
  local e = redis.call('HMGET', KEYS[i], 'status', 'owner')
  if e[1] == 'pending' and e[2] == ARGV[3] then
    redis.call('HSET', KEYS[i], 'nextAttemptAt', lease_end, 'updatedAt', ARGV[1])
    redis.call('ZADD', KEYS[1], lease_end, id)
    table.insert(out, id)
  end
end
return out
`;

// KEYS: entry. ARGV: owner, now ('' to clear), receipt of a part already posted ('' for none).
export const IN_FLIGHT = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'pending' or s[2] ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'inFlightAt') else redis.call('HSET', KEYS[1], 'inFlightAt', ARGV[2]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'receipt', ARGV[3]) end
return 1
`;

// KEYS: entry, due. ARGV: id, owner, nextAttemptAt, error, now.
export const RESCHEDULE = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'pending' or s[2] ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'nextAttemptAt', ARGV[3], 'lastError', ARGV[4], 'owner', '', 'updatedAt', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
`;

// KEYS: entry, due. ARGV: id, owner, reason, now, retention.
export const GIVE_UP = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'pending' or s[2] ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'given_up', 'reason', ARGV[3], 'updatedAt', ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;
