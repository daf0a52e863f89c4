// S2 analytics client (GA4 Data API v1beta): POST /properties/{propertyId}:runReport.
// https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport
import type { z } from 'zod';
import { type CallOptions } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { readGoogleError, RunReportResponse } from './schemas.ts';

export interface AnalyticsConfig {
  baseUrl: string;
  accessToken: string;
  propertyId: string;
}

export interface DateRange {
  /** YYYY-MM-DD, NdaysAgo, yesterday or today. */
  startDate: string;
  endDate: string;
  name?: string;
}

export interface RunReportInput {
  dimensions: string[];
  metrics: string[];
  dateRanges: DateRange[];
  /** Defaults to the configured property. */
  propertyId?: string;
  limit?: number;
  /** TOTAL adds `totals`: each date range's exact figures (users are not additive across rows). */
  metricAggregations?: 'TOTAL'[];
}

interface ReportRow {
  dimensions: string[];
  /** Metric values parsed from GA4's numeric text. */
  metrics: number[];
}

export interface Report {
  dimensionHeaders: string[];
  metricHeaders: { name: string; type: string }[];
  rows: ReportRow[];
  /** 0 for an empty report (GA4 omits rows and rowCount then). */
  rowCount: number;
  /** With metricAggregations TOTAL: a row per date range (absent when the report has no rows). */
  totals?: ReportRow[];
  currencyCode: string | undefined;
  timeZone: string | undefined;
}

export interface AnalyticsClient extends Closable {
  runReport(input: RunReportInput, opts?: CallOptions): Promise<Report>;
}

/** GA4's documented request bounds (docs/SERVICES.md S2). */
const MAX_DIMENSIONS = 9;
const MAX_METRICS = 10;
const MAX_DATE_RANGES = 4;
const MAX_LIMIT = 250_000;

const NAME_RE = /^[A-Za-z][A-Za-z0-9_]*(:[A-Za-z0-9_]+)?$/;
const DATE_RE = /^(today|yesterday|\d+daysAgo|\d{4}-\d{2}-\d{2})$/;

function isRealDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Why GA4 would refuse the request, or undefined; checked before anything is sent. */
function problemWith(input: RunReportInput, propertyId: string): string | undefined {
  if (propertyId.trim() === '') return 'the property id is empty';
  if (input.dimensions.length > MAX_DIMENSIONS) return `more than ${MAX_DIMENSIONS} dimensions`;
  if (input.metrics.length > MAX_METRICS) return `more than ${MAX_METRICS} metrics`;
  if (input.dimensions.length + input.metrics.length === 0) return 'no dimension and no metric';
  const badName = [...input.dimensions, ...input.metrics].find((n) => !NAME_RE.test(n));
  if (badName !== undefined) return `"${badName}" is not a dimension or metric name`;
  if (input.dateRanges.length === 0 || input.dateRanges.length > MAX_DATE_RANGES)
    return `1 to ${MAX_DATE_RANGES} date ranges are needed`;
  for (const r of input.dateRanges) {
    for (const d of [r.startDate, r.endDate]) {
      if (!DATE_RE.test(d) || (/^\d{4}/.test(d) && !isRealDate(d)))
        return `"${d}" is not YYYY-MM-DD, NdaysAgo, yesterday or today`;
    }
    const [isAbsStart, isAbsEnd] = [r.startDate, r.endDate].map((d) => /^\d{4}/.test(d));
    if (isAbsStart && isAbsEnd && r.startDate > r.endDate) return `${r.startDate} is after ${r.endDate}`;
    if (r.name !== undefined && /^(date_range_|RESERVED_)/.test(r.name))
      return `a date range name must not start with date_range_ or RESERVED_`;
  }
  if (
    input.limit !== undefined &&
    !(Number.isInteger(input.limit) && input.limit > 0 && input.limit <= MAX_LIMIT)
  )
    return `limit must be an integer from 1 to ${MAX_LIMIT}`;
  return undefined;
}

/**
 * The largest metric magnitude kept: beyond any real property's counts or revenue. GA4's numeric
 * text can say "1e999" (Infinity to Number); such a value is kept as NaN, which the formatting
 * shows as "not available" and a chart refuses.
 */
const MAX_METRIC_VALUE = 1e15;

function metricNumber(value: string | number | undefined): number {
  const n = Number(value ?? 0);
  return Math.abs(n) <= MAX_METRIC_VALUE ? n : Number.NaN;
}

type ReportWire = z.output<typeof RunReportResponse>;

function toRow(r: NonNullable<ReportWire['rows']>[number]): ReportRow {
  return {
    dimensions: (r.dimensionValues ?? []).map((v) => v.value ?? ''),
    metrics: (r.metricValues ?? []).map((v) => metricNumber(v.value)),
  };
}

/** The report as the client hands it on; headers the answer leaves out come from the request. */
export function toReport(res: ReportWire, input: Pick<RunReportInput, 'dimensions' | 'metrics'>): Report {
  const rows = (res.rows ?? []).map(toRow);
  return {
    dimensionHeaders: res.dimensionHeaders?.map((h) => h.name) ?? [...input.dimensions],
    metricHeaders:
      res.metricHeaders?.map((h) => ({ name: h.name, type: h.type ?? 'METRIC_TYPE_UNSPECIFIED' })) ??
      input.metrics.map((name) => ({ name, type: 'METRIC_TYPE_UNSPECIFIED' })),
    rows,
    rowCount: res.rowCount ?? rows.length,
    ...(res.totals ? { totals: res.totals.map(toRow) } : {}),
    currencyCode: res.metadata?.currencyCode,
    timeZone: res.metadata?.timeZone,
  };
}

export function createAnalyticsClient(config: AnalyticsConfig, deps: ClientDeps = {}): AnalyticsClient {
  const http = createServiceHttp(deps, {
    secrets: [config.accessToken],
    service: 'analytics',
    baseUrl: config.baseUrl,
    headers: { authorization: `Bearer ${config.accessToken}` },
    readError: readGoogleError,
  });

  return {
    async runReport(input, opts) {
      const propertyId = input.propertyId ?? config.propertyId;
      const problem = problemWith(input, propertyId);
      if (problem !== undefined) {
        throw new ServiceError({
          service: 'analytics',
          operation: 'runReport',
          code: 'invalid_request',
          message: `analytics.runReport refused before sending: ${problem}`,
        });
      }
      const res = await http.send(
        {
          service: 'analytics',
          operation: 'runReport',
          method: 'POST',
          // runReport only reads, so it is safe to repeat on 429/5xx.
          retryable: true,
          // The id is one encoded segment; the `:runReport` custom method stays literal.
          path: path`/properties/${propertyId}:runReport`,
          body: {
            dimensions: input.dimensions.map((name) => ({ name })),
            metrics: input.metrics.map((name) => ({ name })),
            dateRanges: input.dateRanges.map((r) => ({
              startDate: r.startDate,
              endDate: r.endDate,
              ...(r.name === undefined ? {} : { name: r.name }),
            })),
            ...(input.limit === undefined ? {} : { limit: input.limit }),
            ...(input.metricAggregations ? { metricAggregations: input.metricAggregations } : {}),
          },
        },
        RunReportResponse,
        opts,
      );
      return toReport(res, input);
    },

    close: () => http.close(),
  };
}
