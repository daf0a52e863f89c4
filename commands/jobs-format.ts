// How the job search's countries read: their names, salaries in their currencies, and the
// country option's autocomplete. The countries themselves are domain facts (src/domain).
import { JOB_COUNTRIES, JOB_COUNTRY_CURRENCIES } from '../src/domain/job-countries.ts';
import { formatCurrency, LOCALE } from './format.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';
import { english, type Translate } from '../src/i18n/translate.ts';

// Built on the first name asked for in each locale: an Intl object at import would map ICU's
// data at start-up.
const regionNames = new Map<string, Intl.DisplayNames>();

/** "de" -> "Germany" ("Deutschland" in German). */
export function countryName(code: string, locale = LOCALE): string {
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames(locale, { type: 'region' });
    regionNames.set(locale, names);
  }
  return names.of(code.toUpperCase()) ?? code.toUpperCase();
}

/** 54321.7 in gb -> "£54,322"; whole units, since salaries are estimates anyway. */
export function formatMoney(amount: number, country: string, locale = LOCALE): string {
  return formatCurrency(amount, JOB_COUNTRY_CURRENCIES[country] ?? 'EUR', 0, locale);
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
  t: Translate = english,
  locale = LOCALE,
): string | undefined {
  const money = (amount: number) => formatMoney(amount, country, locale);
  let text: string;
  if (min !== undefined && max !== undefined) {
    const [low, high] = min <= max ? [min, max] : [max, min];
    text = Math.round(low) === Math.round(high) ? money(low) : `${money(low)}–${money(high)}`;
  } else if (min !== undefined) {
    text = t('jobs:salary.from', { amount: money(min) });
  } else if (max !== undefined) {
    text = t('jobs:salary.upTo', { amount: money(max) });
  } else {
    return undefined;
  }
  return isPredicted ? t('jobs:salary.estimated', { salary: text }) : text;
}

/** Autocomplete for the country option: codes or names that start with (or contain) the text. */
export function countryChoices(partial: string, locale = LOCALE): { name: string; value: string }[] {
  const q = partial.trim().toLowerCase();
  const all = JOB_COUNTRIES.map((code) => ({ code, name: countryName(code, locale) }));
  const starts = all.filter((c) => c.code.startsWith(q) || c.name.toLowerCase().startsWith(q));
  const contains = all.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains]
    .slice(0, DISCORD_LIMITS.autocompleteChoices)
    .map((c) => ({ name: `${c.name} (${c.code})`, value: c.code }));
}
