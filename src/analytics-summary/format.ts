// Pure text helpers of the analytics summary: metric and dimension labels, values by GA4 metric
// type (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/MetricType)
// and text sparklines, in the reader's language (src/i18n/report.ts) and locale. Numbers,
// percentages and changes come from the one formatting module.
import { ownEntry } from '../domain/lookup.ts';
import { LOCALE, formatNumber, formatPercent } from '../format.ts';
import { report } from '../i18n/report.ts';
import { english, type MessageKey, type Translate } from '../i18n/translate.ts';

/** The reader's language: its messages and the locale of its numbers and dates. */
export interface SummaryLanguage {
  t: Translate;
  locale: string;
}

/** The job's: its webhook post and email have no reader whose language is known. */
export const ENGLISH_SUMMARY: SummaryLanguage = { t: english, locale: LOCALE };

const METRICS = report['en-GB'].metrics;
const DIMENSIONS = report['en-GB'].dimensions;

/** "averageSessionDuration" -> "Average session duration" for names without a label. */
function humanize(name: string): string {
  const words = name
    .replace(/^custom(Event|User):/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_:]+/g, ' ')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A metric's name as GA4 shows it, in the reader's language; other metrics' names humanized. */
export function metricLabel(name: string, { t }: SummaryLanguage = ENGLISH_SUMMARY): string {
  return Object.hasOwn(METRICS, name) ? t(`report:metrics.${name}` as MessageKey) : humanize(name);
}

/** A dimension's rows, as a plural noun: "countries". */
export function dimensionLabel(name: string, { t }: SummaryLanguage = ENGLISH_SUMMARY): string {
  return Object.hasOwn(DIMENSIONS, name)
    ? t(`report:dimensions.${name}` as MessageKey)
    : humanize(name).toLowerCase();
}

/** A label inside a sentence: lower case, but in German, whose nouns keep their capital. */
export function inSentence(label: string, { locale }: SummaryLanguage): string {
  return locale === 'de' ? label : label.toLocaleLowerCase(locale);
}

function duration(totalSeconds: number): string {
  const s = Math.round(totalSeconds);
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
}

function money(value: number, currency: string | undefined, locale: string): string {
  if (currency === undefined) return formatNumber(value, 2, locale);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
  } catch {
    return `${formatNumber(value, 2, locale)} ${currency}`; // not an ISO 4217 code Intl knows
  }
}

const UNITS: Readonly<Record<string, string>> = {
  TYPE_FEET: 'ft',
  TYPE_MILES: 'mi',
  TYPE_METERS: 'm',
  TYPE_KILOMETERS: 'km',
};

/**
 * A metric value as people read it, in the reader's locale: 1,234; US$1,200.50; 1m 34s; 52.3% for
 * GA4's 0–1 rates.
 */
export function formatMetric(
  value: number,
  type: string,
  opts: { name: string; currency?: string | undefined },
  lang: SummaryLanguage = ENGLISH_SUMMARY,
): string {
  const { locale } = lang;
  if (!Number.isFinite(value)) return lang.t('common:notAvailable');
  switch (type) {
    case 'TYPE_INTEGER':
      return formatNumber(value, 0, locale);
    case 'TYPE_CURRENCY':
      return money(value, opts.currency, locale);
    case 'TYPE_SECONDS':
      return duration(value);
    case 'TYPE_MILLISECONDS':
      return duration(value / 1000);
    case 'TYPE_MINUTES':
      return duration(value * 60);
    case 'TYPE_HOURS':
      return duration(value * 3600);
    default: {
      if (/Rate$/.test(opts.name) && value >= 0 && value <= 1) return formatPercent(value * 100, 1, locale);
      const unit = ownEntry(UNITS, type);
      const number = formatNumber(value, 2, locale);
      return unit === undefined ? number : `${number} ${unit}`;
    }
  }
}

export const SPARK_CHARS = '▁▂▃▄▅▆▇█';
/** A sparkline longer than this averages neighbouring days, so that it fits on one line. */
export const MAX_SPARK_POINTS = 31;

function downsample(values: readonly number[], max: number): number[] {
  if (values.length <= max) return [...values];
  const out: number[] = [];
  for (let i = 0; i < max; i++) {
    const slice = values.slice(
      Math.floor((i * values.length) / max),
      Math.floor(((i + 1) * values.length) / max),
    );
    out.push(slice.reduce((a, b) => a + b, 0) / slice.length);
  }
  return out;
}

/** One character per value, lowest ▁ to highest █; a flat series is ▄ (or ▁ when all zero). */
export function sparkline(values: readonly number[]): string {
  const points = downsample(values.filter(Number.isFinite), MAX_SPARK_POINTS);
  if (points.length === 0) return '';
  const min = Math.min(...points);
  const max = Math.max(...points);
  const top = SPARK_CHARS.length - 1;
  return points
    .map((v) => {
      if (max === min) return max === 0 ? SPARK_CHARS[0] : SPARK_CHARS[3];
      return SPARK_CHARS[Math.round(((v - min) / (max - min)) * top)];
    })
    .join('');
}

/** Escapes Discord markdown in data (page titles, city names) so that it shows as typed. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|>[\]]/g, (c) => `\\${c}`);
}
