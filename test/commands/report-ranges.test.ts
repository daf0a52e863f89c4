import { describe, expect, it } from 'vitest';
import { formatPeriod, metricTotals, reportPeriods } from '../../commands/report-ranges.ts';
import type { Report } from '../../src/services/analytics/client.ts';
import { NOW } from './context.ts';

const report = (headers: string[], rows: number[][]): Report => ({
  dimensionHeaders: [],
  metricHeaders: headers.map((name) => ({ name, type: 'TYPE_INTEGER' })),
  rows: rows.map((metrics) => ({ dimensions: [], metrics })),
  rowCount: rows.length,
  currencyCode: 'USD',
  timeZone: 'Europe/London',
});

describe('reportPeriods', () => {
  it('ends the period yesterday and puts a period of the same length right before it', () => {
    expect(reportPeriods('7d', NOW)).toEqual({
      days: 7,
      label: 'Last 7 days',
      current: { startDate: '2026-11-15', endDate: '2026-11-21' },
      previous: { startDate: '2026-11-08', endDate: '2026-11-14' },
    });
  });

  it('compares yesterday with the day before', () => {
    const periods = reportPeriods('yesterday', NOW);
    expect(periods.label).toBe('Yesterday');
    expect(periods.current).toEqual({ startDate: '2026-11-21', endDate: '2026-11-21' });
    expect(periods.previous).toEqual({ startDate: '2026-11-20', endDate: '2026-11-20' });
  });

  it('crosses month and year boundaries for the long ranges', () => {
    expect(reportPeriods('28d', NOW).previous).toEqual({ startDate: '2026-09-27', endDate: '2026-10-24' });
    const ninety = reportPeriods('90d', new Date('2026-01-05T00:30:00Z'));
    expect(ninety.current).toEqual({ startDate: '2025-10-07', endDate: '2026-01-04' });
    expect(ninety.previous).toEqual({ startDate: '2025-07-09', endDate: '2025-10-06' });
  });

  it('uses the UTC date of now, whatever the hour', () => {
    expect(reportPeriods('yesterday', new Date('2026-11-22T23:59:59Z')).current.endDate).toBe('2026-11-21');
    expect(reportPeriods('yesterday', new Date('2026-11-22T00:00:00Z')).current.endDate).toBe('2026-11-21');
  });
});

describe('formatPeriod', () => {
  it('writes a range compactly, and a single day as a date', () => {
    expect(formatPeriod({ startDate: '2026-11-15', endDate: '2026-11-21' })).toBe('15–21 Nov 2026');
    expect(formatPeriod({ startDate: '2026-10-25', endDate: '2026-11-21' })).toBe('25 Oct – 21 Nov 2026');
    expect(formatPeriod({ startDate: '2026-11-21', endDate: '2026-11-21' })).toBe('21 Nov 2026');
    expect(formatPeriod({ startDate: '2025-12-29', endDate: '2026-01-04' })).toBe('29 Dec 2025 – 4 Jan 2026');
  });
});

describe('metricTotals', () => {
  it('reads metrics by header name, in the order asked for', () => {
    const r = report(['totalUsers', 'sessions'], [[900, 1500]]);
    expect(metricTotals(r, ['sessions', 'totalUsers'])).toEqual([1500, 900]);
  });

  it('sums several rows and treats a report without rows as zeros', () => {
    expect(metricTotals(report(['sessions'], [[10], [32]]), ['sessions'])).toEqual([42]);
    expect(metricTotals(report([], []), ['sessions', 'keyEvents'])).toEqual([0, 0]);
  });

  it('falls back to the position when the provider sends no headers', () => {
    expect(metricTotals(report([], [[3, 4]]), ['sessions', 'totalUsers'])).toEqual([3, 4]);
  });
});
