// The shared store for several replicas: Redis through ioredis. Every read-then-write is one Lua
// script (redis-store-scripts.ts), which Redis runs atomically, so a claim cannot race, the
// SCHEDULE_MAX check and the insert cannot race, and a pause or a run record never resurrects a
// removed schedule. Leases use the caller's clock, passed in, so that fake clocks work too.
// Keys: <p>slot:<job>:<slot>, <p>running:<job>, <p>outbox:<id>, <p>outbox:due (sorted by due
// time), <p>outbox:all (sorted by creation), <p>kv:<key>, <p>schedules (id → record),
// <p>schedules:paused, :last, :runs and :next (the index of next fire times, a sorted set), where
// <p> is the prefix ("herald:" by default) and `{sched}:`: the hash tag puts every key a script
// touches in one Cluster slot, and every such key is passed in KEYS, never built inside a script.
// Keys from before the tag are renamed once at connect (redis-common.ts).
import type { Redis } from 'ioredis';
import { connectStoreRedis } from './connect.ts';
import { moveLegacyKeys, scriptsOf, storeKeyPrefix, type RunScript } from './redis-common.ts';
import * as lua from './redis-store-scripts.ts';
import { RUN_HISTORY, type AddResult, type ScheduleRecord, type ScheduleRun } from '../schedule/schedules.ts';
import {
  entryOf,
  RETENTION_MS,
  slotOf,
  type ClaimResult,
  type OutboxEntry,
  type OutboxStore,
  type ScheduleStore,
  type SlotStore,
  type Store,
  type StoreOptions,
} from './store.ts';

export interface RedisStoreOptions extends StoreOptions {
  /** Defaults to "herald:". Tests use a unique one per run. */
  keyPrefix?: string;
  connectTimeoutMs?: number;
  /** Whether a rediss:// server's certificate is checked (REDIS_TLS_VERIFY). */
  verifyTls?: boolean;
}

function pairsToRecord(flat: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(flat)) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = String(flat[i + 1]);
  return out;
}

/** A schedule's record as stored, with what changes kept beside it. */
function mergeRecord(
  raw: string,
  paused: string | undefined | null,
  last: string | undefined | null,
): ScheduleRecord {
  const record = JSON.parse(raw) as ScheduleRecord;
  record.paused = paused === '1';
  if (last) record.lastRun = JSON.parse(last) as ScheduleRun;
  else delete record.lastRun;
  return record;
}

/** What the Redis store's parts share: the connection, the clock and the key names. */
interface RedisContext {
  redis: Redis;
  script: RunScript;
  now: () => number;
  slotKey: (job: string, slotId: string) => string;
  runningKey: (job: string) => string;
  entryKey: (id: string) => string;
  kvKey: (key: string) => string;
  logKey: (key: string) => string;
  schedules: { records: string; paused: string; last: string; next: string; runs: string };
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
  const redis = await connectStoreRedis(url, opts);
  await moveLegacyKeys(redis, prefix);
  const ctx: RedisContext = {
    redis,
    script: scriptsOf(redis),
    now: opts.now ?? Date.now,
    slotKey: (job, slotId) => `${p}slot:${job}:${slotId}`,
    runningKey: (job) => `${p}running:${job}`,
    entryKey: (id) => `${p}outbox:${id}`,
    kvKey: (key) => `${p}kv:${key}`,
    logKey: (key) => `${p}log:${key}`,
    schedules: {
      records: `${p}schedules`,
      paused: `${p}schedules:paused`,
      last: `${p}schedules:last`,
      next: `${p}schedules:next`,
      runs: `${p}schedules:runs`,
    },
    due: `${p}outbox:due`,
    all: `${p}outbox:all`,
    retention: String(RETENTION_MS),
  };
  const { entryKey, all } = ctx;
  const k = ctx.schedules;
  // Schedules written before the index existed are looked at once.
  await ctx.script(lua.BACKFILL, 3, k.records, k.paused, k.next);

  return {
    kind: 'redis',
    ...redisSchedules(ctx),
    ...redisSlots(ctx),
    ...redisOutbox(ctx),
    ...redisValues(ctx),
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

/** The key/value part and the logs: values under `kv:`, each log a list trimmed as it grows. */
function redisValues(
  ctx: RedisContext,
): Pick<Store, 'getValue' | 'setValue' | 'deleteValues' | 'durableValues' | 'appendLog' | 'readLog'> {
  const { redis } = ctx;
  return {
    async getValue(key) {
      return (await redis.get(ctx.kvKey(key))) ?? undefined;
    },
    async setValue(key, value, o) {
      // Redis expires the key itself, on its own clock (the `now` option does not reach it).
      const px = o?.ttlMs === undefined ? [] : (['PX', Math.max(1, Math.ceil(o.ttlMs))] as const);
      const nx = o?.ifAbsent ? (['NX'] as const) : [];
      return (await redis.call('SET', ctx.kvKey(key), value, ...px, ...nx)) === 'OK';
    },
    async deleteValues(keyPrefix) {
      let deleted = 0;
      await scanValues(ctx, keyPrefix, async (found) => void (deleted += await redis.del(...found)));
      return deleted;
    },
    async durableValues() {
      const out: [string, string][] = [];
      await scanValues(ctx, '', async (found) => {
        const pipeline = redis.pipeline();
        for (const key of found) pipeline.pttl(key).get(key);
        const answers = (await pipeline.exec()) ?? [];
        found.forEach((key, i) => {
          const value = answers[2 * i + 1]?.[1];
          // -1: no expiry (-2: gone meanwhile).
          if (answers[2 * i]?.[1] === -1 && typeof value === 'string')
            out.push([key.slice(ctx.kvKey('').length), value]);
        });
      });
      return out;
    },
    async appendLog(key, value, keep) {
      const at = ctx.logKey(key);
      await redis
        .multi()
        .lpush(at, value)
        .ltrim(at, 0, keep - 1)
        .exec();
    },
    readLog: (key, limit) => redis.lrange(ctx.logKey(key), 0, limit - 1),
  };
}

/** Hands `each` the keys of the values whose key starts with `keyPrefix`, a SCAN batch at a time. */
async function scanValues(ctx: RedisContext, keyPrefix: string, each: (keys: string[]) => Promise<void>) {
  const pattern = `${ctx.kvKey(keyPrefix).replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  let cursor = '0';
  do {
    const [nextCursor, found] = await ctx.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = nextCursor;
    if (found.length > 0) await each(found);
  } while (cursor !== '0');
}

function redisSchedules({ redis, script, schedules: k }: RedisContext): ScheduleStore {
  async function recordRuns(id: string, runs: readonly ScheduleRun[], nextRunAt?: number) {
    if (runs.length === 0) return;
    const args = [
      id,
      JSON.stringify(runs),
      String(RUN_HISTORY),
      nextRunAt === undefined ? '' : String(nextRunAt),
    ];
    await script(lua.RECORD_RUN, 5, k.records, k.last, k.runs, k.paused, k.next, ...args);
  }
  return {
    async listSchedules() {
      const [records, paused, last] = await Promise.all([
        redis.hgetall(k.records),
        redis.hgetall(k.paused),
        redis.hgetall(k.last),
      ]);
      const all = Object.entries(records).map(([id, raw]) => mergeRecord(raw, paused[id], last[id]));
      return all.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },
    async dueSchedules(at, limit) {
      const keys = [k.next, k.records, k.paused, k.last];
      const flat = (await script(lua.DUE_SCHEDULES, 4, ...keys, String(at), String(limit))) as string[];
      const out: ScheduleRecord[] = [];
      for (let i = 0; i + 3 < flat.length; i += 4)
        out.push(mergeRecord(flat[i + 1]!, flat[i + 2], flat[i + 3]));
      return out;
    },
    async setNextRuns(next) {
      if (next.size === 0) return;
      const args = [...next].flatMap(([id, at]) => [id, String(at)]);
      await script(lua.SET_NEXT, 3, k.records, k.paused, k.next, ...args);
    },
    async getSchedule(id) {
      const [raw, paused, last] = await Promise.all([
        redis.hget(k.records, id),
        redis.hget(k.paused, id),
        redis.hget(k.last, id),
      ]);
      return raw === null ? undefined : mergeRecord(raw, paused, last);
    },
    async addSchedule(record, max) {
      const { paused, lastRun: _lastRun, ...rest } = record;
      const args = [
        record.id,
        JSON.stringify(rest),
        String(max),
        paused ? '1' : '0',
        String(record.createdAt),
      ];
      return (await script(lua.SCHEDULE_ADD, 3, k.records, k.paused, k.next, ...args)) as AddResult;
    },
    async removeSchedule(id) {
      const keys = [k.records, k.paused, k.last, k.next, k.runs];
      return (await script(lua.SCHEDULE_REMOVE, 5, ...keys, id)) === 1;
    },
    async setPaused(id, paused) {
      return (await script(lua.SET_PAUSED, 3, k.records, k.paused, k.next, id, paused ? '1' : '0')) === 1;
    },
    recordRun: (id, run, nextRunAt) => recordRuns(id, [run], nextRunAt),
    recordRuns: (id, runs) => recordRuns(id, runs),
    async history(id) {
      const raw = await redis.hget(k.runs, id);
      return raw === null ? [] : (JSON.parse(raw) as ScheduleRun[]);
    },
  };
}

/** A claim's answer as CLAIM returns it. */
function claimOf(r: (string | number | null)[]): ClaimResult {
  const [status, a, b, c, memory] = r;
  if (status === 'claimed') {
    const schedule = b ? { schedule: mergeRecord(String(b), String(c), undefined) } : {};
    return { status, attempt: Number(a), ...schedule, ...(memory ? { memory: String(memory) } : {}) };
  }
  if (status === 'held') return { status, owner: String(a), leaseUntil: Number(b) };
  if (status === 'waiting') return { status, until: Number(a) };
  return { status: status as 'already-posted' | 'given-up' | 'gone' };
}

function redisSlots(ctx: RedisContext): SlotStore {
  const { redis, script, now, slotKey, runningKey, entryKey, kvKey, due, all, retention } = ctx;
  const k = ctx.schedules;
  return {
    async claimSlot(job, slotId, owner, leaseMs, rules = {}) {
      const memoryKey = rules.schedule?.memoryKey;
      const keys = [slotKey(job, slotId), runningKey(job), k.records, k.paused, kvKey(memoryKey ?? '')];
      const args = [job, slotId, owner, String(now()), String(leaseMs), retention];
      args.push(String(rules.maxAttempts ?? ''), String(rules.retryDelayMs ?? 0), rules.schedule?.id ?? '');
      args.push(rules.schedule?.manual ? '1' : '0', rules.exclusive ? '1' : '0', memoryKey ? '1' : '0');
      return claimOf((await script(lua.CLAIM, keys.length, ...keys, ...args)) as (string | number | null)[]);
    },
    async markMissed(job, slotId, error) {
      const args = [job, slotId, error, String(now()), retention];
      return (await script(lua.MISSED, 1, slotKey(job, slotId), ...args)) === 1;
    },
    async markPosted(job, slotId, owner, deliveries, opts) {
      const t = now();
      const memoryKey = kvKey(opts?.memory?.key ?? '');
      const entryKeys = deliveries.map((d) => entryKey(d.id));
      const keys = [slotKey(job, slotId), due, all, memoryKey, runningKey(job), ...entryKeys];
      const leaseEnd = opts?.leaseMs === undefined ? '' : String(t + opts.leaseMs);
      const memory = opts?.memory ? ['1', opts.memory.value] : ['0', ''];
      const args = [owner, String(t), retention, leaseEnd, ...memory, slotId];
      for (const d of deliveries) {
        const m = d.memory ? [d.memory.key, d.memory.value] : ['', ''];
        args.push(d.id, d.job, d.slotId, d.kind, JSON.stringify(d.payload), ...m);
      }
      return (await script(lua.POST, keys.length, ...keys, ...args)) === 1;
    },
    async markFailed(job, slotId, owner, error) {
      const keys = [slotKey(job, slotId), runningKey(job)];
      await script(lua.FAIL, 2, ...keys, owner, error, String(now()), slotId);
    },
    async getSlot(job, slotId) {
      const h = await redis.hgetall(slotKey(job, slotId));
      return h.status === undefined ? undefined : slotOf({ job, slotId, ...h });
    },
  };
}

function redisOutbox({
  redis,
  script,
  now,
  entryKey,
  kvKey,
  due,
  all,
  retention,
}: RedisContext): OutboxStore {
  async function entries(ids: string[]): Promise<OutboxEntry[]> {
    if (ids.length === 0) return [];
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hgetall(entryKey(id));
    const results = (await pipeline.exec()) ?? [];
    return results
      .map(([err, value]) => (err ? undefined : (value as Record<string, string>)))
      .filter((h): h is Record<string, string> => h !== undefined && h.id !== undefined)
      .map(entryOf);
  }

  return {
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
      const rows = (await script(lua.CLAIM_DUE, keys.length, ...keys, ...args)) as unknown[];
      return rows.map((r) => entryOf(pairsToRecord(r)));
    },
    async markDelivered(id, receipt, memoryKey) {
      const args = [id, String(now()), retention, receipt ?? ''];
      const keys = [entryKey(id), due, ...(memoryKey === undefined ? [] : [kvKey(memoryKey)])];
      return (await script(lua.DELIVERED, keys.length, ...keys, ...args)) === 1;
    },
    async renewOutboxLeases(ids, owner, leaseMs) {
      if (ids.length === 0) return [];
      const keys = [due, ...ids.map(entryKey)];
      const args = [String(now()), String(leaseMs), owner, ...ids];
      return ((await script(lua.RENEW, keys.length, ...keys, ...args)) as unknown[]).map(String);
    },
    async markInFlight(id, owner, isInFlight, receipt = '') {
      const at = isInFlight ? String(now()) : '';
      return (await script(lua.IN_FLIGHT, 1, entryKey(id), owner, at, receipt)) === 1;
    },
    async rescheduleOutbox(id, owner, nextAttemptAt, error) {
      const args = [id, owner, String(nextAttemptAt), error, String(now())];
      return (await script(lua.RESCHEDULE, 2, entryKey(id), due, ...args)) === 1;
    },
    async giveUpOutbox(id, owner, reason) {
      const args = [id, owner, reason, String(now()), retention];
      return (await script(lua.GIVE_UP, 2, entryKey(id), due, ...args)) === 1;
    },
    async listOutbox(status) {
      return (await entries(await redis.zrange(all, '0', '-1'))).filter((e) => e.status === status);
    },
  };
}
