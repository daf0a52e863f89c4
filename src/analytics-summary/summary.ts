// The analytics summary, one builder for `/report` and the analytics-summary job: it asks GA4 for
// the summary in one runReport, the `date` dimension over the named periods as `dateRanges` (rows
// then carry a `dateRange` dimension, https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange)
// with `metricAggregations: ["TOTAL"]` for each period's exact totals; summarises it and renders
// one Reply; the job turns that Reply into its webhook message. `/report` writes it in the reader's
// language (src/i18n/report.ts); the job, whose post and email have no known reader, in English.
import { comparisonChart, dailyValues } from '../charts/comparison.ts';
import type { LineChartSpec } from '../charts/index.ts';
import { timeValue, type Reply } from '../core/reply.ts';
import { formatChange, formatPercent, percentChange } from '../format.ts';
import type { AnalyticsClient, Report } from '../services/analytics/client.ts';
import {
  dimensionLabel,
  ENGLISH_SUMMARY,
  escapeMarkdown,
  formatMetric,
  inSentence,
  metricLabel,
  sparkline,
  type SummaryLanguage,
} from './format.ts';
import {
  dateRange,
  formatSpan,
  resolveRanges,
  spanOf,
  todayIn,
  type DateSpan,
  type SummaryRanges,
} from './ranges.ts';

export interface SummaryRequest {
  /** yesterday, today or Nd. */
  range: string;
  metrics: readonly string[];
  /** A dimension whose top rows are listed (the job's); none for `/report`. */
  dimension?: string | undefined;
  /** How many days late the run is for its period (a caught-up slot); 0 by default. */
  shiftDays?: number;
  /** Rows of the dimension to show; 5 by default. */
  topCount?: number;
}

/** Both periods of one report. */
interface PeriodPair {
  current: Report;
  previous: Report;
}

interface SummaryData {
  ranges: SummaryRanges;
  /** Calendar dates in the property's time zone. */
  spans: { current: DateSpan; previous: DateSpan; trend: DateSpan; trendPrevious: DateSpan };
  /** The zone GA4 resolved the relative dates in (the property's). */
  timeZone: string;
  /** Each period's totals as a one-row report (no row: no data in that period). */
  totals: PeriodPair;
  /** The daily values of the trend period and the one before (sparklines and the chart). */
  daily: PeriodPair;
  top: Report | undefined;
}

// The names of the date ranges in the one request (GA4 refuses names starting date_range_ or RESERVED_).
const CURRENT = 'current';
const PREVIOUS = 'previous';
const TREND = 'trend';
const TREND_PREVIOUS = 'trend_previous';

/** The rows of one named date range, without the `dateRange` column. */
export function rangeRows(report: Report, name: string): Report {
  const at = report.dimensionHeaders.indexOf('dateRange');
  const rows = report.rows
    .filter((r) => at === -1 || r.dimensions[at] === name)
    .map((r) => ({ ...r, dimensions: r.dimensions.filter((_, i) => i !== at) }));
  const { totals: _totals, ...rest } = report;
  return {
    ...rest,
    dimensionHeaders: report.dimensionHeaders.filter((_, i) => i !== at),
    rows,
    rowCount: rows.length,
  };
}

/** One named date range's totals (GA4's TOTAL aggregation row) as a one-row report. */
export function rangeTotals(report: Report, name: string): Report {
  const at = report.dimensionHeaders.indexOf('dateRange');
  const total = (report.totals ?? []).find((r) => at === -1 || r.dimensions[at] === name);
  const { totals: _totals, ...rest } = report;
  return {
    ...rest,
    dimensionHeaders: [],
    rows: total ? [{ dimensions: [], metrics: total.metrics }] : [],
    rowCount: total ? 1 : 0,
  };
}

/**
 * Fetches what a summary shows in one runReport: the `date` dimension over the period, the one
 * before, and (when the period is shorter than the trend's week) the trend and the week before it,
 * with GA4's TOTAL aggregation for each. Totals come from that aggregation, never from summing
 * daily rows, which would count a user once per day and distort rates. With a dimension (the
 * job's), its top rows of the period are a second report, the one other request.
 */
export async function fetchSummary(
  client: AnalyticsClient,
  req: SummaryRequest,
  now: Date,
  opts: { signal?: AbortSignal } = {},
): Promise<SummaryData> {
  const ranges = resolveRanges(req.range, req.shiftDays);
  const { ago } = ranges;
  const metrics = [...req.metrics];
  const isTrendThePeriod = ago.trend[0] === ago.current[0] && ago.trend[1] === ago.current[1];
  const dateRanges = [
    dateRange(ago.current, CURRENT),
    dateRange(ago.previous, PREVIOUS),
    ...(isTrendThePeriod ? [] : [dateRange(ago.trend, TREND), dateRange(ago.trendPrevious, TREND_PREVIOUS)]),
  ];
  const [report, top] = await Promise.all([
    client.runReport({ dimensions: ['date'], metrics, dateRanges, metricAggregations: ['TOTAL'] }, opts),
    req.dimension === undefined
      ? undefined
      : client.runReport(
          { dimensions: [req.dimension], metrics, dateRanges: [dateRange(ago.current)] },
          opts,
        ),
  ]);
  const timeZone = report.timeZone ?? 'UTC';
  const today = todayIn(now, timeZone);
  return {
    ranges,
    spans: {
      current: spanOf(ago.current, today),
      previous: spanOf(ago.previous, today),
      trend: spanOf(ago.trend, today),
      trendPrevious: spanOf(ago.trendPrevious, today),
    },
    timeZone,
    totals: { current: rangeTotals(report, CURRENT), previous: rangeTotals(report, PREVIOUS) },
    daily: {
      current: rangeRows(report, isTrendThePeriod ? CURRENT : TREND),
      previous: rangeRows(report, isTrendThePeriod ? PREVIOUS : TREND_PREVIOUS),
    },
    top,
  };
}

interface MetricSummary {
  name: string;
  label: string;
  value: string;
  previous: string;
  change: string;
  trend: string;
}

/** What every rendering shows (the reply, the webhook message, the email). */
export interface AnalyticsSummary {
  /** The period's name: "yesterday", "last 7 days". */
  range: string;
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
  return i < 0 || row === undefined ? 0 : (row.metrics[i] ?? 0);
}

function metricType(reports: readonly Report[], name: string): string {
  for (const r of reports) {
    const h = r.metricHeaders.find((x) => x.name === name);
    if (h) return h.type;
  }
  return 'TYPE_STANDARD';
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function topRows(
  data: SummaryData,
  req: SummaryRequest,
  currency: string | undefined,
  lang: SummaryLanguage,
) {
  const lead = req.metrics[0];
  const top = data.top;
  if (lead === undefined || top === undefined || top.rows.length === 0 || req.dimension === undefined)
    return undefined;
  const total = metricValue(data.totals.current, lead);
  const type = metricType([top, data.totals.current], lead);
  const rows = [...top.rows]
    .sort((a, b) => metricValue(top, lead, b) - metricValue(top, lead, a))
    .slice(0, req.topCount ?? 5)
    .map((r) => {
      const v = metricValue(top, lead, r);
      return {
        name: clip(r.dimensions[0] ?? '(not set)', 80),
        value: formatMetric(v, type, { name: lead, currency }, lang),
        share: total > 0 ? formatPercent((v / total) * 100, 0, lang.locale) : undefined,
      };
    });
  const dimension = dimensionLabel(req.dimension, lang);
  const metric = inSentence(metricLabel(lead, lang), lang);
  return { title: lang.t('report:top', { dimension, metric }), rows };
}

/** The period in words: "yesterday", "today", "last 7 days". */
function rangeWords(ranges: SummaryRanges, { t }: SummaryLanguage): string {
  if (ranges.name === 'yesterday') return t('report:range.yesterday');
  if (ranges.name === 'today') return t('report:range.today');
  return t('report:range.lastDays', { count: ranges.days });
}

export function summarize(
  data: SummaryData,
  req: SummaryRequest,
  now: Date,
  lang: SummaryLanguage = ENGLISH_SUMMARY,
): AnalyticsSummary {
  const { current, previous } = data.totals;
  const { t, locale } = lang;
  const range = rangeWords(data.ranges, lang);
  const base = {
    range,
    title: t('report:title', { range }),
    period: formatSpan(data.spans.current, locale),
    comparedWith: formatSpan(data.spans.previous, locale),
    trendNote: t('report:trend', { span: formatSpan(data.spans.trend, locale), zone: data.timeZone }),
    generatedAt: now.toISOString(),
  };
  if (current.rows.length === 0) return { ...base, isEmpty: true, metrics: [], top: undefined };
  const currency = current.currencyCode ?? previous.currencyCode;
  const changeWords = {
    isNew: t('report:change.new'),
    none: t('report:change.none'),
    notAvailable: t('common:notAvailable'),
  };
  const metrics = req.metrics.map((name): MetricSummary => {
    const type = metricType([current, previous, data.daily.current], name);
    const value = metricValue(current, name);
    const before = metricValue(previous, name);
    return {
      name,
      label: metricLabel(name, lang),
      value: formatMetric(value, type, { name, currency }, lang),
      previous: formatMetric(before, type, { name, currency }, lang),
      change: formatChange(percentChange(value, before), changeWords, locale),
      trend: sparkline(dailyValues(data.daily.current, data.spans.trend, name)),
    };
  });
  return { ...base, isEmpty: false, metrics, top: topRows(data, req, currency, lang) };
}

/**
 * The summary as a Reply: one embed, a field per metric, the top rows, the trend period; in the
 * language it was summarized in (`lang` the same).
 */
export function renderSummaryReply(
  s: AnalyticsSummary,
  zone: string,
  lang: SummaryLanguage = ENGLISH_SUMMARY,
): Reply {
  const { t, locale } = lang;
  const timestamp = timeValue(new Date(s.generatedAt), zone, 'f', locale);
  if (s.isEmpty) {
    const text = t('report:noData', { range: s.range, period: s.period });
    return {
      text,
      embeds: [
        { title: s.title, description: `${text} ${t('report:noDataWhy')}`, color: 'warning', timestamp },
      ],
    };
  }
  const fields = s.metrics.map((m) => ({
    name: m.label,
    value: `**${m.value}**\n${m.change} ${t('report:was', { previous: m.previous })}${m.trend === '' ? '' : `\n\`${m.trend}\``}`,
    inline: true,
  }));
  if (s.top) {
    const lines = s.top.rows.map(
      (r, i) =>
        `${i + 1}. ${escapeMarkdown(r.name)}: ${r.value}${r.share === undefined ? '' : ` (${r.share})`}`,
    );
    fields.push({ name: s.top.title, value: lines.join('\n'), inline: false });
  }
  const metrics = s.metrics.map((m) => `${inSentence(m.label, lang)} ${m.value} (${m.change})`).join(', ');
  return {
    text: t('report:headline', { range: s.range, period: s.period, metrics }),
    embeds: [
      {
        title: s.title,
        description: t('report:comparedWith', { period: s.period, previous: s.comparedWith }),
        color: 'info',
        fields,
        footer: s.trendNote,
        timestamp,
      },
    ],
  };
}

/** The chart of the first metric per day over the trend period against the one before. */
export function summaryChart(data: SummaryData, metric: string, filename: string): LineChartSpec {
  const days = data.ranges.ago.trend[0] - data.ranges.ago.trend[1] + 1;
  return comparisonChart({
    filename,
    metricLabel: metricLabel(metric),
    currentName: `Last ${days} days`,
    previousName: `Previous ${days} days`,
    currentText: formatSpan(data.spans.trend),
    previousText: formatSpan(data.spans.trendPrevious),
    current: { span: data.spans.trend, values: dailyValues(data.daily.current, data.spans.trend, metric) },
    previous: { values: dailyValues(data.daily.previous, data.spans.trendPrevious, metric) },
  });
}
