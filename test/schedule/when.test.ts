import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.ts';
import { formatInZone as formatRun } from '../../src/format.ts';
import { canonicalTimeZone, nextRuns, parseWhen, previousRun } from '../../src/schedule/when.ts';

const MIN = { minIntervalMinutes: 15 };

function sentence(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected a UserError');
}

/** Wall-clock "YYYY-MM-DD HH:MM" of each run in `tz`. */
function local(runs: Date[], tz: string): string[] {
  const f = new Intl.DateTimeFormat('sv-SE', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return runs.map((d) => f.format(d));
}

describe('parseWhen: the plain forms', () => {
  it.each([
    ['every day at 08:00', '0 8 * * *', 'every day at 08:00'],
    ['daily at 18:00', '0 18 * * *', 'every day at 18:00'],
    ['every weekday at 07:30', '30 7 * * 1-5', 'every weekday (Monday to Friday) at 07:30'],
    ['every monday at 09:00', '0 9 * * 1', 'every Monday at 09:00'],
    ['Every Friday at 5:15pm', '15 17 * * 5', 'every Friday at 17:15'],
    ['every 2 hours', '0 */2 * * *', 'every 2 hours, on the hour, from 00:00'],
    ['every 30 minutes', '*/30 * * * *', 'every 30 minutes'],
    ['hourly', '0 * * * *', 'every hour, on the hour'],
    ['  every   day   at 8:05 ', '5 8 * * *', 'every day at 08:05'],
  ])('%s → %s', (text, cron, words) => {
    const parsed = parseWhen(text, MIN);
    expect(parsed).toMatchObject({ cron, words });
  });

  it('takes a five-field cron expression and describes the common shapes', () => {
    expect(parseWhen('0 8 * * 1-5', MIN)).toMatchObject({
      cron: '0 8 * * 1-5',
      words: 'every weekday (Monday to Friday) at 08:00',
    });
    expect(parseWhen('15 6 1 * *', MIN).words).toBe('on day 1 of every month at 06:15');
    expect(parseWhen('0 9 * 1,7 1', MIN).words).toBe('on the cron schedule "0 9 * 1,7 1"');
  });
});

describe('parseWhen: refusals, one sentence each', () => {
  it('refuses what it cannot read', () => {
    expect(sentence(() => parseWhen('whenever you like', MIN))).toMatch(
      /^I cannot read "whenever you like" as a schedule; write it as .*cron expression/,
    );
    expect(sentence(() => parseWhen('', MIN))).toMatch(/^when is empty/);
  });

  it('refuses an invalid cron expression and a six-field one', () => {
    expect(sentence(() => parseWhen('61 8 * * *', MIN))).toMatch(
      /^"61 8 \* \* \*" is not a valid cron expression/,
    );
    expect(sentence(() => parseWhen('0 0 8 * * *', MIN))).toMatch(/^I cannot read/);
  });

  it('refuses an impossible time of day', () => {
    expect(sentence(() => parseWhen('every day at 25:00', MIN))).toBe(
      '"25:00" is not a time of day; write it as 07:30 or 7:30pm.',
    );
  });

  it('refuses anything more frequent than the minimum interval', () => {
    expect(sentence(() => parseWhen('every 5 minutes', MIN))).toBe(
      '"every 5 minutes" runs every 5 minutes, more often than the 15-minute minimum (SCHEDULE_MIN_INTERVAL_MINUTES).',
    );
    // A cron that is mostly rare but bunches up somewhere is measured at its shortest gap.
    expect(sentence(() => parseWhen('0,5 8 * * *', MIN))).toMatch(/runs every 5 minutes, more often/);
    expect(parseWhen('every 15 minutes', MIN).cron).toBe('*/15 * * * *');
    expect(parseWhen('* * * * *', { minIntervalMinutes: 1 }).words).toBe('every minute');
  });

  // Its refusal at /schedule add: test/schedule/command.test.ts.
  it('knows no zone that is not an IANA name and normalises a known one', () => {
    expect(canonicalTimeZone('Mars/Olympus')).toBeUndefined();
    expect(canonicalTimeZone('')).toBeUndefined();
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
  });
});

describe('nextRuns across daylight-saving changes', () => {
  it('Europe/Berlin spring forward: 02:30 runs once at 03:00, the gap skips no day', () => {
    const runs = nextRuns('30 2 * * *', 'Europe/Berlin', new Date('2026-03-27T12:00:00Z'), 4);
    expect(local(runs, 'Europe/Berlin')).toEqual([
      '2026-03-28 02:30',
      '2026-03-29 03:00',
      '2026-03-30 02:30',
      '2026-03-31 02:30',
    ]);
  });

  it('Europe/Berlin fall back: a daily 02:30 runs once on the day 02:30 happens twice', () => {
    const runs = nextRuns('30 2 * * *', 'Europe/Berlin', new Date('2026-10-23T12:00:00Z'), 4);
    expect(local(runs, 'Europe/Berlin')).toEqual([
      '2026-10-24 02:30',
      '2026-10-25 02:30',
      '2026-10-26 02:30',
      '2026-10-27 02:30',
    ]);
    expect(runs[1]!.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('America/New_York: every weekday at 07:30 keeps 07:30 local across both changes', () => {
    const spring = nextRuns('30 7 * * 1-5', 'America/New_York', new Date('2026-03-06T00:00:00Z'), 3);
    expect(local(spring, 'America/New_York')).toEqual([
      '2026-03-06 07:30',
      '2026-03-09 07:30',
      '2026-03-10 07:30',
    ]);
    expect(spring.map((d) => d.getUTCHours())).toEqual([12, 11, 11]);
    const fall = nextRuns('30 7 * * 1-5', 'America/New_York', new Date('2026-10-30T00:00:00Z'), 2);
    expect(fall.map((d) => d.toISOString())).toEqual([
      '2026-10-30T11:30:00.000Z',
      '2026-11-02T12:30:00.000Z',
    ]);
  });

  it('America/New_York spring forward: a 02:30 run is moved to 03:00, not dropped', () => {
    const runs = nextRuns('30 2 * * *', 'America/New_York', new Date('2026-03-07T12:00:00Z'), 2);
    expect(local(runs, 'America/New_York')).toEqual(['2026-03-08 03:00', '2026-03-09 02:30']);
  });

  it('America/New_York fall back: a 01:30 run happens once', () => {
    const runs = nextRuns('30 1 * * *', 'America/New_York', new Date('2026-10-31T12:00:00Z'), 2);
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('previousRun finds the fire at or before a time', () => {
    const at = new Date('2026-01-05T08:00:00Z');
    expect(previousRun('0 8 * * *', 'UTC', at)?.toISOString()).toBe('2026-01-05T08:00:00.000Z');
    expect(previousRun('0 8 * * *', 'UTC', new Date(at.getTime() - 1))?.toISOString()).toBe(
      '2026-01-04T08:00:00.000Z',
    );
  });

  it('formats a run in its zone', () => {
    expect(formatRun(new Date('2026-03-30T05:30:00Z'), 'Europe/Berlin')).toBe('Mon, 30 Mar 2026, 07:30 CEST');
  });
});
