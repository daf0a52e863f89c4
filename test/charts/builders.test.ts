import { describe, expect, it } from 'vitest';
import { comparisonChart, dailyValues, spanBefore } from '../../src/charts/comparison.ts';
import { forecastChart } from '../../src/charts/forecast-chart.ts';
import type { Report } from '../../src/services/analytics/client.ts';

const daily = (rows: [string, number][]): Report => ({
  dimensionHeaders: ['date'],
  metricHeaders: [{ name: 'sessions', type: 'TYPE_INTEGER' }],
  // GA4 sends rows ordered by value, not by date, and leaves out days without data.
  rows: rows.map(([d, v]) => ({ dimensions: [d], metrics: [v] })),
  rowCount: rows.length,
  currencyCode: 'USD',
  timeZone: 'Europe/Oslo',
});

describe('comparison chart', () => {
  it('reads daily values by date, missing days as 0, and aligns the previous period day by day', () => {
    const span = { startDate: '2026-02-27', endDate: '2026-03-02' };
    expect(spanBefore(span)).toEqual({ startDate: '2026-02-23', endDate: '2026-02-26' });
    const values = dailyValues(
      daily([
        ['20260302', 40],
        ['20260227', 10],
        ['20260301', 30],
      ]),
      span,
      'sessions',
    );
    expect(values).toEqual([10, 0, 30, 40]);
    const spec = comparisonChart({
      filename: 'report.png',
      metricLabel: 'Sessions',
      currentName: 'Last 4 days',
      previousName: 'Previous 4 days',
      currentText: '27 Feb – 2 Mar 2026',
      previousText: '23–26 Feb 2026',
      current: { span, values },
      previous: { values: [1000, 1, 1, 1] },
    });
    expect(spec.xLabels).toEqual(['27 Feb', '28 Feb', '1 Mar', '2 Mar']);
    expect(spec.series.map((s) => s.name)).toEqual([
      'Last 4 days (27 Feb – 2 Mar 2026)',
      'Previous 4 days (23–26 Feb 2026)',
    ]);
    expect(spec.alt).toContain('(80 in all, solid blue line) against 23–26 Feb 2026 (1,003 in all');
  });
});

describe('forecast chart', () => {
  const step = (iso: string, temp: number, pop?: number) => ({
    at: new Date(iso),
    temp,
    conditions: [{ main: 'Rain', description: 'light rain' }],
    ...(pop === undefined ? {} : { pop }),
  });

  it("marks the reader's midnights and shows precipitation in percent", () => {
    const spec = forecastChart({
      place: 'Oslo, NO',
      units: 'metric',
      zone: 'Europe/Oslo',
      steps: [
        step('2026-11-23T18:00:00Z', 2.4, 0.1),
        step('2026-11-23T21:00:00Z', 1.2, 0.55),
        step('2026-11-24T00:00:00Z', -0.6),
        step('2026-11-24T03:00:00Z', -1.5, 1),
      ],
    });
    expect(spec.xLabels).toEqual(['19h', '22h', '01h', '04h']);
    expect(spec.boundaries).toEqual([{ index: 2, label: 'Tue 24' }]);
    expect(spec.bars?.values).toEqual([10, 55, null, 100]);
    expect(spec.yAxisTitle).toBe('Temperature (°C)');
    expect(spec.alt).toBe(
      'Line chart of the temperature in Oslo, NO every 3 hours (times in Europe/Oslo), from -1.5 to 2.4 °C, with bars for the chance of precipitation (at most 100 %).',
    );
  });

  it('leaves the bars out when the provider gives no precipitation chance', () => {
    const spec = forecastChart({
      place: 'Austin, US',
      units: 'imperial',
      zone: 'America/Chicago',
      steps: [step('2026-11-23T18:00:00Z', 61), step('2026-11-23T21:00:00Z', 64)],
    });
    expect(spec.bars).toBeUndefined();
    expect(spec.xLabels).toEqual(['12h', '15h']);
    expect(spec.xAxisTitle).toBe('Time (America/Chicago)');
    expect(spec.title).toBe('Austin, US: temperature');
    expect(spec.yAxisTitle).toBe('Temperature (°F)');
  });
});
