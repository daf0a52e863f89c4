// `npm run bench`: herald's performance against the built-in sandbox on loopback (issue 7).
// Commands through the real dispatcher at several concurrency levels, identical commands and the
// cache, each service client raw, and start-up. Prints tables and writes bench/results.json.
// BENCH_QUICK=1 runs a fifth of the counts (profiling, smoke runs).
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { SANDBOX_CREDENTIAL } from '../src/sandbox/resolve.ts';
import { createBot, runIdentical, runLevel, type LevelResult } from './commands.ts';
import { runRawClients } from './raw-clients.ts';
import { checkTargets, renderReport, type Results } from './report.ts';
import { LOCAL_NODE, measureStartup } from './startup.ts';
import { startUpstream } from './upstream.ts';

const UPSTREAM_LATENCY_MS = 50;
const scale = process.env.BENCH_QUICK === '1' ? 0.2 : 1;
const count = (n: number) => Math.max(1, Math.round(n * scale));
/** Concurrency, distinct commands, and a city prefix no other level uses. */
const LEVELS: readonly [concurrency: number, total: number, prefix: string][] = [
  [1, count(100), 'Ash'],
  [50, count(2_000), 'Bel'],
  [200, count(4_000), 'Cor'],
  [1000, count(6_000), 'Dun'],
];
const LEVEL_MAX_MS = 20_000;

const started = performance.now();
const loadBefore = loadavg()[0] ?? Number.NaN;
const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

const upstream = await startUpstream({ latencyMs: UPSTREAM_LATENCY_MS, credential: SANDBOX_CREDENTIAL });
const bot = createBot(upstream.url);

progress('warming up');
await runLevel(bot, upstream, { concurrency: 100, total: count(2_000), prefix: 'Warm', maxMs: LEVEL_MAX_MS });

const levels: LevelResult[] = [];
for (const [concurrency, total, prefix] of LEVELS) {
  progress(`${total} distinct commands at concurrency ${concurrency}`);
  levels.push(await runLevel(bot, upstream, { concurrency, total, prefix, maxMs: LEVEL_MAX_MS }));
}

progress('identical commands and cached repeats');
const identical = await runIdentical(bot, upstream, count(1_000));
await bot.close();

progress('each client raw, no injected latency');
upstream.setLatency(0);
const raw = await runRawClients(upstream, {
  concurrency: 50,
  warmup: count(500),
  calls: count(6_000),
  maxMs: 2_000,
});
await upstream.close();

progress('start-up');
const startupOptions = { idleMs: 1_000, timeoutMs: 15_000 };
const startup = [
  await measureStartup('node_modules/node/bin/node src/main.ts', LOCAL_NODE, ['src/main.ts'], {
    ...startupOptions,
    runs: count(5),
    readsRss: true,
  }),
  await measureStartup('npx node src/main.ts', 'npx', ['node', 'src/main.ts'], {
    ...startupOptions,
    idleMs: 0,
    runs: count(3),
    readsRss: false,
  }),
];

const cpu = cpus();
const results: Results = {
  machine: {
    date: new Date().toISOString(),
    cores: cpu.length,
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${type()} ${release()}`,
    loadBefore,
    loadAfter: loadavg()[0] ?? Number.NaN,
  },
  upstreamLatencyMs: UPSTREAM_LATENCY_MS,
  levels,
  identical,
  raw,
  startup,
  targets: checkTargets(levels, identical, raw, startup),
  durationS: (performance.now() - started) / 1000,
};
await writeFile(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${renderReport(results)}\n`);
