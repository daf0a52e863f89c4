// The bot under test, in its own process (forked by bot-host.ts): the real services, registry and
// dispatcher against the sandbox in the parent. It runs the command levels, the identical-command
// case and the raw clients, asks the parent for the sandbox's own counts and times between phases
// (collect), and sends everything back. Its RSS and CPU are then the bot's alone.
import {
  createBot,
  runFloorLevel,
  runIdentical,
  runLevel,
  type IdenticalResult,
  type LevelResult,
} from './commands.ts';
import { captureRequests } from './floor.ts';
import { runRawClients, type RawResult } from './raw-clients.ts';
import type { Collected, Upstream } from './upstream.ts';

export interface BotPlan {
  upstreamUrl: string;
  warmup: { concurrency: number; total: number };
  levels: readonly { concurrency: number; total: number; prefix: string }[];
  /** The floor of some levels: the bot's weather request sent by plain undici in the same waves. */
  floorLevels: readonly { concurrency: number; total: number; prefix: string }[];
  levelMaxMs: number;
  /** The identical-command case, skipped when 0. */
  cachedRepeats: number;
  /** The raw clients and their floors; skipped when absent. */
  raw?: { concurrency: number; warmup: number; calls: number; maxMs: number; only?: readonly string[] };
}

export interface BotResults {
  levels: LevelResult[];
  floorLevels: LevelResult[];
  identical?: IdenticalResult;
  raw: RawResult[];
}

/** Parent to child. */
export type HostMessage = { type: 'run'; plan: BotPlan } | { type: 'reply'; id: number; value?: Collected };
/** Child to parent. */
export type BotMessage =
  | { type: 'collect'; id: number }
  | { type: 'latency'; id: number; ms: number }
  | { type: 'progress'; text: string }
  | { type: 'done'; results: BotResults };

const waiting = new Map<number, (value: Collected | undefined) => void>();
let nextId = 0;

function send(message: BotMessage): void {
  process.send?.(message);
}

function ask(message: { type: 'collect' } | { type: 'latency'; ms: number }): Promise<Collected | undefined> {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    send({ ...message, id });
  });
}

async function run(plan: BotPlan): Promise<BotResults> {
  const upstream: Upstream = {
    url: plan.upstreamUrl,
    async setLatency(ms) {
      await ask({ type: 'latency', ms });
    },
    async collect() {
      const collected = await ask({ type: 'collect' });
      if (!collected) throw new Error('the bench host sent no counts');
      return collected;
    },
    close: () => Promise.resolve(),
  };
  const progress = (text: string) => send({ type: 'progress', text });
  const levels: LevelResult[] = [];
  const floorLevels: LevelResult[] = [];
  let identical: IdenticalResult | undefined;
  if (plan.levels.length > 0 || plan.cachedRepeats > 0) {
    const bot = createBot(upstream.url);
    progress('warming up');
    const capture = captureRequests(1);
    await runLevel(bot, upstream, { ...plan.warmup, prefix: 'Warm', maxMs: plan.levelMaxMs });
    const [template] = capture.stop();
    for (const level of plan.levels) {
      progress(`${level.total} distinct commands in waves of ${level.concurrency}`);
      levels.push(await runLevel(bot, upstream, { ...level, maxMs: plan.levelMaxMs }));
    }
    for (const level of plan.floorLevels) {
      if (!template) throw new Error('the warm-up sent no weather request to replay');
      progress(`the floor: ${level.total} raw undici requests in waves of ${level.concurrency}`);
      floorLevels.push(
        await runFloorLevel(bot.wire, upstream, template, { ...level, maxMs: plan.levelMaxMs }),
      );
    }
    if (plan.cachedRepeats > 0) {
      progress('identical commands and cached repeats');
      identical = await runIdentical(bot, upstream, plan.cachedRepeats);
    }
    await bot.close();
  }
  if (!plan.raw) return { levels, floorLevels, ...(identical ? { identical } : {}), raw: [] };
  progress('each client raw and its undici floor, no injected latency');
  await upstream.setLatency(0);
  const raw = await runRawClients(upstream, plan.raw);
  return { levels, floorLevels, ...(identical ? { identical } : {}), raw };
}

process.on('message', (message: HostMessage) => {
  if (message.type === 'reply') {
    waiting.get(message.id)?.(message.value);
    waiting.delete(message.id);
    return;
  }
  run(message.plan).then(
    (results) => {
      send({ type: 'done', results });
      process.disconnect();
    },
    (err: unknown) => {
      process.stderr.write(
        `bench bot process failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
});
