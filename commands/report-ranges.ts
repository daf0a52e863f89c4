// Pure parts of /report: the date ranges (a period ending yesterday and the period of the same
// length before it, computed from `now` in UTC) and the metric totals read out of a GA4 report.
import type { DateRange, Report } from '../src/services/analytics/client.ts';

export const RANGE_CHOICES = ['yesterday', '7d', '28d', '90d'] as const;
export type RangeChoice = (typeof RANGE_CHOICES)[number];

/** GA4 metric names (API-NOTES.md S2) and how the reply names them. */
export const REPORT_METRICS: readonly { name: string; label: string }[] = [
  { name: 'sessions', label: 'Sessions' },
  { name: 'totalUsers', label: 'Users' },
  { name: 'newUsers', label: 'New users' },
  { name: 'eventCount', label: 'Events' },
  { name: 'keyEvents', label: 'Key events' },
];

export interface ReportPeriods {
  days: number;
  /** "Yesterday", "Last 7 days". */
  label: string;
  current: DateRange;
  previous: DateRange;
}

const DAY_MS = 86_400_000;

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function reportPeriods(range: RangeChoice, now: Date): ReportPeriods {
  const days = range === 'yesterday' ? 1 : Number.parseInt(range, 10);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const end = today - DAY_MS;
  const start = end - (days - 1) * DAY_MS;
  return {
    days,
    label: range === 'yesterday' ? 'Yesterday' : `Last ${days} days`,
    current: { startDate: isoDate(start), endDate: isoDate(end) },
    previous: { startDate: isoDate(start - days * DAY_MS), endDate: isoDate(start - DAY_MS) },
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "15–21 Nov 2026", "25 Oct – 21 Nov 2026", or "21 Nov 2026" for one day. Written by hand: ICU's
 * formatRange spacing (thin or plain spaces) differs between Node builds.
 */
export function formatPeriod(range: DateRange): string {
  const [y1, m1, d1] = range.startDate.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = range.endDate.split('-').map(Number) as [number, number, number];
  const end = `${d2} ${MONTHS[m2 - 1]} ${y2}`;
  if (range.startDate === range.endDate) return end;
  if (y1 === y2 && m1 === m2) return `${d1}–${end}`;
  if (y1 === y2) return `${d1} ${MONTHS[m1 - 1]} – ${end}`;
  return `${d1} ${MONTHS[m1 - 1]} ${y1} – ${end}`;
}

/**
 * Each metric's total over the report's rows, in the order asked for. A metric is found by its
 * header name (falling back to its position); GA4 omits the rows of an empty report, which is 0.
 */
export function metricTotals(report: Report, names: readonly string[]): number[] {
  const headers = report.metricHeaders.map((h) => h.name);
  return names.map((name, position) => {
    const found = headers.indexOf(name);
    const index = found === -1 ? position : found;
    return report.rows.reduce((sum, row) => sum + (row.metrics[index] ?? 0), 0);
  });
}
