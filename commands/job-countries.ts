// The job search's countries and their currencies. Commands may not import service values, so
// this copy of S8's list must stay equal to API-NOTES.md ("Countries": the 19 in the live 404
// text) and to src/services/job-search's JOB_COUNTRIES; a test compares them.
import { LOCALE } from './format.ts';

/** ISO 4217 currency of each supported country, in the order of the provider's error text. */
export const JOB_COUNTRY_CURRENCIES: Readonly<Record<string, string>> = {
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
};

export const JOB_COUNTRIES: readonly string[] = Object.keys(JOB_COUNTRY_CURRENCIES);

export function isJobCountry(code: string): boolean {
  return Object.hasOwn(JOB_COUNTRY_CURRENCIES, code);
}

const regionNames = new Intl.DisplayNames(LOCALE, { type: 'region' });

/** "de" -> "Germany". */
export function countryName(code: string): string {
  return regionNames.of(code.toUpperCase()) ?? code.toUpperCase();
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** 54321.7 in gb -> "£54,322"; whole units, since salaries are estimates anyway. */
export function formatMoney(amount: number, country: string): string {
  const currency = JOB_COUNTRY_CURRENCIES[country] ?? 'EUR';
  let format = moneyFormats.get(currency);
  if (format === undefined) {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, maximumFractionDigits: 0 });
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

/**
 * "£50,000–£65,000", "from £50,000", "up to €40,000", marked "(est.)" when the provider predicted
 * it; undefined when the listing has no salary.
 */
export function formatSalary(
  min: number | undefined,
  max: number | undefined,
  country: string,
  isPredicted: boolean,
): string | undefined {
  let text: string;
  if (min !== undefined && max !== undefined) {
    const [low, high] = min <= max ? [min, max] : [max, min];
    text =
      Math.round(low) === Math.round(high)
        ? formatMoney(low, country)
        : `${formatMoney(low, country)}–${formatMoney(high, country)}`;
  } else if (min !== undefined) {
    text = `from ${formatMoney(min, country)}`;
  } else if (max !== undefined) {
    text = `up to ${formatMoney(max, country)}`;
  } else {
    return undefined;
  }
  return isPredicted ? `${text} (est.)` : text;
}

/** Autocomplete for the country option: codes or names that start with (or contain) the text. */
export function countryChoices(partial: string): { name: string; value: string }[] {
  const q = partial.trim().toLowerCase();
  const all = JOB_COUNTRIES.map((code) => ({ code, name: countryName(code) }));
  const starts = all.filter((c) => c.code.startsWith(q) || c.name.toLowerCase().startsWith(q));
  const contains = all.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, 25).map((c) => ({ name: `${c.name} (${c.code})`, value: c.code }));
}
