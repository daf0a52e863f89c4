import { describe, expect, it } from 'vitest';
import { dominantCondition, groupForecastDays } from '../../commands/forecast-days.ts';
import type { ForecastStep } from '../../src/services/weather/client.ts';

const step = (iso: string, temp: number, main: string): ForecastStep => ({
  at: new Date(iso),
  temp,
  conditions: [{ main, description: main.toLowerCase() }],
});

/** OpenWeatherMap's default: 40 steps, 3 hours apart, from `startIso`. */
function fortySteps(
  startIso: string,
  tempAt: (i: number) => number,
  mainAt: (i: number) => string,
): ForecastStep[] {
  const start = new Date(startIso).getTime();
  return Array.from({ length: 40 }, (_, i) => ({
    at: new Date(start + i * 10_800_000),
    temp: tempAt(i),
    conditions: [{ main: mainAt(i), description: '' }],
  }));
}

describe('groupForecastDays', () => {
  it("splits steps at the city's local midnight, not at UTC midnight", () => {
    // New York in winter is UTC-5: 03:00Z is 22:00 on the 22nd there, 06:00Z is 01:00 on the 23rd.
    const days = groupForecastDays(
      [
        step('2026-11-22T21:00:00Z', 8, 'Clear'),
        step('2026-11-23T03:00:00Z', 5, 'Clear'),
        step('2026-11-23T06:00:00Z', 3, 'Snow'),
        step('2026-11-23T09:00:00Z', 2, 'Snow'),
      ],
      -5 * 3600,
    );
    expect(days.map((d) => [d.date, d.label, d.min, d.max, d.condition, d.steps])).toEqual([
      ['2026-11-22', 'Sun 22 Nov', 5, 8, 'Clear', 2],
      ['2026-11-23', 'Mon 23 Nov', 2, 3, 'Snow', 2],
    ]);
  });

  it('moves late-evening UTC steps to the next day east of Greenwich', () => {
    // Auckland in November is UTC+13: 12:00Z is already 01:00 the next day.
    const days = groupForecastDays(
      [step('2026-11-22T09:00:00Z', 18, 'Clouds'), step('2026-11-22T12:00:00Z', 15, 'Rain')],
      13 * 3600,
    );
    expect(days.map((d) => d.date)).toEqual(['2026-11-22', '2026-11-23']);
  });

  it('keeps five days of a 40-step forecast, with min, max and the dominant condition of each', () => {
    const steps = fortySteps(
      '2026-11-22T12:00:00Z',
      (i) => 10 + (i % 8),
      (i) => (Math.floor(i / 8) % 2 === 0 ? 'Rain' : 'Clear'),
    );
    const days = groupForecastDays(steps, 0);
    expect(days).toHaveLength(5);
    expect(days[0]).toMatchObject({ date: '2026-11-22', steps: 4, min: 10, max: 13, condition: 'Rain' });
    expect(days[1]).toMatchObject({ date: '2026-11-23', steps: 8, min: 10, max: 17 });
    expect(days.at(-1)!.date).toBe('2026-11-26');
  });

  it('orders steps by time whatever order they arrive in', () => {
    const days = groupForecastDays(
      [step('2026-11-24T00:00:00Z', 1, 'Clear'), step('2026-11-23T00:00:00Z', 2, 'Clear')],
      0,
    );
    expect(days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24']);
  });

  it('returns no days for no steps', () => {
    expect(groupForecastDays([], 3600)).toEqual([]);
  });
});

describe('dominantCondition', () => {
  it('picks the condition seen in most steps', () => {
    expect(dominantCondition(['Clouds', 'Rain', 'Clouds', 'Clear', 'Clouds'])).toBe('Clouds');
  });

  it('breaks a tie in favour of the more severe condition', () => {
    expect(dominantCondition(['Clear', 'Clear', 'Rain', 'Rain'])).toBe('Rain');
    expect(dominantCondition(['Snow', 'Thunderstorm'])).toBe('Thunderstorm');
  });

  it('says Unknown for an empty day', () => {
    expect(dominantCondition([])).toBe('Unknown');
  });
});
