// The shared store for several replicas: Redis through ioredis. Every read-then-write is one Lua
// script (redis-store-scripts.ts), which Redis runs atomically. Leases use the caller's clock, so
// that fake clocks work too. Keys: <p>slot:<job>:<slot>, <p>running:<job>, <p>outbox:<id>,
// <p>outbox:due (by due time), <p>outbox:all (by creation), <p>kv:<key>, <p>log:<key>,
// <p>schedules (id → record) and its :paused, :last, :runs and :next (the next-fire index), where
// <p> is the prefix and the `{sched}` hash tag: every key a script touches is in one Cluster slot,
// passed in KEYS, never built inside a script.
import type { Redis } from 'ioredis';
import { connectRedis } from '../redis.ts';
import {
  moveLegacyKeys,
  scanKeys,
  scriptsOf,
  storeKeyPrefix,
  type RedisPlace,
  type RunScript,
} from './redis-common.ts';
import * as lua from './redis-store-scripts.ts';
import { RUN_HISTORY, type AddResult, type ScheduleRecord, type ScheduleRun } from '../schedule/schedules.ts';
import {
  entryOf,
  RETENTION_MS,
  slotOf,
  type ClaimResult,
  type HeldChange,
  type OutboxStore,
  type ScheduleStore,
  type SlotStore,
  type Store,
  type StoreOptions,
  type StoredFields,
} from './store.ts';

export type RedisStoreOptions = StoreOptions & RedisPlace;

const retention = String(RETENTION_MS);

/** A schedule's record as stored, with what changes kept beside it. */
function mergeRecord(raw: string, paused?: string | null, last?: string | null): ScheduleRecord {
  const record = JSON.parse(raw) as ScheduleRecord;
  record.paused = paused === '1';
  if (last) record.lastRun = JSON.parse(last) as ScheduleRun;
  else delete record.lastRun;
  return record;
}

interface RedisContext {
  redis: Redis;
  script: RunScript;
  now: () => number;
  /** key('slot', job, slotId) is <p>slot:<job>:<slotId>. */
  key: (...parts: string[]) => string;
  /** The schedules' keys (redis-store-scripts.ts): records, and what changes kept beside them. */
  k: Record<'records' | 'paused' | 'last' | 'next' | 'runs', string>;
}

/** Rejects when Redis cannot be reached. */
export async function createRedisStore(url: string, opts: RedisStoreOptions = {}): Promise<Store> {
  const prefix = opts.keyPrefix ?? 'herald:';
  const p = storeKeyPrefix(prefix);
  const redis = await connectRedis(url, opts);
  await moveLegacyKeys(redis, prefix);
  const key = (...parts: string[]) => p + parts.join(':');
  const k = {
    records: key('schedules'),
    paused: key('schedules', 'paused'),
    last: key('schedules', 'last'),
    next: key('schedules', 'next'),
    runs: key('schedules', 'runs'),
  };
  const ctx: RedisContext = { redis, script: scriptsOf(redis), now: opts.now ?? Date.now, key, k };
  const all = key('outbox', 'all');
  // Schedules written before the index existed are looked at once.
  await ctx.script(lua.BACKFILL, 3, k.records, k.paused, k.next);
  return {
    kind: 'redis',
    ...redisSchedules(ctx),
    ...redisSlots(ctx),
    ...redisOutbox(ctx),
    ...redisValues(ctx),
    claimOnce: (key, ttlMs) => write(redis, `${prefix}claim:${key}`, '1', { ifAbsent: true, ttlMs }),
    async prune() {
      // Finished records expire on their own (PEXPIRE); drop index members whose entry is gone.
      const ids = await redis.zrange(all, '0', '-1');
      if (ids.length === 0) return 0;
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.exists(ctx.key('outbox', id));
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

/** A value's or a claim's SET, true when it wrote; Redis expires it on its own clock, not on `now`. */
async function write(redis: Redis, key: string, value: string, o?: { ifAbsent?: boolean; ttlMs?: number }) {
  const px = o?.ttlMs === undefined ? [] : (['PX', Math.max(1, Math.ceil(o.ttlMs))] as const);
  return (await redis.call('SET', key, value, ...px, ...(o?.ifAbsent ? ['NX'] : []))) === 'OK';
}

/** The key/value part and the logs: values under `kv:`, each log a list trimmed as it grows. */
function redisValues(
  ctx: RedisContext,
): Pick<Store, 'getValue' | 'setValue' | 'deleteValues' | 'durableValues' | 'appendLog' | 'readLog'> {
  const { redis } = ctx;
  const kvKey = (key: string) => ctx.key('kv', key);
  const logKey = (key: string) => ctx.key('log', key);
  return {
    async getValue(key) {
      return (await redis.get(kvKey(key))) ?? undefined;
    },
    setValue: (key, value, o) => write(redis, kvKey(key), value, o),
    async deleteValues(keyPrefix) {
      let deleted = 0;
      await scanKeys(redis, kvKey(keyPrefix), async (found) => void (deleted += await redis.del(...found)));
      return deleted;
    },
    async durableValues() {
      const out: [string, string][] = [];
      await scanKeys(redis, kvKey(''), async (found) => {
        const pipeline = redis.pipeline();
        for (const key of found) pipeline.pttl(key).get(key);
        const answers = (await pipeline.exec()) ?? [];
        found.forEach((key, i) => {
          const value = answers[2 * i + 1]?.[1];
          // -1: no expiry (-2: gone meanwhile).
          if (answers[2 * i]?.[1] === -1 && typeof value === 'string')
            out.push([key.slice(kvKey('').length), value]);
        });
      });
      return out;
    },
    async appendLog(key, value, keep) {
      await redis
        .multi()
        .lpush(logKey(key), value)
        .ltrim(logKey(key), 0, keep - 1)
        .exec();
    },
    readLog: (key, limit) => redis.lrange(logKey(key), 0, limit - 1),
  };
}

function redisSchedules({ redis, script, k }: RedisContext): ScheduleStore {
  /** A schedule is read from these, as mergeRecord takes them. */
  const stored = [k.records, k.paused, k.last];
  return {
    async listSchedules() {
      const [records = {}, paused = {}, last = {}] = await Promise.all(stored.map((h) => redis.hgetall(h)));
      const all = Object.entries(records).map(([id, raw]) => mergeRecord(raw, paused[id], last[id]));
      return all.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },
    async dueSchedules(at, limit) {
      const due = await script(lua.DUE_SCHEDULES, 4, k.next, ...stored, at, limit);
      return (due as [string, string, string][]).map((parts) => mergeRecord(...parts));
    },
    async setNextRuns(next) {
      if (next.size === 0) return;
      await script(lua.SET_NEXT, 3, k.records, k.paused, k.next, ...[...next].flat());
    },
    async getSchedule(id) {
      const [raw, paused, last] = await Promise.all(stored.map((h) => redis.hget(h, id)));
      return raw ? mergeRecord(raw, paused, last) : undefined;
    },
    async addSchedule(record, max) {
      const { paused, lastRun: _lastRun, ...rest } = record;
      const args = [record.id, JSON.stringify(rest), max, paused ? '1' : '0', record.createdAt];
      return (await script(lua.SCHEDULE_ADD, 3, k.records, k.paused, k.next, ...args)) as AddResult;
    },
    async removeSchedule(id) {
      return (await script(lua.SCHEDULE_REMOVE, 5, k.records, k.paused, k.last, k.next, k.runs, id)) === 1;
    },
    async setPaused(id, paused) {
      return (await script(lua.SET_PAUSED, 3, k.records, k.paused, k.next, id, paused ? '1' : '0')) === 1;
    },
    async recordRuns(id, runs, nextRunAt) {
      if (runs.length === 0) return;
      const args = [id, JSON.stringify(runs), RUN_HISTORY, nextRunAt ?? ''];
      await script(lua.RECORD_RUNS, 5, k.records, k.last, k.runs, k.paused, k.next, ...args);
    },
    async history(id) {
      const raw = await redis.hget(k.runs, id);
      return raw === null ? [] : (JSON.parse(raw) as ScheduleRun[]);
    },
  };
}

function redisSlots({ redis, script, now, key, k }: RedisContext): SlotStore {
  const slotKey = (job: string, slotId: string) => key('slot', job, slotId);
  return {
    async claimSlot(job, slotId, owner, leaseMs, rules = {}) {
      const memoryKey = rules.schedule?.memoryKey;
      const keys = [
        slotKey(job, slotId),
        key('running', job),
        k.records,
        k.paused,
        key('kv', memoryKey ?? ''),
      ];
      const args = [job, slotId, owner, now(), leaseMs, retention, JSON.stringify(rules)];
      // The ClaimResult, with the schedule's stored record and paused when claimed.
      const answer = (await script(lua.CLAIM, keys.length, ...keys, ...args)) as string;
      const { record, paused, ...result } = JSON.parse(answer) as { record?: string; paused?: string };
      return (
        record === undefined ? result : { ...result, schedule: mergeRecord(record, paused) }
      ) as ClaimResult;
    },
    async markPosted(job, slotId, owner, deliveries, opts) {
      const t = now();
      const entryKeys = deliveries.map((d) => key('outbox', d.id));
      const fixed = [key('outbox', 'due'), key('outbox', 'all'), key('kv', opts?.memory?.key ?? '')];
      const keys = [slotKey(job, slotId), ...fixed, key('running', job), ...entryKeys];
      const leaseEnd = opts?.leaseMs === undefined ? '' : t + opts.leaseMs;
      const entries = deliveries.map((d) => ({ ...d, payload: JSON.stringify(d.payload) }));
      const post = JSON.stringify({ memory: opts?.memory?.value, entries });
      return (
        (await script(lua.POST, keys.length, ...keys, owner, t, retention, leaseEnd, slotId, post)) === 1
      );
    },
    async markFailed(job, slotId, owner, error) {
      const keys = [slotKey(job, slotId), key('running', job)];
      return (await script(lua.FAIL, 2, ...keys, owner, error, now(), slotId, job, retention)) === 1;
    },
    async getSlot(job, slotId) {
      const h = await redis.hgetall(slotKey(job, slotId));
      return h.status === undefined ? undefined : slotOf({ job, slotId, ...h });
    },
  };
}

/** A change as UPDATE_HELD's fields (null deletes one), from which it also moves the due index. */
function heldFields(c: HeldChange, t: number): object {
  if ('leaseMs' in c) return { nextAttemptAt: t + c.leaseMs, updatedAt: t };
  if ('inFlight' in c)
    return { inFlightAt: c.inFlight ? t : null, ...(c.receipt ? { receipt: c.receipt } : {}) };
  if ('retryAt' in c) return { nextAttemptAt: c.retryAt, lastError: c.error, owner: '', updatedAt: t };
  return { status: 'given_up', reason: c.giveUp, updatedAt: t };
}

function redisOutbox({ redis, script, now, key }: RedisContext): OutboxStore {
  const entryKey = (id: string) => key('outbox', id);
  const due = key('outbox', 'due');
  return {
    async claimDueOutbox(owner, leaseMs, limit, opts) {
      const t = now();
      // With includeBackingOff every queued entry is a candidate (those leased elsewhere are skipped).
      // Otherwise a few times `limit`: replicas draining at once read the same first ids, and each
      // script leases the next ones the others have not taken.
      const ids = opts?.includeBackingOff
        ? await redis.zrange(due, '0', '-1')
        : await redis.zrangebyscore(due, '-inf', t, 'LIMIT', 0, limit * 4);
      if (ids.length === 0) return [];
      const keys = [due, ...ids.map(entryKey)];
      const args = [t, leaseMs, limit, owner, ...ids];
      const rows = (await script(lua.CLAIM_DUE, keys.length, ...keys, ...args)) as string[];
      return rows.map((r) => entryOf(JSON.parse(r) as StoredFields));
    },
    async markDelivered(id, receipt, memoryKey) {
      const keys = [entryKey(id), due, ...(memoryKey === undefined ? [] : [key('kv', memoryKey)])];
      return (await script(lua.DELIVERED, keys.length, ...keys, id, now(), retention, receipt ?? '')) === 1;
    },
    async updateHeld(ids, owner, change) {
      if (ids.length === 0) return [];
      const keys = [due, ...ids.map(entryKey)];
      const args = [owner, JSON.stringify(heldFields(change, now())), retention, ...ids];
      return (await script(lua.UPDATE_HELD, keys.length, ...keys, ...args)) as string[];
    },
    async listOutbox(status) {
      const pipeline = redis.pipeline();
      for (const id of await redis.zrange(key('outbox', 'all'), '0', '-1')) pipeline.hgetall(entryKey(id));
      const hashes = ((await pipeline.exec()) ?? []).map(([err, h]) => (err ? {} : h));
      return (hashes as Record<string, string>[]).filter((h) => h.id && h.status === status).map(entryOf);
    },
  };
}
