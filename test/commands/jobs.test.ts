import { describe, expect, it, vi } from 'vitest';
import { createJobsCommand, RESULTS_PER_PAGE } from '../../commands/jobs.ts';
import { MAX_RESULTS_PER_PAGE } from '../../src/domain/job-countries.ts';
import type { JobListing, JobSearchClient, JobSearchResult } from '../../src/services/job-search/client.ts';
import {
  createContext,
  expectWellFormed,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
} from './context.ts';

const LISTING: JobListing = {
  id: '5470132083',
  title: 'Senior Rust Developer',
  company: 'Ferrous Systems GmbH',
  location: 'Berlin, Deutschland',
  salaryMin: 70000,
  salaryMax: 90000,
  salaryIsPredicted: false,
  created: new Date('2026-11-19T18:07:39Z'),
  url: 'https://www.adzuna.de/jobs/land/ad/5470132083?se=abc&utm_medium=api&utm_source=087b8936&v=4AC',
  contractTime: 'full_time',
  contractType: 'permanent',
};

const PREDICTED: JobListing = {
  id: '5470132099',
  title: 'Backend Engineer (Rust/Go)',
  company: undefined,
  location: 'Berlin',
  salaryMin: 64872.19,
  salaryMax: 64872.19,
  salaryIsPredicted: true,
  created: new Date('2026-11-22T07:00:00Z'),
  url: undefined,
  contractTime: undefined,
  contractType: undefined,
};

const PAGE_2: JobSearchResult = { count: 23, meanSalary: 71234.5, results: [LISTING, PREDICTED] };

function fakeJobs(result: () => Promise<JobSearchResult>) {
  return {
    search: vi.fn<JobSearchClient['search']>(() => result()),
    close: vi.fn(async () => {}),
  } satisfies JobSearchClient;
}

const jobs = createJobsCommand({ defaultCountry: 'gb' });

describe('/jobs', () => {
  it('answers with the total, the page and each listing with company, place, salary and age', async () => {
    const client = fakeJobs(async () => PAGE_2);
    const ctx = createContext({ services: { jobSearch: client } });
    const reply = await invoke(
      jobs,
      { what: 'rust developer', where: 'Berlin', country: 'de', page: 2 },
      ctx,
    );

    expect(client.search).toHaveBeenCalledWith(
      { country: 'de', page: 2, what: 'rust developer', where: 'Berlin', resultsPerPage: RESULTS_PER_PAGE },
      { signal: expect.any(AbortSignal) },
    );
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('23 jobs for “rust developer” in Berlin, Germany');
    expect(embed.description).toBe('Page 2 of 5 · average salary €71,235');
    expect(embed.fields!.map((f) => f.name)).toEqual([
      '6. Senior Rust Developer',
      '7. Backend Engineer (Rust/Go)',
    ]);
    expect(embed.fields![0]!.value).toBe(
      [
        'Ferrous Systems GmbH · Berlin, Deutschland',
        '€70,000–€90,000 · permanent · full time',
        'Posted 3 days ago, 19 Nov 2026',
        LISTING.url,
      ].join('\n'),
    );
    expect(embed.fields![1]!.value).toBe('Berlin\n€64,872 (est.)\nPosted 3 hours ago, 22 Nov 2026');
    expect(reply.text).toBe('23 jobs for “rust developer” in Berlin, Germany; page 2 of 5');
  });

  it('offers previous and next page actions that repeat the same search', async () => {
    const client = fakeJobs(async () => PAGE_2);
    const reply = await invoke(
      jobs,
      { what: 'rust developer', where: 'Berlin', country: 'de', page: 2 },
      createContext({ services: { jobSearch: client } }),
    );
    expect(reply.actions).toEqual([
      {
        label: '◀ Previous',
        command: 'jobs',
        input: { what: 'rust developer', where: 'Berlin', country: 'de', page: 1 },
      },
      {
        label: 'Next ▶',
        command: 'jobs',
        input: { what: 'rust developer', where: 'Berlin', country: 'de', page: 3 },
      },
    ]);
  });

  it('takes size: up to the largest page the provider allows, numbering and paging by it', async () => {
    const client = fakeJobs(async () => PAGE_2);
    const ctx = createContext({ services: { jobSearch: client } });
    const reply = await invoke(jobs, { what: 'rust developer', country: 'de', page: 2, size: 10 }, ctx);
    expect(client.search).toHaveBeenCalledWith(
      { country: 'de', page: 2, what: 'rust developer', resultsPerPage: 10 },
      { signal: expect.any(AbortSignal) },
    );
    const embed = onlyEmbed(reply);
    expect(embed.description).toBe('Page 2 of 3 · average salary €71,235');
    expect(embed.fields!.map((f) => f.name)).toEqual([
      '11. Senior Rust Developer',
      '12. Backend Engineer (Rust/Go)',
    ]);
    expect(reply.actions!.map((a) => a.input)).toEqual([
      { what: 'rust developer', country: 'de', page: 1, size: 10 },
      { what: 'rust developer', country: 'de', page: 3, size: 10 },
    ]);
    await expect(
      invoke(jobs, { what: 'rust developer', size: MAX_RESULTS_PER_PAGE + 1 }, ctx),
    ).rejects.toThrow(`size must be at most ${MAX_RESULTS_PER_PAGE}.`);
  });

  it('offers no previous page on the first page and no next page on the last', async () => {
    const first = fakeJobs(async () => ({ count: 2, meanSalary: undefined, results: [LISTING, PREDICTED] }));
    const reply = await invoke(jobs, { what: 'rust' }, createContext({ services: { jobSearch: first } }));
    expect(reply.actions).toBeUndefined();
    expect(onlyEmbed(reply).description).toBe('Page 1 of 1');
  });

  it('searches the configured default country when none is given, and accepts upper case', async () => {
    const client = fakeJobs(async () => PAGE_2);
    const ctx = createContext({ services: { jobSearch: client } });
    const gb = await invoke(jobs, { what: 'nurse' }, ctx);
    expect(client.search.mock.calls[0]![0]).toMatchObject({ country: 'gb', page: 1 });
    expect(gb.embeds![0]!.fields![0]!.value).toContain('£70,000–£90,000');
    expect(gb.actions!.map((a) => a.input)).toEqual([{ what: 'nurse', country: 'gb', page: 2 }]);

    await invoke(jobs, { what: 'nurse', country: 'US' }, ctx);
    expect(client.search.mock.calls[1]![0]).toMatchObject({ country: 'us' });
  });

  it('answers with a warning when nothing matches', async () => {
    const client = fakeJobs(async () => ({ count: 0, meanSalary: undefined, results: [] }));
    const reply = await invoke(
      jobs,
      { what: 'underwater basket weaver', where: 'Oslo' },
      createContext({ services: { jobSearch: client } }),
    );
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(reply.text).toBe('No jobs found for “underwater basket weaver” in Oslo, United Kingdom.');
    // An empty listing is an answer: a schedule posts it.
    expect(reply.outcome).toBeUndefined();
    expect(reply.actions).toBeUndefined();
  });

  it('answers a page past the end with a warning and a way back to the last page', async () => {
    const client = fakeJobs(async () => ({ count: 12, meanSalary: undefined, results: [] }));
    const reply = await invoke(
      jobs,
      { what: 'rust', page: 9 },
      createContext({ services: { jobSearch: client } }),
    );
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(reply.text).toBe('Page 9 is past the last page (3) of “rust” in United Kingdom.');
    expect(reply.actions).toEqual([
      { label: 'Last page', command: 'jobs', input: { what: 'rust', country: 'gb', page: 3 } },
    ]);
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('jobSearch', 'search', code);
    const client = fakeJobs(() => Promise.reject(error));
    await expect(
      invoke(jobs, { what: 'rust' }, createContext({ services: { jobSearch: client } })),
    ).rejects.toBe(error);
  });

  it.each([
    ['an unsupported country', { what: 'rust', country: 'xx' }, /does not cover “xx”; use one of at, au, be/],
    ['Russia, dropped by the provider', { what: 'rust', country: 'ru' }, /does not cover “ru”/],
    ['a three-letter country', { what: 'rust', country: 'deu' }, /./],
    ['page 0', { what: 'rust', page: 0 }, /./],
    ['a negative page', { what: 'rust', page: -1 }, /./],
    ['a fractional page', { what: 'rust', page: 1.5 }, /./],
    ['empty search terms', { what: '  ' }, /./],
  ])('rejects %s without calling the service', async (_name, input, message) => {
    const client = fakeJobs(async () => PAGE_2);
    const failure = invoke(jobs, input, createContext({ services: { jobSearch: client } }));
    await expect(failure).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(failure).rejects.toThrow(message);
    expect(client.search).not.toHaveBeenCalled();
  });

  it('refuses a country the job search does not cover in the option itself, before any request', async () => {
    const client = fakeJobs(async () => PAGE_2);
    const command = createJobsCommand({ defaultCountry: 'gb' });
    const parsed = command.options.safeParse({ what: 'rust', country: 'ru' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(
      /^The job search does not cover “ru”; use one of at, au/,
    );
    // JOBS_COUNTRY, the default, is checked at start (test/app/config-defaults.test.ts).
    expect(client.search).not.toHaveBeenCalled();
  });
});

describe('/jobs country autocomplete', () => {
  it('offers the covered countries matching a code or a name, at most 25', async () => {
    const command = createJobsCommand({ defaultCountry: 'gb' });
    const complete = command.autocomplete.country!;
    const ctx = {} as Parameters<typeof complete>[1];
    expect(await complete('de', ctx)).toEqual([{ name: 'Germany (de)', value: 'de' }]);
    expect((await complete('nEw', ctx)).map((c) => c.value)).toEqual(['nz']);
    expect((await complete('', ctx)).length).toBe(19);
    expect(await complete('xx', ctx)).toEqual([]);
  });
});

/** Intl's no-break spaces (before "€", in "71 235") as plain ones, to compare. */
const spaced = (text: string | undefined) => text?.replace(/[\u00a0\u202f]/g, ' ');

describe('/jobs in German and French', () => {
  it('writes the listings, salaries, country and buttons in German, with German numbers', async () => {
    const ctx = createContext({ services: { jobSearch: fakeJobs(async () => PAGE_2) }, language: 'de' });
    const reply = await invoke(
      jobs,
      { what: 'rust developer', where: 'Berlin', country: 'de', page: 2 },
      ctx,
    );
    const embed = onlyEmbed(reply);
    expect(reply.text).toBe('23 Stellen für “rust developer” (Berlin, Deutschland); Seite 2 von 5');
    expect(spaced(embed.description)).toBe('Seite 2 von 5 · Durchschnittsgehalt 71.235 €');
    expect(spaced(embed.fields![0]!.value)).toBe(
      [
        'Ferrous Systems GmbH · Berlin, Deutschland',
        '70.000 €–90.000 € · unbefristet · Vollzeit',
        'Veröffentlicht vor 3 Tagen, 19. Nov. 2026',
        LISTING.url,
      ].join('\n'),
    );
    expect(spaced(embed.fields![1]!.value)).toBe(
      'Berlin\n64.872 € (geschätzt)\nVeröffentlicht vor 3 Stunden, 22. Nov. 2026',
    );
    expect(reply.actions!.map((a) => a.label)).toEqual(['◀ Zurück', 'Weiter ▶']);
  });

  it('writes a page past the end and an empty search in French', async () => {
    const past = await invoke(
      jobs,
      { what: 'nurse', page: 9 },
      createContext({
        services: { jobSearch: fakeJobs(async () => ({ count: 23, meanSalary: undefined, results: [] })) },
        language: 'fr',
      }),
    );
    expect(past.text).toBe('La page 9 est au-delà de la dernière page (5) de “nurse” (Royaume-Uni).');
    expect(onlyEmbed(past).title).toBe('Aucune autre offre');
    expect(onlyEmbed(past).description).toBe('“nurse” (Royaume-Uni) compte 23 offres sur 5 pages.');
    expect(past.actions!.map((a) => a.label)).toEqual(['Dernière page']);
    const none = await invoke(
      jobs,
      { what: 'nurse', country: 'fr' },
      createContext({
        services: { jobSearch: fakeJobs(async () => ({ count: 0, meanSalary: undefined, results: [] })) },
        language: 'fr',
      }),
    );
    expect(none.text).toBe('Aucune offre trouvée pour “nurse” (France).');
    expect(onlyEmbed(none).title).toBe('Aucune offre trouvée');
  });

  it('offers the countries by their German names as a German reader types them', async () => {
    const complete = jobs.autocomplete.country!;
    const ctx = createContext({ language: 'de' });
    expect(await complete('deu', ctx)).toEqual([{ name: 'Deutschland (de)', value: 'de' }]);
  });
});
