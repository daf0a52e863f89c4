import { describe, expect, it } from 'vitest';
import { isJobCountry, JOB_COUNTRIES, JOB_COUNTRY_CURRENCIES } from '../../src/domain/job-countries.ts';
import { countryName, formatMoney, formatSalary } from '../../commands/jobs-format.ts';

// The 19 codes that Adzuna's live UNSUPPORTED_COUNTRY error lists, copied here by hand.
const ADZUNA_COUNTRIES = 'at, au, be, br, ca, ch, de, es, fr, gb, in, it, mx, nl, nz, pl, sg, us, za';

describe('job countries', () => {
  it("equals the 19 countries Adzuna's error lists", () => {
    expect(JOB_COUNTRIES.join(', ')).toBe(ADZUNA_COUNTRIES);
  });

  it('knows the currency of each country', () => {
    expect(JOB_COUNTRY_CURRENCIES).toMatchObject({
      gb: 'GBP',
      us: 'USD',
      de: 'EUR',
      fr: 'EUR',
      it: 'EUR',
      es: 'EUR',
      nl: 'EUR',
      at: 'EUR',
      be: 'EUR',
      ca: 'CAD',
      au: 'AUD',
      nz: 'NZD',
      in: 'INR',
      br: 'BRL',
      pl: 'PLN',
      sg: 'SGD',
      za: 'ZAR',
      mx: 'MXN',
      ch: 'CHF',
    });
  });

  it('accepts only the listed codes, and no inherited property names', () => {
    expect(isJobCountry('de')).toBe(true);
    expect(isJobCountry('ru')).toBe(false);
    expect(isJobCountry('xx')).toBe(false);
    expect(isJobCountry('constructor')).toBe(false);
  });

  it('names countries in English', () => {
    expect(countryName('de')).toBe('Germany');
    expect(countryName('gb')).toBe('United Kingdom');
  });
});

describe('formatSalary', () => {
  it("writes a range in the country's currency", () => {
    expect(formatSalary(50000, 65000, 'gb', false)).toBe('£50,000–£65,000');
    expect(formatSalary(60000, 80000, 'de', false)).toBe('€60,000–€80,000');
    expect(formatSalary(120000, 150000, 'us', false)).toBe('US$120,000–US$150,000');
    expect(formatSalary(90000, 110000, 'ch', false)).toBe('CHF\u00a090,000–CHF\u00a0110,000');
    expect(formatSalary(1200000, 1800000, 'in', false)).toBe('₹1,200,000–₹1,800,000');
  });

  it('marks a predicted salary as an estimate and rounds its decimals', () => {
    expect(formatSalary(47993.64, 47993.64, 'gb', true)).toBe('£47,994 (est.)');
  });

  it('handles a missing bound and a reversed range', () => {
    expect(formatSalary(30000, undefined, 'au', false)).toBe('from A$30,000');
    expect(formatSalary(undefined, 40000, 'nl', false)).toBe('up to €40,000');
    expect(formatSalary(70000, 50000, 'ca', false)).toBe('CA$50,000–CA$70,000');
    expect(formatSalary(undefined, undefined, 'gb', false)).toBeUndefined();
  });

  it('formats an average in whole units', () => {
    expect(formatMoney(54321.77, 'gb')).toBe('£54,322');
  });
});
