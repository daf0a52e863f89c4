// Charts for replies and reports. Callers build a LineChartSpec and call drawChart;
// the drawing code and resvg's native binary are imported on the first call only, so start-up
// and idle memory do not pay for charts that are never drawn.
import type { Attachment, Reply } from '../core/reply.ts';
import type { LineChartSpec } from './spec.ts';
import type * as Draw from './draw.ts';

export type { LineChartSpec } from './spec.ts';

let loading: Promise<typeof Draw> | undefined;

/**
 * The chart as a PNG attachment (alt text in its description); rejects when drawing fails, when a
 * value or count is beyond what a chart draws (ChartInputError), or after `budgetMs`.
 */
export async function drawChart(spec: LineChartSpec, budgetMs?: number): Promise<Attachment> {
  loading ??= import('./draw.ts');
  const draw = await loading.catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return draw.renderChart(spec, budgetMs);
}

interface WarnLog {
  warn(obj: object, msg: string): void;
}

/**
 * The chart, or undefined when it cannot be drawn (logged): a chart never holds the only copy of
 * a number, so the reply goes out without it.
 */
export async function tryDrawChart(
  build: () => LineChartSpec | Promise<LineChartSpec>,
  log: WarnLog,
): Promise<Attachment | undefined> {
  try {
    return await drawChart(await build());
  } catch (err) {
    log.warn({ err }, 'the chart could not be drawn; the reply goes out without it');
    return undefined;
  }
}

/** The reply with the chart attached and shown as its first embed's image. */
export function withChart(reply: Reply, chart: Attachment | undefined): Reply {
  if (chart === undefined) return reply;
  const [first, ...rest] = reply.embeds ?? [];
  return {
    ...reply,
    embeds: first ? [{ ...first, image: chart.filename }, ...rest] : reply.embeds,
    attachments: [...(reply.attachments ?? []), chart],
  };
}
