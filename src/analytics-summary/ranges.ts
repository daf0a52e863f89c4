// The periods of an analytics summary, asked of GA4 in relative dates (`yesterday`, `7daysAgo`)
// so that the property's own reporting time zone decides which days they are
// (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange).
// The calendar dates shown to people are worked out from the zone GA4 reports back.
import { formatDate } from '../format.ts';
import type { DateRange } from '../services/analytics/client.ts';

/** Inclusive calendar dates, YYYY-MM-DD. */
export interface DateSpan {
  startDate: string;
  endDate: string;
}

/** A range as days before today: [first day, last day]. */
type DaysAgo = readonly [start: number, end: number];

export interface SummaryRanges {
  /** "yesterday", "today" or "last 7 days". */
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
    name: match ? `last ${days} days` : range,
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

/** "21 Nov 2025", "15–21 Nov 2025", "28 Oct – 3 Nov 2025", "29 Dec 2025 – 4 Jan 2026". */
export function formatSpan(span: DateSpan): string {
  const a = new Date(`${span.startDate}T00:00:00Z`);
  const b = new Date(`${span.endDate}T00:00:00Z`);
  const end = formatDate(b);
  if (a.getTime() === b.getTime()) return end;
  if (a.getUTCFullYear() !== b.getUTCFullYear()) return `${formatDate(a)} – ${end}`;
  if (a.getUTCMonth() !== b.getUTCMonth()) return `${formatDate(a).replace(/ \d{4}$/, '')} – ${end}`;
  return `${a.getUTCDate()}–${end}`;
}
