// The holiday calendar behind skip:holidays (date-holidays): public holidays only, of a country or
// the region where they differ, on the slot's date in the schedule's zone; every country or region
// it does not know is refused in one sentence that says how to write one.
import { describe, expect, it } from 'vitest';
import { checkHolidays, holidayOn } from '../../src/holidays.ts';
import { runsAfterSkips } from '../../src/schedule/skips.ts';

describe('holidayOn', () => {
  it('names Christmas Day in Germany, in English', async () => {
    expect(await holidayOn('de', new Date('2026-12-25T06:30:00Z'), 'Europe/Berlin')).toBe('Christmas Day');
    expect(await holidayOn('de', new Date('2026-12-28T06:30:00Z'), 'Europe/Berlin')).toBeUndefined();
  });

  it('counts public holidays only: Christmas Eve (a bank holiday) and Valentine’s Day run', async () => {
    expect(await holidayOn('de', new Date('2026-12-24T06:30:00Z'), 'Europe/Berlin')).toBeUndefined();
    expect(await holidayOn('de', new Date('2026-02-14T12:00:00Z'), 'Europe/Berlin')).toBeUndefined();
    expect(await holidayOn('us', new Date('2026-02-14T15:00:00Z'), 'America/New_York')).toBeUndefined();
  });

  it('reads the slot’s date in the schedule’s zone, not in UTC or the country’s', async () => {
    // 23:30 UTC on the 24th is already Christmas Day in Berlin and Tokyo, still Christmas Eve in New York.
    const at = new Date('2026-12-24T23:30:00Z');
    expect(await holidayOn('de', at, 'Europe/Berlin')).toBe('Christmas Day');
    expect(await holidayOn('de', at, 'Asia/Tokyo')).toBe('Christmas Day');
    expect(await holidayOn('de', at, 'America/New_York')).toBeUndefined();
    expect(await holidayOn('de', at, 'UTC')).toBeUndefined();
  });

  it('keeps a region’s own holidays: Epiphany in Bavaria, not in Berlin; César Chávez Day in California', async () => {
    const epiphany = new Date('2027-01-06T06:30:00Z');
    expect(await holidayOn('de-by', epiphany, 'Europe/Berlin')).toBe('Epiphany');
    expect(await holidayOn('de-be', epiphany, 'Europe/Berlin')).toBeUndefined();
    expect(await holidayOn('de', epiphany, 'Europe/Berlin')).toBeUndefined();
    const chavez = new Date('2027-03-31T16:00:00Z');
    expect(await holidayOn('us-ca', chavez, 'America/Los_Angeles')).toBe('César Chávez Day');
    expect(await holidayOn('us-ny', chavez, 'America/New_York')).toBeUndefined();
  });

  it('skips a substitute day, as the country observes it', async () => {
    // 4 July 2027 is a Sunday: the US observe it on Monday the 5th.
    expect(await holidayOn('us', new Date('2027-07-05T13:00:00Z'), 'America/New_York')).toBe(
      'Independence Day (substitute day)',
    );
  });
});

describe('checkHolidays', () => {
  it('takes a country or a country and region, in any case, as lower case', async () => {
    expect(await checkHolidays('de')).toBe('de');
    expect(await checkHolidays('DE-BY')).toBe('de-by');
    expect(await checkHolidays(' us-ca ')).toBe('us-ca');
    expect(await checkHolidays('gb-sct')).toBe('gb-sct');
  });

  it('refuses a country it does not know in one sentence naming how to write one', async () => {
    for (const code of ['xx', 'deu', 'germany', '', 'd', '1e']) {
      await expect(checkHolidays(code)).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(
          /^There is no holiday calendar for ".*"; write a country’s two-letter code, with its region where holidays differ there: holidays:de, holidays:de-by\.$/,
        ) as unknown,
      });
    }
  });

  it('refuses a region the country does not have, listing the ones it has', async () => {
    await expect(checkHolidays('de-zz')).rejects.toThrow(
      'Germany has no region "zz" in the holiday calendar (its regions are de-bb, de-be, de-bw, de-by, de-hb, de-he, de-hh, de-mv, de-ni, de-nw, de-rp, de-sh, de-sl, de-sn, de-st, de-th); write holidays:de.',
    );
    await expect(checkHolidays('is-x')).rejects.toThrow(
      'Iceland has no region "x" in the holiday calendar (its holidays are the same everywhere); write holidays:is.',
    );
  });
});

describe('runsAfterSkips', () => {
  const weekday = { id: 'k7p2mx', cron: '30 7 * * 1-5', timezone: 'Europe/Berlin', holidays: 'de' };

  it('leaves out Christmas Day and Boxing Day, and the weekend between', async () => {
    const runs = await runsAfterSkips(weekday, undefined, new Date('2026-12-24T12:00:00Z'), 2);
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-12-28T06:30:00.000Z',
      '2026-12-29T06:30:00.000Z',
    ]);
  });

  it('leaves out the slot /schedule skip set aside too', async () => {
    const skip = { slotId: '2026-12-28T06:30:00.000Z', by: 'Ada' };
    const runs = await runsAfterSkips(weekday, skip, new Date('2026-12-24T12:00:00Z'), 2);
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-12-29T06:30:00.000Z',
      '2026-12-30T06:30:00.000Z',
    ]);
  });

  it('finds the next run past two holidays of a schedule every 15 minutes', async () => {
    const often = { ...weekday, cron: '*/15 * * * *' };
    const [next] = await runsAfterSkips(often, undefined, new Date('2026-12-24T23:50:00Z'), 1);
    expect(next?.toISOString()).toBe('2026-12-26T23:00:00.000Z');
  });

  it('looks 2,048 slots ahead at most: a schedule every minute finds no run past two holidays', async () => {
    const everyMinute = { ...weekday, cron: '* * * * *' };
    expect(await runsAfterSkips(everyMinute, undefined, new Date('2026-12-24T23:00:00Z'), 1)).toEqual([]);
    const [next] = await runsAfterSkips(everyMinute, undefined, new Date('2026-12-25T23:00:00Z'), 1);
    expect(next?.toISOString()).toBe('2026-12-26T23:00:00.000Z');
  });

  it('is empty for a schedule whose every run is a holiday', async () => {
    const christmas = { ...weekday, cron: '0 8 25 12 *' };
    expect(await runsAfterSkips(christmas, undefined, new Date('2026-01-01T00:00:00Z'), 1)).toEqual([]);
  });
});
