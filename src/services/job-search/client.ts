// S8 job search: Adzuna (docs/SERVICES.md S8).
// https://developer.adzuna.com/docs/search — GET /jobs/{country}/search/{page}?app_id=…&app_key=…
import { type CallOptions, type ProviderErrorReader, bodyExcerpt } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { JOB_COUNTRIES, MAX_RESULTS_PER_PAGE, isJobCountry } from '../../domain/job-countries.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { AdzunaErrorResponse, JobSearchResponse, type JobWire, type JobSearchWire } from './schemas.ts';
import { ownEntry } from '../../domain/lookup.ts';

export interface JobSearchConfig {
  baseUrl: string;
  appId: string;
  apiKey: string;
  /** Default country code when a search names none. */
  country: string;
}

const DEFAULT_RESULTS_PER_PAGE = 5;
export { MAX_RESULTS_PER_PAGE };
/** Short: listings change during the day, but paging back and forth should not cost quota (25/min). */
const JOB_SEARCH_CACHE_TTL_MS = 60 * 1000;

interface JobSearchInput {
  /** Lower-case ISO code from JOB_COUNTRIES. */
  country: string;
  /** 1-based. */
  page: number;
  what: string;
  where?: string;
  resultsPerPage?: number;
}

export interface JobListing {
  id: string;
  title: string;
  company: string | undefined;
  location: string | undefined;
  salaryMin: number | undefined;
  salaryMax: number | undefined;
  salaryIsPredicted: boolean;
  created: Date | undefined;
  url: string | undefined;
  contractTime: string | undefined;
  contractType: string | undefined;
}

export interface JobSearchResult {
  count: number;
  results: JobListing[];
  meanSalary: number | undefined;
}

export interface JobSearchClient extends Closable {
  search(input: JobSearchInput, opts?: CallOptions): Promise<JobSearchResult>;
}

const EXCEPTION_CODES: Readonly<Record<string, ServiceErrorCode>> = {
  AUTH_FAIL: 'unauthorized',
  // A 404, but it says the input was wrong, not that nothing matched.
  UNSUPPORTED_COUNTRY: 'invalid_request',
};

export const readJobSearchError: ProviderErrorReader = ({ body, text }) => {
  const parsed = AdzunaErrorResponse.safeParse(body);
  if (!parsed.success) return { message: bodyExcerpt(text) };
  const { exception, display } = parsed.data;
  return {
    message: display ? `${exception}: ${display}` : exception,
    code: ownEntry(EXCEPTION_CODES, exception),
  };
};

/** "1" and 1 mean predicted; "0" is a non-empty string, so a truthiness check would be wrong. */
function isPredicted(value: JobWire['salary_is_predicted']): boolean {
  return value === '1' || value === 1 || value === true;
}

function toDate(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * The largest yearly salary kept, in the country's currency: beyond any real one even in rupees
 * or reais. A salary outside 0 to this (1e308 would print as 400 characters) is left out, as a
 * listing that gives none.
 */
const MAX_SALARY = 1e10;

function salaryOf(value: number | null | undefined): number | undefined {
  return value != null && value >= 0 && value <= MAX_SALARY ? value : undefined;
}

function toListing(w: JobWire): JobListing {
  return {
    id: String(w.id),
    title: w.title,
    company: w.company?.display_name ?? undefined,
    location: w.location?.display_name ?? undefined,
    salaryMin: salaryOf(w.salary_min),
    salaryMax: salaryOf(w.salary_max),
    salaryIsPredicted: isPredicted(w.salary_is_predicted),
    created: toDate(w.created),
    url: w.redirect_url ?? undefined,
    contractTime: w.contract_time ?? undefined,
    contractType: w.contract_type ?? undefined,
  };
}

/**
 * The answer as the client hands it on (and caches it): at most the largest page, since no page
 * asked for is longer, and a longer list (12,000 listings fit in the body bound) would be mapped
 * and cached for listings nobody is shown.
 */
export function toJobSearchResult(wire: JobSearchWire): JobSearchResult {
  return {
    count: wire.count,
    results: wire.results.slice(0, MAX_RESULTS_PER_PAGE).map(toListing),
    meanSalary: salaryOf(wire.mean),
  };
}

function rejected(reason: string): ServiceError {
  return new ServiceError({
    service: 'jobSearch',
    operation: 'search',
    code: 'invalid_request',
    message: `jobSearch.search not sent: ${reason}`,
  });
}

export function createJobSearchClient(config: JobSearchConfig, deps: ClientDeps = {}): JobSearchClient {
  const http = createServiceHttp(deps, {
    secrets: [config.apiKey, config.appId],
    service: 'jobSearch',
    baseUrl: config.baseUrl,
    // Adzuna takes app_id and app_key as query parameters; the key goes as X-API-Key too.
    headers: { 'x-api-key': config.apiKey },
    readError: readJobSearchError,
  });

  return {
    async search(input, opts) {
      const country = (input.country || config.country).trim().toLowerCase();
      if (!isJobCountry(country)) {
        throw rejected(`"${country.slice(0, 10)}" is not one of ${JOB_COUNTRIES.join(', ')}`);
      }
      if (!Number.isInteger(input.page) || input.page < 1)
        throw rejected('the page must be a whole number from 1');
      const perPage = input.resultsPerPage ?? DEFAULT_RESULTS_PER_PAGE;
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_RESULTS_PER_PAGE) {
        throw rejected(`results per page must be from 1 to ${MAX_RESULTS_PER_PAGE}`);
      }
      const what = input.what.trim();
      const where = input.where?.trim();
      return http.send(
        {
          service: 'jobSearch',
          operation: 'search',
          method: 'GET',
          path: path`/jobs/${country}/search/${input.page}`,
          // URLSearchParams joins the words of `what` with plus signs, the form Adzuna documents.
          query: {
            results_per_page: perPage,
            what: what === '' ? undefined : what,
            where: where === '' ? undefined : where,
            app_id: config.appId,
            app_key: config.apiKey,
          },
          cacheTtlMs: JOB_SEARCH_CACHE_TTL_MS,
        },
        JobSearchResponse,
        opts,
        toJobSearchResult,
      );
    },

    close: () => http.close(),
  };
}
