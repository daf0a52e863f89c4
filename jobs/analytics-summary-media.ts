// What the analytics summary posts besides its embed: the chart of the first metric per day over
// the trend range against the same number of days before (one more `date` report for those), and,
// with ANALYTICS_SUMMARY_SPEAK, the summary read aloud. Neither can lose the post: a chart that
// cannot be drawn is left out, a synthesis that fails leaves one sentence saying so.
import { comparisonChart, dailyValues, spanBefore, spanDays } from '../src/charts/comparison.ts';
import { tryDrawChart } from '../src/charts/index.ts';
import type { JobContext } from '../src/core/job.ts';
import type { Attachment } from '../src/core/reply.ts';
import type { Report } from '../src/services/analytics/client.ts';
import { formatSpan, type SummaryRanges } from './analytics-summary-build.ts';
import { metricLabel } from './analytics-summary-format.ts';

export interface SummaryChartInput {
  ranges: SummaryRanges;
  /** The first configured metric is the one drawn. */
  metric: string;
  /** The `date` report over `ranges.trend` the summary already fetched. */
  trend: Report;
}

export function summaryChart(input: SummaryChartInput, ctx: JobContext): Promise<Attachment | undefined> {
  const { ranges, metric } = input;
  const current = ranges.trend;
  const previous = spanBefore(current);
  const days = spanDays(current).length;
  return tryDrawChart(async () => {
    const before = await ctx.services.analytics!.runReport(
      { dimensions: ['date'], metrics: [metric], dateRanges: [previous] },
      { signal: ctx.signal },
    );
    return comparisonChart({
      filename: 'analytics-summary.png',
      metricLabel: metricLabel(metric),
      currentName: `Last ${days} days`,
      previousName: `Previous ${days} days`,
      currentText: formatSpan(current),
      previousText: formatSpan(previous),
      current: { span: current, values: dailyValues(input.trend, current, metric) },
      previous: { values: dailyValues(before, previous, metric) },
    });
  }, ctx.log);
}
