// Known GA4 answers for the analytics-summary tests: wire payloads as the Data API sends them
// (strings for every value, `kind`, metadata extras) and the domain Reports the client maps them to.
import type { AnalyticsClient, Report, RunReportInput } from '../../src/services/analytics/client.ts';

export const METRICS = ['sessions', 'totalUsers', 'newUsers', 'eventCount', 'keyEvents'] as const;

const HEADERS = [
  { name: 'sessions', type: 'TYPE_INTEGER' },
  { name: 'totalUsers', type: 'TYPE_INTEGER' },
  { name: 'newUsers', type: 'TYPE_INTEGER' },
  { name: 'eventCount', type: 'TYPE_INTEGER' },
  { name: 'keyEvents', type: 'TYPE_INTEGER' },
];

const METADATA = { currencyCode: 'EUR', timeZone: 'Europe/Berlin', subjectToThresholding: false };

/**
 * A runReport response body (docs/SERVICES.md S2); `rows` omitted when empty, like GA4. A value
 * may be GA4's own numeric text (such as "1e999"), sent as it is.
 */
export function wireReport(
  dimensions: string[],
  rows: { dims: string[]; values: readonly (number | string)[] }[],
  totals?: { dims: string[]; values: readonly (number | string)[] }[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    dimensionHeaders: dimensions.map((name) => ({ name })),
    metricHeaders: HEADERS,
    metadata: METADATA,
    kind: 'analyticsData#runReport',
  };
  if (rows.length > 0) {
    body.rows = rows.map((r) => ({
      dimensionValues: r.dims.map((value) => ({ value })),
      metricValues: r.values.map((v) => ({ value: String(v) })),
    }));
    body.rowCount = rows.length;
  }
  // GA4 sends `totals` only when asked (metricAggregations) and the report has rows.
  if (totals && rows.length > 0) {
    body.totals = totals.map((r) => ({
      dimensionValues: r.dims.map((value) => ({ value })),
      metricValues: r.values.map((v) => ({ value: String(v) })),
    }));
  }
  return body;
}

export function domainReport(
  dimensions: string[],
  rows: { dims: string[]; values: number[] }[],
  totals?: { dims: string[]; values: number[] }[],
): Report {
  return {
    dimensionHeaders: dimensions,
    metricHeaders: HEADERS,
    rows: rows.map((r) => ({ dimensions: r.dims, metrics: r.values })),
    rowCount: rows.length,
    currencyCode: METADATA.currencyCode,
    timeZone: METADATA.timeZone,
    ...(totals && rows.length > 0
      ? { totals: totals.map((r) => ({ dimensions: r.dims, metrics: r.values })) }
      : {}),
  };
}

/** Yesterday (21 Nov 2025) against 20 Nov: sessions up 12.2 %, users down 1.3 %, new users flat, key events new. */
const CURRENT_TOTALS = [{ dims: [], values: [1234, 987, 321, 15_000, 42] }];
const PREVIOUS_TOTALS = [{ dims: [], values: [1100, 1000, 321, 14_000, 0] }];

/** 15–21 Nov; 18 Nov has no row (GA4 leaves out empty days). */
const DAILY = [
  { dims: ['20251115'], values: [100, 90, 30, 1000, 1] },
  { dims: ['20251116'], values: [200, 180, 60, 2000, 2] },
  { dims: ['20251117'], values: [300, 270, 90, 3000, 3] },
  { dims: ['20251119'], values: [500, 450, 150, 5000, 5] },
  { dims: ['20251120'], values: [1100, 1000, 321, 14_000, 0] },
  { dims: ['20251121'], values: [1234, 987, 321, 15_000, 42] },
];

export const COUNTRIES = [
  { dims: ['Germany'], values: [300, 250, 80, 4000, 10] },
  { dims: ['Japan'], values: [600, 500, 150, 7000, 20] },
  { dims: ['France'], values: [150, 120, 50, 2000, 5] },
  { dims: ['(not set)'], values: [4, 4, 1, 40, 0] },
  { dims: ['Brazil'], values: [80, 60, 20, 1000, 3] },
  { dims: ['Canada'], values: [100, 53, 20, 960, 4] },
];

/** 8–14 Nov, the week before DAILY. */
const PREVIOUS_DAILY = [
  { dims: ['20251108'], values: [90, 80, 20, 900, 0] },
  { dims: ['20251109'], values: [150, 140, 40, 1500, 1] },
  { dims: ['20251110'], values: [250, 230, 70, 2500, 2] },
  { dims: ['20251111'], values: [300, 280, 80, 3000, 2] },
  { dims: ['20251112'], values: [400, 380, 100, 4000, 3] },
  { dims: ['20251113'], values: [900, 850, 250, 11_000, 1] },
  { dims: ['20251114'], values: [1000, 950, 300, 12_000, 0] },
];

type FixtureRow = { dims: string[]; values: number[] };

/** The fixture rows a report of `dims` gets: the daily values, the countries, or the totals. */
function fixtureRows(dims: readonly string[], current: boolean): FixtureRow[] {
  if (dims[0] === 'date') return current ? DAILY : PREVIOUS_DAILY;
  if (dims.length === 1) return COUNTRIES;
  return current ? CURRENT_TOTALS : PREVIOUS_TOTALS;
}

/**
 * The daily rows of the summary's one request by range: with four ranges, `current` and
 * `previous` are single days (yesterday and the day before) and `trend`/`trend_previous` the weeks.
 */
function dailyRowsOf(name: string, index: number, rangeCount: number): FixtureRow[] {
  if (rangeCount <= 2) return index === 0 ? DAILY : PREVIOUS_DAILY;
  if (name === 'current') return DAILY.filter((r) => r.dims[0] === '20251121');
  if (name === 'previous') return DAILY.filter((r) => r.dims[0] === '20251120');
  return name === 'trend' ? DAILY : PREVIOUS_DAILY;
}

/** A range's TOTAL row: the known totals for the period and the one before, else its rows' sum. */
function totalOf(name: string, index: number, rows: FixtureRow[]): number[] {
  if (index === 0) return CURRENT_TOTALS[0]!.values;
  if (index === 1 && name !== 'trend') return PREVIOUS_TOTALS[0]!.values;
  return rows.reduce<number[]>((sum, r) => r.values.map((v, i) => v + (sum[i] ?? 0)), []);
}

/**
 * A report's columns and rows over one or more date ranges, as GA4 answers: with two or more,
 * every row carries its range's name in a last `dateRange` column (the first range's rows are the
 * current); with metricAggregations TOTAL, one totals row per range (RESERVED_TOTAL, its name).
 */
export function fixtureReport(
  dims: readonly string[],
  ranges: readonly { name?: string }[],
  isEmpty = false,
  aggregations: readonly string[] = [],
): { dims: string[]; rows: FixtureRow[]; totals?: FixtureRow[] } {
  const rowsFor = (current: boolean) => (isEmpty ? [] : fixtureRows(dims, current));
  if (ranges.length < 2) return { dims: [...dims], rows: rowsFor(true) };
  const named = ranges.map((range, i) => ({ name: range.name ?? `date_range_${i}`, i }));
  const perRange = named.map(({ name, i }) => ({
    name,
    rows: isEmpty
      ? []
      : dims[0] === 'date'
        ? dailyRowsOf(name, i, ranges.length)
        : fixtureRows(dims, i === 0),
    i,
  }));
  const rows = perRange.flatMap((p) => p.rows.map((r) => ({ ...r, dims: [...r.dims, p.name] })));
  if (!aggregations.includes('TOTAL')) return { dims: [...dims, 'dateRange'], rows };
  const totals = perRange
    .filter((p) => p.rows.length > 0)
    .map((p) => ({
      dims: [...dims.map(() => 'RESERVED_TOTAL'), p.name],
      values: totalOf(p.name, p.i, p.rows),
    }));
  return { dims: [...dims, 'dateRange'], rows, totals };
}

/**
 * A fake S2 client with GA4's semantics for the summary's requests: totals, `date` and one
 * dimension; with two date ranges every row carries the range's name in a `dateRange` column.
 */
export function fakeAnalytics(opts: { empty?: boolean; timeZone?: string } = {}): AnalyticsClient & {
  inputs: RunReportInput[];
} {
  const inputs: RunReportInput[] = [];
  return {
    inputs,
    runReport(input) {
      inputs.push(input);
      const tagged = fixtureReport(input.dimensions, input.dateRanges, opts.empty, input.metricAggregations);
      const report = domainReport(tagged.dims, tagged.rows, tagged.totals);
      return Promise.resolve({ ...report, timeZone: opts.timeZone ?? METADATA.timeZone });
    },
    close: () => Promise.resolve(),
  };
}

/**
 * The runReport requests of a summary of `yesterday` by country: one for the summary (the `date`
 * dimension over both days and both trend weeks, with each range's TOTAL), and the top countries
 * of the day (relative dates, so the property's time zone decides the days).
 */
export const YESTERDAY_BY_COUNTRY_REQUESTS = [
  {
    dimensions: ['date'],
    metrics: [...METRICS],
    dateRanges: [
      { startDate: 'yesterday', endDate: 'yesterday', name: 'current' },
      { startDate: '2daysAgo', endDate: '2daysAgo', name: 'previous' },
      { startDate: '7daysAgo', endDate: 'yesterday', name: 'trend' },
      { startDate: '14daysAgo', endDate: '8daysAgo', name: 'trend_previous' },
    ],
    metricAggregations: ['TOTAL'],
  },
  {
    dimensions: ['country'],
    metrics: [...METRICS],
    dateRanges: [{ startDate: 'yesterday', endDate: 'yesterday' }],
  },
];
