// The chart section of `npm run bench` ends by itself: its child process prints its result and
// exits, though the renderer it started may still be waiting out its idle time (it must not hold
// the process). A short run: a few charts, no idle wait.
import { describe, expect, it } from 'vitest';
import { measureCharts } from '../../bench/charts.ts';

describe('the chart bench child', () => {
  it('prints its figures and exits on its own, with the renderer still idle', async () => {
    const result = await measureCharts(12, 0);
    expect(result).toMatchObject({ draws: 12, afterMs: 0, rendererRunningWhenIdle: true });
    expect(result.pngBytes.report).toBeGreaterThan(1_000);
    expect(result.cpuMs.report.p50).toBeGreaterThan(0);
    expect(result.rssPeakAfterTenthMb).toBeGreaterThanOrEqual(result.rssAfterTenthMb);
  });
});
