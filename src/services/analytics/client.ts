import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

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
}

export interface ReportRow {
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
  currencyCode: string | undefined;
  timeZone: string | undefined;
}

export interface AnalyticsClient extends Closable {
  runReport(input: RunReportInput, opts?: CallOptions): Promise<Report>;
}

export declare function createAnalyticsClient(config: AnalyticsConfig, deps?: ClientDeps): AnalyticsClient;
