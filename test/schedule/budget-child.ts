// A replica for the shared-budget test (budget-processes.test.ts): the Redis store and Discord's
// budget in Redis under KEY_PREFIX, a deliverer posting to two Discord webhooks (hook1, hook2) on
// the parent's loopback fake at API, taking from the budget as the bot's clients do, and the
// interaction webhook client the Discord adapter answers with (as src/main.ts builds it: no budget).
// It reads lines from stdin and does each at once, without waiting for the one before:
// `post <hook> <text>` adds a post to the outbox and drains it, then prints `posted <text> <outcome>`;
// `answer <token>` edits that interaction's original response, then prints `answered <token>`.
// A wait for the budget is printed as `waiting <ms>`.
import { createInterface } from 'node:readline';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Delivery } from '../../src/schedule/job.ts';
import { createDeliverer } from '../../src/schedule/delivery.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { createInteractionWebhookClient } from '../../src/services/webhook/discord-interaction.ts';
import { createRedisRateBudget } from '../../src/store/rate-budget-redis.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { enqueue } from '../support/enqueue.ts';

const env = process.env;
const url = env.REDIS_URL ?? '';
const keyPrefix = env.KEY_PREFIX ?? 'herald:';
const api = env.API ?? '';
const silent = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

// Each wait for a turn is printed (`waiting <ms>`) before it is slept, so the parent sees it.
const rateBudget = await createRedisRateBudget(url, {
  perSecond: 50,
  invalidLimit: 1_000,
  keyPrefix,
  sleep: (ms, signal) => {
    process.stdout.write(`waiting ${Math.round(ms)}\n`);
    return sleepFor(ms, undefined, signal ? { signal } : undefined);
  },
});
const store = await createRedisStore(url, { keyPrefix });
const hook = (id: string) =>
  createWebhookClient({ baseUrl: `${api}/webhooks`, id, token: `token-of-${id}-for-tests` }, { rateBudget });
const deliverer = createDeliverer({
  store,
  services: {},
  destinations: { hook1: hook('1349081729583431701'), hook2: hook('1349081729583431702') },
  rateBudget,
  log: silent,
  owner: env.OWNER ?? 'replica',
  // The 429's retry_after is longer: the post goes back to the outbox rather than waiting here.
  maxWaitMs: 1_000,
});
const interactions = createInteractionWebhookClient({ apiUrl: api, applicationId: '1187421520894746600' });

async function post(destination: string, text: string): Promise<void> {
  const delivery: Delivery = { kind: 'webhook', destination, message: { content: text } };
  await enqueue(store, { id: text, job: 'budget', slotId: text, kind: 'webhook', payload: delivery });
  const result = (await deliverer.drain()).find((r) => r.id === text);
  process.stdout.write(`posted ${text} ${result?.outcome ?? 'not-claimed'}\n`);
}

async function answer(token: string): Promise<void> {
  const message = { content: `answer ${token}`, embeds: [], components: [], files: [], flags: 0 };
  await interactions.editOriginal(token, { ...message, allowed_mentions: { parse: [] } });
  process.stdout.write(`answered ${token}\n`);
}

process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [verb, first = '', second = ''] = line.split(' ');
  const done = verb === 'post' ? post(first, second) : answer(first);
  void done.catch((err: unknown) => process.stdout.write(`failed ${String(err)}\n`));
}
await Promise.all([store.close(), rateBudget.close(), interactions.close()]);
