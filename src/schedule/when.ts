// When a schedule fires: a five-field cron expression or a plain form ("every weekday at 07:30"),
// described in words, its runs computed in an IANA zone; and the built-in schedules' check at
// start. One daylight-saving rule for every schedule: the expression is matched against the zone's
// wall clock (croner on a UTC timeline that stands for it), and each wall time becomes one instant:
// a time the spring-forward gap skips runs at the first valid minute after it, a time the autumn
// hour repeats runs at its first occurrence. croner, not node-cron: node-cron 4 gives next runs
// only from the real current time and no previous runs, which the fake clock and catch-up need.
import { Cron } from 'croner';
import { ConfigError, refusal, type ConfigProblem } from '../errors.ts';
import { formatNumber, wallClockIn as wallOf } from '../format.ts';

interface ParsedWhen {
  /** As typed, trimmed. */
  text: string;
  cron: string;
  /** "every weekday at 07:30". */
  words: string;
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** "<days> at <time>": how the days are written (lower case), their cron weekday field, their words. */
const DAY_FORMS: readonly (readonly [RegExp, string, string])[] = [
  [/^(?:every day|daily|each day)$/, '*', 'every day'],
  [/^(?:every|on) (?:weekday|workday)s?$/, '1-5', 'every weekday (Monday to Friday)'],
  [/^(?:every|on) weekends?$/, '0,6', 'every Saturday and Sunday'],
  ...DAY_NAMES.map((name, day) => {
    const days = new RegExp(`^(?:every|on) (?:${name.toLowerCase()}|${name.slice(0, 3).toLowerCase()})s?$`);
    return [days, String(day), `every ${name}`] as const;
  }),
];
/** Enough runs to find the shortest gap of any pattern that repeats within a week. */
const INTERVAL_SAMPLE = 400;
/** What a refusal of `when` offers instead: its plain forms, and a cron expression. */
const EXAMPLES = {
  examples: '"every weekday at 07:30", "every 2 hours", "daily at 18:00"',
  cron: '"0 8 * * 1-5"',
};

// Known without asking Intl: the first Intl object maps several MB of ICU, which start-up need not pay.
const UTC = 'UTC';

/** "europe/berlin" -> "Europe/Berlin"; undefined when `tz` is not an IANA name. */
export function canonicalTimeZone(tz: string): string | undefined {
  if (tz === UTC) return UTC;
  if (tz.trim() === '') return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const isTimeZone = (tz: string): boolean => canonicalTimeZone(tz) !== undefined;

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

function atTime(time: string, cronDays: string, words: string): Omit<ParsedWhen, 'text'> {
  const t = parseTime(time);
  if (!t) throw refusal((say) => say('scheduleRefusals:when.notTime', { time }));
  return {
    cron: `${t.minute} ${t.hour} * * ${cronDays}`,
    words: `${words} at ${pad(t.hour)}:${pad(t.minute)}`,
  };
}

function parsePlain(text: string): Omit<ParsedWhen, 'text'> | undefined {
  const s = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (s === 'hourly' || s === 'every hour') return { cron: '0 * * * *', words: 'every hour, on the hour' };
  if (s === 'every minute') return { cron: '* * * * *', words: 'every minute' };
  if (s === 'daily' || s === 'every day') return { cron: '0 0 * * *', words: 'every day at 00:00' };
  const m = /^every (\d+) (minute|minutes|min|mins|hour|hours)$/.exec(s);
  if (m) {
    const n = Number(m[1]);
    const isHours = m[2]!.startsWith('h');
    const max = isHours ? 23 : 59;
    if (n < 1 || n > max) {
      const text = `every ${n} ${isHours ? 'hours' : 'minutes'}`;
      throw refusal((t) => t('scheduleRefusals:when.outOfRange', { text, max }));
    }
    if (n === 1) return parsePlain(isHours ? 'every hour' : 'every minute');
    return isHours
      ? { cron: `0 */${n} * * *`, words: `every ${n} hours, on the hour, from 00:00` }
      : { cron: `*/${n} * * * *`, words: `every ${n} minutes` };
  }
  const [, days = '', time = ''] = /^(.+?) at (.+)$/.exec(s) ?? [];
  const form = DAY_FORMS.find(([written]) => written.test(days));
  return form && atTime(time, form[1], form[2]);
}

/** A few common cron shapes in words; the others are described by their expression. */
function describeCron(cron: string): string {
  const [min, hour, dom, mon, dow] = cron.split(' ') as [string, string, string, string, string];
  const isNum = (x: string) => /^\d+$/.test(x);
  if (cron === '* * * * *') return 'every minute';
  const isEveryDay = dom === '*' && mon === '*' && dow === '*';
  let m = /^\*\/(\d+)$/.exec(min);
  if (m && hour === '*' && isEveryDay) return `every ${m[1]} minutes`;
  if (isNum(min) && hour === '*' && isEveryDay) return `every hour at minute ${Number(min)}`;
  m = /^\*\/(\d+)$/.exec(hour);
  if (isNum(min) && m && isEveryDay) return `every ${m[1]} hours at minute ${Number(min)}`;
  if (isNum(min) && isNum(hour) && mon === '*') {
    const at = `at ${pad(Number(hour))}:${pad(Number(min))}`;
    if (dom === '*' && dow === '*') return `every day ${at}`;
    if (dom === '*' && dow === '1-5') return `every weekday (Monday to Friday) ${at}`;
    if (dom === '*' && isNum(dow) && Number(dow) <= 7) return `every ${DAY_NAMES[Number(dow) % 7]} ${at}`;
    if (isNum(dom) && dow === '*') return `on day ${Number(dom)} of every month ${at}`;
  }
  return `on the cron schedule "${cron}"`;
}

/** Why croner refuses a five-field `cron`; undefined when it reads it. */
function cronError(cron: string): string | undefined {
  try {
    new Cron(cron, { paused: true, mode: '5-part' });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message.replace(/^CronPattern: /, '').replace(/\.$/, '') : 'invalid';
  }
}

function parseCron(text: string): Omit<ParsedWhen, 'text'> | undefined {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => /^[\d*/,\-a-z?LW#]+$/i.test(f))) return undefined;
  const cron = fields.join(' ');
  const why = cronError(cron);
  if (why !== undefined) throw refusal((t) => t('scheduleRefusals:when.badCron', { cron, why }));
  return { cron, words: describeCron(cron) };
}

// Not croner's own `timezone` option: it follows Vixie cron, so an interval job skips the times a
// gap swallows and runs twice in the repeated hour, where the rule above runs each once.
/**
 * The expression on the wall clock: a UTC timeline whose fields are the zone's local fields. A fixed
 * offset of 0, not the zone "UTC", which croner converts through Intl at every step (docs/PERFORMANCE.md).
 */
function wallJob(cron: string): Cron {
  return new Cron(cron, { paused: true, mode: '5-part', utcOffset: 0 });
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** A schedule with no run in this span is refused (it would hold a SCHEDULE_MAX place for nothing). */
const LONGEST_GAP_DAYS = 366;

/**
 * The one instant a wall time stands for in `tz`: itself when it happens once; its first occurrence
 * when the autumn hour repeats it; the end of the gap (the first valid minute after it) when the
 * spring-forward gap skips it.
 */
function instantOf(wall: number, tz: string): number {
  if (tz === UTC) return wall;
  // The offsets on either side of any change near this wall time (changes are months apart).
  const before = wall - wallOf(wall - DAY_MS, tz) + (wall - DAY_MS);
  const after = wall - wallOf(wall + DAY_MS, tz) + (wall + DAY_MS);
  const candidates = [before, after, wall - (wallOf(wall, tz) - wall)].filter((t) => wallOf(t, tz) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the change happened between the instant this wall time has on the old offset's
  // side (`before`, later) and on the new one's (`after`, earlier). The gap ends at the change.
  let lo = Math.min(before, after);
  let hi = Math.max(before, after);
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
    if (wallOf(mid, tz) - mid === wallOf(hi, tz) - hi) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Wall times fetched from croner in a walk's later steps grow to this many (each step costs). */
const MAX_BATCH = 256;
/** A walk gives up after this many wall times: far beyond any schedule's runs in the spans asked. */
const WALK_LIMIT = 100_000;

/** The wall times of `cron` after `ref` (`isForward`), else before it, in order. */
function* wallTimes(cron: string, ref: Date, isForward: boolean, firstBatch = 1): Generator<number> {
  const job = wallJob(cron);
  let batch = firstBatch;
  for (let seen = 0; seen < WALK_LIMIT; seen += batch, batch = Math.min(batch * 2, MAX_BATCH)) {
    const walls = isForward ? job.nextRuns(batch, ref) : job.previousRuns(batch, ref);
    for (const wall of walls) yield wall.getTime();
    if (walls.length < batch) return;
    ref = walls.at(-1)!;
  }
}

/** The runs strictly after `from`, in `tz`, in order; croner is asked for `firstBatch` wall times first. */
export function* runsAfter(cron: string, tz: string, from: Date, firstBatch: number): Generator<Date> {
  let last = from.getTime();
  // No wall time before `from`'s own maps after it: a gap's times map to its end, whose wall time
  // is later than theirs, and a repeated hour's to their first pass.
  for (const wall of wallTimes(cron, new Date(wallOf(last, tz)), true, firstBatch)) {
    const at = instantOf(wall, tz);
    // Two wall times that meet in one instant (a gap's, a repeated hour's) are one run.
    if (at <= last) continue;
    last = at;
    yield new Date(at);
  }
}

/** The next `count` runs strictly after `from`, in `tz`. */
export function nextRuns(cron: string, tz: string, from: Date, count: number): Date[] {
  const runs: Date[] = [];
  if (count <= 0) return runs;
  for (const run of runsAfter(cron, tz, from, count)) if (runs.push(run) === count) break;
  return runs;
}

/** The latest run at or before `at`, in `tz`, or undefined when there is none in the pattern's past. */
export function previousRun(cron: string, tz: string, at: Date): Date | undefined {
  const to = at.getTime();
  const wall = wallOf(to, tz);
  // In the second pass of a repeated hour, the rest of that hour's wall times map back to their
  // first pass, before `to`: start after them. Otherwise at `to`'s own wall time (inclusive).
  const isSecondPass = instantOf(wall - (wall % MINUTE_MS), tz) < to - (to % MINUTE_MS);
  for (const w of wallTimes(cron, new Date(isSecondPass ? wall + 2 * HOUR_MS : wall + 1), false)) {
    const run = instantOf(w, tz);
    if (run <= to) return new Date(run);
  }
  return undefined;
}

/** Reads `when`, refusing in one sentence anything more frequent than `minIntervalMinutes` or never due. */
export function parseWhen(input: string, opts: { minIntervalMinutes: number; now?: Date }): ParsedWhen {
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '') throw refusal((t) => t('scheduleRefusals:when.empty', EXAMPLES));
  const parsed = parsePlain(text) ?? parseCron(text);
  if (!parsed) throw refusal((t) => t('scheduleRefusals:when.unreadable', { text, ...EXAMPLES }));
  // Measured on the wall clock (UTC): a zone moves a run by hours, not across the span.
  const now = opts.now ?? new Date();
  const job = wallJob(parsed.cron);
  const next = job.nextRun(now);
  if (!next || next.getTime() - now.getTime() > LONGEST_GAP_DAYS * DAY_MS) {
    throw refusal((t) => t('scheduleRefusals:when.noRun', { text, days: LONGEST_GAP_DAYS }));
  }
  // The shortest gap between two runs, in minutes (sampled in UTC, so DST plays no part).
  const runs = job.nextRuns(INTERVAL_SAMPLE, new Date(Date.UTC(2025, 0, 6))).map((run) => run.getTime());
  const shortest = Math.min(...runs.slice(1).map((run, i) => (run - runs[i]!) / MINUTE_MS));
  if (shortest < opts.minIntervalMinutes) {
    const minimum = opts.minIntervalMinutes;
    throw refusal((t, locale) =>
      t('scheduleRefusals:when.tooOften', {
        text,
        count: shortest,
        gap: formatNumber(shortest, 0, locale),
        minimum: formatNumber(minimum, 0, locale),
      }),
    );
  }
  return { text, ...parsed };
}

/** Checks every built-in schedule (five-field cron, IANA zone) and throws one ConfigError naming each variable. */
export function validateSchedules(
  schedules: readonly { cron: string; timezone: string; variables: { cron: string; timezone: string } }[],
): void {
  const problems: ConfigProblem[] = [];
  for (const { cron, timezone, variables } of schedules) {
    const error = cronError(cron.trim());
    if (cron.trim().split(/\s+/).length === 6) {
      const message = `"${cron}" has a seconds field; write five fields: minute hour day month weekday`;
      problems.push({ variable: variables.cron, message });
    } else if (error !== undefined) {
      problems.push({ variable: variables.cron, message: `invalid cron expression "${cron}": ${error}` });
    }
    if (!isTimeZone(timezone)) {
      const message = `unknown time zone "${timezone}" (use an IANA name such as Europe/Berlin)`;
      problems.push({ variable: variables.timezone, message });
    }
  }
  if (problems.length > 0) throw new ConfigError({ problems });
}
