import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatBytes,
  formatCoordinate,
  formatCurrency,
  formatDay,
  formatDuration,
  formatIsoDateTime,
  formatPercent,
  formatQuantity,
  formatRatio,
  joinPlace,
  formatChange,
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelative,
  percentChange,
  plural,
  quote,
  wallClockIn,
} from '../src/format.ts';
import { NOW } from './commands/context.ts';

describe('format', () => {
  it('rounds as en-GB Intl does, half away from zero on the shortest decimal form, with no minus zero', () => {
    expect(formatNumber(2.675, 2)).toBe('2.68');
    expect(formatNumber(-499.95, 1)).toBe('-500.0');
    expect(formatNumber(999.95, 1)).toBe('1,000.0');
    expect(formatNumber(-0.04, 1)).toBe('0.0');
    expect(formatNumber(-0.4)).toBe('0');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(1e21)).toBe('1,000,000,000,000,000,000,000');
  });

  it('groups thousands and rounds to the digits asked for', () => {
    expect(formatNumber(1234567.8)).toBe('1,234,568');
    expect(formatNumber(25.33, 1)).toBe('25.3');
    expect(formatNumber(-2.5, 1)).toBe('-2.5');
  });

  it('keeps the decimals of a measured value, so 5 and 5.3 read alike', () => {
    expect(formatNumber(5, 1)).toBe('5.0');
    expect(formatQuantity(5, '°C')).toBe('5.0 °C');
    expect(formatQuantity(5.3, '°C')).toBe('5.3 °C');
    expect(formatQuantity(-0.04, '°C')).toBe('0.0 °C');
    expect(formatPercent(37.94)).toBe('37.9%');
    expect(formatPercent(38)).toBe('38.0%');
    expect(formatRatio(0.5)).toBe('50.0%');
  });

  it('writes byte sizes in one unit system with one decimal', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(18.4 * 1024)).toBe('18.4 KiB');
    expect(formatBytes(18 * 1024)).toBe('18.0 KiB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10.0 MiB');
  });

  it('writes dates in UTC, day month year', () => {
    expect(formatDate(new Date('2026-11-19T23:30:00Z'))).toBe('19 Nov 2026');
    expect(formatDateTime(new Date('2026-11-19T14:05:09Z'))).toBe('19 Nov 2026, 14:05 UTC');
  });

  it('says how long ago something happened, in the largest whole unit', () => {
    const ago = (ms: number) => formatRelative(new Date(NOW.getTime() - ms), NOW);
    expect(ago(20_000)).toBe('just now');
    expect(ago(5 * 60_000)).toBe('5 minutes ago');
    expect(ago(3 * 3_600_000)).toBe('3 hours ago');
    expect(ago(86_400_000)).toBe('yesterday');
    expect(ago(3 * 86_400_000)).toBe('3 days ago');
    expect(ago(15 * 86_400_000)).toBe('2 weeks ago');
    expect(ago(400 * 86_400_000)).toBe('last year');
    expect(ago(12 * 86_400_000)).toBe('12 days ago');
    expect(ago(28 * 86_400_000)).toBe('4 weeks ago');
    expect(formatRelative(new Date(NOW.getTime() + 2 * 3_600_000), NOW)).toBe('in 2 hours');
  });

  it('counts calendar days, so the relative age agrees with the date beside it', () => {
    const now = new Date('2026-11-24T09:47:00Z');
    // 2 days and 14 hours earlier, but on 21 Nov: three calendar days.
    expect(formatAge(new Date('2026-11-21T19:00:00Z'), now)).toBe('3 days ago, 21 Nov 2026');
    expect(formatAge(new Date('2026-11-23T23:30:00Z'), now)).toBe('yesterday, 23 Nov 2026');
    expect(formatAge(new Date('2026-11-24T09:20:00Z'), now)).toBe('27 minutes ago, 24 Nov 2026');
  });

  it('writes an embed timestamp in the same format as every other date', () => {
    expect(formatIsoDateTime('2026-11-24T09:38:00.000Z')).toBe('24 Nov 2026, 09:38 UTC');
    expect(formatIsoDateTime('not a date')).toBe('not a date');
  });

  it('gives an age both relative and absolute', () => {
    expect(formatAge(new Date('2026-11-19T10:00:00Z'), NOW)).toBe('3 days ago, 19 Nov 2026');
  });

  it('computes the change in percent, and "new" when there was nothing before', () => {
    expect(percentChange(1125, 1000)).toBe(12.5);
    expect(percentChange(970, 1000)).toBeCloseTo(-3);
    expect(percentChange(5, 0)).toBe('new');
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(0, 40)).toBe(-100);
  });

  it('formats a change with an arrow and one decimal', () => {
    expect(formatChange(12.5)).toBe('↑ 12.5%');
    expect(formatChange(-3.04)).toBe('↓ 3.0%');
    expect(formatChange(38)).toBe('↑ 38.0%');
    expect(formatChange(37.94)).toBe('↑ 37.9%');
    expect(formatChange(1234.56)).toBe('↑ 1,234.6%');
    expect(formatChange(0.01)).toBe('no change');
    expect(formatChange('new')).toBe('new');
  });

  it('writes money, durations, coordinates and weekdays in the one locale', () => {
    expect(formatCurrency(54321.7, 'GBP')).toBe('£54,322');
    expect(formatCurrency(12.5, 'EUR', 2)).toBe('€12.50');
    expect(formatCurrency(3, 'XYZ1')).toBe('3 XYZ1');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(125)).toBe('2m 05s');
    expect(formatDuration(4800)).toBe('1h 20m');
    expect(formatCoordinate(-0.1276349)).toBe('-0.12763');
    expect(formatDay(new Date('2026-11-24T23:00:00Z'))).toBe('Tue 24 Nov');
  });

  it('names a place without repeating a part', () => {
    expect(joinPlace('United Kingdom', 'United Kingdom')).toBe('United Kingdom');
    expect(joinPlace('london', 'London', 'United Kingdom')).toBe('london, United Kingdom');
    expect(joinPlace(undefined, 'Germany')).toBe('Germany');
    expect(joinPlace('Berlin', ' ', 'Germany')).toBe('Berlin, Germany');
  });

  it('quotes text on one line, bounded', () => {
    expect(quote('a  b\nc', 10)).toBe('“a b c”');
    expect(quote('abcdefghijkl', 6)).toBe('“abcde…”');
  });

  it('quotes echoed text on one bounded line', () => {
    expect(quote('@everyone\nhi')).toBe('“@everyone hi”');
    expect(quote('x'.repeat(100), 10)).toBe(`“${'x'.repeat(9)}…”`);
  });

  it('pluralises', () => {
    expect(plural(1, 'voice')).toBe('1 voice');
    expect(plural(1200, 'job')).toBe('1,200 jobs');
    expect(plural(2, 'vulnerability', 'vulnerabilities')).toBe('2 vulnerabilities');
  });
});

describe('wallClockIn', () => {
  it("reads an instant's wall clock in a zone, milliseconds kept, on either side of a DST change", () => {
    const at = (iso: string) => Date.parse(iso);
    expect(wallClockIn(at('2026-03-29T00:59:59.250Z'), 'Europe/Berlin')).toBe(at('2026-03-29T01:59:59.250Z'));
    expect(wallClockIn(at('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe(at('2026-03-29T03:00:00Z'));
    // The date differs from UTC's across midnight: what a holiday lookup reads.
    expect(wallClockIn(at('2026-12-25T03:30:00Z'), 'America/New_York')).toBe(at('2026-12-24T22:30:00Z'));
    expect(wallClockIn(at('2026-12-24T23:30:00Z'), 'Asia/Tokyo')).toBe(at('2026-12-25T08:30:00Z'));
    expect(wallClockIn(at('2026-12-24T23:30:00Z'), 'UTC')).toBe(at('2026-12-24T23:30:00Z'));
  });
});
