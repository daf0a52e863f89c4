// The simulated GA4 report for a read request: every day of each range split over the dimensions'
// values by their usual shares (the model in fixtures/analytics-model.ts), users counted once per
// range, rows in GA4's order, and the TOTAL, MAXIMUM and MINIMUM rows GA4 answers with.
import {
  addDays,
  addRowShare,
  dayTally,
  dimensionValues,
  emptyTally,
  METRICS,
  PROPERTY_QUOTA,
  type DayContext,
  type Tally,
} from './fixtures/analytics-model.ts';
import type { Range, Request } from './analytics-request.ts';

// Bounds the work of one report (days x value combinations); GA4 itself samples huge ones.
const MAX_ROWS_OF_WORK = 100_000;

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

export function buildReport(property: string, req: Request, ctx: ReportContext): Record<string, unknown> {
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
