import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { JOB_SEARCH_MAGIC, SANDBOX_JOB_COUNTRIES, jobSearchHandlers } from '../../src/sandbox/job-search.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const KEY = 'sandbox-adzuna-key-44f0';
let server: SandboxServer;
let base: string;

beforeAll(async () => {
  server = await startFake(
    jobSearchHandlers({ credential: KEY, now: () => Date.parse('2025-06-01T12:00:00Z') }),
  );
  base = sandboxBaseUrl(server.url, 'jobSearch');
});
afterAll(() => server.close());

interface Page {
  count: number;
  mean?: number;
  results: { id: string; salary_is_predicted?: string; salary_min?: number; created: string }[];
}

async function search(
  country: string,
  page: number | string,
  params: Record<string, string>,
): Promise<Response> {
  const query = new URLSearchParams({ app_id: 'abc123', app_key: KEY, ...params });
  return fetch(`${base}/jobs/${country}/search/${page}?${query.toString()}`);
}

describe('job search sandbox', () => {
  it('serves the 19 current countries and refuses the others with UNSUPPORTED_COUNTRY', async () => {
    expect(SANDBOX_JOB_COUNTRIES).toHaveLength(19);
    const ru = await search('ru', 1, { what: 'nurse' });
    expect(ru.status).toBe(404);
    expect(await ru.json()).toEqual({
      __CLASS__: 'Adzuna::API::Response::Exception',
      exception: 'UNSUPPORTED_COUNTRY',
      display:
        'The currently supported ISO 3166 country codes are at, au, be, br, ca, ch, de, es, fr, gb, in, it, mx, nl, nz, pl, sg, us, za',
      doc: 'https://api.adzuna.com/v1/doc',
    });
  });

  it('answers AUTH_FAIL when app_id or app_key is missing or wrong', async () => {
    const cases: Record<string, string>[] = [{ app_id: '' }, { app_key: '' }, { app_key: 'other-key' }];
    for (const params of cases) {
      const res = await search('gb', 1, { what: 'nurse', ...params });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ exception: 'AUTH_FAIL', display: 'Authorisation failed' });
    }
  });

  it('pages deterministically: same search, same answer; the last page is partial; past the end is empty', async () => {
    const a = (await (await search('de', 1, { what: 'pflege', results_per_page: '20' })).json()) as Page;
    const b = (await (await search('de', 1, { what: 'Pflege', results_per_page: '20' })).json()) as Page;
    expect(b).toEqual(a);
    const lastPage = Math.ceil(a.count / 20);
    const last = (await (
      await search('de', lastPage, { what: 'pflege', results_per_page: '20' })
    ).json()) as Page;
    expect(last.results).toHaveLength(a.count - (lastPage - 1) * 20);
    const beyond = (await (
      await search('de', lastPage + 1, { what: 'pflege', results_per_page: '20' })
    ).json()) as Page;
    expect(beyond.count).toBe(a.count);
    expect(beyond.results).toEqual([]);
  });

  it('uses the default page size of 10, clamps at 50, and refuses a page below 1', async () => {
    const def = (await (await search('us', 1, { what: 'developer' })).json()) as Page;
    expect(def.results).toHaveLength(Math.min(10, def.count));
    const big = (await (await search('us', 1, { what: 'developer', results_per_page: '80' })).json()) as Page;
    expect(big.results).toHaveLength(Math.min(50, big.count));
    expect((await search('us', 0, { what: 'developer' })).status).toBe(400);
  });

  it('writes salary_is_predicted as "0" or "1" strings and sometimes leaves salaries out', async () => {
    const page = (await (await search('gb', 1, { what: 'engineer', results_per_page: '50' })).json()) as Page;
    const flags = new Set(page.results.map((r) => r.salary_is_predicted));
    expect(flags).toEqual(new Set(['0', '1', undefined]));
    expect(page.results.some((r) => !('salary_min' in r))).toBe(true);
    for (const r of page.results) expect(r.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('answers count 0 for the magic search and for a country name as the location', async () => {
    const none = (await (await search('gb', 1, { what: JOB_SEARCH_MAGIC.noResults })).json()) as Page;
    expect(none).toEqual({ __CLASS__: 'Adzuna::API::Response::JobSearchResults', count: 0, results: [] });
    const country = (await (
      await search('gb', 1, { what: 'nurse', where: JOB_SEARCH_MAGIC.countryNameAsWhere })
    ).json()) as Page;
    expect(country.count).toBe(0);
  });
});
