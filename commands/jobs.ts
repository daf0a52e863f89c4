// /jobs what [where] [country] [page]: a page of S8 job listings with salaries in the country's
// currency, and buttons that re-run the same search one page back or on.
import { z } from 'zod';
import { defineCommand, type CommandContext } from '../src/core/command.ts';
import type { Action, EmbedField, Reply } from '../src/core/reply.ts';
import type { CommandWatch } from '../src/core/watch-contract.ts';
import type { JobListing, JobSearchResult } from '../src/services/job-search/client.ts';
import { formatAge, formatNumber, joinPlace, quote, truncate } from './format.ts';
import { JOB_COUNTRIES, MAX_RESULTS_PER_PAGE, isJobCountry } from '../src/domain/job-countries.ts';
import { countryChoices, countryName, formatMoney, formatSalary } from './jobs-format.ts';

interface JobsCommandOptions {
  /** JOBS_COUNTRY: the country searched when the input names none. */
  defaultCountry: string;
}

/** Whom a reply is written for: their language's messages and the locale of its numbers. */
type Reader = Pick<CommandContext, 't' | 'locale'>;

// The provider's contract words that the catalogue names; another is shown as it comes.
const TERMS = {
  permanent: 'permanent',
  contract: 'contract',
  full_time: 'fullTime',
  part_time: 'partTime',
} as const;

function termText(term: string, { t }: Reader): string {
  const key = Object.hasOwn(TERMS, term) ? TERMS[term as keyof typeof TERMS] : undefined;
  return key === undefined ? term.replace('_', ' ') : t(`jobs:terms.${key}`);
}

/** Five listings fit an embed comfortably (and a phone screen). */
export const RESULTS_PER_PAGE = 5;

function listingValue(job: JobListing, country: string, now: Date, reader: Reader): string {
  const { t, locale } = reader;
  const where = [job.company, job.location].filter((part) => part !== undefined).join(' · ');
  const terms = [job.contractType, job.contractTime]
    .filter((term) => term !== undefined)
    .map((term) => termText(term, reader));
  const salary = formatSalary(job.salaryMin, job.salaryMax, country, job.salaryIsPredicted, t, locale);
  return [
    where || t('jobs:noCompany'),
    [salary ?? t('jobs:noSalary'), ...terms].join(' · '),
    job.created ? t('jobs:posted', { age: formatAge(job.created, now, locale) }) : undefined,
    job.url,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}

/** One page of a search, as asked and as found. */
interface JobsPage {
  what: string;
  where: string | undefined;
  country: string;
  page: number;
  size: number;
  lastPage: number;
}

/** "“rust” in Berlin, Germany": the search as the replies name it. */
function searchText(p: JobsPage, { t, locale }: Reader): string {
  const place = joinPlace(
    p.where === undefined ? undefined : truncate(p.where, 60, { oneLine: true }),
    countryName(p.country, locale),
  );
  return t('jobs:search', { what: quote(p.what, 60), place });
}

/** A button that re-runs the same search on page `target`. */
function pageAction(p: JobsPage, label: string, target: number): Action {
  const { what, where, country, size } = p;
  return {
    label,
    command: 'jobs',
    input: {
      what,
      ...(where === undefined ? {} : { where }),
      country,
      page: target,
      ...(size === RESULTS_PER_PAGE ? {} : { size }),
    },
  };
}

/** The answer when the page has no listing: none match, or the page is past the last one. */
function noListingsReply(p: JobsPage, count: number, reader: Reader): Reply {
  const { t, locale } = reader;
  const search = searchText(p, reader);
  if (count === 0) {
    return {
      text: t('jobs:none.text', { search }),
      embeds: [
        {
          title: t('jobs:none.title'),
          description: t('jobs:none.description', { search }),
          color: 'warning',
        },
      ],
    };
  }
  const listings = t('jobs:pastEnd.listings', { count, n: formatNumber(count, 0, locale) });
  const pages = t('jobs:pastEnd.pages', { count: p.lastPage, n: formatNumber(p.lastPage, 0, locale) });
  return {
    text: t('jobs:pastEnd.text', { page: p.page, last: p.lastPage, search }),
    embeds: [
      {
        title: t('jobs:pastEnd.title'),
        description: t('jobs:pastEnd.description', { search, listings, pages }),
        color: 'warning',
      },
    ],
    actions: [pageAction(p, t('jobs:pastEnd.lastPage'), p.lastPage)],
  };
}

/** The listings a reply shows, each with its field: what a watch of /jobs tells apart. */
interface ShownListings {
  shown: { job: JobListing; field: EmbedField }[];
}

/** A watch of /jobs reads the first page only, as large as the provider allows, and says so. */
export const FIRST_PAGE_NOTE = `This watch reads the first page of results only (up to ${MAX_RESULTS_PER_PAGE} listings).`;

/**
 * A listing is new when its link (which carries the listing id) was not posted before: what the
 * text around it says (title, salary, age) may change without making it new.
 */
const jobsWatch: CommandWatch<ShownListings> = {
  mode: 'new',
  items: ({ shown }) =>
    shown.map(({ job, field }) => ({ key: job.url ?? `listing ${job.id}`, text: field.name, field })),
  noun: ['listing', 'listings'],
  note: FIRST_PAGE_NOTE,
  // One read of the first page sees as many listings as it can, unless the creator named a size.
  input: (args) => (/(^|\s)size:/i.test(args) ? args : `${args} size:${MAX_RESULTS_PER_PAGE}`),
  refuse: (line) =>
    /(^|\s)page:/i.test(line)
      ? 'A /jobs watch reads the first page of results only (the largest the provider gives); leave out page:.'
      : undefined,
};

/** A page of listings, numbered across pages, with Previous and Next buttons where there are pages. */
function listingsReply(
  p: JobsPage,
  result: JobSearchResult,
  now: Date,
  reader: Reader,
): { reply: Reply; data: ShownListings } {
  const { t, locale } = reader;
  const { page, size, lastPage, country } = p;
  const search = searchText(p, reader);
  const mean = result.meanSalary === undefined ? undefined : formatMoney(result.meanSalary, country, locale);
  const actions: Action[] = [];
  if (page > 1) actions.push(pageAction(p, t('jobs:found.previous'), Math.min(page - 1, lastPage)));
  if (page < lastPage) actions.push(pageAction(p, t('jobs:found.next'), page + 1));
  const shown = result.results.slice(0, size).map((job, i) => ({
    job,
    field: {
      name: `${(page - 1) * size + i + 1}. ${truncate(job.title, 200, { oneLine: true })}`,
      value: listingValue(job, country, now, reader),
    },
  }));
  const found = { count: result.count, n: formatNumber(result.count, 0, locale), search };
  const last = formatNumber(lastPage, 0, locale);
  const pageLine = t('jobs:found.page', { page, last });
  const reply: Reply = {
    text: t('jobs:found.text', { ...found, page, last }),
    embeds: [
      {
        title: t('jobs:found.title', found),
        description: mean ? `${pageLine} · ${t('jobs:found.average', { amount: mean })}` : pageLine,
        color: 'info',
        fields: shown.map((s) => s.field),
      },
    ],
    ...(actions.length > 0 ? { actions } : {}),
  };
  return { reply, data: { shown } };
}

export function createJobsCommand(opts: JobsCommandOptions) {
  return defineCommand({
    name: 'jobs',
    description: 'Search job listings in one country, page by page',
    options: z.object({
      what: z.string().trim().min(1).max(100).describe('Search terms, e.g. "rust developer"'),
      where: z.string().trim().min(1).max(100).optional().describe('Town, city or region'),
      country: z
        .string()
        .trim()
        .toLowerCase()
        .length(2)
        .refine(isJobCountry, {
          error: (issue) =>
            `The job search does not cover ${quote(String(issue.input), 10)}; use one of ${JOB_COUNTRIES.join(', ')}.`,
        })
        .optional()
        .describe(`Two-letter country code: ${JOB_COUNTRIES.join(', ')}`),
      page: z.number().int().min(1).max(1000).default(1).describe('Page of results, from 1'),
      size: z
        .number()
        .int()
        .min(1)
        .max(MAX_RESULTS_PER_PAGE)
        .default(RESULTS_PER_PAGE)
        .describe(`Listings per page, from 1 to ${MAX_RESULTS_PER_PAGE} (default ${RESULTS_PER_PAGE})`),
    }),
    positional: ['what'],
    needs: ['jobSearch'],
    autocomplete: { country: (partial, ctx) => Promise.resolve(countryChoices(partial, ctx.locale)) },
    examples: ['/jobs typescript', '/jobs what:"rust developer" where:Berlin country:de page:2'],
    watch: jobsWatch,
    async handler(input, ctx) {
      // The configured default was checked at start (JOBS_COUNTRY), a given one by the schema.
      const country = input.country ?? opts.defaultCountry;
      const { what, where, page, size } = input;
      const result = await ctx.services.jobSearch.search(
        { country, page, what, ...(where === undefined ? {} : { where }), resultsPerPage: size },
        { signal: ctx.signal },
      );
      const found: JobsPage = {
        what,
        where,
        country,
        page,
        size,
        lastPage: Math.max(1, Math.ceil(result.count / size)),
      };
      if (result.count === 0 || result.results.length === 0) return noListingsReply(found, result.count, ctx);
      return listingsReply(found, result, ctx.now(), ctx);
    },
  });
}
