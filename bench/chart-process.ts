// Child process of the chart bench (bench/charts.ts), so that the memory it measures is the
// charts' own: builds the sample specs, settles, then draws the first chart (starting the renderer
// process) and `CHART_BENCH_DRAWS` more, alternating the two kinds, with no pause between them.
// Each render's CPU is the renderer's own, as it reports it; the RSS is this process' plus the
// renderer's. Then it waits `CHART_BENCH_AFTER_MS` (30 s) with no chart and measures again. Prints
// one JSON line, and exits by itself: nothing the charts leave may hold it. With
// CHART_EXAMPLES_DIR set, writes the two sample charts there instead (the README's example).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { drawChart } from '../src/charts/index.ts';
import { rendererUsage } from '../src/charts/draw.ts';
import { sampleChartSpecs } from './chart-samples.ts';
import { cpuMsSince, spread, type Spread } from './stats.ts';

type Kind = 'report' | 'forecast';

export interface ChartProcessResult {
  /** From asking for the first chart to its PNG: the renderer's start-up and one render, wall ms. */
  firstChartMs: number;
  /** The renderer's CPU per chart once started (render and the collection after it), by kind. */
  cpuMs: Record<Kind, Spread>;
  /** This process' CPU per chart (the SVG, the messages), by kind. */
  mainCpuMs: Record<Kind, Spread>;
  pngBytes: Record<Kind, number>;
  draws: number;
  /** RSS of this process plus the renderer: settled before the first chart. */
  rssBeforeMb: number;
  /** The same after the 10th chart, and the highest after it. */
  rssAfterTenthMb: number;
  rssPeakAfterTenthMb: number;
  /** The same `afterMs` after the last chart, and whether the renderer was still running then. */
  rssIdleMb: number;
  rendererRunningWhenIdle: boolean;
  afterMs: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => bytes / 1024 / 1024;
/** This process and the renderer, as the system counts them. */
const totalRssMb = () => mb(process.memoryUsage.rss() + rendererUsage().rssBytes);

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(20);
  }
}

const draws = Number(process.env.CHART_BENCH_DRAWS ?? '500');
const afterMs = Number(process.env.CHART_BENCH_AFTER_MS ?? '30000');
const specs = await sampleChartSpecs();
if (process.env.CHART_EXAMPLES_DIR) {
  for (const spec of [specs.report, specs.forecast]) {
    const png = await drawChart(spec);
    await writeFile(join(process.env.CHART_EXAMPLES_DIR, `example-${spec.filename}`), png.bytes);
  }
} else {
  await settle();
  const rssBeforeMb = totalRssMb();
  const started = performance.now();
  await drawChart(specs.report);
  const firstChartMs = performance.now() - started;
  const cpu: Record<Kind, number[]> = { report: [], forecast: [] };
  const mainCpu: Record<Kind, number[]> = { report: [], forecast: [] };
  const pngBytes = { report: 0, forecast: 0 };
  let rssAfterTenthMb = 0;
  let rssPeakAfterTenthMb = 0;
  for (let i = 0; i < draws; i++) {
    const kind: Kind = i % 2 === 0 ? 'report' : 'forecast';
    const mark = process.threadCpuUsage();
    const rendererCpu = rendererUsage().cpuMs;
    pngBytes[kind] = (await drawChart(specs[kind])).bytes.byteLength;
    mainCpu[kind].push(cpuMsSince(mark));
    cpu[kind].push(rendererUsage().cpuMs - rendererCpu);
    if (i === 9) rssAfterTenthMb = totalRssMb();
    if (i >= 9) rssPeakAfterTenthMb = Math.max(rssPeakAfterTenthMb, totalRssMb());
  }
  await sleep(afterMs);
  const rendererRunningWhenIdle = rendererUsage().pid !== undefined;
  const result: ChartProcessResult = {
    firstChartMs,
    cpuMs: { report: spread(cpu.report), forecast: spread(cpu.forecast) },
    mainCpuMs: { report: spread(mainCpu.report), forecast: spread(mainCpu.forecast) },
    pngBytes,
    draws,
    rssBeforeMb,
    rssAfterTenthMb,
    rssPeakAfterTenthMb,
    rssIdleMb: totalRssMb(),
    rendererRunningWhenIdle,
    afterMs,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
