// The analytics summary as pure functions: the date ranges of a slot, and the report built from
// four GA4 answers (totals of the range and of the range before, daily values for the trend, the
// configured dimension's rows). No clock and no I/O here: the job passes them in.
import type { Reply } from '../src/core/reply.ts';
import type { Report } from '../src/services/analytics/client.ts';
import {
  dimensionLabel,
  escapeMarkdown,
  formatChange,
  formatMetric,
  metricLabel,
  sparkline,
} from './analytics-summary-format.ts';

/** Inclusive calendar dates, YYYY-MM-DD, as GA4 takes them. */
export interface DateSpan {
  startDate: string;
  endDate: string;
}

export interface SummaryRanges {
  /** "yesterday", "today" or "last 7 days". */
  name: string;
  days: number;
  current: DateSpan;
  previous: DateSpan;
  /** The daily values behind the sparklines: the range, or the 7 days ending with it when shorter. */
  trend: DateSpan;
}

const DAY_MS = 86_400_000;
const MIN_TREND_DAYS = 7;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The calendar date of `at` in `timeZone`, as UTC midnight epoch ms. */
function localDay(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
  return Date.parse(`${parts}T00:00:00Z`);
}

/** The ranges for a slot due at `at`: `yesterday`, `today` or `Nd` (the N whole days before). */
export function resolveRanges(range: string, at: Date, timeZone: string): SummaryRanges {
  const today = localDay(at, timeZone);
  const match = /^(\d{1,3})d$/.exec(range);
  const days = match ? Math.max(1, Number(match[1])) : 1;
  if (!match && range !== 'yesterday' && range !== 'today') throw new Error(`unknown range "${range}"`);
  const end = range === 'today' ? today : today - DAY_MS;
  const start = end - (days - 1) * DAY_MS;
  const span = (from: number, to: number): DateSpan => ({ startDate: isoDay(from), endDate: isoDay(to) });
  return {
    name: match ? `last ${days} days` : range,
    days,
    current: span(start, end),
    previous: span(start - days * DAY_MS, start - DAY_MS),
    trend: span(end - (Math.max(days, MIN_TREND_DAYS) - 1) * DAY_MS, end),
  };
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "21 Nov 2025", "15–21 Nov 2025", "28 Oct – 3 Nov 2025". */
export function formatSpan(span: DateSpan): string {
  const a = Date.parse(`${span.startDate}T00:00:00Z`);
  const b = Date.parse(`${span.endDate}T00:00:00Z`);
  if (a === b) return dayFormat.format(a);
  const [sa, sb] = [new Date(a), new Date(b)];
  if (sa.getUTCFullYear() === sb.getUTCFullYear() && sa.getUTCMonth() === sb.getUTCMonth()) {
    return `${sa.getUTCDate()}–${dayFormat.format(b)}`;
  }
  if (sa.getUTCFullYear() === sb.getUTCFullYear())
    return `${dayFormat.format(a).slice(0, -5)} – ${dayFormat.format(b)}`;
  return `${dayFormat.format(a)} – ${dayFormat.format(b)}`;
}

export interface SummaryReports {
  /** The range's totals (no dimensions). */
  current: Report;
  /** The previous range's totals. */
  previous: Report;
  /** The `date` dimension over `ranges.trend`. */
  trend: Report;
  /** The configured dimension over the range. */
  top: Report;
}

export interface SummaryInput extends SummaryReports {
  ranges: SummaryRanges;
  metrics: readonly string[];
  dimension: string;
  now: Date;
  /** Rows of the dimension to show; 5 by default. */
  topCount?: number;
}

export interface MetricSummary {
  name: string;
  label: string;
  value: string;
  change: string;
  trend: string;
}

/** What both the embed and the email show. */
export interface AnalyticsSummary {
  title: string;
  period: string;
  comparedWith: string;
  isEmpty: boolean;
  metrics: MetricSummary[];
  top: { title: string; rows: { name: string; value: string; share: string | undefined }[] } | undefined;
  trendNote: string;
  generatedAt: string;
}

function metricValue(report: Report, name: string, row = report.rows[0]): number {
  const i = report.metricHeaders.findIndex((h) => h.name === name);
  return i < 0 || row === undefined ? Number.NaN : (row.metrics[i] ?? Number.NaN);
}

function metricType(reports: readonly Report[], name: string): string {
  for (const r of reports) {
    const h = r.metricHeaders.find((x) => x.name === name);
    if (h) return h.type;
  }
  return 'TYPE_STANDARD';
}

function dailyValues(trend: Report, span: DateSpan, metric: string): number[] {
  const dateIndex = trend.dimensionHeaders.indexOf('date');
  const byDate = new Map(trend.rows.map((r) => [r.dimensions[dateIndex] ?? '', r]));
  const out: number[] = [];
  const end = Date.parse(`${span.endDate}T00:00:00Z`);
  for (let t = Date.parse(`${span.startDate}T00:00:00Z`); t <= end; t += DAY_MS) {
    const row = byDate.get(isoDay(t).replaceAll('-', ''));
    // GA4 leaves out days without data; they count as zero.
    out.push(row ? metricValue(trend, metric, row) : 0);
  }
  return out;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function summarize(input: SummaryInput): AnalyticsSummary {
  const { ranges, current, previous } = input;
  const period = formatSpan(ranges.current);
  const base = {
    title: `Analytics summary: ${ranges.name}`,
    period,
    comparedWith: formatSpan(ranges.previous),
    trendNote: `Trend: daily values, ${formatSpan(ranges.trend)}`,
    generatedAt: input.now.toISOString(),
  };
  if (current.rows.length === 0) return { ...base, isEmpty: true, metrics: [], top: undefined };
  const currency = current.currencyCode ?? previous.currencyCode;
  const metrics = input.metrics.map((name): MetricSummary => {
    const type = metricType([current, previous, input.trend], name);
    const value = metricValue(current, name);
    const before = previous.rows.length === 0 ? 0 : metricValue(previous, name);
    return {
      name,
      label: metricLabel(name),
      value: formatMetric(value, type, { name, currency }),
      change: formatChange(value, before),
      trend: sparkline(dailyValues(input.trend, ranges.trend, name)),
    };
  });
  const lead = input.metrics[0];
  let top: AnalyticsSummary['top'];
  if (lead !== undefined && input.top.rows.length > 0) {
    const total = metricValue(current, lead);
    const type = metricType([input.top, current], lead);
    const rows = [...input.top.rows]
      .sort((a, b) => metricValue(input.top, lead, b) - metricValue(input.top, lead, a))
      .slice(0, input.topCount ?? 5)
      .map((r) => {
        const v = metricValue(input.top, lead, r);
        return {
          name: clip(r.dimensions[0] ?? '(not set)', 80),
          value: formatMetric(v, type, { name: lead, currency }),
          share: total > 0 && Number.isFinite(v) ? `${Math.round((v / total) * 100)}%` : undefined,
        };
      });
    top = { title: `Top ${dimensionLabel(input.dimension)} by ${metricLabel(lead).toLowerCase()}`, rows };
  }
  return { ...base, isEmpty: false, metrics, top };
}

/** The summary as a Reply: one embed, a field per metric, the top rows, the trend period. */
export function buildAnalyticsSummary(input: SummaryInput): Reply {
  const s = summarize(input);
  if (s.isEmpty) {
    const text = `No data for ${input.ranges.name} (${s.period}).`;
    return {
      text,
      embeds: [
        {
          title: s.title,
          description: `${text} The property recorded nothing in that range, or its data is not processed yet.`,
          color: 'warning',
          timestamp: s.generatedAt,
        },
      ],
    };
  }
  const fields = s.metrics.map((m) => ({
    name: m.label,
    value: `**${m.value}**\n${m.change}\n\`${m.trend}\``,
    inline: true,
  }));
  if (s.top) {
    const lines = s.top.rows.map(
      (r, i) =>
        `${i + 1}. ${escapeMarkdown(r.name)}: ${r.value}${r.share === undefined ? '' : ` (${r.share})`}`,
    );
    fields.push({ name: s.top.title, value: lines.join('\n'), inline: false });
  }
  const headline = s.metrics.map((m) => `${m.label} ${m.value} (${m.change})`).join(', ');
  return {
    text: `Analytics summary for ${input.ranges.name} (${s.period}): ${headline}.`,
    embeds: [
      {
        title: s.title,
        description: `**${s.period}** compared with ${s.comparedWith}`,
        color: 'info',
        fields,
        footer: s.trendNote,
        timestamp: s.generatedAt,
      },
    ],
  };
}
