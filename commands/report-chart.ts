// /report's chart: sessions per day over the period (at least the last 7 days, so "yesterday"
// still shows a week) against the same number of days before, from two `date` reports of S2.
import {
  comparisonChart,
  dailyValues,
  spanBefore,
  spanDays,
  type DateSpan,
} from '../src/charts/comparison.ts';
import { tryDrawChart } from '../src/charts/index.ts';
import type { CommandContext, NeededServices } from '../src/core/command.ts';
import type { Attachment } from '../src/core/reply.ts';
import { formatPeriod, REPORT_METRICS, type ReportPeriods } from './report-ranges.ts';

const MIN_CHART_DAYS = 7;
const DAY_MS = 86_400_000;

function chartSpan(periods: ReportPeriods): DateSpan {
  if (periods.days >= MIN_CHART_DAYS) return periods.current;
  const end = Date.parse(`${periods.current.endDate}T00:00:00Z`);
  const start = new Date(end - (MIN_CHART_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  return { startDate: start, endDate: periods.current.endDate };
}

export function reportChart(
  periods: ReportPeriods,
  ctx: CommandContext<NeededServices<'analytics'>>,
): Promise<Attachment | undefined> {
  const metric = REPORT_METRICS[0]!;
  const current = chartSpan(periods);
  const previous = spanBefore(current);
  const days = spanDays(current).length;
  const daily = (span: DateSpan) =>
    ctx.services.analytics.runReport(
      { dimensions: ['date'], metrics: [metric.name], dateRanges: [span] },
      { signal: ctx.signal },
    );
  return tryDrawChart(async () => {
    const [now, before] = await Promise.all([daily(current), daily(previous)]);
    return comparisonChart({
      filename: 'report.png',
      metricLabel: metric.label,
      currentName: `Last ${days} days`,
      previousName: `Previous ${days} days`,
      currentText: formatPeriod(current),
      previousText: formatPeriod(previous),
      current: { span: current, values: dailyValues(now, current, metric.name) },
      previous: { values: dailyValues(before, previous, metric.name) },
    });
  }, ctx.log);
}
