// The chart renderer is a process of its own that ends when idle: its memory (resvg's pixmaps,
// the fonts) is bounded while charts are drawn in a row and given back once they stop; it sees
// none of the bot's environment. The 500-chart and 30-second versions of the memory rules are
// rows of `npm run bench -- charts`; these are their short versions.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drawChart, type LineChartSpec } from '../../src/charts/index.ts';
import { RENDERER_IDLE_MS, rendererUsage } from '../../src/charts/draw.ts';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function spec(i: number): LineChartSpec {
  return {
    filename: 'chart.png',
    title: `Sessions, week ${i}`,
    xLabels: DAYS,
    xAxisTitle: 'day',
    yAxisTitle: 'sessions',
    series: [
      { name: 'this week', values: DAYS.map((_, d) => 100 + ((d * 37 + i) % 90)) },
      { name: 'last week', values: DAYS.map((_, d) => 80 + ((d * 53 + i) % 70)) },
    ],
    alt: 'Sessions per day',
  };
}

const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

afterEach(() => {
  vi.useRealTimers();
});

describe('the chart renderer', () => {
  it('draws in a process of its own, which ends after RENDERER_IDLE_MS without a chart', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect((await drawChart(spec(1))).bytes.byteLength).toBeGreaterThan(1_000);
    const { pid, starts } = rendererUsage();
    expect(pid).toBeDefined();
    expect(pid).not.toBe(process.pid);

    vi.advanceTimersByTime(RENDERER_IDLE_MS - 1);
    expect(rendererUsage().pid).toBe(pid);
    // A chart within the idle time reuses the running renderer, and starts its idle time anew.
    await drawChart(spec(2));
    vi.advanceTimersByTime(RENDERER_IDLE_MS - 1);
    expect(rendererUsage()).toMatchObject({ pid, starts });

    vi.advanceTimersByTime(1);
    expect(rendererUsage()).toMatchObject({ pid: undefined, rssBytes: 0 });
    vi.useRealTimers();
    await vi.waitFor(() => expect(alive(pid!)).toBe(false), { timeout: 5_000, interval: 20 });

    // The next chart starts a new renderer.
    expect((await drawChart(spec(3))).bytes.byteLength).toBeGreaterThan(1_000);
    expect(rendererUsage().starts).toBe(starts + 1);
  });

  it('keeps its memory bounded over charts drawn in a row (short version of the bench row)', async () => {
    for (let i = 0; i < 10; i++) await drawChart(spec(i));
    const afterTenth = rendererUsage().rssBytes;
    let highest = afterTenth;
    for (let i = 10; i < 60; i++) {
      await drawChart(spec(i));
      highest = Math.max(highest, rendererUsage().rssBytes);
    }
    // Without a collection after each render the renderer grew about 2.3 MB a chart: 115 MB here.
    expect((highest - afterTenth) / 1024 / 1024).toBeLessThanOrEqual(20);
  });

  it('runs with an empty environment: none of the bot’s secrets reach it', async () => {
    process.env.HERALD_TEST_SECRET = 'renderer-must-not-see-this';
    try {
      await drawChart(spec(4));
      const { pid } = rendererUsage();
      expect(readFileSync(`/proc/${pid}/environ`, 'utf8')).not.toContain('renderer-must-not-see-this');
    } finally {
      delete process.env.HERALD_TEST_SECRET;
    }
  });
});
