// `npm run bench -- handover`: a rolling deploy at full scale, in real time (about 7 minutes a run).
// 45 schedules are due in one minute to one Discord webhook that answers each post after 9 s (so the
// last waits 6.75 minutes in its destination's lane, past the 5-minute lease); replica A runs them,
// replica B starts 30 s later, as in a rolling deploy, both on one Redis. Prints each slot's posts
// and which replica sent them; exits 1 unless every slot was posted exactly once.
// HANDOVER_RUNS=5 repeats the scenario. The engine (index, claim, run, outbox, lease, lanes,
// delivery) is the real one; the command each schedule runs answers its own line.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { newScheduleId, type ScheduleRecord } from '../src/schedule/schedules.ts';
import { createScheduleRunner, type ScheduleRunner } from '../src/schedule/runner.ts';
import { renderDiscordWebhook } from '../src/render/discord.ts';
import { createWebhookClient } from '../src/services/webhook/discord-webhook.ts';
import { clock, dropKeys, openRedis, type World } from './schedule-world.ts';
import { createdMessage } from './schedule-fakes.ts';

const SLOTS = 45;
const ANSWER_AFTER_MS = 9_000;
const SECOND_REPLICA_AFTER_MS = 30_000;
const WEBHOOK_ID = '1100000000000000001';
const SILENT = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const after = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Post {
  content: string;
  /** The replica whose webhook token the post came with. */
  replica: string;
}

/** Discord's execute webhook (wait=true) answering after ANSWER_AFTER_MS, each post kept. */
async function slowWebhook(): Promise<{ server: Server; url: string; posts: Post[]; open: { n: number } }> {
  const posts: Post[] = [];
  const open = { n: 0 };
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    open.n++;
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const content = (JSON.parse(body) as { content?: string }).content ?? '';
      posts.push({ content, replica: (req.url ?? '').split('/')[2]?.split('?')[0] ?? '?' });
      const message = createdMessage(++n, content, WEBHOOK_ID);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(message));
        open.n--;
      }, ANSWER_AFTER_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posts, open };
}

function record(i: number, createdAt: number): ScheduleRecord {
  return {
    id: `${newScheduleId()}${i}`,
    when: 'every day at 12:01',
    cron: '1 12 * * *',
    words: 'every day at 12:01',
    timezone: 'UTC',
    destination: 'ops',
    command: `/weather City${i}`,
    creator: { platform: 'discord', id: '400000000000000001', displayName: 'Ada', roles: [] },
    paused: false,
    createdAt,
  };
}

/** A replica on `w`, posting with its own token (`replica`), so that the fake tells who sent what. */
function replicaOn(w: World, replica: string, url: string): ScheduleRunner {
  return createScheduleRunner({
    store: w.store,
    services: {},
    destinations: { ops: createWebhookClient({ baseUrl: url, id: WEBHOOK_ID, token: replica }) },
    commands: () => ({ run: (line) => Promise.resolve({ text: line }) }),
    toMessage: (reply) => renderDiscordWebhook(reply, { username: 'herald' }),
    log: SILENT,
    now: () => new Date(clock.now),
    owner: replica,
    catchupMinutes: 360,
  });
}

/** One rolling deploy; resolves with the line to print and whether every slot was posted once. */
async function handover(run: number): Promise<{ line: string; isOnce: boolean }> {
  const fake = await slowWebhook();
  const prefix = `herald:bench-handover-${randomUUID()}:`;
  const [a, b] = [await openRedis(prefix), await openRedis(prefix)];
  const boundary = Date.parse('2026-11-27T12:01:00Z');
  clock.now = boundary - 50_000;
  for (let i = 0; i < SLOTS; i++) await a.schedules.addSchedule(record(i, clock.now), 1_000);
  // Just before the minute: the first tick finds nothing, the timer wakes at the minute.
  clock.now = boundary - 3_000;
  const started = performance.now();
  const replicaA = replicaOn(a, 'replica-a', fake.url);
  const replicaB = replicaOn(b, 'replica-b', fake.url);
  await replicaA.start();
  await after(SECOND_REPLICA_AFTER_MS + 3_000);
  await replicaB.start();
  // Done when every slot has a post, no request is open and the outbox holds nothing pending.
  for (;;) {
    await after(5_000);
    const pending = await a.store.listOutbox('pending');
    const slots = new Set(fake.posts.map((p) => p.content)).size;
    if (slots >= SLOTS && fake.open.n === 0 && pending.length === 0) break;
    if (performance.now() - started > 20 * 60_000) break;
  }
  await Promise.all([replicaA.stop(), replicaB.stop()]);
  await Promise.all([a.close(), b.close()]);
  await dropKeys(prefix);
  fake.server.close();

  const perSlot = new Map<string, number>();
  for (const p of fake.posts) perSlot.set(p.content, (perSlot.get(p.content) ?? 0) + 1);
  const counts = [...perSlot.values()];
  const once = counts.filter((c) => c === 1).length;
  const twice = counts.filter((c) => c > 1).length;
  const never = SLOTS - perSlot.size;
  const by = (r: string) => fake.posts.filter((p) => p.replica === r).length;
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  const line =
    `run ${run}: ${fake.posts.length} posts for ${SLOTS} slots: ${once} once, ${twice} more than once, ` +
    `${never} never; replica A sent ${by('replica-a')}, replica B ${by('replica-b')}; ${minutes} min`;
  return { line, isOnce: once === SLOTS && twice === 0 && never === 0 };
}

export async function runHandoverBench(): Promise<number> {
  const runs = Number(process.env.HANDOVER_RUNS ?? 1);
  process.stdout.write(
    `Rolling deploy: ${SLOTS} slots due in one minute, one webhook answering after ${ANSWER_AFTER_MS / 1000} s, ` +
      `5-minute lease, replica B started ${SECOND_REPLICA_AFTER_MS / 1000} s after A, one Redis (node ${process.version})\n`,
  );
  let isAllOnce = true;
  for (let run = 1; run <= runs; run++) {
    const { line, isOnce } = await handover(run);
    process.stdout.write(`${line}\n`);
    isAllOnce &&= isOnce;
  }
  process.stdout.write(
    `target: every slot posted exactly once in every run: ${isAllOnce ? 'met' : 'NOT met'}\n`,
  );
  return isAllOnce ? 0 : 1;
}
