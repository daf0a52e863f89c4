// `npm run bench`: herald's performance against the built-in sandbox on loopback.
// The sandbox runs in this process with a fixed 50 ms latency; the bot runs in a child process
// (bot-process.ts) and drives /weather through the real dispatcher in waves of 1, 50, 200 and
// 1000, then identical commands and the cache, then each service client raw. Start-up is measured
// last. Prints tables and writes bench/results.json. BENCH_QUICK=1 runs a fifth of the counts.
// Sections can run alone: `npm run bench -- clients` (each client and the whole bot against its
// raw undici floor), `commands` (the waves and the cache), `startup`, `charts`; any mix of them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_CREDENTIAL } from '../src/sandbox/resolve.ts';
import { runBotProcess } from './bot-host.ts';
import { chartTargets, measureCharts, writeChartExamples } from './charts.ts';
import type { BotPlan } from './bot-process.ts';
import { checkTargets, renderReport, type Results } from './report.ts';
import { LOCAL_NODE, measureStartup, START_FLAGS } from './startup.ts';
import { startUpstream } from './upstream.ts';

const UPSTREAM_LATENCY_MS = 50;
const scale = process.env.BENCH_QUICK === '1' ? 0.2 : 1;
const count = (n: number) => Math.max(1, Math.round(n * scale));

const SECTIONS = ['commands', 'clients', 'startup', 'charts'] as const;
const args = process.argv.slice(2);
// `npm run bench -- charts examples`: (re)writes the README's example charts in docs/.
if (args.includes('examples')) {
  await writeChartExamples(fileURLToPath(new URL('../docs', import.meta.url)));
  process.exit(0);
}
// `npm run bench -- interactions`: Discord's HTTP interactions endpoint on its own (interactions.ts);
// `interactions slow`: only its slow-connection rows.
if (args.includes('interactions')) {
  process.exit(
    await (await import('./interactions.ts')).runInteractionsBench({ isSlowOnly: args.includes('slow') }),
  );
}
// `npm run bench -- handover`: a rolling deploy with slow posts, in real time (replica-handover.ts).
if (args.includes('handover')) {
  process.exit(await (await import('./replica-handover.ts')).runHandoverBench());
}
// `npm run bench -- schedules`: the scheduling engine at scale (schedules.ts).
if (args.includes('schedules')) {
  process.exit(await (await import('./schedules.ts')).runSchedulesBench());
}
const unknown = args.filter((a) => !(SECTIONS as readonly string[]).includes(a));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown section ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}\n`);
  process.exit(2);
}
// `CLIENTS=jobSearch.search,analytics.runReport npm run bench -- clients` runs only those clients.
const onlyClients = process.env.CLIENTS?.split(',');
const runs = (section: (typeof SECTIONS)[number]) => args.length === 0 || args.includes(section);

const started = performance.now();
const loadBefore = loadavg()[0] ?? Number.NaN;
const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

const upstream = await startUpstream({ latencyMs: UPSTREAM_LATENCY_MS, credential: SANDBOX_CREDENTIAL });
const plan: BotPlan = {
  upstreamUrl: upstream.url,
  warmup: { concurrency: 100, total: count(2_000) },
  // Each level's cities start with their own prefix, so no command repeats another's lookup.
  levels: runs('commands')
    ? [
        { concurrency: 1, total: count(100), prefix: 'Ash' },
        { concurrency: 50, total: count(2_000), prefix: 'Bel' },
        { concurrency: 200, total: count(4_000), prefix: 'Cor' },
        { concurrency: 1000, total: count(6_000), prefix: 'Dun' },
      ]
    : [],
  // The same waves with no bot: plain undici sending the bot's weather request (the floor).
  floorLevels: runs('commands')
    ? [
        { concurrency: 200, total: count(4_000), prefix: 'Fal' },
        { concurrency: 1000, total: count(6_000), prefix: 'Fen' },
      ]
    : [],
  levelMaxMs: 20_000,
  cachedRepeats: runs('commands') ? count(1_000) : 0,
  ...(runs('clients')
    ? { raw: { concurrency: 50, warmup: count(500), calls: count(18_000), maxMs: 6_000, only: onlyClients } }
    : {}),
};
const bot =
  runs('commands') || runs('clients')
    ? await runBotProcess(upstream, plan, progress)
    : { levels: [], floorLevels: [], raw: [] };
await upstream.close();

const startup = runs('startup') ? await runStartup() : [];
const charts = runs('charts') ? (progress('charts'), await measureCharts(count(500))) : undefined;

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
  sections: SECTIONS.filter(runs),
  ...bot,
  startup,
  ...(charts ? { charts } : {}),
  targets: [
    ...checkTargets(bot.levels, bot.identical, bot.raw, startup),
    ...(charts ? chartTargets(charts) : []),
  ],
  durationS: (performance.now() - started) / 1000,
};
await writeFile(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${renderReport(results)}\n`);

async function runStartup() {
  progress('start-up');
  const startupOptions = { idleMs: 1_000, timeoutMs: 15_000 };
  // Node's on-disk compile cache (type-stripped and compiled modules), warmed by the unmeasured start.
  const compileCache = await mkdtemp(join(tmpdir(), 'herald-bench-cache-'));
  const startup = [
    // What `npm start` runs: the compile-cache entry with a smaller young generation.
    await measureStartup(
      `npm start entry: node ${[...START_FLAGS, 'src/start.mjs'].join(' ')}`,
      LOCAL_NODE,
      [...START_FLAGS, 'src/start.mjs'],
      {
        ...startupOptions,
        runs: count(5),
        readsRss: true,
      },
    ),
    await measureStartup('node_modules/node/bin/node src/main.ts', LOCAL_NODE, ['src/main.ts'], {
      ...startupOptions,
      runs: count(5),
      readsRss: true,
    }),
    await measureStartup('same, NODE_COMPILE_CACHE set', LOCAL_NODE, ['src/main.ts'], {
      ...startupOptions,
      runs: count(5),
      readsRss: true,
      env: { NODE_COMPILE_CACHE: compileCache },
    }),
    await measureStartup('npx node src/main.ts', 'npx', ['node', 'src/main.ts'], {
      ...startupOptions,
      idleMs: 0,
      runs: count(3),
      readsRss: false,
    }),
  ];
  await rm(compileCache, { recursive: true, force: true });
  return startup;
}
