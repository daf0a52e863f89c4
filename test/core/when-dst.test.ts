// One daylight-saving rule for every schedule's time arithmetic: a wall time that the spring-forward
// gap skips runs at the first valid minute after the gap, once that day however many of its times
// fall in the gap; a wall time that the autumn hour repeats runs once, at its first pass. nextRuns
// and previousRun (the catch-up's fire time) follow it alike, and a schedule with no run within a
// year and a day is refused when it is added.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.ts';
import { nextRuns, parseWhen, previousRun } from '../../src/schedule/when.ts';

const iso = (runs: readonly Date[]) => runs.map((d) => d.toISOString());
const at = (text: string) => new Date(text);

/** Every run of `cron` in (from, to] the two ways a schedule can reach them. */
function bothWays(cron: string, tz: string, from: string, to: string) {
  const forward: Date[] = [];
  let cursor = at(from);
  for (;;) {
    const [next] = nextRuns(cron, tz, cursor, 1);
    if (!next || next > at(to)) break;
    forward.push(next);
    cursor = next;
  }
  const backward: Date[] = [];
  let before: Date | undefined = at(to);
  for (;;) {
    before = previousRun(cron, tz, before);
    if (!before || before <= at(from)) break;
    backward.unshift(before);
    before = new Date(before.getTime() - 1);
  }
  return { forward: iso(forward), backward: iso(backward) };
}

describe('Europe/Berlin spring forward (29 March 2026, 02:00 CET → 03:00 CEST)', () => {
  it('two times in the gap run once, at 03:00 CEST, and the day is not skipped', () => {
    expect(iso(nextRuns('0,30 2 * * *', 'Europe/Berlin', at('2026-03-28T12:00:00Z'), 3))).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    expect(iso(nextRuns('*/20 2 * * *', 'Europe/Berlin', at('2026-03-28T12:00:00Z'), 2))).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:00:00.000Z',
    ]);
    expect(iso(nextRuns('30 2 * * *', 'Europe/Berlin', at('2026-03-28T12:00:00Z'), 2))).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('a time in the gap and 03:00 itself meet in one run; 03:30 still runs', () => {
    expect(iso(nextRuns('0,30 2,3 * * *', 'Europe/Berlin', at('2026-03-28T12:00:00Z'), 3))).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:00:00.000Z',
    ]);
  });

  it('nextRuns and previousRun give the same runs', () => {
    const ways = bothWays('*/20 2 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', '2026-03-30T12:00:00Z');
    const expected = [
      '2026-03-28T01:00:00.000Z',
      '2026-03-28T01:20:00.000Z',
      '2026-03-28T01:40:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:00:00.000Z',
      '2026-03-30T00:20:00.000Z',
      '2026-03-30T00:40:00.000Z',
    ];
    expect(ways).toEqual({ forward: expected, backward: expected });
  });

  it('previousRun inside and after the moved run', () => {
    expect(previousRun('0,30 2 * * *', 'Europe/Berlin', at('2026-03-29T01:00:00Z'))?.toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(previousRun('0,30 2 * * *', 'Europe/Berlin', at('2026-03-29T05:00:00Z'))?.toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(previousRun('0,30 2 * * *', 'Europe/Berlin', at('2026-03-29T00:59:59Z'))?.toISOString()).toBe(
      '2026-03-28T01:30:00.000Z',
    );
  });
});

describe('Europe/Berlin fall back (25 October 2026, 03:00 CEST → 02:00 CET)', () => {
  it('each time in the repeated hour runs once, at its first pass', () => {
    const ways = bothWays('*/20 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', '2026-10-25T12:00:00Z');
    const expected = ['2026-10-25T00:00:00.000Z', '2026-10-25T00:20:00.000Z', '2026-10-25T00:40:00.000Z'];
    expect(ways).toEqual({ forward: expected, backward: expected });
  });

  it('previousRun during the second pass finds the first pass, not a second run', () => {
    expect(previousRun('30 2 * * *', 'Europe/Berlin', at('2026-10-25T01:40:00Z'))?.toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    expect(nextRuns('30 2 * * *', 'Europe/Berlin', at('2026-10-25T00:45:00Z'), 1)[0]?.toISOString()).toBe(
      '2026-10-26T01:30:00.000Z',
    );
  });

  it('an hourly schedule runs once in the hour that repeats', () => {
    const ways = bothWays('30 * * * *', 'Europe/Berlin', '2026-10-24T23:00:00Z', '2026-10-25T03:00:00Z');
    const expected = [
      '2026-10-24T23:30:00.000Z', // 01:30 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST (02:30 CET is the same wall time)
      '2026-10-25T02:30:00.000Z', // 03:30 CET
    ];
    expect(ways).toEqual({ forward: expected, backward: expected });
  });
});

describe('America/New_York (8 March and 1 November 2026)', () => {
  it('spring forward: 02:00 and 02:30 both run once at 03:00 EDT', () => {
    const ways = bothWays('0,30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', '2026-03-09T12:00:00Z');
    const expected = ['2026-03-08T07:00:00.000Z', '2026-03-09T06:00:00.000Z', '2026-03-09T06:30:00.000Z'];
    expect(ways).toEqual({ forward: expected, backward: expected });
  });

  it('fall back: 01:00, 01:30 run once each, at their EDT pass', () => {
    const ways = bothWays('0,30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', '2026-11-01T12:00:00Z');
    const expected = ['2026-11-01T05:00:00.000Z', '2026-11-01T05:30:00.000Z'];
    expect(ways).toEqual({ forward: expected, backward: expected });
  });
});

describe('a schedule with no run within 366 days is refused', () => {
  const opts = { minIntervalMinutes: 15, now: at('2026-11-27T00:00:00Z') };
  const refusal = (when: string) => {
    try {
      parseWhen(when, opts);
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).code).toBe('invalid_input');
      return (err as Error).message;
    }
    return undefined;
  };

  it('refuses 31 February in one sentence', () => {
    expect(refusal('0 0 31 2 *')).toBe(
      '"0 0 31 2 *" has no run in the next 366 days; check its day of the month and month.',
    );
    expect(refusal('0 0 30 2 *')).toMatch(/has no run in the next 366 days/);
  });

  it('takes a yearly schedule, and 29 February only within a year and a day of it', () => {
    expect(refusal('0 9 1 1 *')).toBeUndefined();
    expect(refusal('0 0 29 2 *')).toMatch(/has no run in the next 366 days/);
    expect(parseWhen('0 0 29 2 *', { ...opts, now: at('2027-03-01T00:00:00Z') }).cron).toBe('0 0 29 2 *');
  });
});
