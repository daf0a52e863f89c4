// A scheduler process for the crash tests, killed with SIGKILL by the parent test at a chosen
// point: CRASH_AT=claim stops inside the job (the slot is claimed, nothing posted); CRASH_AT=post
// stops inside the webhook call (the post is recorded in the outbox, not yet sent); CRASH_AT=in-flight
// sends the real POST, and the parent kills it while the webhook is still answering. It prints
// "claimed" or "posting" on stdout when it gets there, then hangs until killed.
import { createLogger } from '../../src/log.ts';
import { createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { builtInRunner, hourly, reportJob } from './harness.ts';

const env = process.env;
const slot = new Date(env.SLOT ?? '');
let nowMs = slot.getTime() - 60_000;
const now = () => nowMs;
const crashAt = env.CRASH_AT;
// A bare pending promise holds nothing open: Node would exit on its own (code 13) before the
// parent's SIGKILL. The timer keeps the process alive until it is killed.
const hang = () => new Promise<never>(() => setInterval(() => undefined, 60_000));

const store: Store = env.STORE_URL?.startsWith('redis://')
  ? await createRedisStore(env.STORE_URL, { now, keyPrefix: env.KEY_PREFIX ?? 'herald:' })
  : createSqliteStore(env.STORE_URL ?? '', { now });
const real = createWebhookClient({
  baseUrl: env.WEBHOOK_BASE_URL ?? '',
  id: env.WEBHOOK_ID ?? '',
  token: env.WEBHOOK_TOKEN ?? '',
});
const webhook =
  crashAt === 'post'
    ? {
        post: () => {
          process.stdout.write('posting\n');
          return hang();
        },
        close: () => real.close(),
      }
    : real;

const job = reportJob(async (ctx) => {
  if (crashAt === 'claim') {
    process.stdout.write('claimed\n');
    await hang();
  }
  ctx.deliver({ kind: 'webhook', message: { content: `report for ${ctx.slot.id}` } });
});

const scheduler = builtInRunner({
  builtIns: [hourly(job)],
  services: { webhook },
  store,
  log: createLogger({ level: 'silent' }),
  now: () => new Date(nowMs),
  owner: 'crashing-child',
  catchupMinutes: 360,
});
// Started before the slot, as a long-running bot would have been.
await scheduler.start();
nowMs = slot.getTime() + 1_000;
await scheduler.runSlot('report', slot);
