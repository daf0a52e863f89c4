// The one formatting module (one fact in one place): numbers, measured quantities,
// percentages and changes, byte sizes, dates and ages, and bounded echoes of text. Commands,
// jobs and adapters all import it, so a reply never shows "18 KB" beside "18.4 kB" or "5 °C"
// beside "5.3 °C". A leaf but for the domain's text rules. en-GB unless a reader's locale is
// given (the command's `ctx.locale`); dates in UTC, or in the zone asked for.

import { truncate } from './domain/text.ts';

// The one truncate, for the commands that take their formatting from here (commands/format.ts).
export { truncate };

export const LOCALE = 'en-GB';

/**
 * What a number that cannot be shown reads as: a provider's value that is not finite or outside
 * its unit's sane range (the service clients turn those into NaN), or an invalid date.
 */
export const NOT_AVAILABLE = 'not available';

const isShown = (value: number) => Number.isFinite(value);

const DAY_MS = 86_400_000;

// Built on first use, not at import: the first Intl object maps several MB of ICU's data and code,
// which an idle bot need not hold. One of each per locale a reader uses.
type Format =
  Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.NumberFormat | Intl.ListFormat | Intl.PluralRules;
const formats = new Map<string, Format>();
function cached<F extends Format>(key: string, build: () => F): F {
  let format = formats.get(key) as F | undefined;
  if (!format) {
    format = build();
    formats.set(key, format);
  }
  return format;
}
const dateFormatter = (locale: string) =>
  cached(
    `date|${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
  );
const dayFormatter = (locale: string) =>
  cached(
    `day|${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }),
  );
const timeFormatter = (locale: string) =>
  cached(
    `time|${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: 'UTC',
      }),
  );
const relativeFormatter = (locale: string) =>
  cached(`relative|${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));

/**
 * 1234.5 -> "1,235" (a count); with `digits`, exactly that many decimals: 5 -> "5.0", 25.33 ->
 * "25.3". Measured values always keep their decimals, so they line up and read alike.
 */
export function formatNumber(value: number, digits = 0, locale = LOCALE): string {
  if (!isShown(value)) return NOT_AVAILABLE;
  // signDisplay 'negative': -0.04 to one decimal is "0.0", not "-0.0".
  const format = cached(
    `number|${digits}|${locale}`,
    () =>
      new Intl.NumberFormat(locale, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
        signDisplay: 'negative',
      }),
  );
  return format.format(value);
}

/** A measured value with its unit, one decimal unless told: "5.0 °C", "3.4 m/s". */
export function formatQuantity(value: number, unit: string, digits = 1, locale = LOCALE): string {
  if (!isShown(value)) return NOT_AVAILABLE;
  return `${formatNumber(value, digits, locale)} ${unit}`;
}

/** A percentage given in percent (37.94 -> "37.9%"); one decimal unless told. */
export function formatPercent(percent: number, digits = 1, locale = LOCALE): string {
  if (!isShown(percent)) return NOT_AVAILABLE;
  // German and French write a space before the sign ("37,9 %"), as Intl's percent style does.
  return `${formatNumber(percent, digits, locale)}${locale === LOCALE ? '' : '\u00a0'}%`;
}

/** A share given as a ratio (0.3794 -> "37.9%"). */
export function formatRatio(ratio: number, digits = 1): string {
  return formatPercent(ratio * 100, digits);
}

/** Change from `previous` to `current` in percent; 'new' when there was nothing before. */
export function percentChange(current: number, previous: number): number | 'new' {
  if (previous === 0) return current === 0 ? 0 : 'new';
  return ((current - previous) / Math.abs(previous)) * 100;
}

/** The arrows of a change; one pair everywhere (replies and webhook reports). */
export const CHANGE_ARROWS = Object.freeze({ up: '↑', down: '↓' });

/** The words of a change that is no number, in the reader's language. */
const CHANGE_WORDS = { isNew: 'new', none: 'no change', notAvailable: NOT_AVAILABLE };

/**
 * "↑ 12.5%", "↓ 3.0%", "no change" (under 0.05%), "new". Always one decimal; in `locale`, with
 * `words` for the reader's language.
 */
export function formatChange(change: number | 'new', words = CHANGE_WORDS, locale = LOCALE): string {
  if (change === 'new') return words.isNew;
  if (!isShown(change)) return words.notAvailable;
  const rounded = Math.round(change * 10) / 10;
  if (rounded === 0) return words.none;
  return `${rounded > 0 ? CHANGE_ARROWS.up : CHANGE_ARROWS.down} ${formatPercent(Math.abs(rounded), 1, locale)}`;
}

const currencyFormats = new Map<string, Intl.NumberFormat>();

/** 54321.7 GBP -> "£54,322" (whole units unless told); a code Intl does not know: "54,322 XYZ". */
export function formatCurrency(amount: number, currency: string, digits = 0, locale = LOCALE): string {
  if (!isShown(amount)) return NOT_AVAILABLE;
  const key = `${currency}|${digits}|${locale}`;
  let format = currencyFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    } catch {
      return `${formatNumber(amount, digits, locale)} ${currency}`;
    }
    currencyFormats.set(key, format);
  }
  return format.format(amount);
}

/** A length of time: "45s", "2m 05s", "1h 20m". */
export function formatDuration(totalSeconds: number): string {
  if (!isShown(totalSeconds)) return NOT_AVAILABLE;
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m ${String(s % 60).padStart(2, '0')}s`;
}

/** A latitude or longitude to five decimals, about a metre: "48.8584", "-0.12763". */
export function formatCoordinate(value: number): string {
  if (!isShown(value)) return NOT_AVAILABLE;
  return String(Number(value.toFixed(5)));
}

/** Byte sizes in binary units, one decimal above a KiB: "812 B", "11.4 KiB", "2.0 MiB". */
export function formatBytes(bytes: number, locale = LOCALE): string {
  if (!isShown(bytes)) return NOT_AVAILABLE;
  if (bytes < 1024) return `${formatNumber(bytes, 0, locale)} B`;
  if (bytes < 1024 * 1024) return formatQuantity(bytes / 1024, 'KiB', 1, locale);
  if (bytes < 1024 ** 3) return formatQuantity(bytes / 1024 ** 2, 'MiB', 1, locale);
  return formatQuantity(bytes / 1024 ** 3, 'GiB', 1, locale);
}

/** "19 Nov 2026" (UTC). */
export function formatDate(date: Date, locale = LOCALE): string {
  if (!isShown(date.getTime())) return NOT_AVAILABLE;
  return dateFormatter(locale).format(date);
}

/** "Thu 19 Nov" (the UTC fields of `date`: shift it first for a city's wall clock). */
export function formatDay(date: Date, locale = LOCALE): string {
  if (!isShown(date.getTime())) return NOT_AVAILABLE;
  return dayFormatter(locale).format(date);
}

/** "19 Nov 2026, 14:05 UTC". */
export function formatDateTime(date: Date, locale = LOCALE): string {
  if (!isShown(date.getTime())) return NOT_AVAILABLE;
  return `${dateFormatter(locale).format(date)}, ${timeFormatter(locale).format(date)} UTC`;
}

/** An instant as people read it in `zone` (an IANA name): "Mon, 24 Nov 2025, 07:30 CET". */
export function formatInZone(at: Date, zone: string, locale = LOCALE): string {
  if (!isShown(at.getTime())) return NOT_AVAILABLE;
  // One formatter per zone and locale a reader or a schedule uses, each built on first use.
  const format = cached(
    `zone|${zone}|${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        ...{ timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
        ...{ hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' },
      }),
  );
  return format.format(at);
}

// One formatter per zone for the wall clock an instant shows there: the one reader of a zone's
// calendar and clock for scheduling (src/schedule/when.ts) and holiday lookups (src/holidays.ts).
const wallFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall clock `ms` shows in `zone` (an IANA name), as the UTC instant with the same year, month,
 * day, hour, minute, second and millisecond (`Date.UTC` of them).
 */
export function wallClockIn(ms: number, zone: string): number {
  if (zone === 'UTC') return ms;
  let format = wallFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormats.set(zone, format);
  }
  const f: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') f[part.type] = Number(part.value);
  const wall = Date.UTC(f.year!, f.month! - 1, f.day, f.hour, f.minute, f.second);
  return wall + (((ms % 1000) + 1000) % 1000);
}

/** An ISO 8601 instant as formatDateTime does; text that is not a date is returned as it is. */
export function formatIsoDateTime(iso: string): string {
  // No ISO 8601 instant is this long; Date would still read all of a 1 MB text to say so.
  if (iso.length > 64) return iso;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatDateTime(date);
}

/** Whole UTC calendar days from `now` to `date` (negative in the past). */
function calendarDays(date: Date, now: Date): number {
  return Math.round((startOfUtcDay(date) - startOfUtcDay(now)) / DAY_MS);
}

function startOfUtcDay(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/**
 * "just now", "5 minutes ago", "3 hours ago" within the same day; from the day before on, by
 * calendar days (so it agrees with the date written beside it): "yesterday", "3 days ago",
 * "12 days ago", "4 weeks ago", "3 months ago", "last year"; the future alike ("in 2 hours").
 */
export function formatRelative(date: Date, now: Date, locale = LOCALE): string {
  const diffMs = date.getTime() - now.getTime();
  if (!isShown(diffMs)) return NOT_AVAILABLE;
  const relative = (value: number, unit: Intl.RelativeTimeFormatUnit) =>
    relativeFormatter(locale).format(value, unit);
  // "just now" in the reader's words: Intl's "now" for 0 seconds ("jetzt", "maintenant").
  if (Math.abs(diffMs) < 60_000) return locale === LOCALE ? 'just now' : relative(0, 'second');
  if (Math.abs(diffMs) < 3_600_000) return relative(Math.trunc(diffMs / 60_000), 'minute');
  const days = calendarDays(date, now);
  if (days === 0) return relative(Math.trunc(diffMs / 3_600_000), 'hour');
  const size = Math.abs(days);
  if (size < 14) return relative(days, 'day');
  if (size < 60) return relative(Math.round(days / 7), 'week');
  if (size < 365) return relative(Math.round(days / 30.44), 'month');
  return relative(Math.trunc(days / 365.25) || Math.sign(days), 'year');
}

/** "3 days ago, 19 Nov 2026": relative for reading, absolute for reference. */
export function formatAge(date: Date, now: Date, locale = LOCALE): string {
  if (!isShown(date.getTime())) return NOT_AVAILABLE;
  return `${formatRelative(date, now, locale)}, ${formatDate(date, locale)}`;
}

/** "1 voice", "42 voices". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : pluralForm}`;
}

/** Echoes user text inside quotes, on one line and bounded, so it cannot break the layout. */
export function quote(text: string, max = 80): string {
  return `“${truncate(text, max, { oneLine: true })}”`;
}

/** "a, b and c" (`and`) or "a, b or c" (`or`), in the words of `locale`. */
export function formatList(items: readonly string[], kind: 'and' | 'or', locale = LOCALE): string {
  const type = kind === 'and' ? 'conjunction' : 'disjunction';
  return cached(`list|${type}|${locale}`, () => new Intl.ListFormat(locale, { type })).format(items);
}

/** `count`'s plural category in `locale` ("one", "other"), as i18next picks a message's form. */
export function pluralCategory(count: number, locale = LOCALE): Intl.LDMLPluralRule {
  return cached(`plural|${locale}`, () => new Intl.PluralRules(locale)).select(count);
}

/** "London, United Kingdom"; a part that repeats an earlier one is left out ("United Kingdom"). */
export function joinPlace(...parts: (string | undefined)[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    const text = part?.trim() ?? '';
    const key = text.normalize('NFKC').toLocaleLowerCase(LOCALE);
    if (text === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out.join(', ');
}
