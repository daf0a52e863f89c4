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

/** A runReport response body (API-NOTES.md "S2 Success"); `rows` omitted when empty, like GA4. */
export function wireReport(
  dimensions: string[],
  rows: { dims: string[]; values: number[] }[],
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
  return body;
}

export function domainReport(dimensions: string[], rows: { dims: string[]; values: number[] }[]): Report {
  return {
    dimensionHeaders: dimensions,
    metricHeaders: HEADERS,
    rows: rows.map((r) => ({ dimensions: r.dims, metrics: r.values })),
    rowCount: rows.length,
    currencyCode: METADATA.currencyCode,
    timeZone: METADATA.timeZone,
  };
}

/** Yesterday (21 Nov 2025) against 20 Nov: sessions up 12.2 %, users down 1.3 %, new users flat, key events new. */
export const CURRENT_TOTALS = [{ dims: [], values: [1234, 987, 321, 15_000, 42] }];
export const PREVIOUS_TOTALS = [{ dims: [], values: [1100, 1000, 321, 14_000, 0] }];

/** 15–21 Nov; 18 Nov has no row (GA4 leaves out empty days). */
export const DAILY = [
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
export const PREVIOUS_DAILY = [
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
 * A report's columns and rows over one or two date ranges, as GA4 answers: with two, every row
 * carries its range's name in a last `dateRange` column (the first range's rows are the current).
 */
export function fixtureReport(
  dims: readonly string[],
  ranges: readonly { name?: string }[],
  isEmpty = false,
): { dims: string[]; rows: FixtureRow[] } {
  const rowsFor = (current: boolean) => (isEmpty ? [] : fixtureRows(dims, current));
  if (ranges.length < 2) return { dims: [...dims], rows: rowsFor(true) };
  return {
    dims: [...dims, 'dateRange'],
    rows: ranges.flatMap((range, i) =>
      rowsFor(i === 0).map((r) => ({ ...r, dims: [...r.dims, range.name ?? `date_range_${i}`] })),
    ),
  };
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
      const tagged = fixtureReport(input.dimensions, input.dateRanges, opts.empty);
      const report = domainReport(tagged.dims, tagged.rows);
      return Promise.resolve({ ...report, timeZone: opts.timeZone ?? METADATA.timeZone });
    },
    close: () => Promise.resolve(),
  };
}

/**
 * The runReport requests of a summary of `yesterday` by country: the totals of both days in one
 * call, the daily trend of both weeks in one, and the top countries of the day (relative dates, so
 * the property's time zone decides the days).
 */
export const YESTERDAY_BY_COUNTRY_REQUESTS = [
  {
    dimensions: [],
    metrics: [...METRICS],
    dateRanges: [
      { startDate: 'yesterday', endDate: 'yesterday', name: 'current' },
      { startDate: '2daysAgo', endDate: '2daysAgo', name: 'previous' },
    ],
  },
  {
    dimensions: ['date'],
    metrics: [...METRICS],
    dateRanges: [
      { startDate: '7daysAgo', endDate: 'yesterday', name: 'current' },
      { startDate: '14daysAgo', endDate: '8daysAgo', name: 'previous' },
    ],
  },
  {
    dimensions: ['country'],
    metrics: [...METRICS],
    dateRanges: [{ startDate: 'yesterday', endDate: 'yesterday' }],
  },
];
