// A loopback stand-in for S2 (GA4 Data API runReport) for the job tests: checks the Bearer token,
// answers with the known fixtures in GA4's wire shape (string values, `kind`, metadata), adds the
// `dateRange` dimension when a request has two ranges, and leaves out `rows` and `rowCount` for an
// empty result, as GA4 does.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route } from '../../src/sandbox/layout.ts';
import { fixtureReport, METRICS, wireReport } from './fixtures.ts';

export const S2_TOKEN = 'ya29.test-analytics-access-token-0042';
export const PROPERTY_ID = '123456789';

interface RunReportBody {
  dimensions?: { name: string }[];
  metrics?: { name: string }[];
  dateRanges?: { startDate: string; endDate: string; name?: string }[];
  metricAggregations?: string[];
}

/** The first range gets the current fixtures, the second the previous ones. */
export function s2Handlers(opts: { isEmpty?: boolean } = {}): RequestHandler[] {
  return [
    http.post(route('analytics', '/properties/*'), async ({ request }) => {
      const match = /\/properties\/(\d+):runReport$/.exec(new URL(request.url).pathname);
      if (!match)
        return HttpResponse.json(
          { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } },
          { status: 404 },
        );
      if (request.headers.get('authorization') !== `Bearer ${S2_TOKEN}`) {
        return HttpResponse.json(
          {
            error: {
              code: 401,
              message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.',
              status: 'UNAUTHENTICATED',
            },
          },
          { status: 401 },
        );
      }
      const body = (await request.json()) as RunReportBody;
      const tagged = fixtureReport(
        (body.dimensions ?? []).map((d) => d.name),
        body.dateRanges ?? [],
        opts.isEmpty,
        body.metricAggregations,
      );
      return HttpResponse.json(wireReport(tagged.dims, tagged.rows, tagged.totals), {
        headers: { 'content-type': 'application/json; charset=UTF-8' },
      });
    }),
  ];
}

/**
 * S2 answering `value` (GA4's numeric text, such as "1e999") for every metric of every row and
 * total, with a row for each day from 20 days ago to tomorrow, so whatever span the summary asks
 * for in whatever zone, each of its days holds the value.
 */
export function hostileS2Handlers(value: string): RequestHandler[] {
  const days = Array.from({ length: 22 }, (_, i) =>
    new Date(Date.now() - (i - 1) * 86_400_000).toISOString().slice(0, 10).replaceAll('-', ''),
  );
  const values = METRICS.map(() => value);
  return [
    http.post(route('analytics', '/properties/*'), async ({ request }) => {
      const body = (await request.json()) as RunReportBody;
      const dims = (body.dimensions ?? []).map((d) => d.name);
      const ranges = (body.dateRanges ?? []).map((r, i) => r.name ?? `date_range_${i}`);
      // With two ranges, each row ends with its range's name, as the `dateRange` dimension.
      const tags = ranges.length > 1 ? ranges.map((range) => [range]) : [[]];
      const rows = tags.flatMap((tag) =>
        days.map((day) => ({ dims: [...dims.map((d) => (d === 'date' ? day : 'Germany')), ...tag], values })),
      );
      const totals = body.metricAggregations?.includes('TOTAL')
        ? tags.map((tag) => ({ dims: [...dims.map(() => 'RESERVED_TOTAL'), ...tag], values }))
        : undefined;
      return HttpResponse.json(wireReport(ranges.length > 1 ? [...dims, 'dateRange'] : dims, rows, totals));
    }),
  ];
}
