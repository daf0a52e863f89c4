// The chart of /report and the analytics summary: the main metric's daily values over a period
// against the period of the same length before it, day 1 against day 1. Built from GA4 reports
// with the `date` dimension; days GA4 leaves out (no data) count as 0.
import type { Report } from '../services/analytics/client.ts';
import { formatNumber } from '../format.ts';
import { CHART_LIMITS, ChartInputError, chartText, type LineChartSpec } from './spec.ts';

interface DateSpan {
  /** YYYY-MM-DD, inclusive. */
  startDate: string;
  endDate: string;
}

const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Every date of the span, YYYY-MM-DD; a span of more days than a chart draws is refused. */
export function spanDays(span: DateSpan): string[] {
  const start = Date.parse(`${span.startDate}T00:00:00Z`);
  const end = Date.parse(`${span.endDate}T00:00:00Z`);
  if (!(end - start < CHART_LIMITS.maxPoints * DAY_MS))
    throw new ChartInputError(
      `${span.startDate} to ${span.endDate} is not a span of at most ${CHART_LIMITS.maxPoints} days`,
    );
  const out: string[] = [];
  for (let t = start; t <= end; t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The span of the same length ending the day before `span` starts. */
export function spanBefore(span: DateSpan): DateSpan {
  const start = Date.parse(`${span.startDate}T00:00:00Z`);
  const days = spanDays(span).length;
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { startDate: iso(start - days * DAY_MS), endDate: iso(start - DAY_MS) };
}

/** The metric's value on each day of the span from a `date`-dimension report (GA4's YYYYMMDD). */
export function dailyValues(report: Report, span: DateSpan, metric: string): number[] {
  const dateAt = report.dimensionHeaders.indexOf('date');
  const found = report.metricHeaders.findIndex((h) => h.name === metric);
  const metricAt = found === -1 ? 0 : found;
  const byDay = new Map<string, number>();
  for (const row of report.rows) {
    const raw = row.dimensions[dateAt === -1 ? 0 : dateAt] ?? '';
    const day = /^\d{8}$/.test(raw) ? `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6)}` : raw;
    byDay.set(day, (byDay.get(day) ?? 0) + (row.metrics[metricAt] ?? 0));
  }
  return spanDays(span).map((day) => byDay.get(day) ?? 0);
}

/** "15 Nov". */
function shortDay(isoDay: string): string {
  const [, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]}`;
}

interface ComparisonInput {
  filename: string;
  /** "Sessions". */
  metricLabel: string;
  /** "Last 7 days". */
  currentName: string;
  /** "Previous 7 days". */
  previousName: string;
  /** The two periods in words for the subtitle and alt text: "15–21 Nov 2026". */
  currentText: string;
  previousText: string;
  current: { span: DateSpan; values: readonly number[] };
  previous: { values: readonly number[] };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export function comparisonChart(given: ComparisonInput): LineChartSpec {
  const input = {
    ...given,
    metricLabel: chartText(given.metricLabel),
    currentName: chartText(given.currentName),
    previousName: chartText(given.previousName),
    currentText: chartText(given.currentText),
    previousText: chartText(given.previousText),
  };
  const days = spanDays(input.current.span);
  const total = formatNumber(sum(input.current.values));
  const before = formatNumber(sum(input.previous.values));
  return {
    filename: input.filename,
    title: `${input.metricLabel} per day: ${input.currentName.toLowerCase()}`,
    subtitle: `${input.currentText}, compared with ${input.previousText} (day by day)`,
    xLabels: days.map(shortDay),
    xAxisTitle: `Day of the period (the previous period's days aligned with these)`,
    yAxisTitle: `${input.metricLabel} per day`,
    yFromZero: true,
    series: [
      { name: `${input.currentName} (${input.currentText})`, values: input.current.values },
      { name: `${input.previousName} (${input.previousText})`, values: input.previous.values, dashed: true },
    ],
    alt:
      `Line chart of ${input.metricLabel.toLowerCase()} per day: ${input.currentText} ` +
      `(${total} in all, solid blue line) against ${input.previousText} (${before} in all, dashed orange line).`,
  };
}
