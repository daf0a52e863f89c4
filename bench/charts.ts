// The chart section of `npm run bench`: CPU per chart and the resident memory charts
// add once loaded, measured in a fresh child process (bench/chart-process.ts) so nothing else in
// it holds memory. `npm run bench -- charts` runs this section alone.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChartProcessResult } from './chart-process.ts';
import { table, type TargetCheck } from './report.ts';
import { round } from './stats.ts';
import { LOCAL_NODE } from './startup.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The budget for one chart: CPU per render and the memory charts add once loaded. */
export const CHART_TARGETS = Object.freeze({ cpuMsPerChart: 50, addedMb: 15 });

export interface ChartBench extends ChartProcessResult {
  /** RSS after the draws minus RSS before the first: what charts keep once loaded. */
  addedMb: number;
}

export function runChartProcess(env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(LOCAL_NODE, ['--expose-gc', 'bench/chart-process.ts'], {
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

export async function measureCharts(draws = 30): Promise<ChartBench> {
  const out = await runChartProcess({ CHART_BENCH_DRAWS: String(draws) });
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as ChartProcessResult;
  return { ...result, addedMb: result.rssAfterMb - result.rssBeforeMb };
}

const n = (v: number) => String(round(v));

/** The chart targets: each chart kind's p95 CPU and the memory added once loaded. */
export function chartTargets(c: ChartBench): TargetCheck[] {
  const T = CHART_TARGETS;
  const check = (target: string, value: number, limit: number): TargetCheck => ({
    target,
    limit: `<= ${limit}`,
    measured: n(value),
    isMet: value <= limit,
  });
  return [
    check('/report chart CPU p95 (ms)', c.cpuMs.report.p95, T.cpuMsPerChart),
    check('/forecast chart CPU p95 (ms)', c.cpuMs.forecast.p95, T.cpuMsPerChart),
    check('RSS added by charts once loaded (MB)', c.addedMb, T.addedMb),
  ];
}

export function renderCharts(c: ChartBench): string {
  return [
    `Charts (1000×500 PNG, hand-made SVG drawn by resvg; ${c.draws} of each kind in a fresh process)`,
    table(
      ['chart', 'CPU ms p50', 'CPU ms p95', 'CPU ms max', 'PNG KB'],
      (['report', 'forecast'] as const).map((kind) => [
        `/${kind}`,
        n(c.cpuMs[kind].p50),
        n(c.cpuMs[kind].p95),
        n(c.cpuMs[kind].max),
        n(c.pngBytes[kind] / 1024),
      ]),
    ),
    `first chart (loads the drawing code and resvg, then draws): ${n(c.firstChartCpuMs)} ms CPU`,
    `RSS ${n(c.rssBeforeMb)} MB before the first chart, ${n(c.rssAfterMb)} MB after the last (settled): ` +
      `${n(c.addedMb)} MB added; peak while drawing ${n(c.peakMb)} MB`,
    table(
      ['target', 'limit', 'measured', 'met'],
      chartTargets(c).map((t) => [t.target, t.limit, t.measured, t.isMet ? 'yes' : 'NO']),
    ),
  ].join('\n');
}
