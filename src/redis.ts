// The one way herald connects to Redis, for everything it shares between replicas: the per-user
// limits, the providers' rates and quotas, the store and the schedules.
import { Redis } from 'ioredis';
import { createLogger } from './log.ts';
import { redactText } from './redact.ts';

export interface RedisLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * ioredis's TLS options for `url`: a rediss:// URL alone makes ioredis check the server's
 * certificate against the system's authorities; `verifyTls` false accepts a self-signed one (the
 * connection stays encrypted, but a server impersonating it is not refused).
 */
export function redisTlsOptions(url: string, verifyTls: boolean): { tls?: { rejectUnauthorized: false } } {
  return !verifyTls && url.startsWith('rediss:') ? { tls: { rejectUnauthorized: false } } : {};
}

/**
 * Connects to Redis at `url` (redis:// or rediss://), or rejects naming its host and port. Once
 * connected, ioredis reconnects by itself; a command sent meanwhile waits for the connection and
 * fails after two retries. Each outage is logged once (`redis.error`), and its end (`redis.ready`).
 * Without a `log` (the store opens its own connections), a logger of its own at warn.
 */
export async function connectRedis(
  url: string,
  opts: { log?: RedisLog | undefined; connectTimeoutMs?: number; verifyTls?: boolean } = {},
): Promise<Redis> {
  const log = opts.log ?? createLogger({ level: 'warn' });
  const where = new URL(url);
  const host = `${where.hostname}:${where.port || '6379'}`;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: opts.connectTimeoutMs ?? 5_000,
    maxRetriesPerRequest: 2,
    ...redisTlsOptions(url, opts.verifyTls ?? true),
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn({ redis: host, err: redactText(err.message) }, 'redis.error');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ redis: host }, 'redis.ready');
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`could not connect to Redis at ${host}`, { cause: err });
  }
  return redis;
}
