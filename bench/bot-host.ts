// The parent's side of the bot process: forks bot-process.ts, answers its requests for the
// sandbox's counts and latency changes, and resolves with its results.
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BotMessage, BotPlan, BotResults, HostMessage } from './bot-process.ts';
import { START_FLAGS } from './startup.ts';
import type { Upstream } from './upstream.ts';

/**
 * Runs the plan in a bot process that holds what `npm start`'s bot holds: the same V8 flags, and
 * Node's compile cache (src/start.mjs turns it on), warmed first by a one-command run that is not
 * measured, as the start-up section warms it with an unmeasured start. Without the cache the bot
 * process would load Node's type stripper, whose 10 to 25 MB a warm `npm start` never holds.
 */
export async function runBotProcess(
  upstream: Upstream,
  plan: BotPlan,
  progress: (text: string) => void,
): Promise<BotResults> {
  const compileCache = await mkdtemp(join(tmpdir(), 'herald-bench-bot-cache-'));
  try {
    const fillCache: BotPlan = {
      upstreamUrl: plan.upstreamUrl,
      warmup: { concurrency: 1, total: 1 },
      levels: [{ concurrency: 1, total: 1, prefix: 'Cache' }],
      floorLevels: [],
      levelMaxMs: plan.levelMaxMs,
      cachedRepeats: 0,
    };
    await runOnce(upstream, fillCache, compileCache, () => undefined);
    return await runOnce(upstream, plan, compileCache, progress);
  } finally {
    await rm(compileCache, { recursive: true, force: true });
  }
}

function runOnce(
  upstream: Upstream,
  plan: BotPlan,
  compileCache: string,
  progress: (text: string) => void,
): Promise<BotResults> {
  // The same V8 flags as `npm start` (its young and old generation sizing: see src/start.mjs).
  const child = fork(new URL('./bot-process.ts', import.meta.url), [], {
    stdio: 'inherit',
    execArgv: [...process.execArgv, ...START_FLAGS],
    env: { ...process.env, NODE_COMPILE_CACHE: compileCache },
  });
  const send = (message: HostMessage) => child.send(message);
  return new Promise<BotResults>((resolve, reject) => {
    let results: BotResults | undefined;
    child.on('message', (message: BotMessage) => {
      if (message.type === 'progress') progress(message.text);
      else if (message.type === 'done') results = message.results;
      else if (message.type === 'collect') {
        void upstream.collect().then((value) => send({ type: 'reply', id: message.id, value }));
      } else {
        void Promise.resolve(upstream.setLatency(message.ms)).then(() =>
          send({ type: 'reply', id: message.id }),
        );
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (results) resolve(results);
      else reject(new Error(`the bot process exited with ${code} before finishing`));
    });
    send({ type: 'run', plan });
  });
}
