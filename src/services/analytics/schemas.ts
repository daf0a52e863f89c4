// GA4 Data API v1beta wire shapes (docs/SERVICES.md S2): the runReport response (only the fields
// herald reads; kind, propertyQuota and the rest are dropped unread) and Google's error body.
// https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/RunReportResponse
import { z } from 'zod';
import type { ProviderErrorReader } from '../../http/client.ts';
import type { ServiceErrorCode } from '../../errors.ts';
import { ownEntry } from '../../domain/lookup.ts';

/** Metric values are numeric text ("2541", "93.8124"); a number is tolerated. */
const MetricValue = z.object({
  value: z
    .union([z.string().regex(/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, 'not numeric text'), z.number()])
    .optional(),
});

const ReportRowWire = z.object({
  dimensionValues: z.array(z.object({ value: z.string().optional() })).optional(),
  metricValues: z.array(MetricValue).optional(),
});

export const RunReportResponse = z.object({
  dimensionHeaders: z.array(z.object({ name: z.string() })).optional(),
  metricHeaders: z.array(z.object({ name: z.string(), type: z.string().optional() })).optional(),
  /** Absent, not empty, when the report has no rows (proto3 JSON drops defaults); so is rowCount. */
  rows: z.array(ReportRowWire).optional(),
  /**
   * With metricAggregations TOTAL: one row per date range, its dimensions RESERVED_TOTAL and its
   * dateRange column the range's name; the range's own figures, not a sum of its rows.
   */
  totals: z.array(ReportRowWire).optional(),
  rowCount: z.number().int().nonnegative().optional(),
  metadata: z.object({ currencyCode: z.string().optional(), timeZone: z.string().optional() }).optional(),
});

const GoogleErrorResponse = z.object({
  error: z.object({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
    details: z.array(z.unknown()).optional(),
  }),
});

/** google.rpc.Code names to our codes; the status alone cannot tell 503 UNAVAILABLE from 500. */
const GOOGLE_STATUS: Readonly<Record<string, ServiceErrorCode>> = {
  UNAUTHENTICATED: 'unauthorized',
  PERMISSION_DENIED: 'forbidden',
  NOT_FOUND: 'not_found',
  INVALID_ARGUMENT: 'invalid_request',
  FAILED_PRECONDITION: 'invalid_request',
  OUT_OF_RANGE: 'invalid_request',
  RESOURCE_EXHAUSTED: 'rate_limited',
  UNAVAILABLE: 'unavailable',
  INTERNAL: 'upstream',
  UNKNOWN: 'upstream',
  DEADLINE_EXCEEDED: 'upstream',
};

/** google.rpc.RetryInfo's retryDelay ("30s", "1.5s"), when Google sends one. */
function retryDelayMs(details: unknown[] | undefined): number | undefined {
  for (const d of details ?? []) {
    const info = d as { '@type'?: unknown; retryDelay?: unknown };
    if (typeof info['@type'] === 'string' && info['@type'].endsWith('google.rpc.RetryInfo')) {
      const m = /^(\d+(?:\.\d+)?)s$/.exec(String(info.retryDelay));
      if (m) return Math.round(Number(m[1]) * 1000);
    }
  }
  return undefined;
}

/** `{"error": {code, message, status, details}}`: message kept, `status` refines the code. */
export const readGoogleError: ProviderErrorReader = ({ body }) => {
  const parsed = GoogleErrorResponse.safeParse(body);
  if (!parsed.success) return { message: body === undefined ? 'the error body is not JSON' : undefined };
  const { message, status, details } = parsed.data.error;
  return {
    message,
    code: ownEntry(GOOGLE_STATUS, status),
    retryAfterMs: retryDelayMs(details),
  };
};
