// One ioredis connection for the shared state of several replicas (quotas, store, job election).
import { Redis } from 'ioredis';
import type { Logger } from './log.ts';
import { redactText } from './redact.ts';

export async function connectRedis(url: string, log: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    // Commands fail fast while disconnected instead of queueing behind a dead connection.
    enableOfflineQueue: false,
  });
  redis.on('error', (err: Error) => log.warn({ err: redactText(err.message) }, 'redis.error'));
  await redis.connect();
  log.info({ redis: redactText(new URL(url).host) }, 'redis connected');
  return redis;
}
