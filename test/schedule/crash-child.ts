// A replica for the SIGKILL test: one schedule runner on the shared Redis, its clock fixed at NOW.
// Its tick claims the due slot and starts the scheduled command, which prints "running" and hangs
// until the parent kills the process with SIGKILL.
import { createScheduleRunner } from '../../src/schedule/runner.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { createRedisScheduleStore } from '../../src/store/schedules-redis.ts';

const env = process.env;
const nowMs = Date.parse(env.NOW ?? '');
const keyPrefix = env.KEY_PREFIX ?? 'herald:';
const url = env.REDIS_URL ?? '';
const silent = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

const runner = createScheduleRunner({
  schedules: await createRedisScheduleStore(url, { keyPrefix }),
  store: await createRedisStore(url, { now: () => nowMs, keyPrefix }),
  services: {},
  destinations: {},
  commands: () => ({
    run: () => {
      process.stdout.write('running\n');
      return new Promise<never>(() => undefined);
    },
  }),
  toMessage: (reply) => ({ content: reply.text }),
  log: silent,
  now: () => new Date(nowMs),
  owner: 'doomed-replica',
  catchupMinutes: 60,
  leaseMs: Number(env.LEASE_MS ?? 60_000),
});
await runner.tick();
