// Public holidays, as the maintained date-holidays package knows them: whether a country (and one of
// its regions, where holidays differ) has a calendar, and the holiday a date falls on in a zone.
import type Holidays from 'date-holidays';
import type { HolidaysTypes } from 'date-holidays';
import { UserError } from './errors.ts';
import { wallClockIn } from './format.ts';

/** Holiday data for every country: loaded on first use (measured ~300 ms and ~35 MB of RSS). */
let loading: Promise<typeof Holidays> | undefined;
const calendars = new Map<string, Holidays>();
const years = new Map<string, HolidaysTypes.Holiday[]>();
const load = () => (loading ??= import('date-holidays').then((m) => m.default));

const CODE_RE = /^([a-z]{2})(?:-([a-z0-9]{1,3}))?$/;
const HOW =
  'a country’s two-letter code, with its region where holidays differ there: holidays:de, holidays:de-by';

function refuse(message: string): UserError {
  return new UserError({ code: 'invalid_input', message });
}

async function calendarFor(code: string): Promise<Holidays> {
  const known = calendars.get(code);
  if (known) return known;
  const Calendar = await load();
  const [country, region] = code.toUpperCase().split('-');
  const calendar = region
    ? new Calendar(country!, region, { types: ['public'], languages: ['en'], timezone: 'UTC' })
    : new Calendar(country!, { types: ['public'], languages: ['en'], timezone: 'UTC' });
  calendars.set(code, calendar);
  return calendar;
}

/**
 * `skip:holidays:<code>`'s code, lower case, when date-holidays has that country (and region);
 * else the one-sentence refusal naming how to write it.
 */
export async function checkHolidays(code: string): Promise<string> {
  const wanted = code.trim().toLowerCase();
  const [, country, region] = CODE_RE.exec(wanted) ?? [];
  const Calendar = await load();
  const names = new Calendar().getCountries('en');
  const name = country === undefined ? undefined : names[country.toUpperCase()];
  if (country === undefined || name === undefined)
    throw refuse(`There is no holiday calendar for "${code.trim()}"; write ${HOW}.`);
  if (region === undefined) return wanted;
  const regions = Object.keys(new Calendar().getStates(country.toUpperCase(), 'en') ?? {});
  if (regions.includes(region.toUpperCase())) return wanted;
  const which = regions.length
    ? `its regions are ${regions.map((r) => `${country}-${r.toLowerCase()}`).join(', ')}`
    : 'its holidays are the same everywhere';
  throw refuse(
    `${name} has no region "${region}" in the holiday calendar (${which}); write holidays:${country}.`,
  );
}

/** The date `at` falls on in `timezone`, as YYYY-MM-DD. */
function localDay(at: Date, timezone: string): string {
  return new Date(wallClockIn(at.getTime(), timezone)).toISOString().slice(0, 10);
}

/** The public holiday on the date `at` falls on in `timezone`, by its English name; undefined on a working day. */
export async function holidayOn(code: string, at: Date, timezone: string): Promise<string | undefined> {
  const day = localDay(at, timezone);
  const key = `${code}:${day.slice(0, 4)}`;
  let holidays = years.get(key);
  if (!holidays) {
    const all = (await calendarFor(code)).getHolidays(Number(day.slice(0, 4)));
    holidays = all.filter((h) => h.type === 'public');
    years.set(key, holidays);
  }
  // The calendar is read in UTC, so a holiday's start and end are its wall-clock day.
  const start = Date.parse(`${day}T00:00:00Z`);
  return holidays.find((h) => h.start.getTime() < start + 86_400_000 && h.end.getTime() > start)?.name;
}
