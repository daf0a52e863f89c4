// The slots a chat schedule skips, and why: the public holidays of a country or one of its regions
// (`skip:holidays:de-by`), as the maintained date-holidays package knows them, on the slot's date in
// the schedule's zone; and the one run `/schedule skip` set aside, kept in the store's key/value so
// that every replica sharing the store sees it. The runner asks after it has claimed a slot.
import type Holidays from 'date-holidays';
import type { HolidaysTypes } from 'date-holidays';
import { UserError } from './errors.ts';
import type { ScheduleRecord } from './schedule/schedules.ts';
import { formatRun, nextRuns } from './schedule/when.ts';
import type { Store } from './store/store.ts';

/** Holiday data for every country: loaded on first use (measured ~300 ms and ~35 MB of RSS). */
let loading: Promise<typeof Holidays> | undefined;
const calendars = new Map<string, Holidays>();
const years = new Map<string, HolidaysTypes.Holiday[]>();
const load = () => (loading ??= import('date-holidays').then((m) => m.default));
let dayFormats: Map<string, Intl.DateTimeFormat> | undefined;

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
  dayFormats ??= new Map();
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timezone, format);
  }
  return format.format(at);
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

/** The run `/schedule skip` set aside: its slot id and who asked. */
interface Skip {
  slotId: string;
  by: string;
}

const skipKey = (id: string) => `schedule-skip:${id}`;

async function readSkip(store: Store, id: string): Promise<Skip | undefined> {
  const raw = id === '' ? undefined : await store.getValue(skipKey(id));
  return raw === undefined ? undefined : (JSON.parse(raw) as Skip);
}

/** Why the slot at `at` is skipped, as its history says it; undefined when it runs. */
export async function skipReason(
  store: Store,
  record: ScheduleRecord,
  at: Date,
): Promise<string | undefined> {
  const holiday = record.holidays && (await holidayOn(record.holidays, at, record.timezone));
  if (holiday) return `public holiday: ${holiday}`;
  const skip = await readSkip(store, record.id);
  return skip?.slotId === at.toISOString() ? `/schedule skip by ${skip.by}` : undefined;
}

/**
 * How far the next runs are looked for: a year, at most this many slots (an every-5-minutes
 * schedule has 576 over Christmas's two days).
 */
const LOOK_AHEAD = 2_048;
const YEAR_MS = 366 * 86_400_000;

/** The schedule's next `count` runs after `from`, its skipped slots left out. */
export async function runsAfterSkips(
  store: Store,
  schedule: Pick<ScheduleRecord, 'id' | 'cron' | 'timezone' | 'holidays'>,
  from: Date,
  count: number,
): Promise<Date[]> {
  const skip = await readSkip(store, schedule.id);
  const { holidays, timezone } = schedule;
  const out: Date[] = [];
  let after = from;
  // As many as asked for (and the skipped one) first: most schedules skip none of them.
  let size = count + (skip ? 1 : 0);
  for (let seen = 0; out.length < count && seen < LOOK_AHEAD; seen += size, size = 64) {
    const batch = nextRuns(schedule.cron, timezone, after, size);
    for (const at of batch) {
      if (out.length === count || at.getTime() > from.getTime() + YEAR_MS) return out;
      if (at.toISOString() === skip?.slotId) continue;
      if (holidays && (await holidayOn(holidays, at, timezone)) !== undefined) continue;
      out.push(at);
    }
    if (batch.length < size) break;
    after = batch[batch.length - 1]!;
  }
  return out;
}

/** A run `/schedule skip` set aside or `/schedule unskip` restored, and the next run after that. */
export interface Skipped {
  record: ScheduleRecord;
  slot: Date;
  nextRun: Date | undefined;
}

/**
 * `/schedule skip` (`isSkip`) sets aside the schedule's next run, `/schedule unskip` takes that back:
 * the run skipped or restored, and the next run after that. A paused schedule, a second skip, and an
 * unskip with nothing skipped are refused in one sentence each.
 */
export async function setSkip(
  store: Store,
  record: ScheduleRecord,
  isSkip: boolean,
  by: string,
  now: Date,
): Promise<Skipped> {
  const { id, timezone } = record;
  if (record.paused) throw refuse(`Schedule ${id} is paused, so it has no next run to skip or restore.`);
  const earlier = await readSkip(store, id);
  const pending = earlier && Date.parse(earlier.slotId) > now.getTime() ? earlier : undefined;
  if (isSkip && pending)
    throw refuse(
      `Schedule ${id} already skips its run at ${formatRun(new Date(pending.slotId), timezone)}; /schedule unskip ${id} takes that back.`,
    );
  if (!isSkip && !pending)
    throw refuse(`Schedule ${id} skips no run; /schedule skip ${id} skips its next one.`);
  if (!isSkip) {
    await store.deleteValues(skipKey(id));
    const [nextRun] = await runsAfterSkips(store, record, now, 1);
    return { record, slot: new Date(pending!.slotId), nextRun };
  }
  const [slot, nextRun] = await runsAfterSkips(store, record, now, 2);
  if (!slot) throw refuse(`Schedule ${id} has no next run to skip.`);
  await store.setValue(skipKey(id), JSON.stringify({ slotId: slot.toISOString(), by: by.slice(0, 80) }));
  return { record, slot, nextRun };
}

/** Drops what `/schedule skip` kept for a removed schedule. */
export async function forgetSkip(store: Store, id: string): Promise<void> {
  await store.deleteValues(skipKey(id));
}
