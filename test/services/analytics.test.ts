import { describe, expect, it, vi } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { createAnalyticsClient, type RunReportInput } from '../../src/services/analytics/client.ts';
import { ANALYTICS_MAGIC, analyticsHandlers } from '../../src/sandbox/analytics.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  type Answer,
  clientMaker,
  errorText,
  expectFailureCodes,
  expectNoSecret,
  failure,
  htmlPage,
  readFixture,
  useFakeServer,
} from '../support/service-harness.ts';

const TOKEN = 'test-analytics-access-token-31415';
const PROPERTY = '123456789'; // reports in America/Los_Angeles, USD
// 12:00 on Wednesday 2025-03-05 in Los Angeles.
const NOW = Date.parse('2025-03-05T20:00:00Z');
const fixture = (name: string) => readFixture('analytics', name);

const server = useFakeServer(() => analyticsHandlers({ credential: TOKEN, now: () => NOW }));
const makeClient = clientMaker(createAnalyticsClient, () => ({
  baseUrl: sandboxBaseUrl(server.url, 'analytics'),
  accessToken: TOKEN,
  propertyId: PROPERTY,
}));

const week: RunReportInput = {
  dimensions: ['date'],
  metrics: ['sessions', 'activeUsers', 'keyEvents', 'totalRevenue', 'engagementRate'],
  dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
};
const totals: RunReportInput = {
  dimensions: [],
  metrics: ['sessions'],
  dateRanges: [{ startDate: '7daysAgo', endDate: 'today' }],
};
const googleError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  HttpResponse.json({ error: { code: status, message, status: code, ...extra } }, { status });
const runReport = route('analytics', '/properties/:resource');

describe('analytics client', () => {
  it('posts exactly the report body to /properties/{id}:runReport with the bearer token', async () => {
    const { client } = makeClient();
    await client.runReport(week);
    await client.runReport({
      ...week,
      dateRanges: [{ startDate: '2025-02-01', endDate: '2025-02-28', name: 'february' }],
      limit: 3,
    });
    const [plain, limited] = server.requests;
    expect(plain!.method).toBe('POST');
    expect(plain!.pathname).toBe(`/analytics/v1beta/properties/${PROPERTY}:runReport`);
    expect(plain!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(plain!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(plain!.body)).toEqual({
      dimensions: [{ name: 'date' }],
      metrics: [
        { name: 'sessions' },
        { name: 'activeUsers' },
        { name: 'keyEvents' },
        { name: 'totalRevenue' },
        { name: 'engagementRate' },
      ],
      dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
    });
    expect(JSON.parse(limited!.body)).toMatchObject({
      dateRanges: [{ startDate: '2025-02-01', endDate: '2025-02-28', name: 'february' }],
      limit: 3,
    });
  });

  it('maps the report to headers, numeric rows, a row count and the currency', async () => {
    const { client } = makeClient();
    const report = await client.runReport(week);
    expect(report.dimensionHeaders).toEqual(['date']);
    expect(report.metricHeaders).toEqual([
      { name: 'sessions', type: 'TYPE_INTEGER' },
      { name: 'activeUsers', type: 'TYPE_INTEGER' },
      { name: 'keyEvents', type: 'TYPE_INTEGER' },
      { name: 'totalRevenue', type: 'TYPE_CURRENCY' },
      { name: 'engagementRate', type: 'TYPE_FLOAT' },
    ]);
    expect(report.rowCount).toBe(7);
    expect(report.rows.map((r) => r.dimensions[0]).sort()).toEqual([
      '20250226',
      '20250227',
      '20250228',
      '20250301',
      '20250302',
      '20250303',
      '20250304',
    ]);
    for (const row of report.rows) {
      const [sessions, users, keyEvents, revenue, rate] = row.metrics as [
        number,
        number,
        number,
        number,
        number,
      ];
      expect(Number.isInteger(sessions) && sessions > 0).toBe(true);
      expect(users).toBeLessThan(sessions);
      expect(keyEvents).toBeLessThan(sessions);
      expect(revenue).toBeGreaterThanOrEqual(0);
      expect(rate).toBeGreaterThan(0);
      expect(rate).toBeLessThan(1);
    }
    expect([report.currencyCode, report.timeZone]).toEqual(['USD', 'America/Los_Angeles']);
  });

  it('keeps a hostile property id inside its segment, before the literal :runReport', async () => {
    const { client } = makeClient();
    const e = await failure(client.runReport({ ...totals, propertyId: 'a b/../?#é' }));
    await failure(client.runReport({ ...totals, propertyId: '..' }));
    const [hostile, dots] = server.requests;
    expect(hostile!.url).toBe('/analytics/v1beta/properties/a%20b%2F..%2F%3F%23%C3%A9:runReport');
    expect(hostile!.pathname).toBe('/analytics/v1beta/properties/a%20b%2F..%2F%3F%23%C3%A9:runReport');
    // `..:runReport` is not a dot-segment, so it stays where it is.
    expect(dots!.pathname).toBe('/analytics/v1beta/properties/..:runReport');
    expect([e.code, e.status]).toEqual(['invalid_request', 400]);
    expect(e.providerMessage).toMatch(
      /^Invalid property ID: a b\/\.\.\/\?#é\. A numeric Property ID is required/,
    );
  });

  it('keeps a metric that is not finite or beyond 10^15 ("1e999") as NaN, shown as not available', async () => {
    const body = fixture('report-date-country.json') as { rows: { metricValues: { value: string }[] }[] };
    body.rows[0]!.metricValues = [{ value: '1e999' }, { value: '-1e308' }, { value: '1200.5' }];
    server.use(http.post(runReport, () => HttpResponse.json(body)));
    const { client } = makeClient();
    const report = await client.runReport({
      dimensions: ['date', 'country'],
      metrics: ['activeUsers', 'averageSessionDuration', 'totalRevenue'],
      dateRanges: [{ startDate: '2025-03-01', endDate: '2025-03-01' }],
    });
    expect(report.rows[0]!.metrics).toEqual([NaN, NaN, 1200.5]);
  });

  it("asks for TOTAL and reads one totals row per named date range, the range's own figures", async () => {
    const { client } = makeClient();
    const report = await client.runReport({
      dimensions: ['date'],
      metrics: ['sessions', 'totalUsers'],
      dateRanges: [
        { startDate: '7daysAgo', endDate: 'yesterday', name: 'current' },
        { startDate: '14daysAgo', endDate: '8daysAgo', name: 'previous' },
      ],
      metricAggregations: ['TOTAL'],
    });
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ metricAggregations: ['TOTAL'] });
    expect(report.dimensionHeaders).toEqual(['date', 'dateRange']);
    expect(report.totals!.map((t) => t.dimensions)).toEqual([
      ['RESERVED_TOTAL', 'current'],
      ['RESERVED_TOTAL', 'previous'],
    ]);
    const current = report.rows.filter((r) => r.dimensions[1] === 'current');
    const sum = (i: number) => current.reduce((n, r) => n + r.metrics[i]!, 0);
    const [sessions, users] = report.totals![0]!.metrics as [number, number];
    // Sessions add up across days; users do not (one user on several days counts once).
    expect(Math.abs(sessions - sum(0))).toBeLessThanOrEqual(current.length);
    expect(users).toBeLessThan(sum(1));
  });

  it('parses a realistic report with string metric values and extra fields', async () => {
    server.use(http.post(runReport, () => HttpResponse.json(fixture('report-date-country.json'))));
    const { client } = makeClient();
    expect(
      await client.runReport({
        dimensions: ['date', 'country'],
        metrics: ['activeUsers', 'averageSessionDuration', 'totalRevenue'],
        dateRanges: [{ startDate: '2025-03-01', endDate: '2025-03-01' }],
      }),
    ).toEqual({
      dimensionHeaders: ['date', 'country'],
      metricHeaders: [
        { name: 'activeUsers', type: 'TYPE_INTEGER' },
        { name: 'averageSessionDuration', type: 'TYPE_SECONDS' },
        { name: 'totalRevenue', type: 'TYPE_CURRENCY' },
      ],
      rows: [
        { dimensions: ['20250301', 'Japan'], metrics: [2541, 93.8124, 1200.5] },
        { dimensions: ['20250301', 'France'], metrics: [12, 41.2, 0] },
      ],
      rowCount: 2,
      currencyCode: 'USD',
      timeZone: 'America/Los_Angeles',
    });
  });

  it('reads an empty report, which has neither rows nor rowCount, as zero rows', async () => {
    const { client } = makeClient();
    const magic = await client.runReport({ ...week, propertyId: ANALYTICS_MAGIC.emptyPropertyId });
    expect([magic.rows, magic.rowCount]).toEqual([[], 0]);
    const future = await client.runReport({
      ...week,
      dateRanges: [{ startDate: '2030-01-01', endDate: '2030-01-31' }],
    });
    expect([future.rows, future.rowCount, future.dimensionHeaders]).toEqual([[], 0, ['date']]);
    server.use(http.post(runReport, () => HttpResponse.json(fixture('report-empty.json'))));
    const empty = await client.runReport(week);
    expect(empty).toMatchObject({ rows: [], rowCount: 0, currencyCode: 'EUR', timeZone: 'Europe/Berlin' });
  });

  it('refuses a request GA4 would reject before sending it', async () => {
    const { client } = makeClient();
    const many = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const range = (startDate: string, endDate: string, name?: string) => ({ startDate, endDate, name });
    const bad: RunReportInput[] = [
      { ...week, dimensions: many(10, 'customEvent:p') },
      { ...week, metrics: many(11, 'm') },
      { ...week, dimensions: [], metrics: [] },
      { ...week, metrics: ['sessions; drop'] },
      { ...week, dateRanges: [] },
      { ...week, dateRanges: Array.from({ length: 5 }, () => range('7daysAgo', 'today')) },
      { ...week, dateRanges: [range('2025-02-30', 'today')] },
      { ...week, dateRanges: [range('lastweek', 'today')] },
      { ...week, dateRanges: [range('2025-03-02', '2025-03-01')] },
      { ...week, dateRanges: [range('7daysAgo', 'today', 'date_range_9')] },
      { ...week, limit: 0 },
      { ...week, limit: 250_001 },
      { ...week, propertyId: ' ' },
    ];
    for (const input of bad) expect((await failure(client.runReport(input))).code).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
  });

  it("maps Google's error bodies to typed codes, keeping the provider's message", async () => {
    const cases: [number, string, string][] = [
      [400, 'INVALID_ARGUMENT', 'invalid_request'],
      [401, 'UNAUTHENTICATED', 'unauthorized'],
      [403, 'PERMISSION_DENIED', 'forbidden'],
      [404, 'NOT_FOUND', 'not_found'],
      [429, 'RESOURCE_EXHAUSTED', 'rate_limited'],
      [500, 'INTERNAL', 'upstream'],
      [503, 'UNAVAILABLE', 'unavailable'],
    ];
    const { client } = makeClient();
    for (const [status, google, code] of cases) {
      server.use(http.post(runReport, () => googleError(status, google, `${google} happened`)));
      const e = await failure(client.runReport(totals));
      expect({ google, code: e.code, status: e.status, message: e.providerMessage }).toEqual({
        google,
        code,
        status,
        message: `${google} happened`,
      });
    }
  });

  it('reads a 429 wait from Retry-After or from google.rpc.RetryInfo', async () => {
    const { client } = makeClient();
    server.use(
      http.post(runReport, () =>
        HttpResponse.json(
          { error: { code: 429, message: 'x', status: 'RESOURCE_EXHAUSTED' } },
          { status: 429, headers: { 'retry-after': '12' } },
        ),
      ),
    );
    expect((await failure(client.runReport(totals))).retryAfterMs).toBe(12_000);
    const retryInfo = {
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '30s' }],
    };
    server.use(
      http.post(runReport, () =>
        googleError(429, 'RESOURCE_EXHAUSTED', 'Exhausted concurrent requests quota.', retryInfo),
      ),
    );
    const e = await failure(client.runReport(totals));
    expect([e.code, e.retryAfterMs]).toEqual(['rate_limited', 30_000]);
  });

  it("answers the fake's wrong token and magic properties with GA4's errors", async () => {
    const wrong = await failure(makeClient({ accessToken: 'another-token-42' }).client.runReport(totals));
    expect([wrong.code, wrong.status]).toEqual(['unauthorized', 401]);
    expect(wrong.providerMessage).toMatch(/^Request had invalid authentication credentials\./);
    const { client } = makeClient();
    const expected: [string, string][] = [
      [ANALYTICS_MAGIC.forbiddenPropertyId, 'forbidden'],
      [ANALYTICS_MAGIC.quotaPropertyId, 'rate_limited'],
      [ANALYTICS_MAGIC.errorPropertyId, 'upstream'],
      [ANALYTICS_MAGIC.unavailablePropertyId, 'unavailable'],
    ];
    for (const [propertyId, code] of expected) {
      expect((await failure(client.runReport({ ...totals, propertyId }))).code).toBe(code);
    }
  });

  it('retries a report that failed with 503: runReport only reads, so repeating it is safe', async () => {
    const { client } = makeClient();
    await failure(client.runReport({ ...totals, propertyId: ANALYTICS_MAGIC.unavailablePropertyId }));
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a report refused as invalid', async () => {
    const { client } = makeClient();
    await failure(client.runReport({ ...totals, propertyId: 'not-a-number' }));
    expect(server.requests).toHaveLength(1);
  });

  it('maps an answer later than the deadline to timeout, on a fake clock', async () => {
    // The client's deadline and the fake upstream's delay both wait on the faked setTimeout: the
    // answer is late because the clock says so, not because a real 150 ms ran out first.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      server.use(
        http.post(
          runReport,
          async () => (await delay(1_000), HttpResponse.json(fixture('report-empty.json'))),
        ),
      );
      const { client } = makeClient({}, { requestTimeoutMs: 150 });
      const call = failure(client.runReport(totals));
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(150);
      expect((await call).code).toBe('timeout');
      expect(server.requests).toHaveLength(1);
      // Lets the fake upstream's delayed answer go, to a request that is no longer waiting.
      await vi.advanceTimersByTimeAsync(1_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('maps a reset, an HTML page and misfit bodies to typed codes', async () => {
    const good = fixture('report-date-country.json');
    const cases: [Answer, string][] = [
      [() => HttpResponse.error(), 'network'],
      [() => htmlPage('<html><title>Error 502</title></html>', 200), 'bad_response'],
      [() => htmlPage('<html><title>Error 502</title></html>', 502), 'upstream'],
      [() => HttpResponse.json({ ...good, rows: [{ metricValues: [{ value: 'n/a' }] }] }), 'bad_response'],
      [() => HttpResponse.json({ ...good, rowCount: 'two' }), 'bad_response'],
    ];
    const { client } = makeClient();
    await expectFailureCodes(
      server,
      cases,
      (answer) => http.post(runReport, answer),
      () => client.runReport(totals),
    );
  });

  it('never lets the token reach an error, a provider message or a log line', async () => {
    server.use(
      http.post(runReport, ({ request }) =>
        googleError(401, 'UNAUTHENTICATED', `Token ${request.headers.get('authorization')} expired`),
      ),
    );
    const { client, lines } = makeClient();
    const errors = [
      await failure(client.runReport(totals)),
      await failure(makeClient({ accessToken: `${TOKEN}-wrong` }).client.runReport(totals)),
    ];
    expect(errors[0]!.providerMessage).toBe('Token Bearer [REDACTED] expired');
    expectNoSecret([TOKEN], ...errors.map(errorText));
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret([TOKEN], lines.join('\n'));
  });
});

interface Wire {
  dimensionHeaders: { name: string }[];
  rows: { dimensionValues: { value: string }[]; metricValues: { value: string }[] }[];
  rowCount?: number;
  error: { code: number; status: string; message: string };
}

describe('analytics sandbox', () => {
  const post = async (body: unknown, property = PROPERTY) => {
    const res = await fetch(`${sandboxBaseUrl(server.url, 'analytics')}/properties/${property}:runReport`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Wire };
  };
  const daily = (startDate: string, endDate: string) => ({
    dimensions: [{ name: 'date' }],
    metrics: [{ name: 'sessions' }],
    dateRanges: [{ startDate, endDate }],
  });
  const byDate = (body: Wire) =>
    new Map(body.rows.map((r) => [r.dimensionValues[0]!.value, Number(r.metricValues[0]!.value)] as const));

  it('answers the same request with the same report, and another property differently', async () => {
    const a = await post(daily('28daysAgo', 'yesterday'));
    expect(a.body).toEqual((await post(daily('28daysAgo', 'yesterday'))).body);
    expect(byDate((await post(daily('28daysAgo', 'yesterday'), '987654321')).body)).not.toEqual(
      byDate(a.body),
    );
    expect(a.body).toMatchObject({
      rowCount: 28,
      kind: 'analyticsData#runReport',
      metadata: { currencyCode: 'USD' },
    });
  });

  it('has a weekly rhythm: weekdays busier than weekends', async () => {
    const days = byDate((await post(daily('2025-01-05', '2025-03-01'))).body);
    const weekday: number[] = [];
    const weekend: number[] = [];
    for (const [date, sessions] of days) {
      const dow = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T00:00:00Z`).getUTCDay();
      (dow === 0 || dow === 6 ? weekend : weekday).push(sessions);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(weekday)).toBeGreaterThan(mean(weekend) * 1.3);
  });

  it('counts only part of today, and nothing in the future', async () => {
    const days = byDate((await post(daily('yesterday', '2025-03-07'))).body);
    expect([...days.keys()].sort()).toEqual(['20250304', '20250305']);
    expect(days.get('20250305')!).toBeLessThan(days.get('20250304')! * 0.75);
  });

  it('adds a dateRange dimension for several ranges and keeps rowCount whole under a limit', async () => {
    const two = await post({
      metrics: [{ name: 'sessions' }],
      dateRanges: [
        { startDate: '7daysAgo', endDate: 'yesterday', name: 'current' },
        { startDate: '14daysAgo', endDate: '8daysAgo' },
      ],
    });
    expect(two.body.dimensionHeaders).toEqual([{ name: 'dateRange' }]);
    expect(two.body.rows.map((r) => r.dimensionValues[0]!.value).sort()).toEqual(['current', 'date_range_1']);
    const limited = await post({
      ...daily('28daysAgo', 'yesterday'),
      dimensions: [{ name: 'country' }],
      limit: 3,
    });
    expect(limited.body.rows).toHaveLength(3);
    expect(limited.body.rowCount).toBeGreaterThan(10);
  });

  it("refuses unknown fields and names with GA4's INVALID_ARGUMENT messages", async () => {
    const typo = await post({ ...daily('7daysAgo', 'today'), dimensions: [{ name: 'pageTitlee' }] });
    expect(typo.status).toBe(400);
    expect(typo.body.error).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message:
        'Field pageTitlee is not a valid dimension. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema ',
    });
    expect(
      (await post({ ...daily('7daysAgo', 'today'), metrics: [{ name: 'conversionz' }] })).body.error.message,
    ).toMatch(/is not a valid metric/);
    expect((await post({ ...daily('7daysAgo', 'today'), dimension: [] })).body.error.message).toMatch(
      /Unknown name "dimension"/,
    );
    expect((await post(daily('2025-03-02', '2025-03-01'))).status).toBe(400);
  });

  it('answers a missing token with 401 UNAUTHENTICATED', async () => {
    const res = await fetch(`${sandboxBaseUrl(server.url, 'analytics')}/properties/${PROPERTY}:runReport`, {
      method: 'POST',
      body: JSON.stringify(daily('7daysAgo', 'today')),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('UNAUTHENTICATED');
  });
});
