import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatChange,
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelative,
  listWithMore,
  percentChange,
  plural,
  quote,
  truncate,
} from '../../commands/format.ts';
import { NOW } from './context.ts';

describe('format', () => {
  it('groups thousands and rounds to the digits asked for', () => {
    expect(formatNumber(1234567.8)).toBe('1,234,568');
    expect(formatNumber(25.33, 1)).toBe('25.3');
    expect(formatNumber(-2.5, 1)).toBe('-2.5');
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
    expect(formatRelative(new Date(NOW.getTime() + 2 * 3_600_000), NOW)).toBe('in 2 hours');
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
    expect(formatChange(-3.04)).toBe('↓ 3%');
    expect(formatChange(1234.56)).toBe('↑ 1,234.6%');
    expect(formatChange(0.01)).toBe('no change');
    expect(formatChange('new')).toBe('new');
  });

  it('truncates to one line with an ellipsis', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('a  b\nc', 10)).toBe('a b c');
    expect(truncate('abcdefghijkl', 6)).toBe('abcde…');
    expect(truncate('abcdefghijkl', 6).length).toBe(6);
  });

  it('quotes echoed text on one bounded line', () => {
    expect(quote('@everyone\nhi')).toBe('“@everyone hi”');
    expect(quote('x'.repeat(100), 10)).toBe(`“${'x'.repeat(9)}…”`);
  });

  it('pluralises and lists with a count of the rest', () => {
    expect(plural(1, 'voice')).toBe('1 voice');
    expect(plural(1200, 'job')).toBe('1,200 jobs');
    expect(plural(2, 'vulnerability', 'vulnerabilities')).toBe('2 vulnerabilities');
    expect(listWithMore(['a', 'b'], 3)).toBe('a, b');
    expect(listWithMore(['a', 'b', 'c', 'd'], 2)).toBe('a, b and 2 more');
  });
});
