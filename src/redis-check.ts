// Whether the Redis herald keeps its claims, leases and outbox in will keep them. An evicting
// `maxmemory-policy` drops a key under memory pressure without a word: a claim or a lease gone is
// a post twice, a schedule gone is lost (`volatile-*` too: claims and leases carry TTLs). No
// persistence loses everything at a restart. Read once at start; a managed Redis that refuses
// CONFIG still tells its policy through INFO, and what neither tells is reported as unchecked.
import type { ReportLine } from './config/startup-report.ts';

/** What herald needs of a Redis connection here: one raw command (ioredis `call`). */
export interface RedisCaller {
  call(command: string, ...args: string[]): Promise<unknown>;
}

export interface RedisSettings {
  /** `maxmemory-policy`, from CONFIG GET or else INFO memory. */
  policy?: string;
  appendonly?: string;
  /** RDB snapshot rules; "" is none. */
  save?: string;
  /** Why CONFIG GET was refused (a managed Redis, an ACL without +config). */
  configRefused?: string;
}

export interface RedisVerdict {
  /** Set when herald must not start on this Redis: the sentence naming the setting. */
  refusal?: string;
  lines: ReportLine[];
}

async function configGet(redis: RedisCaller, name: string): Promise<string | undefined> {
  const reply = await redis.call('CONFIG', 'GET', name);
  // [name, value], or [] where the setting does not exist.
  return Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : undefined;
}

async function policyFromInfo(redis: RedisCaller): Promise<string | undefined> {
  try {
    const info = await redis.call('INFO', 'memory');
    return typeof info === 'string' ? /^maxmemory_policy:(\S+)/m.exec(info)?.[1] : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the policy and the persistence settings; a refusal is kept, never thrown. */
export async function readRedisSettings(redis: RedisCaller): Promise<RedisSettings> {
  try {
    const [policy, appendonly, save] = await Promise.all(
      ['maxmemory-policy', 'appendonly', 'save'].map((name) => configGet(redis, name)),
    );
    return {
      ...(policy === undefined ? {} : { policy }),
      ...(appendonly === undefined ? {} : { appendonly }),
      ...(save === undefined ? {} : { save }),
    };
  } catch (err) {
    const configRefused = err instanceof Error ? err.message : String(err);
    const policy = await policyFromInfo(redis);
    return { configRefused, ...(policy === undefined ? {} : { policy }) };
  }
}

export function isEvictingPolicy(policy: string): boolean {
  return /^(allkeys|volatile)-/.test(policy);
}

/** What the settings mean for herald: a refusal to start, warnings and what could not be checked. */
export function judgeRedis(settings: RedisSettings, where: string): RedisVerdict {
  const fields = { redis: where, ...settings };
  if (settings.policy !== undefined && isEvictingPolicy(settings.policy))
    return {
      refusal:
        `Redis at ${where} has maxmemory-policy ${settings.policy}, which evicts keys when memory is full: ` +
        "herald's claims and leases would vanish (posts twice, schedules lost). Set maxmemory-policy noeviction.",
      lines: [],
    };
  const lines: ReportLine[] = [];
  const unchecked = [
    ...(settings.policy === undefined ? ['maxmemory-policy'] : []),
    ...(settings.appendonly === undefined || settings.save === undefined
      ? ['persistence (appendonly, save)']
      : []),
  ];
  if (unchecked.length > 0) {
    const why =
      settings.configRefused === undefined ? '' : ` (CONFIG GET answered: ${settings.configRefused})`;
    lines.push({
      text: `could not check Redis at ${where} for ${unchecked.join(' or ')}${why}: make sure it has maxmemory-policy noeviction and keeps its data on disk`,
      fields: { ...fields, unchecked },
      warn: true,
    });
  }
  if (settings.appendonly === 'no' && settings.save?.trim() === '')
    lines.push({
      text: `Redis at ${where} keeps nothing on disk (appendonly no, save ""): a restart of Redis loses every schedule and claim; set appendonly yes`,
      fields,
      warn: true,
    });
  if (lines.length === 0)
    lines.push({ text: `Redis at ${where}: maxmemory-policy ${settings.policy}, data kept on disk`, fields });
  return { lines };
}
