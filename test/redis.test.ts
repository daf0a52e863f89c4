// The one Redis factory: it connects, logs an outage once (not each reconnection attempt) and its
// end, and refuses an unreachable server naming it, with no password in any line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, redisTlsOptions } from '../src/redis.ts';
import { openStore } from '../src/store/index.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from './support/redis.ts';

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

/**
 * A certificate for 127.0.0.1 signed by itself, as Heroku's Key-Value Store presents one; made with
 * the openssl command, so undefined where there is none.
 */
function selfSigned(): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'herald-tls-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('connectRedis over TLS (rediss://)', () => {
  const pair = selfSigned();
  let proxy: Server;
  let url = '';

  beforeAll(async () => {
    if (!pair) return;
    // TLS in front of the test Redis, as a provider terminates it.
    const target = new URL(REDIS_URL);
    proxy = createTlsServer(pair, (tls) => {
      const plain = connect(Number(target.port), target.hostname);
      tls.pipe(plain).pipe(tls);
      tls.on('error', () => plain.destroy());
      plain.on('error', () => tls.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    url = `rediss://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (proxy) await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it.skipIf(!pair)(
    'reaches a server with a self-signed certificate when REDIS_TLS_VERIFY is false',
    async () => {
      const redis = await connectRedis(url, { verifyTls: false, connectTimeoutMs: 2_000 });
      expect(await redis.ping()).toBe('PONG');
      redis.disconnect();
    },
  );

  it.skipIf(!pair)('refuses that certificate by default, naming the server and the reason', async () => {
    const { out, log } = lines();
    const err: unknown = await connectRedis(url, { log, connectTimeoutMs: 2_000 }).then(
      (redis) => redis.disconnect(),
      (e: unknown) => e,
    );
    if (!(err instanceof Error)) throw new Error('expected a refusal');
    expect(err.message).toBe(`could not connect to Redis at ${new URL(url).host}`);
    expect(out.map((l) => `${l.level} ${l.msg}`)).toEqual(['warn redis.error']);
    expect((out[0]!.obj as { err: string }).err).toMatch(/self[- ]signed/);
  });

  it.skipIf(!pair)(
    'opens the store and the schedules there, as herald starts with REDIS_TLS_VERIFY=false',
    async () => {
      const keyPrefix = testKeyPrefix();
      const place = { storeUrl: url, redisUrl: url, redisTlsVerify: false };
      const store = await openStore(place, { keyPrefix, connectTimeoutMs: 2_000 });
      try {
        expect(await store.claimOnce('tls-check', 60_000)).toBe(true);
        expect(await store.listSchedules()).toEqual([]);
      } finally {
        await store.close();
        await deleteKeys(keyPrefix);
      }
    },
  );

  it('turns the check off only for a rediss:// URL that asks for it', () => {
    expect(redisTlsOptions('rediss://h:6380', false)).toEqual({ tls: { rejectUnauthorized: false } });
    expect(redisTlsOptions('rediss://h:6380', true)).toEqual({});
    expect(redisTlsOptions('redis://h:6379', false)).toEqual({});
  });
});
