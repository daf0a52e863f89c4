// Charts for replies and reports (issue 13). Callers build a LineChartSpec and call drawChart;
// the drawing code and resvg's native binary are imported on the first call only, so start-up
// and idle memory do not pay for charts that are never drawn.
import type { Attachment } from '../core/reply.ts';
import type { LineChartSpec } from './spec.ts';
import type * as Draw from './draw.ts';

export type { LineChartSpec, LineSeries, BarSeries, Boundary } from './spec.ts';

let loading: Promise<typeof Draw> | undefined;

/** The chart as a PNG attachment (alt text in its description); rejects when drawing fails. */
export async function drawChart(spec: LineChartSpec): Promise<Attachment> {
  loading ??= import('./draw.ts');
  const draw = await loading.catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return draw.renderChart(spec);
}
