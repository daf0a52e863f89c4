import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQuotas } from '../src/user-limits.ts';
import { REDIS_URL } from './support/redis.ts';

const run = promisify(execFile);
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
});
afterAll(async () => {
  const keys = await redis.keys('herald:rl:*test-*');
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('the in-process limiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts points in a window from the first one, refuses without spending, then starts afresh', async () => {
    const { commands } = createQuotas({ perUserPerMinute: 3, sayDailyChars: 100 });
    expect(await commands.consume('a', 2)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 60_000 });
    vi.advanceTimersByTime(10_000);
    expect(await commands.consume('a', 2)).toEqual({ allowed: false, remaining: 1, retryAfterMs: 50_000 });
    expect(await commands.consume('a')).toEqual({ allowed: true, remaining: 0, retryAfterMs: 50_000 });
    expect(await commands.consume('b')).toEqual({ allowed: true, remaining: 2, retryAfterMs: 60_000 });
    await commands.refund('a', 2);
    expect(await commands.consume('a', 2)).toMatchObject({ allowed: true, remaining: 0 });
    vi.advanceTimersByTime(50_000); // the window of `a` has ended
    expect(await commands.consume('a', 3)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 60_000 });
    expect(await commands.consume('x', 4)).toEqual({ allowed: false, remaining: 3, retryAfterMs: 0 });
  });
});

describe('quotas', () => {
  it('limits commands per user per minute, each user separately', async () => {
    const q = createQuotas({ perUserPerMinute: 3, sayDailyChars: 100 });
    const a = [];
    for (let i = 0; i < 4; i++) a.push(await q.commands.consume('discord:alice'));
    expect(a.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(a[3]!.retryAfterMs).toBeGreaterThan(50_000);
    expect((await q.commands.consume('discord:bob')).allowed).toBe(true);
  });

  it('refuses a /say over the remaining daily budget without spending it', async () => {
    const q = createQuotas({ perUserPerMinute: 3, sayDailyChars: 100 });
    expect((await q.sayChars.consume('u', 60)).allowed).toBe(true);
    const refused = await q.sayChars.consume('u', 50);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(40);
    expect((await q.sayChars.consume('u', 40)).allowed).toBe(true);
    expect((await q.sayChars.consume('u', 1)).allowed).toBe(false);
    expect((await q.sayChars.consume('other', 500)).allowed).toBe(false);
  });

  it('starts a fresh budget on the next UTC day', async () => {
    let now = new Date('2026-11-22T23:59:00Z');
    const q = createQuotas({ perUserPerMinute: 3, sayDailyChars: 100, now: () => now });
    expect((await q.sayChars.consume('u', 100)).allowed).toBe(true);
    expect((await q.sayChars.consume('u', 1)).allowed).toBe(false);
    now = new Date('2026-11-23T00:00:30Z');
    expect((await q.sayChars.consume('u', 100)).allowed).toBe(true);
  });

  it('shares the rate limit across replicas through Redis', async () => {
    const user = `test-${randomUUID()}`;
    const a = createQuotas({ perUserPerMinute: 4, sayDailyChars: 100, redis });
    const b = createQuotas({ perUserPerMinute: 4, sayDailyChars: 100, redis });
    const results = [];
    for (let i = 0; i < 3; i++) {
      results.push((await a.commands.consume(user)).allowed, (await b.commands.consume(user)).allowed);
    }
    expect(results.filter(Boolean)).toHaveLength(4);
  });

  it('shares the /say budget between two processes using one Redis', async () => {
    const user = `test-${randomUUID()}`;
    // Each process tries 4 x 200 characters against a 1000-character day: 5 may pass in total.
    const [one, two] = await Promise.all(
      [0, 1].map(() =>
        run('npx', ['node', 'test/support/spend-say.ts', REDIS_URL, user, '200', '4'], {
          cwd: process.cwd(),
        }),
      ),
    );
    const allowed = [
      ...(JSON.parse(one!.stdout) as boolean[]),
      ...(JSON.parse(two!.stdout) as boolean[]),
    ].filter(Boolean);
    expect(allowed).toHaveLength(5);
  });
});

describe('the /say budget through the command', () => {
  it('speaks while the budget lasts, then refuses with one sentence and no synthesis', async () => {
    const { createSayCommand } = await import('../commands/say.ts');
    const { createContext, invoke } = await import('./commands/context.ts');
    const { createSayCharge } = await import('../src/user-limits.ts');
    const synthesized: string[] = [];
    const speech = {
      synthesize: async (q: { text: string }) => {
        synthesized.push(q.text);
        return { bytes: new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]), contentType: 'audio/mpeg' };
      },
      voices: async () => [],
      close: async () => undefined,
    };
    const quotas = createQuotas({ perUserPerMinute: 10, sayDailyChars: 12 });
    const say = createSayCommand({ modelId: 'eleven_multilingual_v2', charge: createSayCharge(quotas) });
    const actor = { platform: 'discord' as const, id: `u-${randomUUID()}`, displayName: 'Ana', roles: [] };
    const ctx = () => createContext({ services: { speech }, actor });
    await invoke(say, { text: 'hello there' }, ctx());
    const refused = await invoke(say, { text: 'and again' }, ctx()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'rate_limited' });
    expect((refused as Error).message).toBe(
      'That needs 9 characters, but your /say budget has 1 left today; it resets at midnight UTC.',
    );
    expect(synthesized).toEqual(['hello there']);
    // The console operator has no budget.
    const operator = createContext({
      services: { speech },
      actor: { platform: 'console', id: 'local', displayName: 'operator', roles: [], isOperator: true },
    });
    await invoke(say, { text: 'operator speaks freely' }, operator);
    expect(synthesized).toHaveLength(2);
  });

  it('gives the characters back when the synthesis fails', async () => {
    const { createSayCommand } = await import('../commands/say.ts');
    const { createContext, invoke } = await import('./commands/context.ts');
    const { createSayCharge, createSayRefund } = await import('../src/user-limits.ts');
    const { ServiceError } = await import('../src/errors.ts');
    let fail = true;
    const speech = {
      synthesize: async () => {
        if (fail)
          throw new ServiceError({
            service: 'speech',
            operation: 'synthesize',
            code: 'upstream',
            status: 503,
          });
        return { bytes: new Uint8Array([0xff, 0xfb, 0x90, 0x64]), contentType: 'audio/mpeg' };
      },
      voices: async () => [],
      close: async () => undefined,
    };
    const quotas = createQuotas({ perUserPerMinute: 10, sayDailyChars: 12 });
    const say = createSayCommand({
      modelId: 'eleven_multilingual_v2',
      charge: createSayCharge(quotas),
      refund: createSayRefund(quotas),
    });
    const actor = { platform: 'slack' as const, id: `u-${randomUUID()}`, displayName: 'Bo', roles: [] };
    const ctx = () => createContext({ services: { speech }, actor });
    await expect(invoke(say, { text: 'hello there' }, ctx())).rejects.toMatchObject({ code: 'upstream' });
    fail = false;
    // The failed 11 characters were given back, so the same text fits the 12-character day again.
    await expect(invoke(say, { text: 'hello there' }, ctx())).resolves.toMatchObject({
      text: expect.stringContaining('Spoke'),
    });
  });
});
