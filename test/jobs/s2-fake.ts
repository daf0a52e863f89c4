// A loopback stand-in for S2 (GA4 Data API runReport) for the job tests: checks the Bearer token,
// answers with the known fixtures in GA4's wire shape (string values, `kind`, metadata), adds the
// `dateRange` dimension when a request has two ranges, and leaves out `rows` and `rowCount` for an
// empty result, as GA4 does.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route } from '../../src/sandbox/layout.ts';
import { COUNTRIES, CURRENT_TOTALS, DAILY, PREVIOUS_DAILY, PREVIOUS_TOTALS, wireReport } from './fixtures.ts';

export const S2_TOKEN = 'ya29.test-analytics-access-token-0042';
export const PROPERTY_ID = '123456789';

interface RunReportBody {
  dimensions?: { name: string }[];
  metrics?: { name: string }[];
  dateRanges?: { startDate: string; endDate: string; name?: string }[];
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
      const dims = (body.dimensions ?? []).map((d) => d.name);
      const rowsFor = (current: boolean) =>
        opts.isEmpty
          ? []
          : dims[0] === 'date'
            ? current
              ? DAILY
              : PREVIOUS_DAILY
            : dims.length === 1
              ? COUNTRIES
              : current
                ? CURRENT_TOTALS
                : PREVIOUS_TOTALS;
      const ranges = body.dateRanges ?? [];
      const tagged =
        ranges.length < 2
          ? { dims, rows: rowsFor(true) }
          : {
              dims: [...dims, 'dateRange'],
              rows: ranges.flatMap((range, i) =>
                rowsFor(i === 0).map((r) => ({ ...r, dims: [...r.dims, range.name ?? `date_range_${i}`] })),
              ),
            };
      return HttpResponse.json(wireReport(tagged.dims, tagged.rows), {
        headers: { 'content-type': 'application/json; charset=UTF-8' },
      });
    }),
  ];
}
