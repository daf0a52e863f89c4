import { describe, expect, it } from 'vitest';
import {
  buildAnalyticsSummary,
  formatSpan,
  resolveRanges,
  summarize,
  type SummaryInput,
} from '../../jobs/analytics-summary-build.ts';
import { formatChange, formatMetric, sparkline } from '../../jobs/analytics-summary-format.ts';
import { COUNTRIES, CURRENT_TOTALS, DAILY, METRICS, PREVIOUS_TOTALS, domainReport } from './fixtures.ts';

const NOW = new Date('2025-11-22T08:00:03.250Z');
const SLOT = new Date('2025-11-22T08:00:00.000Z');

function input(overrides: Partial<SummaryInput> = {}): SummaryInput {
  return {
    current: domainReport([], CURRENT_TOTALS),
    previous: domainReport([], PREVIOUS_TOTALS),
    trend: domainReport(['date'], DAILY),
    top: domainReport(['country'], COUNTRIES),
    ranges: resolveRanges('yesterday', SLOT, 'UTC'),
    metrics: METRICS,
    dimension: 'country',
    now: NOW,
    ...overrides,
  };
}

describe('resolveRanges', () => {
  it('reports yesterday against the day before, with a week of daily values for the trend', () => {
    expect(resolveRanges('yesterday', SLOT, 'UTC')).toEqual({
      name: 'yesterday',
      days: 1,
      current: { startDate: '2025-11-21', endDate: '2025-11-21' },
      previous: { startDate: '2025-11-20', endDate: '2025-11-20' },
      trend: { startDate: '2025-11-15', endDate: '2025-11-21' },
    });
  });

  it('reports the last N whole days against the N days before them', () => {
    expect(resolveRanges('7d', SLOT, 'UTC')).toEqual({
      name: 'last 7 days',
      days: 7,
      current: { startDate: '2025-11-15', endDate: '2025-11-21' },
      previous: { startDate: '2025-11-08', endDate: '2025-11-14' },
      trend: { startDate: '2025-11-15', endDate: '2025-11-21' },
    });
    expect(resolveRanges('28d', SLOT, 'UTC').previous).toEqual({
      startDate: '2025-09-27',
      endDate: '2025-10-24',
    });
  });

  it('reports today so far against yesterday', () => {
    const r = resolveRanges('today', SLOT, 'UTC');
    expect(r.current).toEqual({ startDate: '2025-11-22', endDate: '2025-11-22' });
    expect(r.previous).toEqual({ startDate: '2025-11-21', endDate: '2025-11-21' });
  });

  it('takes the calendar day in the schedule time zone, not in UTC', () => {
    // 23:30 UTC on the 22nd is already the 23rd in Auckland, and still the 22nd in Los Angeles.
    const late = new Date('2025-11-22T23:30:00Z');
    expect(resolveRanges('yesterday', late, 'Pacific/Auckland').current.startDate).toBe('2025-11-22');
    expect(resolveRanges('yesterday', late, 'America/Los_Angeles').current.startDate).toBe('2025-11-21');
  });

  it('rejects a range it does not know', () => {
    expect(() => resolveRanges('fortnight', SLOT, 'UTC')).toThrow('unknown range "fortnight"');
  });
});

describe('formatSpan', () => {
  it('writes one day, a range within a month, and a range across months', () => {
    expect(formatSpan({ startDate: '2025-11-21', endDate: '2025-11-21' })).toBe('21 Nov 2025');
    expect(formatSpan({ startDate: '2025-11-15', endDate: '2025-11-21' })).toBe('15–21 Nov 2025');
    expect(formatSpan({ startDate: '2025-10-28', endDate: '2025-11-03' })).toBe('28 Oct – 3 Nov 2025');
    expect(formatSpan({ startDate: '2024-12-29', endDate: '2025-01-04' })).toBe('29 Dec 2024 – 4 Jan 2025');
  });
});

describe('formatting', () => {
  it('formats values by their GA4 metric type, money in the report currency', () => {
    expect(formatMetric(15000, 'TYPE_INTEGER', { name: 'eventCount' })).toBe('15,000');
    expect(formatMetric(1200.5, 'TYPE_CURRENCY', { name: 'totalRevenue', currency: 'EUR' })).toBe(
      '€1,200.50',
    );
    expect(formatMetric(1200.5, 'TYPE_CURRENCY', { name: 'totalRevenue', currency: 'JPY' })).toBe('¥1,201');
    expect(formatMetric(93.8124, 'TYPE_SECONDS', { name: 'averageSessionDuration' })).toBe('1m 34s');
    expect(formatMetric(0.5234, 'TYPE_FLOAT', { name: 'engagementRate' })).toBe('52.3%');
    expect(formatMetric(12.5, 'TYPE_KILOMETERS', { name: 'distance' })).toBe('12.5 km');
  });

  it('writes changes with a direction, and "new" when the previous value was zero', () => {
    expect(formatChange(1234, 1100)).toBe('▲ 12.2%');
    expect(formatChange(987, 1000)).toBe('▼ 1.3%');
    expect(formatChange(5, 5)).toBe('= 0%');
    expect(formatChange(42, 0)).toBe('▲ new');
    expect(formatChange(0, 0)).toBe('= 0%');
    expect(formatChange(3000, 1000)).toBe('▲ 200%');
  });

  it('draws a sparkline from lowest to highest, flat when nothing changes', () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([5, 5, 5])).toBe('▄▄▄');
    expect(sparkline([0, 0])).toBe('▁▁');
    expect(sparkline([])).toBe('');
    expect([...sparkline(Array.from({ length: 90 }, (_, i) => i))]).toHaveLength(31);
  });
});

describe('buildAnalyticsSummary', () => {
  it('shows each metric with its value, change and daily sparkline from a known report', () => {
    const s = summarize(input());
    expect(s.metrics).toEqual([
      { name: 'sessions', label: 'Sessions', value: '1,234', change: '▲ 12.2%', trend: '▂▂▃▁▄▇█' },
      { name: 'totalUsers', label: 'Users', value: '987', change: '▼ 1.3%', trend: '▂▂▃▁▄██' },
      { name: 'newUsers', label: 'New users', value: '321', change: '= 0%', trend: '▂▂▃▁▄██' },
      { name: 'eventCount', label: 'Events', value: '15,000', change: '▲ 7.1%', trend: '▁▂▂▁▃██' },
      { name: 'keyEvents', label: 'Key events', value: '42', change: '▲ new', trend: '▁▁▂▁▂▁█' },
    ]);
  });

  it('puts one embed per report: the period, a field per metric, the top rows and the trend span', () => {
    const reply = buildAnalyticsSummary(input());
    expect(reply.text).toBe(
      'Analytics summary for yesterday (21 Nov 2025): Sessions 1,234 (▲ 12.2%), Users 987 (▼ 1.3%), ' +
        'New users 321 (= 0%), Events 15,000 (▲ 7.1%), Key events 42 (▲ new).',
    );
    const [embed] = reply.embeds!;
    expect(reply.embeds).toHaveLength(1);
    expect(embed!.title).toBe('Analytics summary: yesterday');
    expect(embed!.description).toBe('**21 Nov 2025** compared with 20 Nov 2025');
    expect(embed!.color).toBe('info');
    expect(embed!.timestamp).toBe('2025-11-22T08:00:03.250Z');
    expect(embed!.footer).toBe('Trend: daily values, 15–21 Nov 2025');
    expect(embed!.fields![0]).toEqual({
      name: 'Sessions',
      value: '**1,234**\n▲ 12.2%\n`▂▂▃▁▄▇█`',
      inline: true,
    });
    expect(embed!.fields![5]).toEqual({
      name: 'Top countries by sessions',
      value:
        '1. Japan: 600 (49%)\n2. Germany: 300 (24%)\n3. France: 150 (12%)\n4. Canada: 100 (8%)\n5. Brazil: 80 (6%)',
      inline: false,
    });
  });

  it('formats money metrics in the currency of the report metadata', () => {
    const money = { name: 'totalRevenue', type: 'TYPE_CURRENCY' };
    const withRevenue = (values: number[]) => ({
      ...domainReport([], [{ dims: [], values }]),
      metricHeaders: [money],
      currencyCode: 'JPY',
    });
    const s = summarize(
      input({ metrics: ['totalRevenue'], current: withRevenue([150_000]), previous: withRevenue([120_000]) }),
    );
    expect(s.metrics[0]).toMatchObject({ label: 'Revenue', value: '¥150,000', change: '▲ 25.0%' });
  });

  it('escapes markdown in dimension values so that a page title cannot restyle the post', () => {
    const top = domainReport(
      ['pageTitle'],
      [{ dims: ['*Sale* _now_ `50%` [click](http://x)'], values: [9, 9, 9, 9, 9] }],
    );
    const reply = buildAnalyticsSummary(input({ top, dimension: 'pageTitle' }));
    const field = reply.embeds![0]!.fields!.at(-1)!;
    expect(field.name).toBe('Top pages by sessions');
    expect(field.value).toBe('1. \\*Sale\\* \\_now\\_ \\`50%\\` \\[click\\](http://x): 9 (1%)');
  });

  it('answers an empty report (no rows) with a "no data" report instead of failing', () => {
    const empty = (dims: string[]) => domainReport(dims, []);
    const reply = buildAnalyticsSummary(
      input({ current: empty([]), previous: empty([]), trend: empty(['date']), top: empty(['country']) }),
    );
    expect(reply.text).toBe('No data for yesterday (21 Nov 2025).');
    expect(reply.embeds).toEqual([
      {
        title: 'Analytics summary: yesterday',
        description:
          'No data for yesterday (21 Nov 2025). The property recorded nothing in that range, or its data is not processed yet.',
        color: 'warning',
        timestamp: '2025-11-22T08:00:03.250Z',
      },
    ]);
  });

  it('treats an empty previous range as zero, so every metric is new', () => {
    const s = summarize(input({ previous: domainReport([], []) }));
    expect(s.metrics.map((m) => m.change)).toEqual(['▲ new', '▲ new', '▲ new', '▲ new', '▲ new']);
  });
});
