// Shared formatting for command replies: numbers, dates (relative and absolute), percent changes
// and length bounds. One locale (en-GB) everywhere, so every reply reads the same way.

export const LOCALE = 'en-GB';

const integerFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const dateFormat = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const timeFormat = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
const relativeFormat = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' });

/** 1234.5 -> "1,235"; with digits, up to that many decimals: "25.3". */
// Building an Intl.NumberFormat costs tens of µs: keep one per precision (bench/ measured it).
const fractionFormats = new Map<number, Intl.NumberFormat>();

export function formatNumber(value: number, maxFractionDigits = 0): string {
  if (maxFractionDigits === 0) return integerFormat.format(value);
  let format = fractionFormats.get(maxFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: maxFractionDigits });
    fractionFormats.set(maxFractionDigits, format);
  }
  return format.format(value);
}

/** "19 Nov 2026" (UTC). */
export function formatDate(date: Date): string {
  return dateFormat.format(date);
}

/** "19 Nov 2026, 14:05 UTC". */
export function formatDateTime(date: Date): string {
  return `${dateFormat.format(date)}, ${timeFormat.format(date)} UTC`;
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 days ago", "in 2 hours", "yesterday", "just now". */
export function formatRelative(date: Date, now: Date): string {
  const diffMs = date.getTime() - now.getTime();
  for (const [unit, unitMs] of UNITS) {
    if (Math.abs(diffMs) >= unitMs) return relativeFormat.format(Math.trunc(diffMs / unitMs), unit);
  }
  return 'just now';
}

/** "3 days ago, 19 Nov 2026": relative for reading, absolute for reference. */
export function formatAge(date: Date, now: Date): string {
  return `${formatRelative(date, now)}, ${formatDate(date)}`;
}

/** Change from `previous` to `current` in percent; 'new' when there was nothing before. */
export function percentChange(current: number, previous: number): number | 'new' {
  if (previous === 0) return current === 0 ? 0 : 'new';
  return ((current - previous) / Math.abs(previous)) * 100;
}

/** "↑ 12.5%", "↓ 3%", "no change", "new". */
export function formatChange(change: number | 'new'): string {
  if (change === 'new') return 'new';
  const rounded = Math.round(change * 10) / 10;
  if (rounded === 0) return 'no change';
  return `${rounded > 0 ? '↑' : '↓'} ${formatNumber(Math.abs(rounded), 1)}%`;
}

/** Cuts text to `max` characters with an ellipsis, on one line. */
export function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** "1 voice", "42 voices". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : pluralForm}`;
}

/** Echoes user text inside quotes, on one line and bounded, so it cannot break the layout. */
export function quote(text: string, max = 80): string {
  return `“${truncate(text, max)}”`;
}

/** "a, b, c and 4 more". */
export function listWithMore(items: readonly string[], shown: number): string {
  if (items.length <= shown) return items.join(', ');
  return `${items.slice(0, shown).join(', ')} and ${formatNumber(items.length - shown)} more`;
}
