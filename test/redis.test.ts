// The one Redis factory: it connects, logs an outage once (not each reconnection attempt) and its
// end, and refuses an unreachable server naming it, with no password in any line.
import { describe, expect, it } from 'vitest';
import { connectRedis } from '../src/redis.ts';
import { REDIS_URL } from './support/redis.ts';

function lines() {
  const out: { level: string; obj: object; msg: string }[] = [];
  return {
    out,
    log: {
      info: (obj: object, msg: string) => out.push({ level: 'info', obj, msg }),
      warn: (obj: object, msg: string) => out.push({ level: 'warn', obj, msg }),
    },
  };
}

describe('connectRedis', () => {
  it('logs an outage once and its end, while ioredis reconnects', async () => {
    const { out, log } = lines();
    const redis = await connectRedis(REDIS_URL, { log });
    expect(await redis.ping()).toBe('PONG');
    // What ioredis emits on each failed reconnection attempt during an outage.
    for (let i = 0; i < 3; i++) redis.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    redis.emit('ready');
    redis.emit('error', new Error('read ECONNRESET'));
    expect(out.map((l) => `${l.level} ${l.msg}`)).toEqual([
      'warn redis.error',
      'info redis.ready',
      'warn redis.error',
    ]);
    expect(out[0]!.obj).toEqual({ redis: '127.0.0.1:6379', err: 'connect ECONNREFUSED 127.0.0.1:6379' });
    redis.disconnect();
  });

  it('refuses an unreachable server, naming its host and port but not its password', async () => {
    const { out, log } = lines();
    const err: unknown = await connectRedis('redis://:hunter2-secret@127.0.0.1:1', {
      log,
      connectTimeoutMs: 500,
    }).then(
      (redis) => redis.disconnect(),
      (e: unknown) => e,
    );
    if (!(err instanceof Error)) throw new Error('expected a refusal');
    expect(err.message).toBe('could not connect to Redis at 127.0.0.1:1');
    expect(JSON.stringify(out)).not.toContain('hunter2');
  });
});
