// Simulated GA4 Data API v1beta (docs/SERVICES.md S2): POST /properties/{id}:runReport computes a
// believable, deterministic report for any numeric property: daily traffic with a weekly rhythm,
// a trend and noise, split over dimension values by their usual shares. Errors use Google's shape.
// https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route, type HandlerOptions } from './layout.ts';
import { seededRandom } from './seeded-random.ts';
import {
  addDays,
  addRowShare,
  CATEGORICAL,
  dayTally,
  dimensionValues,
  emptyTally,
  hourInZone,
  isoInZone,
  METRICS,
  PROPERTY_QUOTA,
  PROPERTY_SETTINGS,
  resolveDate,
  TIME_DIMENSIONS,
  type DayContext,
  type Tally,
} from './fixtures/analytics-model.ts';

/** Property ids that make the simulator answer like GA4's edge cases (README, tests). */
export const ANALYTICS_MAGIC = Object.freeze({
  /** A report without rows or rowCount, as GA4 sends an empty result. */
  emptyPropertyId: '0',
  /** 403 PERMISSION_DENIED "User does not have sufficient permissions for this property." */
  forbiddenPropertyId: '403403403',
  /** 429 RESOURCE_EXHAUSTED "Exhausted property tokens per hour ...". */
  quotaPropertyId: '429429429',
  /** 500 INTERNAL and 503 UNAVAILABLE. */
  errorPropertyId: '500500500',
  unavailablePropertyId: '503503503',
});

/** GA4 refuses dates before this one. */
export const GA4_EARLIEST_DATE = '2015-08-14';

export interface AnalyticsHandlerOptions extends HandlerOptions {
  /** Clock that decides "today" in the property's time zone (tests fix it). */
  now?: () => number;
}

const HEADERS = {
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
// Bounds the work of one report (days x value combinations); GA4 itself samples huge ones.
const MAX_ROWS_OF_WORK = 100_000;

function googleError(status: number, code: string, message: string, reason?: string): Response {
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
const invalid = (message: string) => googleError(400, 'INVALID_ARGUMENT', message);

interface Range {
  start: string;
  end: string;
  name: string;
}
interface Request {
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
function parseRequest(body: unknown, today: string): Request | Response {
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

function formatMetric(name: string, value: number): string {
  const type = METRICS[name]!.type;
  if (type === 'TYPE_INTEGER') return String(Math.round(value));
  if (type === 'TYPE_CURRENCY') return String(Math.round(value * 100) / 100);
  return String(value);
}

function dedupeUsers(t: Tally, days: number): Tally {
  // Users come back on several days: a range counts each once, so fewer than the daily sum.
  const f = days <= 1 ? 1 : 1 / (1 + 0.35 * Math.log(days));
  return { ...t, activeUsers: t.activeUsers * f, totalUsers: t.totalUsers * f };
}

type ReportContext = Omit<DayContext, 'iso'> & { timeZone: string; currencyCode: string };
type Row = { values: string[]; tally: Tally; days: Set<string> };

/** One day of a range into `rows`: every combination of its dimensions' values, odometer style. */
function addDay(
  rows: Map<string, Row>,
  property: string,
  req: Request,
  range: Range,
  day: DayContext,
  budget: number,
) {
  const totals = dayTally(property, day);
  if (!totals) return;
  const lists = req.dimensions.map((d) => dimensionValues(d, day, property));
  while (lists.reduce((n, l) => n * l.length, 1) > budget) {
    const longest = lists.reduce((a, b) => (b.length > a.length ? b : a));
    longest.pop();
  }
  const index = lists.map(() => 0);
  for (;;) {
    let share = 1;
    const values = lists.map((l, i) => {
      const [value, s] = l[index[i]!]!;
      share *= s;
      return value;
    });
    if (req.ranges.length > 1) values.push(range.name);
    const key = values.join('\u0000');
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { values, tally: emptyTally(), days: new Set<string>() }));
    addRowShare(row.tally, totals, share, property, day.iso, key);
    row.days.add(day.iso);
    let i = lists.length - 1;
    while (i >= 0 && ++index[i]! === lists[i]!.length) index[i--] = 0;
    if (i < 0) break;
  }
}

/**
 * The range's own totals from its rows: each row's traffic once (so sessions add up to the rows'),
 * and users counted once across the range's days, not once per row and day.
 */
function rangeTally(rows: Iterable<Row>): Tally {
  const total = emptyTally();
  const days = new Set<string>();
  for (const row of rows) {
    for (const k of Object.keys(total) as (keyof Tally)[]) total[k] += row.tally[k];
    for (const day of row.days) days.add(day);
  }
  return dedupeUsers(total, days.size);
}

function collectRows(property: string, req: Request, ctx: ReportContext): Map<string, Row> {
  const rows = new Map<string, Row>();
  const days = (r: Range) => (Date.parse(r.end) - Date.parse(r.start)) / 86_400_000 + 1;
  const totalDays = req.ranges.reduce((n, r) => n + days(r), 0);
  const comboBudget = Math.max(1, Math.floor(MAX_ROWS_OF_WORK / totalDays));
  for (const range of req.ranges) {
    for (let iso = range.start; iso <= range.end; iso = addDays(iso, 1))
      addDay(rows, property, req, range, { ...ctx, iso }, comboBudget);
  }
  return rows;
}

/** GA4's order: the requested orderBys, else the first metric descending; ties by the dimension values. */
function sortRows(out: { values: string[]; metrics: string[] }[], req: Request, dims: string[]): void {
  const order =
    req.orderBys.length > 0
      ? req.orderBys
      : req.metrics.length > 0
        ? [{ metric: req.metrics[0], desc: true }]
        : [];
  out.sort((a, b) => {
    for (const o of order) {
      const mi = o.metric === undefined ? -1 : req.metrics.indexOf(o.metric);
      const di = o.dimension === undefined ? -1 : dims.indexOf(o.dimension);
      const c =
        mi >= 0
          ? Number(a.metrics[mi]) - Number(b.metrics[mi])
          : di >= 0
            ? a.values[di]!.localeCompare(b.values[di]!)
            : 0;
      if (c !== 0) return o.desc ? -c : c;
    }
    return a.values.join('\u0000').localeCompare(b.values.join('\u0000'));
  });
}

function buildReport(property: string, req: Request, ctx: ReportContext): Record<string, unknown> {
  const dims = req.ranges.length > 1 ? [...req.dimensions, 'dateRange'] : req.dimensions;
  const rows = collectRows(property, req, ctx);
  let out = [...rows.values()].map((r) => {
    const tally = dedupeUsers(r.tally, r.days.size);
    return {
      values: r.values,
      metrics: req.metrics.map((m) => formatMetric(m, METRICS[m]!.value(tally))),
      sessions: tally.sessions,
    };
  });
  // GA4 leaves out rows whose metrics are all zero.
  out = out.filter((r) =>
    req.metrics.length === 0 ? r.sessions >= 0.5 : r.metrics.some((v) => Number(v) !== 0),
  );
  sortRows(out, req, dims);
  const toRow = (values: string[], metrics: string[]) => ({
    dimensionValues: values.map((value) => ({ value })),
    metricValues: metrics.map((value) => ({ value })),
  });
  // GA4 answers one aggregate row per date range: every requested dimension RESERVED_TOTAL (or
  // _MAX, _MIN), then the range's name in the dateRange column when there are several.
  const multi = req.ranges.length > 1;
  const ofRange = (range: Range) => (multi ? out.filter((r) => r.values.at(-1) === range.name) : out);
  const aggregate = (kind: string, label: string, pick: (range: Range, vals: number[][]) => string[]) => {
    if (!req.aggregations.includes(kind) || out.length === 0) return {};
    const rows = req.ranges.flatMap((range) => {
      const mine = ofRange(range);
      if (mine.length === 0) return [];
      const values = req.dimensions.map(() => `RESERVED_${label}`);
      return [
        toRow(
          multi ? [...values, range.name] : values,
          pick(
            range,
            mine.map((r) => r.metrics.map(Number)),
          ),
        ),
      ];
    });
    return { [`${kind.toLowerCase()}s`]: rows };
  };
  const column = (vals: number[][], i: number) => vals.map((v) => v[i]!);
  const { timeZone, currencyCode } = ctx;
  return {
    dimensionHeaders: dims.map((name) => ({ name })),
    metricHeaders: req.metrics.map((name) => ({ name, type: METRICS[name]!.type })),
    ...(out.length > 0
      ? { rows: out.slice(req.offset, req.offset + req.limit).map((r) => toRow(r.values, r.metrics)) }
      : {}),
    // Totals are the range's own figures, not the sum of its rows: a user active on several days
    // (or in several rows) counts once.
    ...aggregate('TOTAL', 'TOTAL', (range) => {
      const tally = rangeTally([...rows.values()].filter((r) => !multi || r.values.at(-1) === range.name));
      return req.metrics.map((m) => formatMetric(m, METRICS[m]!.value(tally)));
    }),
    ...aggregate('MAXIMUM', 'MAX', (_, v) =>
      req.metrics.map((m, i) => formatMetric(m, Math.max(...column(v, i)))),
    ),
    ...aggregate('MINIMUM', 'MIN', (_, v) =>
      req.metrics.map((m, i) => formatMetric(m, Math.min(...column(v, i)))),
    ),
    // proto3 JSON drops defaults: an empty report has neither rows nor rowCount.
    ...(out.length > 0 ? { rowCount: out.length } : {}),
    metadata: { currencyCode, timeZone },
    ...(req.returnPropertyQuota ? { propertyQuota: PROPERTY_QUOTA } : {}),
    kind: 'analyticsData#runReport',
  };
}

const PROPERTY_ID_DOC =
  'To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.';
const OAUTH_HINT =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/** The canned failures of the magic property ids: status, Google status, message. */
const MAGIC_ERRORS: Readonly<Record<string, [number, string, string]>> = {
  [ANALYTICS_MAGIC.forbiddenPropertyId]: [
    403,
    'PERMISSION_DENIED',
    `User does not have sufficient permissions for this property. ${PROPERTY_ID_DOC}`,
  ],
  [ANALYTICS_MAGIC.quotaPropertyId]: [
    429,
    'RESOURCE_EXHAUSTED',
    'Exhausted property tokens per hour for a project per property. These quota tokens will return in under an hour. To learn more, see https://developers.google.com/analytics/devguides/reporting/data/v1/quotas',
  ],
  [ANALYTICS_MAGIC.errorPropertyId]: [500, 'INTERNAL', 'Internal error encountered.'],
  [ANALYTICS_MAGIC.unavailablePropertyId]: [503, 'UNAVAILABLE', 'The service is currently unavailable.'],
};

export function analyticsHandlers(opts: AnalyticsHandlerOptions = {}): RequestHandler[] {
  const now = opts.now ?? Date.now;
  return [
    http.post(route('analytics', '/properties/:resource'), async ({ request, params }) => {
      const resource = String(params.resource);
      if (!resource.endsWith(':runReport'))
        return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
      const auth = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
      if (!auth)
        return googleError(
          401,
          'UNAUTHENTICATED',
          `Request is missing required authentication credential. ${OAUTH_HINT}`,
          'CREDENTIALS_MISSING',
        );
      if (opts.credential !== undefined && auth[1] !== opts.credential)
        return googleError(
          401,
          'UNAUTHENTICATED',
          `Request had invalid authentication credentials. ${OAUTH_HINT}`,
          'ACCESS_TOKEN_TYPE_UNSUPPORTED',
        );
      const property = resource.slice(0, -':runReport'.length);
      if (!/^\d+$/.test(property))
        return invalid(
          `Invalid property ID: ${property}. A numeric Property ID is required. ${PROPERTY_ID_DOC}`,
        );
      const magic = MAGIC_ERRORS[property];
      if (magic) return googleError(...magic);
      let body: unknown;
      try {
        body = JSON.parse(await request.text());
      } catch {
        return invalid('Invalid JSON payload received. Unexpected token.');
      }
      const settings = seededRandom('ga4-property', property).pick(PROPERTY_SETTINGS);
      const nowMs = now();
      const today = isoInZone(nowMs, settings.timeZone);
      const req = parseRequest(body, today);
      if (req instanceof Response) return req;
      const ctx = {
        ...settings,
        today,
        currentHour: hourInZone(nowMs, settings.timeZone),
        isEmpty: property === ANALYTICS_MAGIC.emptyPropertyId,
      };
      return HttpResponse.json(buildReport(property, req, ctx), { headers: HEADERS });
    }),
  ];
}
