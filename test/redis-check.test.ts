// What herald reads of its Redis at start: an evicting maxmemory-policy refuses the start naming
// the setting (claims and leases carry TTLs, so volatile-* counts), no persistence is a warning in
// the start-up report, and a Redis that refuses CONFIG (a managed one) is reported as unchecked.
// The shared test server (no persistence) shows the warning; the fake shows what it must not be
// changed to.
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/redis.ts';
import { isEvictingPolicy, judgeRedis, readRedisSettings } from '../src/redis-check.ts';
import { startFakeRedis, type FakeRedis } from './support/fake-redis.ts';
import { REDIS_URL } from './support/redis.ts';
import { startHerald } from './support/spawn-herald.ts';

const quiet = { info: () => {}, warn: () => {} };
let fake: FakeRedis | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function settingsOf(url: string) {
  const redis = await connectRedis(url, { log: quiet });
  try {
    return await readRedisSettings(redis);
  } finally {
    redis.disconnect();
  }
}

describe('the Redis check at start', () => {
  it("reads the test server's own settings, and warns that it keeps nothing on disk", async () => {
    const settings = await settingsOf(REDIS_URL);
    expect(settings.policy).toBe('noeviction');
    expect(settings.configRefused).toBeUndefined();
    const verdict = judgeRedis(settings, '127.0.0.1:6379');
    expect(verdict.refusal).toBeUndefined();
    if (settings.appendonly === 'no' && settings.save === '')
      expect(verdict.lines).toEqual([
        expect.objectContaining({
          text: 'Redis at 127.0.0.1:6379 keeps nothing on disk (appendonly no, save ""): a restart of Redis loses every schedule and claim; set appendonly yes',
          warn: true,
        }),
      ]);
  });

  it('counts every allkeys-* and volatile-* policy as evicting, noeviction not', () => {
    for (const policy of [
      'allkeys-lru',
      'allkeys-lfu',
      'allkeys-random',
      'volatile-lru',
      'volatile-lfu',
      'volatile-random',
      'volatile-ttl',
    ])
      expect(isEvictingPolicy(policy), policy).toBe(true);
    expect(isEvictingPolicy('noeviction')).toBe(false);
  });

  it('refuses an evicting policy, naming the setting and the fix', async () => {
    fake = await startFakeRedis({
      config: { 'maxmemory-policy': 'volatile-lru', appendonly: 'yes', save: '3600 1' },
    });
    const verdict = judgeRedis(await settingsOf(fake.url), 'redis.internal:6379');
    expect(verdict.refusal).toBe(
      "Redis at redis.internal:6379 has maxmemory-policy volatile-lru, which evicts keys when memory is full: herald's claims and leases would vanish (posts twice, schedules lost). Set maxmemory-policy noeviction.",
    );
  });

  it('reports a Redis that keeps its data, with nothing to warn about', async () => {
    fake = await startFakeRedis({
      config: { 'maxmemory-policy': 'noeviction', appendonly: 'no', save: '3600 1 300 100' },
    });
    const verdict = judgeRedis(await settingsOf(fake.url), 'r:6379');
    expect(verdict).toEqual({
      lines: [
        expect.objectContaining({ text: 'Redis at r:6379: maxmemory-policy noeviction, data kept on disk' }),
      ],
    });
    expect(verdict.lines[0]!.warn).toBeUndefined();
  });

  it('says what could not be checked where CONFIG is refused, reading the policy from INFO instead', async () => {
    const refused = "ERR unknown command 'CONFIG', with args beginning with: 'GET' 'maxmemory-policy'";
    fake = await startFakeRedis({ refuseConfig: refused, infoPolicy: 'noeviction' });
    const verdict = judgeRedis(await settingsOf(fake.url), 'managed:6379');
    expect(verdict.refusal).toBeUndefined();
    expect(verdict.lines).toEqual([
      expect.objectContaining({
        text: `could not check Redis at managed:6379 for persistence (appendonly, save) (CONFIG GET answered: ${refused}): make sure it has maxmemory-policy noeviction and keeps its data on disk`,
        warn: true,
      }),
    ]);
  });

  it('still refuses an evicting policy that only INFO tells (a managed Redis defaulting to volatile-lru)', async () => {
    fake = await startFakeRedis({
      refuseConfig: 'NOPERM this user has no permissions to run the config command',
      infoPolicy: 'volatile-lru',
    });
    expect(judgeRedis(await settingsOf(fake.url), 'm:6379').refusal).toMatch(/maxmemory-policy volatile-lru/);
  });

  it('names both settings as unchecked when neither CONFIG nor INFO tells the policy', async () => {
    fake = await startFakeRedis({ refuseConfig: 'ERR CONFIG is disabled' });
    const [line] = judgeRedis(await settingsOf(fake.url), 'm:6379').lines;
    expect(line!.text).toMatch(
      /^could not check Redis at m:6379 for maxmemory-policy or persistence \(appendonly, save\)/,
    );
  });

  it('herald refuses to start on an evicting Redis: exit 2, one sentence naming maxmemory-policy', async () => {
    fake = await startFakeRedis({
      config: { 'maxmemory-policy': 'allkeys-lru', appendonly: 'yes', save: '' },
    });
    const herald = startHerald({ SANDBOX: 'on', REDIS_URL: fake.url, LOG_FORMAT: 'json' });
    herald.child.stdin.end('/help\n');
    expect(await herald.exited).toBe(2);
    expect(herald.err()).toContain(
      `herald cannot start: Invalid configuration:\n  - REDIS_URL: Redis at ${fake.url.slice('redis://'.length)} has maxmemory-policy allkeys-lru`,
    );
    expect(herald.out()).not.toContain('/weather');
  }, 30_000);
});
