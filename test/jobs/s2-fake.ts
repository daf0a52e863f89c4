// A loopback stand-in for S2 (GA4 Data API runReport) for the job tests: checks the Bearer token,
// answers with the known fixtures in GA4's wire shape (string values, `kind`, metadata), adds the
// `dateRange` dimension when a request has two ranges, and leaves out `rows` and `rowCount` for an
// empty result, as GA4 does.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route } from '../../src/sandbox/layout.ts';
import { fixtureReport, wireReport } from './fixtures.ts';

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
