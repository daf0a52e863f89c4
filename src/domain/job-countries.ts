// The job search's countries (the 19 that Adzuna's live UNSUPPORTED_COUNTRY error lists)
// and the ISO 4217 currency of each, in the order of that error text.

export const JOB_COUNTRY_CURRENCIES: Readonly<Record<string, string>> = Object.freeze({
  at: 'EUR',
  au: 'AUD',
  be: 'EUR',
  br: 'BRL',
  ca: 'CAD',
  ch: 'CHF',
  de: 'EUR',
  es: 'EUR',
  fr: 'EUR',
  gb: 'GBP',
  in: 'INR',
  it: 'EUR',
  mx: 'MXN',
  nl: 'EUR',
  nz: 'NZD',
  pl: 'PLN',
  sg: 'SGD',
  us: 'USD',
  za: 'ZAR',
});

/** Lower-case ISO 3166 codes. */
export const JOB_COUNTRIES: readonly string[] = Object.freeze(Object.keys(JOB_COUNTRY_CURRENCIES));

/** The country searched when JOBS_COUNTRY is not set. */
export const DEFAULT_JOB_COUNTRY = 'gb';

/** True for a listed lower-case code, and never for an inherited property name. */
export function isJobCountry(code: string): boolean {
  return Object.hasOwn(JOB_COUNTRY_CURRENCIES, code);
}

/** The most listings the job search returns a page (docs/SERVICES.md S8 `results_per_page`). */
export const MAX_RESULTS_PER_PAGE = 50;
