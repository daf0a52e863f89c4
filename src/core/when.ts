// When a schedule fires: a five-field cron expression or one of the plain forms people type
// ("every weekday at 07:30"), turned into a cron expression, described in words, and its next runs
// computed in an IANA zone by croner (https://croner.56k.guru), whose fixed-time jobs run at the first
// valid time after a daylight-saving gap and once when an hour repeats: no run skipped or doubled.
import { Cron } from 'croner';
import { UserError } from '../errors.ts';

export interface ParsedWhen {
  /** As typed, trimmed. */
  text: string;
  /** The five-field cron expression it means. */
  cron: string;
  /** In words: "every weekday at 07:30". */
  words: string;
}

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** Enough runs to find the shortest gap of any pattern that repeats within a week. */
const INTERVAL_SAMPLE = 400;
const EXAMPLES =
  '"every weekday at 07:30", "every 2 hours", "daily at 18:00" or a cron expression such as "0 8 * * 1-5"';

function invalid(message: string): UserError {
  return new UserError({ code: 'invalid_input', message });
}

// The default zone everywhere. Known without asking Intl: the first Intl object maps several MB of
// ICU's data and code, which start-up (checking the defaults) should not pay for (issue 16).
const UTC = 'UTC';

export function isTimeZone(tz: string): boolean {
  if (tz === UTC) return true;
  if (tz.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Throws the one sentence for a zone that is not an IANA name. */
export function checkTimeZone(tz: string): string {
  if (!isTimeZone(tz))
    throw invalid(
      `"${tz}" is not a time zone I know; use an IANA name such as Europe/Berlin or America/New_York.`,
    );
  return canonicalTimeZone(tz);
}

/** The IANA name Intl gives a valid zone ("europe/berlin" -> "Europe/Berlin"). */
export function canonicalTimeZone(tz: string): string {
  return tz === UTC ? UTC : new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "7:30", "07:30", "7pm", "7:30 pm", "19h" → hour and minute. */
function parseTime(text: string): { hour: number; minute: number } | undefined {
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm)?$/i.exec(text.trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.toLowerCase();
  if (m[2] === undefined && half === undefined) return undefined;
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return undefined;
  return { hour, minute };
}

function dayIndex(word: string): number | undefined {
  const w = word.toLowerCase().replace(/s$/, '');
  const i = DAYS.findIndex((d) => d === w || d.slice(0, 3) === w);
  return i < 0 ? undefined : i;
}

function atTime(dayPart: string, time: string, cronDays: string, words: string): Omit<ParsedWhen, 'text'> {
  const t = parseTime(time);
  if (!t) throw invalid(`"${time}" is not a time of day; write it as 07:30 or 7:30pm.`);
  return {
    cron: `${t.minute} ${t.hour} ${dayPart} * ${cronDays}`,
    words: `${words} at ${pad(t.hour)}:${pad(t.minute)}`,
  };
}

/** The plain forms; undefined when the text is not one of them. */
function parsePlain(text: string): Omit<ParsedWhen, 'text'> | undefined {
  const s = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (s === 'hourly' || s === 'every hour') return { cron: '0 * * * *', words: 'every hour, on the hour' };
  if (s === 'every minute') return { cron: '* * * * *', words: 'every minute' };
  if (s === 'daily' || s === 'every day') return { cron: '0 0 * * *', words: 'every day at 00:00' };
  let m = /^every (\d+) (minute|minutes|min|mins|hour|hours)$/.exec(s);
  if (m) {
    const n = Number(m[1]);
    const isHours = m[2]!.startsWith('h');
    const max = isHours ? 23 : 59;
    if (n < 1 || n > max) {
      throw invalid(`"every ${n} ${isHours ? 'hours' : 'minutes'}" is out of range; use 1 to ${max}.`);
    }
    if (n === 1)
      return isHours
        ? { cron: '0 * * * *', words: 'every hour, on the hour' }
        : { cron: '* * * * *', words: 'every minute' };
    return isHours
      ? { cron: `0 */${n} * * *`, words: `every ${n} hours, on the hour, from 00:00` }
      : { cron: `*/${n} * * * *`, words: `every ${n} minutes` };
  }
  m = /^(?:every day|daily|each day) at (.+)$/.exec(s);
  if (m) return atTime('*', m[1]!, '*', 'every day');
  m = /^(?:every|on) (weekday|weekdays|workday|workdays) at (.+)$/.exec(s);
  if (m) return atTime('*', m[2]!, '1-5', 'every weekday (Monday to Friday)');
  m = /^(?:every|on) (weekend|weekends) at (.+)$/.exec(s);
  if (m) return atTime('*', m[2]!, '0,6', 'every Saturday and Sunday');
  m = /^(?:every|on) ([a-z]+) at (.+)$/.exec(s);
  if (m) {
    const day = dayIndex(m[1]!);
    if (day === undefined) return undefined;
    return atTime('*', m[2]!, String(day), `every ${DAY_NAMES[day]}`);
  }
  return undefined;
}

/** A few common cron shapes in words; the others are described by their expression. */
function describeCron(cron: string): string {
  const [min, hour, dom, mon, dow] = cron.split(' ') as [string, string, string, string, string];
  const isNum = (x: string) => /^\d+$/.test(x);
  if (cron === '* * * * *') return 'every minute';
  let m = /^\*\/(\d+)$/.exec(min);
  if (m && hour === '*' && dom === '*' && mon === '*' && dow === '*') return `every ${m[1]} minutes`;
  if (isNum(min) && hour === '*' && dom === '*' && mon === '*' && dow === '*')
    return `every hour at minute ${Number(min)}`;
  m = /^\*\/(\d+)$/.exec(hour);
  if (isNum(min) && m && dom === '*' && mon === '*' && dow === '*')
    return `every ${m[1]} hours at minute ${Number(min)}`;
  if (isNum(min) && isNum(hour) && mon === '*') {
    const at = `at ${pad(Number(hour))}:${pad(Number(min))}`;
    if (dom === '*' && dow === '*') return `every day ${at}`;
    if (dom === '*' && dow === '1-5') return `every weekday (Monday to Friday) ${at}`;
    if (dom === '*' && isNum(dow) && Number(dow) <= 7) return `every ${DAY_NAMES[Number(dow) % 7]} ${at}`;
    if (isNum(dom) && dow === '*') return `on day ${Number(dom)} of every month ${at}`;
  }
  return `on the cron schedule "${cron}"`;
}

function parseCron(text: string): Omit<ParsedWhen, 'text'> | undefined {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => /^[\d*/,\-a-z?LW#]+$/i.test(f))) return undefined;
  const cron = fields.join(' ');
  try {
    new Cron(cron, { paused: true, mode: '5-part' });
  } catch (err) {
    const why =
      err instanceof Error ? err.message.replace(/^CronPattern: /, '').replace(/\.$/, '') : 'invalid';
    throw invalid(
      `"${cron}" is not a valid cron expression (${why}); write five fields: minute hour day month weekday.`,
    );
  }
  return { cron, words: describeCron(cron) };
}

function job(cron: string, tz: string): Cron {
  return new Cron(cron, { paused: true, mode: '5-part', timezone: tz });
}

/** The next `count` runs strictly after `from`, in `tz`. */
export function nextRuns(cron: string, tz: string, from: Date, count: number): Date[] {
  return job(cron, tz).nextRuns(count, from);
}

/** The latest run at or before `at`, in `tz`, or undefined when there is none in the pattern's past. */
export function previousRun(cron: string, tz: string, at: Date): Date | undefined {
  return job(cron, tz).previousRuns(1, new Date(at.getTime() + 1))[0];
}

/** The shortest gap between two runs, in minutes (sampled in UTC, so DST plays no part). */
export function shortestIntervalMinutes(cron: string, from = new Date(Date.UTC(2025, 0, 6))): number {
  const runs = job(cron, 'UTC').nextRuns(INTERVAL_SAMPLE, from);
  let shortest = Infinity;
  for (let i = 1; i < runs.length; i++) {
    shortest = Math.min(shortest, (runs[i]!.getTime() - runs[i - 1]!.getTime()) / 60_000);
  }
  return shortest;
}

/**
 * Reads `when` (a plain form or a five-field cron expression), refusing anything more frequent than
 * `minIntervalMinutes`. Every refusal is one sentence naming the problem.
 */
export function parseWhen(input: string, opts: { minIntervalMinutes: number }): ParsedWhen {
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '') throw invalid(`when is empty; write it as ${EXAMPLES}.`);
  const parsed = parsePlain(text) ?? parseCron(text);
  if (!parsed) throw invalid(`I cannot read "${text}" as a schedule; write it as ${EXAMPLES}.`);
  const shortest = shortestIntervalMinutes(parsed.cron);
  if (shortest < opts.minIntervalMinutes) {
    const gap = shortest === 1 ? '1 minute' : `${shortest} minutes`;
    throw invalid(
      `"${text}" runs every ${gap}, more often than the ${opts.minIntervalMinutes}-minute minimum (SCHEDULE_MIN_INTERVAL_MINUTES).`,
    );
  }
  return { text, ...parsed };
}

/** A run as people read it in its zone: "Mon 24 Nov 2025, 07:30 CET". */
export function formatRun(at: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(at);
}
