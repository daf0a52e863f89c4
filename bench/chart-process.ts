// Child process of the chart bench (bench/charts.ts), so that the memory it measures is the
// charts' own: builds the sample specs, settles, then draws the first chart (loading the drawing
// code and resvg) and `CHART_BENCH_DRAWS` more of each kind, timing this thread's CPU per chart,
// and reports the resident memory added once loaded. Prints one JSON line. With
// CHART_EXAMPLES_DIR set, also writes the two sample charts there (the README's example).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { drawChart, type LineChartSpec } from '../src/charts/index.ts';
import { sampleChartSpecs } from './chart-samples.ts';
import { cpuMsSince, peakRss, spread, type Spread } from './stats.ts';

export interface ChartProcessResult {
  /** Import of the drawing code and resvg plus the first chart, CPU ms. */
  firstChartCpuMs: number;
  /** CPU ms per chart once loaded, by kind. */
  cpuMs: Record<'report' | 'forecast', Spread>;
  pngBytes: Record<'report' | 'forecast', number>;
  draws: number;
  /** Settled RSS before the first chart, and after the last one (gc'd, settled). */
  rssBeforeMb: number;
  rssAfterMb: number;
  /** The highest RSS while drawing. */
  peakMb: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
const rssMb = () => process.memoryUsage.rss() / 1024 / 1024;

async function settle(): Promise<void> {
  // Finalizers of native objects (resvg's pixmaps) run after a collection, on a later tick.
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(20);
  }
}

async function cpuMsOf(work: () => Promise<unknown>): Promise<number> {
  const mark = process.threadCpuUsage();
  await work();
  return cpuMsSince(mark);
}

const draws = Number(process.env.CHART_BENCH_DRAWS ?? '30');
const specs = await sampleChartSpecs();
if (process.env.CHART_EXAMPLES_DIR) {
  for (const spec of [specs.report, specs.forecast]) {
    const png = await drawChart(spec);
    await writeFile(join(process.env.CHART_EXAMPLES_DIR, `example-${spec.filename}`), png.bytes);
  }
  process.exit(0);
}

await settle();
const rssBeforeMb = rssMb();
peakRss.reset();
const firstChartCpuMs = await cpuMsOf(() => drawChart(specs.report));
const times: Record<'report' | 'forecast', number[]> = { report: [], forecast: [] };
const pngBytes = { report: 0, forecast: 0 };
for (let i = 0; i < draws; i++) {
  for (const kind of ['report', 'forecast'] as const) {
    const spec: LineChartSpec = specs[kind];
    times[kind].push(
      await cpuMsOf(async () => {
        pngBytes[kind] = (await drawChart(spec)).bytes.byteLength;
      }),
    );
    // A bot draws a chart now and then, among other work that collects garbage: settle between.
    await settle();
  }
}
const result: ChartProcessResult = {
  firstChartCpuMs,
  cpuMs: { report: spread(times.report), forecast: spread(times.forecast) },
  pngBytes,
  draws,
  rssBeforeMb,
  rssAfterMb: rssMb(),
  peakMb: peakRss.read(),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
