// How the simulated GA4 Data API reads a runReport request, in GA4's order of checks, and GA4's
// error answer (Google's JSON error shape, with ErrorInfo where GA4 sends one).
// https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport
import { HttpResponse } from 'msw';
import { CATEGORICAL, METRICS, resolveDate, TIME_DIMENSIONS } from './fixtures/analytics-model.ts';

/** GA4 refuses dates before this one. */
const GA4_EARLIEST_DATE = '2015-08-14';

export const HEADERS = {
  'content-type': 'application/json; charset=UTF-8',
  vary: 'Origin, X-Origin, Referer',
  server: 'ESF',
  'x-content-type-options': 'nosniff',
};
const SCHEMA_URL = 'https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema';
const BODY_FIELDS = new Set([
  'dimensions',
  'metrics',
  'dateRanges',
  'dimensionFilter',
  'metricFilter',
  'offset',
  'limit',
  'metricAggregations',
  'orderBys',
  'currencyCode',
  'cohortSpec',
  'keepEmptyRows',
  'returnPropertyQuota',
  'comparisons',
  'property',
]);

export function googleError(status: number, code: string, message: string, reason?: string): Response {
  const details = reason
    ? [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason,
          domain: 'googleapis.com',
          metadata: {
            service: 'analyticsdata.googleapis.com',
            method: 'google.analytics.data.v1beta.BetaAnalyticsData.RunReport',
          },
        },
      ]
    : undefined;
  const headers: Record<string, string> = { ...HEADERS };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="https://accounts.google.com/"';
  return HttpResponse.json(
    { error: { code: status, message, status: code, ...(details ? { details } : {}) } },
    { status, headers },
  );
}
export const invalid = (message: string) => googleError(400, 'INVALID_ARGUMENT', message);

export interface Range {
  start: string;
  end: string;
  name: string;
}
export interface Request {
  dimensions: string[];
  metrics: string[];
  ranges: Range[];
  limit: number;
  offset: number;
  aggregations: string[];
  orderBys: { metric?: string; dimension?: string; desc: boolean }[];
  returnPropertyQuota: boolean;
}

const names = (list: unknown): string[] | undefined =>
  list === undefined
    ? []
    : Array.isArray(list) && list.every((d) => typeof (d as { name?: unknown })?.name === 'string')
      ? list.map((d) => (d as { name: string }).name)
      : undefined;
const isDimension = (n: string) =>
  TIME_DIMENSIONS.includes(n) || n in CATEGORICAL || /^custom(Event|User):\w+$/.test(n);

/** GA4's request validation, in its order; a Response is the 400 to send. */
export function parseRequest(body: unknown, today: string): Request | Response {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return invalid('Invalid JSON payload received. Expected an object.');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !BODY_FIELDS.has(k));
  if (unknown !== undefined)
    return invalid(`Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
  const dimensions = names(b.dimensions);
  const metrics = names(b.metrics);
  if (!dimensions || !metrics)
    return invalid('Invalid JSON payload received. Each dimension and metric needs a name.');
  if (dimensions.length > 9) return invalid('Requests are allowed up to 9 dimensions.');
  if (metrics.length > 10) return invalid('Requests are allowed up to 10 metrics.');
  if (dimensions.length + metrics.length === 0)
    return invalid('At least one dimension or metric must be requested.');
  const badDim = dimensions.find((n) => !isDimension(n));
  if (badDim !== undefined)
    return invalid(
      `Field ${badDim} is not a valid dimension. For a list of valid dimensions and metrics, see ${SCHEMA_URL} `,
    );
  const badMetric = metrics.find((n) => !(n in METRICS));
  if (badMetric !== undefined)
    return invalid(
      `Field ${badMetric} is not a valid metric. For a list of valid dimensions and metrics, see ${SCHEMA_URL} `,
    );
  if (!Array.isArray(b.dateRanges) || b.dateRanges.length === 0)
    return invalid('Date ranges must be specified for non-cohort requests.');
  if (b.dateRanges.length > 4) return invalid('Requests are allowed up to 4 date ranges.');
  const ranges: Range[] = [];
  for (const [i, r] of (b.dateRanges as Record<string, unknown>[]).entries()) {
    const start = resolveDate(r?.startDate, today);
    const end = resolveDate(r?.endDate, today);
    if (!start || !end)
      return invalid(
        `Invalid date range: "${String(r?.startDate)}" to "${String(r?.endDate)}". Dates must be YYYY-MM-DD, NdaysAgo, yesterday, or today.`,
      );
    if (start > end) return invalid(`Invalid date range: startDate ${start} is after endDate ${end}.`);
    if (start < GA4_EARLIEST_DATE)
      return invalid(`Invalid date range: dates must be on or after ${GA4_EARLIEST_DATE}.`);
    const name = typeof r.name === 'string' && r.name !== '' ? r.name : `date_range_${i}`;
    if (typeof r.name === 'string' && /^(date_range_|RESERVED_)/.test(r.name))
      return invalid(`Date range name ${r.name} cannot start with "date_range_" or "RESERVED_".`);
    ranges.push({ start, end, name });
  }
  const limit = b.limit === undefined ? 10_000 : Number(b.limit);
  const offset = b.offset === undefined ? 0 : Number(b.offset);
  if (!Number.isInteger(limit) || limit <= 0) return invalid('limit must be positive.');
  if (!Number.isInteger(offset) || offset < 0) return invalid('offset must not be negative.');
  const orderBys = (
    Array.isArray(b.orderBys) ? (b.orderBys as Record<string, Record<string, unknown> | boolean>[]) : []
  ).map((o) => ({
    metric: (o.metric as { metricName?: string } | undefined)?.metricName,
    dimension: (o.dimension as { dimensionName?: string } | undefined)?.dimensionName,
    desc: o.desc === true,
  }));
  const aggregations = Array.isArray(b.metricAggregations) ? b.metricAggregations.map(String) : [];
  return {
    dimensions,
    metrics,
    ranges,
    limit: Math.min(limit, 250_000),
    offset,
    aggregations,
    orderBys,
    returnPropertyQuota: b.returnPropertyQuota === true,
  };
}
