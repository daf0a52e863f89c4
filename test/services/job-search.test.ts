import { describe, expect, it } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { JOB_SEARCH_MAGIC, jobSearchHandlers } from '../../src/sandbox/job-search.ts';
import {
  createJobSearchClient,
  MAX_RESULTS_PER_PAGE,
  type JobSearchConfig,
} from '../../src/services/job-search/client.ts';
import type { ClientDeps } from '../../src/services/deps.ts';
import {
  expectNoSecret,
  failure as serviceFailure,
  htmlPage,
  readFixture,
  useFakeServer,
  useLogCapture,
} from '../support/service-harness.ts';

const APP_ID = 'sandbox-app-id-3e9a';
const API_KEY = 'sandbox-adzuna-key-8d2b6f';
const NOW = Date.parse('2025-06-01T12:00:00Z');
const SEARCH_FIXTURE = readFixture('job-search', 'search-gb.json');
const SEARCH_ROUTE = route('jobSearch', '/jobs/:country/search/:page');

/** Adzuna's exception body with the given status, served for the next searches. */
function answerException(
  status: number,
  exception: string,
  display: string,
  headers: Record<string, string> = {},
) {
  server.use(
    http.get(SEARCH_ROUTE, () =>
      HttpResponse.json(
        {
          __CLASS__: 'Adzuna::API::Response::Exception',
          exception,
          display,
          doc: 'https://api.adzuna.com/v1/doc',
        },
        { status, headers },
      ),
    ),
  );
}

const server = useFakeServer(() => jobSearchHandlers({ credential: API_KEY, now: () => NOW }));
const { log: capturingLog, lines: logLines } = useLogCapture();

function client(config: Partial<JobSearchConfig> = {}, deps: ClientDeps = {}) {
  return createJobSearchClient(
    {
      baseUrl: sandboxBaseUrl(server.url, 'jobSearch'),
      appId: APP_ID,
      apiKey: API_KEY,
      country: 'gb',
      ...config,
    },
    { log: capturingLog, httpOptions: { retryBaseMs: 1, requestTimeoutMs: 2_000 }, ...deps },
  );
}

const failure = (p: Promise<unknown>) => serviceFailure(p, API_KEY, APP_ID);

describe('job search client', () => {
  it('searches with GET /jobs/{country}/search/{page}, both credential carriers and plus-joined words', async () => {
    const jobs = client();
    const result = await jobs.search({
      country: 'gb',
      page: 1,
      what: 'javascript developer',
      where: 'London',
    });

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.pathname).toBe('/jobs/v1/api/jobs/gb/search/1');
    expect(req.url).toBe(
      `/jobs/v1/api/jobs/gb/search/1?results_per_page=5&what=javascript+developer&where=London&app_id=${APP_ID}&app_key=${API_KEY}`,
    );
    expect(req.headers['x-api-key']).toBe(API_KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toBe('');

    expect(result.count).toBeGreaterThan(0);
    expect(result.results.length).toBe(Math.min(5, result.count));
    for (const job of result.results) {
      expect(job.id).toMatch(/^\d+$/);
      expect(job.title).toMatch(/Javascript Developer/);
      expect(job.location).toBe('London');
      expect(job.url).toMatch(/^https:\/\/www\.adzuna\.co\.uk\/jobs\/land\/ad\//);
      expect(job.created!.getTime()).toBeLessThan(NOW);
    }
    await jobs.close();
  });

  it('keeps hostile search text in its query parameter, never in the path', async () => {
    const jobs = client();
    await jobs.search({ country: 'gb', page: 2, what: 'c++ & c#', where: 'a b/../?x=1#é' });
    const req = server.requests[0]!;
    expect(req.pathname).toBe('/jobs/v1/api/jobs/gb/search/2');
    expect(req.url).toContain('what=c%2B%2B+%26+c%23');
    expect(req.query.get('what')).toBe('c++ & c#');
    expect(req.query.get('where')).toBe('a b/../?x=1#é');
    expect(req.query.get('app_key')).toBe(API_KEY);
    await jobs.close();
  });

  it('rejects a country outside the 19, a hostile country, a bad page or page size before any request', async () => {
    const jobs = client();
    const bad = [
      { country: 'ru', page: 1 },
      { country: 'xx', page: 1 },
      { country: 'gb/../us?x#é', page: 1 },
      { country: 'gb', page: 0 },
      { country: 'gb', page: -1 },
      { country: 'gb', page: 1.5 },
      { country: 'gb', page: 1, resultsPerPage: 51 },
      { country: 'gb', page: 1, resultsPerPage: 0 },
    ];
    for (const input of bad) {
      expect((await failure(jobs.search({ what: 'nurse', ...input }))).code).toBe('invalid_request');
    }
    expect(server.requests).toHaveLength(0);
    await jobs.close();
  });

  it('lower-cases the country, falls back to the configured one and omits empty text parameters', async () => {
    const jobs = client({ country: 'de' });
    await jobs.search({ country: 'US', page: 1, what: 'nurse' });
    await jobs.search({ country: '', page: 1, what: '  ', where: '' });
    expect(server.requests.map((r) => r.pathname)).toEqual([
      '/jobs/v1/api/jobs/us/search/1',
      '/jobs/v1/api/jobs/de/search/1',
    ]);
    expect([...server.requests[1]!.query.keys()]).toEqual(['results_per_page', 'app_id', 'app_key']);
    await jobs.close();
  });

  it('keeps at most the largest page of listings from an answer that sends 12,000', async () => {
    const { title, company, location, created, redirect_url } = (
      SEARCH_FIXTURE as { results: Record<string, unknown>[] }
    ).results[0]!;
    const listing = { title, company, location, created, redirect_url };
    const results = Array.from({ length: 12_000 }, (_, i) => ({ ...listing, id: String(i) }));
    server.use(http.get(SEARCH_ROUTE, () => HttpResponse.json({ count: 12_000, results })));
    const jobs = client();
    const found = await jobs.search({ country: 'gb', page: 1, what: 'nurse', resultsPerPage: 5 });
    expect(found.count).toBe(12_000);
    expect(found.results.map((j) => j.id)).toEqual(results.slice(0, MAX_RESULTS_PER_PAGE).map((r) => r.id));
    await jobs.close();
  });

  it('pages through the same result set with the requested page size', async () => {
    const jobs = client();
    const first = await jobs.search({ country: 'us', page: 1, what: 'data engineer', resultsPerPage: 7 });
    const second = await jobs.search({ country: 'us', page: 2, what: 'data engineer', resultsPerPage: 7 });
    expect(server.requests[1]!.query.get('results_per_page')).toBe('7');
    expect(second.count).toBe(first.count);
    expect(first.results).toHaveLength(7);
    expect(second.results).toHaveLength(7);
    const ids = new Set([...first.results, ...second.results].map((j) => j.id));
    expect(ids.size).toBe(14);
    await jobs.close();
  });

  it('maps a realistic page: string "0" is not predicted, absent salaries stay undefined, numeric ids become strings', async () => {
    server.use(http.get(SEARCH_ROUTE, () => HttpResponse.json(SEARCH_FIXTURE)));
    const jobs = client();
    const result = await jobs.search({ country: 'gb', page: 1, what: 'javascript' });
    expect(result.count).toBe(6438);
    expect(result.meanSalary).toBe(54321.77);
    expect(result.results).toEqual([
      {
        id: '5470132083',
        title: 'Senior Javascript Developer',
        company: 'Acme Ltd',
        location: 'Marlow, Buckinghamshire',
        salaryMin: 50000,
        salaryMax: 65000,
        salaryIsPredicted: false,
        created: new Date('2025-03-01T18:07:39Z'),
        url: 'https://www.adzuna.co.uk/jobs/land/ad/5470132083?se=abc&utm_medium=api&utm_source=087b8936&v=4AC',
        contractTime: 'full_time',
        contractType: 'permanent',
      },
      {
        id: '5512278310',
        title: 'Javascript Engineer',
        company: 'Cobalt Fintech',
        location: 'London',
        salaryMin: 47993.64,
        salaryMax: 47993.64,
        salaryIsPredicted: true,
        created: new Date('2025-02-27T09:12:03Z'),
        url: 'https://www.adzuna.co.uk/jobs/details/5512278310?utm_medium=api&utm_source=087b8936',
        contractTime: undefined,
        contractType: undefined,
      },
      {
        id: '5530000001',
        title: 'Frontend Developer (JavaScript)',
        company: undefined,
        location: 'Leeds, West Yorkshire',
        salaryMin: undefined,
        salaryMax: undefined,
        salaryIsPredicted: false,
        created: new Date('2025-02-20T00:00:00Z'),
        url: 'https://www.adzuna.co.uk/jobs/land/ad/5530000001',
        contractTime: undefined,
        contractType: 'contract',
      },
    ]);
    await jobs.close();
  });

  it('leaves out a salary no job pays (negative, or beyond 10^10 in any currency), as one not given', async () => {
    const fixture = SEARCH_FIXTURE as { results: Record<string, unknown>[]; mean?: number };
    const salaries = [
      [1e308, 1e308],
      [-1e308, 50_000],
      [40_000, 1e20],
    ];
    server.use(
      http.get(SEARCH_ROUTE, () =>
        HttpResponse.json({
          ...fixture,
          mean: -1e308,
          results: fixture.results.map((job, i) => ({
            ...job,
            salary_min: salaries[i]![0],
            salary_max: salaries[i]![1],
          })),
        }),
      ),
    );
    const jobs = client();
    const result = await jobs.search({ country: 'gb', page: 1, what: 'javascript' });
    expect(result.meanSalary).toBeUndefined();
    expect(result.results.map((j) => [j.salaryMin, j.salaryMax])).toEqual([
      [undefined, undefined],
      [undefined, 50_000],
      [40_000, undefined],
    ]);
    await jobs.close();
  });

  it('answers an empty page, not an error, when nothing matches', async () => {
    const jobs = client();
    expect(await jobs.search({ country: 'gb', page: 1, what: JOB_SEARCH_MAGIC.noResults })).toEqual({
      count: 0,
      results: [],
      meanSalary: undefined,
    });
    await jobs.close();
  });

  it('keeps an identical search for a short while only', async () => {
    let nowMs = 1_000_000;
    const jobs = client({}, { now: () => nowMs });
    await jobs.search({ country: 'gb', page: 1, what: 'nurse' });
    await jobs.search({ country: 'gb', page: 1, what: 'nurse' });
    expect(server.requests).toHaveLength(1);
    nowMs += 61_000;
    await jobs.search({ country: 'gb', page: 1, what: 'nurse' });
    expect(server.requests).toHaveLength(2);
    await jobs.close();
  });

  it('maps a wrong key and a missing app id (401 AUTH_FAIL) to unauthorized', async () => {
    const wrong = client({ apiKey: 'not-the-right-key-9' });
    const err = await failure(wrong.search({ country: 'gb', page: 1, what: 'nurse' }));
    expect(err.code).toBe('unauthorized');
    expect(err.status).toBe(401);
    expect(err.providerMessage).toBe('AUTH_FAIL: Authorisation failed');
    await wrong.close();
    const noId = client({ appId: '' });
    expect((await failure(noId.search({ country: 'gb', page: 1, what: 'nurse' }))).code).toBe('unauthorized');
    await noId.close();
  });

  it('maps 404 UNSUPPORTED_COUNTRY to invalid_request and another 404 to not_found', async () => {
    answerException(
      404,
      'UNSUPPORTED_COUNTRY',
      'The currently supported ISO 3166 country codes are at, au, be, br, ca, ch, de',
    );
    const jobs = client();
    const err = await failure(jobs.search({ country: 'ch', page: 1, what: 'nurse' }));
    expect(err.code).toBe('invalid_request');
    expect(err.providerMessage).toMatch(/^UNSUPPORTED_COUNTRY: The currently supported/);
    server.resetHandlers();
    server.use(http.get(SEARCH_ROUTE, () => htmlPage('<h1>Not Found</h1>', 404)));
    const notFound = await failure(jobs.search({ country: 'ch', page: 2, what: 'nurse' }));
    expect(notFound.code).toBe('not_found');
    expect(notFound.providerMessage).toBe('Not Found');
    await jobs.close();
  });

  it('maps a 400 to invalid_request and a 403 to forbidden', async () => {
    const jobs = client();
    answerException(400, 'INVALID_PARAMETER', 'sort_by is invalid');
    const badRequest = await failure(jobs.search({ country: 'gb', page: 1, what: 'a' }));
    expect(badRequest.code).toBe('invalid_request');
    expect(badRequest.providerMessage).toBe('INVALID_PARAMETER: sort_by is invalid');
    server.resetHandlers();
    answerException(403, 'FORBIDDEN', 'Access denied');
    expect((await failure(jobs.search({ country: 'gb', page: 1, what: 'b' }))).code).toBe('forbidden');
    await jobs.close();
  });

  it('maps a 429 to rate_limited with Retry-After in ms', async () => {
    answerException(429, 'RATE_LIMIT_EXCEEDED', 'Too many requests', { 'retry-after': '45' });
    const jobs = client();
    const err = await failure(jobs.search({ country: 'gb', page: 1, what: 'nurse' }));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(45_000);
    expect(server.requests).toHaveLength(1);
    await jobs.close();
  });

  it('retries a 5xx twice and then fails with upstream', async () => {
    server.use(
      http.get(SEARCH_ROUTE, () =>
        htmlPage('<html><title>503 Service Temporarily Unavailable</title></html>', 503),
      ),
    );
    const jobs = client();
    const err = await failure(jobs.search({ country: 'gb', page: 1, what: 'nurse' }));
    expect(err.code).toBe('upstream');
    expect(err.status).toBe(503);
    expect(err.providerMessage).toBe('503 Service Temporarily Unavailable');
    expect(server.requests).toHaveLength(3);
    await jobs.close();
  });

  it('fails with timeout when Adzuna is slower than the request timeout', async () => {
    server.use(
      http.get(SEARCH_ROUTE, async () => {
        await delay(1_000);
        return HttpResponse.json(SEARCH_FIXTURE);
      }),
    );
    const jobs = client({}, { httpOptions: { retryBaseMs: 1, requestTimeoutMs: 100 } });
    expect((await failure(jobs.search({ country: 'gb', page: 1, what: 'nurse' }))).code).toBe('timeout');
    await jobs.close();
  });

  it('fails with network when every connection is reset', async () => {
    server.use(http.get(SEARCH_ROUTE, () => HttpResponse.error()));
    const jobs = client();
    expect((await failure(jobs.search({ country: 'gb', page: 1, what: 'nurse' }))).code).toBe('network');
    await jobs.close();
  });

  it('treats an HTML 200 or a body that does not fit as bad_response', async () => {
    const jobs = client();
    server.use(http.get(SEARCH_ROUTE, () => htmlPage('<html>Adzuna</html>')));
    expect((await failure(jobs.search({ country: 'gb', page: 1, what: 'a' }))).code).toBe('bad_response');
    server.resetHandlers();
    server.use(http.get(SEARCH_ROUTE, () => HttpResponse.json({ ...SEARCH_FIXTURE, count: 'many' })));
    const err = await failure(jobs.search({ country: 'gb', page: 1, what: 'b' }));
    expect(err.code).toBe('bad_response');
    expect(err.providerMessage).toContain('count');
    await jobs.close();
  });

  it('never writes the app id or key into log lines or errors, even when Adzuna echoes the URL', async () => {
    server.use(
      http.get(SEARCH_ROUTE, ({ request }) =>
        HttpResponse.json(
          { exception: 'BAD_REQUEST', display: `Cannot handle ${request.url}` },
          { status: 400 },
        ),
      ),
    );
    const jobs = client();
    const err = await failure(jobs.search({ country: 'gb', page: 1, what: 'nurse' }));
    expect(err.providerMessage).toContain('app_key=[REDACTED]');
    server.resetHandlers();
    await jobs.search({ country: 'gb', page: 1, what: 'welder' });
    expect(logLines.length).toBeGreaterThanOrEqual(2);
    expectNoSecret([API_KEY, APP_ID], ...logLines);
    await jobs.close();
  });
});
