// The shared store for several replicas: Redis through ioredis. Every read-then-write is one Lua
// script, which Redis runs atomically (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/),
// so a claim cannot race. Leases use the caller's clock, passed in, so that fake clocks work too.
// Keys: <p>slot:<job>:<slot>, <p>outbox:<id>, <p>outbox:due (sorted by due time), <p>outbox:all
// (sorted by creation), <p>kv:<key>, where <p> is the prefix ("herald:" by default) and `{sched}:`:
// the hash tag puts every key a script touches in one Cluster slot, and every such key is passed in
// KEYS, never built inside a script. Keys from before the tag are renamed once at connect.
import type { Redis } from 'ioredis';
import { connectStoreRedis } from './connect.ts';
import {
  RETENTION_MS,
  type ClaimResult,
  type OutboxEntry,
  type OutboxStatus,
  type Store,
  type StoreOptions,
  type SlotMethods,
  type OutboxMethods,
} from './store.ts';

export interface RedisStoreOptions extends StoreOptions {
  /** Defaults to "herald:". Tests use a unique one per run. */
  keyPrefix?: string;
  connectTimeoutMs?: number;
}

const CLAIM = `
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
const POST = `
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
const ADD = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[2], 'job', ARGV[3], 'slotId', ARGV[4], 'kind', ARGV[5], 'payload', ARGV[6],
  'status', 'pending', 'attempts', 0, 'nextAttemptAt', ARGV[1], 'owner', '', 'createdAt', ARGV[1], 'updatedAt', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[2])
return 1
`;

const FAIL = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'claimed' or s[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'failed', 'error', ARGV[2], 'leaseUntil', 0, 'updatedAt', ARGV[3])
return 1
`;

// KEYS: due, entry... ARGV: now, leaseMs, limit, owner, then the entries' ids in KEYS' order.
// Leases the due pending ones (ids read just before; each is checked again here).
const CLAIM_DUE = `
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
const DELIVERED = `
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

// KEYS: entry. ARGV: owner, now ('' to clear), receipt of a part already posted ('' for none).
const IN_FLIGHT = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'pending' or s[2] ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'inFlightAt') else redis.call('HSET', KEYS[1], 'inFlightAt', ARGV[2]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'receipt', ARGV[3]) end
return 1
`;

// KEYS: entry, due. ARGV: id, owner, nextAttemptAt, error, now.
const RESCHEDULE = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'pending' or s[2] ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'nextAttemptAt', ARGV[3], 'lastError', ARGV[4], 'owner', '', 'updatedAt', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
`;

// KEYS: entry, due. ARGV: id, owner, reason, now, retention.
const GIVE_UP = `
local s = redis.call('HMGET', KEYS[1], 'status', 'owner')
if s[1] ~= 'pending' or s[2] ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'given_up', 'reason', ARGV[3], 'updatedAt', ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

/** The prefix of the store's keys: the configured one and the `{sched}` hash tag. */
export function storeKeyPrefix(prefix: string): string {
  return `${prefix}{sched}:`;
}

/** The kinds of key the store wrote before its keys carried the hash tag. */
const LEGACY_KINDS = ['slot:', 'outbox:', 'kv:', 'schedules'];

/**
 * Renames the store's keys written before the hash tag (`herald:slot:…` → `herald:{sched}:slot:…`),
 * once per key prefix (a marker key records it): claims, pending posts and watch memories carry
 * over an upgrade. Stop the replicas of the older version first: they still write the old names.
 */
export async function moveLegacyKeys(redis: Redis, prefix: string): Promise<number> {
  const tagged = storeKeyPrefix(prefix);
  const marker = `${tagged}moved`;
  if ((await redis.exists(marker)) === 1) return 0;
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  let moved = 0;
  let cursor = '0';
  do {
    const [nextCursor, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = nextCursor;
    const legacy = found.filter((k) => LEGACY_KINDS.some((kind) => k.startsWith(prefix + kind)));
    for (const key of legacy) {
      if ((await redis.renamenx(key, tagged + key.slice(prefix.length))) === 1) moved++;
    }
  } while (cursor !== '0');
  await redis.set(marker, '1');
  return moved;
}

/** Runs a Lua script with its number of keys first, as EVAL takes them. */
export type RunScript = (lua: string, numKeys: number, ...args: (string | number)[]) => Promise<unknown>;

/**
 * Scripts sent once, then run by their hash: ioredis's defineCommand
 * (https://github.com/redis/ioredis#lua-scripting) runs EVALSHA and loads the script on NOSCRIPT.
 */
export function scriptsOf(redis: Redis): RunScript {
  const names = new Map<string, string>();
  const commands = redis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return (lua, numKeys, ...args) => {
    let name = names.get(lua);
    if (name === undefined) {
      name = `heraldScript${names.size}`;
      redis.defineCommand(name, { lua });
      names.set(lua, name);
    }
    return commands[name]!(numKeys, ...args);
  };
}

function pairsToRecord(flat: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(flat)) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = String(flat[i + 1]);
  return out;
}

function toEntry(h: Record<string, string>): OutboxEntry {
  const entry: OutboxEntry = {
    id: h.id ?? '',
    job: h.job ?? '',
    slotId: h.slotId ?? '',
    kind: h.kind ?? '',
    payload: JSON.parse(h.payload ?? 'null') as unknown,
    status: (h.status ?? 'pending') as OutboxStatus,
    attempts: Number(h.attempts ?? 0),
    nextAttemptAt: Number(h.nextAttemptAt ?? 0),
    createdAt: Number(h.createdAt ?? 0),
    updatedAt: Number(h.updatedAt ?? 0),
  };
  if (h.lastError !== undefined) entry.lastError = h.lastError;
  if (h.reason !== undefined) entry.reason = h.reason;
  if (h.receipt !== undefined) entry.receipt = h.receipt;
  if (h.inFlightAt !== undefined) entry.inFlightAt = Number(h.inFlightAt);
  if (h.memoryKey !== undefined && h.memoryValue !== undefined)
    entry.memory = { key: h.memoryKey, value: h.memoryValue };
  return entry;
}

/** What the Redis store's parts share: the connection, the clock and the key names. */
interface RedisContext {
  redis: Redis;
  script: RunScript;
  now: () => number;
  slotKey: (job: string, slotId: string) => string;
  entryKey: (id: string) => string;
  kvKey: (key: string) => string;
  /** Pending entry ids, sorted by due time. */
  due: string;
  /** Every entry id, sorted by creation. */
  all: string;
  retention: string;
}

/** Connects to Redis at `url` (redis:// or rediss://); rejects when it cannot be reached. */
export async function createRedisStore(url: string, opts: RedisStoreOptions = {}): Promise<Store> {
  const prefix = opts.keyPrefix ?? 'herald:';
  const p = storeKeyPrefix(prefix);
  const redis = await connectStoreRedis(url, opts.connectTimeoutMs);
  await moveLegacyKeys(redis, prefix);
  const ctx: RedisContext = {
    redis,
    script: scriptsOf(redis),
    now: opts.now ?? Date.now,
    slotKey: (job, slotId) => `${p}slot:${job}:${slotId}`,
    entryKey: (id) => `${p}outbox:${id}`,
    kvKey: (key) => `${p}kv:${key}`,
    due: `${p}outbox:due`,
    all: `${p}outbox:all`,
    retention: String(RETENTION_MS),
  };
  const { entryKey, all } = ctx;

  return {
    kind: 'redis',
    ...redisSlots(ctx),
    ...redisOutbox(ctx),
    async getValue(key) {
      return (await redis.get(ctx.kvKey(key))) ?? undefined;
    },
    async setValue(key, value, o) {
      const r = o?.ifAbsent
        ? await redis.set(ctx.kvKey(key), value, 'NX')
        : await redis.set(ctx.kvKey(key), value);
      return r === 'OK';
    },
    async claimOnce(key, ttlMs) {
      return (
        (await redis.set(`${prefix}claim:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')) === 'OK'
      );
    },
    async prune() {
      // Finished records expire on their own (PEXPIRE); drop index members whose entry is gone.
      const ids = await redis.zrange(all, '0', '-1');
      if (ids.length === 0) return 0;
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.exists(entryKey(id));
      const exists = (await pipeline.exec()) ?? [];
      const gone = ids.filter((_, i) => exists[i]?.[1] === 0);
      if (gone.length > 0) await redis.zrem(all, ...gone);
      return gone.length;
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Slot claims: claim, posted (handing its deliveries to the outbox), failed, read. */
function redisSlots({
  redis,
  script,
  now,
  slotKey,
  entryKey,
  kvKey,
  due,
  all,
  retention,
}: RedisContext): SlotMethods {
  return {
    async claimSlot(job, slotId, owner, leaseMs): Promise<ClaimResult> {
      const r = (await script(
        CLAIM,
        1,
        slotKey(job, slotId),
        job,
        slotId,
        owner,
        String(now()),
        String(leaseMs),
        retention,
      )) as [string, ...(string | number)[]];
      if (r[0] === 'already-posted') return { status: 'already-posted' };
      if (r[0] === 'held') return { status: 'held', owner: String(r[1]), leaseUntil: Number(r[2]) };
      return { status: 'claimed', attempt: Number(r[1]) };
    },
    async markPosted(job, slotId, owner, deliveries, opts) {
      const t = now();
      const memoryKey = kvKey(opts?.memory?.key ?? '');
      const keys = [slotKey(job, slotId), due, all, memoryKey, ...deliveries.map((d) => entryKey(d.id))];
      const leaseEnd = opts?.leaseMs === undefined ? '' : String(t + opts.leaseMs);
      const memory = opts?.memory ? ['1', opts.memory.value] : ['0', ''];
      const args = [owner, String(t), retention, leaseEnd, ...memory];
      for (const d of deliveries) {
        const m = d.memory ? [d.memory.key, d.memory.value] : ['', ''];
        args.push(d.id, d.job, d.slotId, d.kind, JSON.stringify(d.payload), ...m);
      }
      return (await script(POST, keys.length, ...keys, ...args)) === 1;
    },
    async markFailed(job, slotId, owner, error) {
      await script(FAIL, 1, slotKey(job, slotId), owner, error, String(now()));
    },
    async getSlot(job, slotId) {
      const h = await redis.hgetall(slotKey(job, slotId));
      if (h.status === undefined) return undefined;
      const slot = {
        job: h.job ?? job,
        slotId: h.slotId ?? slotId,
        status: h.status as 'claimed' | 'posted' | 'failed',
        owner: h.owner ?? '',
        leaseUntil: Number(h.leaseUntil ?? 0),
        attempts: Number(h.attempts ?? 0),
        updatedAt: Number(h.updatedAt ?? 0),
      };
      return h.error === undefined ? slot : { ...slot, error: h.error };
    },
  };
}

/** The outbox: add, lease what is due, and settle what an owner holds. */
function redisOutbox({
  redis,
  script,
  now,
  entryKey,
  kvKey,
  due,
  all,
  retention,
}: RedisContext): OutboxMethods {
  async function entries(ids: string[]): Promise<OutboxEntry[]> {
    if (ids.length === 0) return [];
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hgetall(entryKey(id));
    const results = (await pipeline.exec()) ?? [];
    return results
      .map(([err, value]) => (err ? undefined : (value as Record<string, string>)))
      .filter((h): h is Record<string, string> => h !== undefined && h.id !== undefined)
      .map(toEntry);
  }

  return {
    async addToOutbox(e) {
      const keys = [entryKey(e.id), due, all];
      const args = [String(now()), e.id, e.job, e.slotId, e.kind, JSON.stringify(e.payload)];
      return (await script(ADD, keys.length, ...keys, ...args)) === 1;
    },
    async claimDueOutbox(owner, leaseMs, limit, opts) {
      const t = String(now());
      // With includeBackingOff every queued entry is a candidate (those leased elsewhere are skipped).
      // Otherwise a few times `limit`: replicas draining at once read the same first ids, and each
      // script leases the next ones the others have not taken.
      const ids = opts?.includeBackingOff
        ? await redis.zrange(due, '0', '-1')
        : await redis.zrangebyscore(due, '-inf', t, 'LIMIT', 0, limit * 4);
      if (ids.length === 0) return [];
      const keys = [due, ...ids.map(entryKey)];
      const args = [t, String(leaseMs), String(limit), owner, ...ids];
      const rows = (await script(CLAIM_DUE, keys.length, ...keys, ...args)) as unknown[];
      return rows.map((r) => toEntry(pairsToRecord(r)));
    },
    async markDelivered(id, receipt, memoryKey) {
      const args = [id, String(now()), retention, receipt ?? ''];
      const keys = [entryKey(id), due, ...(memoryKey === undefined ? [] : [kvKey(memoryKey)])];
      return (await script(DELIVERED, keys.length, ...keys, ...args)) === 1;
    },
    async markInFlight(id, owner, isInFlight, receipt = '') {
      const at = isInFlight ? String(now()) : '';
      return (await script(IN_FLIGHT, 1, entryKey(id), owner, at, receipt)) === 1;
    },
    async rescheduleOutbox(id, owner, nextAttemptAt, error) {
      const args = [id, owner, String(nextAttemptAt), error, String(now())];
      return (await script(RESCHEDULE, 2, entryKey(id), due, ...args)) === 1;
    },
    async giveUpOutbox(id, owner, reason) {
      const r = await script(GIVE_UP, 2, entryKey(id), due, id, owner, reason, String(now()), retention);
      return r === 1;
    },
    async listOutbox(filter) {
      const list = await entries(await redis.zrange(all, '0', '-1'));
      return filter?.status ? list.filter((e) => e.status === filter.status) : list;
    },
  };
}
