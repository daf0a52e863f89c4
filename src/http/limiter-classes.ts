// rate-limiter-flexible's three classes herald uses, each required from its own file ("import
// directly", as the library's README shows): its index requires every backend it supports (Mongo,
// MySQL, Postgres, DynamoDB, etcd, node:cluster...), 14 ms of CPU on every start (docs/PERFORMANCE.md).
// The files carry no types of their own; the package's types describe the same classes.
import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';

const load = createRequire(import.meta.url);

export const RateLimiterMemory = load(
  'rate-limiter-flexible/lib/RateLimiterMemory.js',
) as typeof Flexible.RateLimiterMemory;
export const RateLimiterRedis = load(
  'rate-limiter-flexible/lib/RateLimiterRedis.js',
) as typeof Flexible.RateLimiterRedis;
export const RateLimiterRes = load(
  'rate-limiter-flexible/lib/RateLimiterRes.js',
) as typeof Flexible.RateLimiterRes;
