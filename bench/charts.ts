// The chart section of `npm run bench`: the renderer's CPU per chart, its start-up, and the two
// memory rules, measured in a fresh child process (bench/chart-process.ts) running with the bot's
// own V8 flags, so nothing else in it holds memory. `npm run bench -- charts` runs this section alone.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChartProcessResult } from './chart-process.ts';
import { table, type TargetCheck } from './report.ts';
import { round } from './stats.ts';
import { LOCAL_NODE, START_FLAGS } from './startup.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The budget for charts: the renderer's CPU per chart, its start-up with the first chart, how
 * much RSS may grow over charts drawn in a row (after the first 10), and how close RSS comes back
 * to where it was once charts stop (measured 30 s after the last).
 */
export const CHART_TARGETS = Object.freeze({
  cpuMsPerChart: 50,
  firstChartMs: 500,
  growthInARowMb: 20,
  idleAboveBeforeMb: 20,
});

export type ChartBench = ChartProcessResult;

export function runChartProcess(env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(LOCAL_NODE, [...START_FLAGS, '--expose-gc', 'bench/chart-process.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? ROOT, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`chart bench exited with ${code}: ${err.slice(-500)}`)),
    );
  });
}

/** Draws the sample charts from the sandbox into `dir` as example-report.png and example-forecast.png. */
export async function writeChartExamples(dir: string): Promise<void> {
  await runChartProcess({ CHART_EXAMPLES_DIR: dir });
}

export async function measureCharts(draws = 500, afterMs = 30_000): Promise<ChartBench> {
  const out = await runChartProcess({
    CHART_BENCH_DRAWS: String(draws),
    CHART_BENCH_AFTER_MS: String(afterMs),
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChartProcessResult;
}

const n = (v: number) => String(round(v));

/** The chart targets: each kind's p95 CPU, the first chart, and the two memory rules. */
export function chartTargets(c: ChartBench): TargetCheck[] {
  const T = CHART_TARGETS;
  const check = (target: string, value: number, limit: number): TargetCheck => ({
    target,
    limit: `<= ${limit}`,
    measured: n(value),
    isMet: value <= limit,
  });
  return [
    check('/report chart, renderer CPU p95 (ms)', c.cpuMs.report.p95, T.cpuMsPerChart),
    check('/forecast chart, renderer CPU p95 (ms)', c.cpuMs.forecast.p95, T.cpuMsPerChart),
    check('first chart, renderer start-up included (ms)', c.firstChartMs, T.firstChartMs),
    check(
      `RSS growth over ${c.draws} charts in a row, after the 10th (MB)`,
      c.rssPeakAfterTenthMb - c.rssAfterTenthMb,
      T.growthInARowMb,
    ),
    check(
      `RSS ${round(c.afterMs / 1000)} s after the last chart, above before the first (MB)`,
      c.rssIdleMb - c.rssBeforeMb,
      T.idleAboveBeforeMb,
    ),
  ];
}

export function renderCharts(c: ChartBench): string {
  return [
    `Charts (1000×500 PNG, hand-made SVG drawn by resvg in the renderer process; ${c.draws} in a row, ` +
      'alternating the kinds, in a fresh process with the bot’s V8 flags)',
    table(
      ['chart', 'renderer CPU ms p50', 'p95', 'max', 'main thread CPU ms p95', 'PNG KB'],
      (['report', 'forecast'] as const).map((kind) => [
        `/${kind}`,
        n(c.cpuMs[kind].p50),
        n(c.cpuMs[kind].p95),
        n(c.cpuMs[kind].max),
        n(c.mainCpuMs[kind].p95),
        n(c.pngBytes[kind] / 1024),
      ]),
    ),
    `first chart (starts the renderer, loads resvg and the fonts, draws): ${n(c.firstChartMs)} ms`,
    `RSS (this process and the renderer) ${n(c.rssBeforeMb)} MB before the first chart, ` +
      `${n(c.rssAfterTenthMb)} MB after the 10th, at most ${n(c.rssPeakAfterTenthMb)} MB after that; ` +
      `${n(c.rssIdleMb)} MB ${round(c.afterMs / 1000)} s after the last ` +
      `(renderer ${c.rendererRunningWhenIdle ? 'still running' : 'ended'})`,
    table(
      ['target', 'limit', 'measured', 'met'],
      chartTargets(c).map((t) => [t.target, t.limit, t.measured, t.isMet ? 'yes' : 'NO']),
    ),
  ].join('\n');
}
