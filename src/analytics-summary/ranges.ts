// The periods of an analytics summary, asked of GA4 in relative dates (`yesterday`, `7daysAgo`)
// so that the property's own reporting time zone decides which days they are
// (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange).
// The calendar dates shown to people are worked out from the zone GA4 reports back.
import { LOCALE, formatDate } from '../format.ts';
import type { DateRange } from '../services/analytics/client.ts';

/** Inclusive calendar dates, YYYY-MM-DD. */
export interface DateSpan {
  startDate: string;
  endDate: string;
}

/** A range as days before today: [first day, last day]. */
type DaysAgo = readonly [start: number, end: number];

export interface SummaryRanges {
  /** "yesterday", "today" or "7d" (the last 7 days): what the summary's words name. */
  name: string;
  days: number;
  /** The period, the period of the same length before it, and the daily trend (at least 7 days). */
  ago: { current: DaysAgo; previous: DaysAgo; trend: DaysAgo; trendPrevious: DaysAgo };
}

const DAY_MS = 86_400_000;
const MIN_TREND_DAYS = 7;

/**
 * The ranges of `range` (`yesterday`, `today` or `Nd`, the N whole days before today), moved
 * `shiftDays` further back: a slot run a day late still reports the days it was due for.
 */
export function resolveRanges(range: string, shiftDays = 0): SummaryRanges {
  const match = /^(\d{1,3})d$/.exec(range);
  if (!match && range !== 'yesterday' && range !== 'today') throw new Error(`unknown range "${range}"`);
  const days = match ? Math.max(1, Number(match[1])) : 1;
  const end = (range === 'today' ? 0 : 1) + Math.max(0, shiftDays);
  const start = end + days - 1;
  const trendDays = Math.max(days, MIN_TREND_DAYS);
  const trendStart = end + trendDays - 1;
  return {
    name: match ? `${days}d` : range,
    days,
    ago: {
      current: [start, end],
      previous: [start + days, end + days],
      trend: [trendStart, end],
      trendPrevious: [trendStart + trendDays, end + trendDays],
    },
  };
}

function relative(daysAgo: number): string {
  return daysAgo === 0 ? 'today' : daysAgo === 1 ? 'yesterday' : `${daysAgo}daysAgo`;
}

/** The range as GA4 takes it, in relative dates. */
export function dateRange(ago: DaysAgo, name?: string): DateRange {
  const range: DateRange = { startDate: relative(ago[0]), endDate: relative(ago[1]) };
  return name === undefined ? range : { ...range, name };
}

/** Today's date (YYYY-MM-DD) in `timeZone`; UTC when the zone is unknown. */
export function todayIn(at: Date, timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone ?? 'UTC' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

/** Whole days from the day of `slot` to the day of `now`, both in `timeZone` (0 on time). */
export function daysLate(slot: Date, now: Date, timeZone: string): number {
  const day = (at: Date) => Date.parse(`${todayIn(at, timeZone)}T00:00:00Z`);
  return Math.max(0, Math.round((day(now) - day(slot)) / DAY_MS));
}

/** The calendar dates of a relative range, given today's date. */
export function spanOf(ago: DaysAgo, today: string): DateSpan {
  const t = Date.parse(`${today}T00:00:00Z`);
  const iso = (n: number) => new Date(t - n * DAY_MS).toISOString().slice(0, 10);
  return { startDate: iso(ago[0]), endDate: iso(ago[1]) };
}

/** The day of the month as the locale writes it in a date: "15" in English and French, "15." in German. */
function dayOf(date: Date, locale: string): string {
  const parts = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatToParts(date);
  const at = parts.findIndex((p) => p.type === 'day');
  const after = parts[at + 1]?.type === 'literal' ? parts[at + 1]!.value.trim() : '';
  return `${parts[at]?.value ?? date.getUTCDate()}${after}`;
}

/**
 * "21 Nov 2025", "15–21 Nov 2025", "28 Oct – 3 Nov 2025", "29 Dec 2025 – 4 Jan 2026"; in German
 * "15.–21. Nov. 2025", "28. Okt. – 3. Nov. 2025".
 */
export function formatSpan(span: DateSpan, locale = LOCALE): string {
  const a = new Date(`${span.startDate}T00:00:00Z`);
  const b = new Date(`${span.endDate}T00:00:00Z`);
  const end = formatDate(b, locale);
  if (a.getTime() === b.getTime()) return end;
  if (a.getUTCFullYear() !== b.getUTCFullYear()) return `${formatDate(a, locale)} – ${end}`;
  if (a.getUTCMonth() !== b.getUTCMonth()) return `${formatDate(a, locale).replace(/ \d{4}$/, '')} – ${end}`;
  return `${dayOf(a, locale)}–${end}`;
}
