// The one analytics-summary builder behind /report and the scheduled job: relative GA4 date
// ranges, one runReport per report with both periods, the summary and its Reply.
import { describe, expect, it } from 'vitest';
import { timeValue } from '../../src/core/reply.ts';
import { formatMetric, sparkline } from '../../src/analytics-summary/format.ts';
import { daysLate, formatSpan, resolveRanges, spanOf, todayIn } from '../../src/analytics-summary/ranges.ts';
import {
  fetchSummary,
  renderSummaryReply,
  rangeRows,
  rangeTotals,
  summarize,
  type SummaryRequest,
} from '../../src/analytics-summary/summary.ts';
import {
  COUNTRIES,
  METRICS,
  YESTERDAY_BY_COUNTRY_REQUESTS,
  domainReport,
  fakeAnalytics,
} from '../jobs/fixtures.ts';

const NOW = new Date('2025-11-22T08:00:03.250Z');
const REQUEST: SummaryRequest = { range: 'yesterday', metrics: METRICS, dimension: 'country' };

async function build(request: SummaryRequest = REQUEST, client = fakeAnalytics()) {
  const data = await fetchSummary(client, request, NOW);
  return { data, summary: summarize(data, request, NOW), inputs: client.inputs };
}

describe('resolveRanges', () => {
  it('asks for yesterday against the day before in relative dates, with a week of daily values', () => {
    const r = resolveRanges('yesterday');
    expect(r).toEqual({
      name: 'yesterday',
      days: 1,
      ago: { current: [1, 1], previous: [2, 2], trend: [7, 1], trendPrevious: [14, 8] },
    });
  });

  it('asks for the last N whole days against the N days before, and today against yesterday', () => {
    expect(resolveRanges('28d').ago).toEqual({
      current: [28, 1],
      previous: [56, 29],
      trend: [28, 1],
      trendPrevious: [56, 29],
    });
    expect(resolveRanges('today').ago.current).toEqual([0, 0]);
    expect(resolveRanges('today').ago.previous).toEqual([1, 1]);
    expect(() => resolveRanges('fortnight')).toThrow('unknown range "fortnight"');
  });

  it('moves the ranges back by the days a late slot missed, so it reports the days it was due for', () => {
    expect(resolveRanges('yesterday', 2).ago.current).toEqual([3, 3]);
    expect(daysLate(new Date('2025-11-22T08:00:00Z'), new Date('2025-11-24T01:00:00Z'), 'UTC')).toBe(2);
    // 23:30 UTC on the 22nd is already the 23rd in Auckland.
    expect(
      daysLate(new Date('2025-11-22T20:00:00Z'), new Date('2025-11-22T23:30:00Z'), 'Pacific/Auckland'),
    ).toBe(0);
    expect(
      daysLate(new Date('2025-11-22T08:00:00Z'), new Date('2025-11-22T23:30:00Z'), 'Pacific/Auckland'),
    ).toBe(1);
  });

  it("shows calendar dates in the property's zone, and formats a span once for every surface", () => {
    expect(todayIn(new Date('2025-11-22T23:30:00Z'), 'Pacific/Auckland')).toBe('2025-11-23');
    expect(todayIn(new Date('2025-11-22T23:30:00Z'), 'America/Los_Angeles')).toBe('2025-11-22');
    expect(spanOf([7, 1], '2025-11-22')).toEqual({ startDate: '2025-11-15', endDate: '2025-11-21' });
    expect(formatSpan({ startDate: '2025-11-21', endDate: '2025-11-21' })).toBe('21 Nov 2025');
    expect(formatSpan({ startDate: '2025-11-15', endDate: '2025-11-21' })).toBe('15–21 Nov 2025');
    expect(formatSpan({ startDate: '2025-10-28', endDate: '2025-11-03' })).toBe('28 Oct – 3 Nov 2025');
    expect(formatSpan({ startDate: '2024-12-29', endDate: '2025-01-04' })).toBe('29 Dec 2024 – 4 Jan 2025');
  });
});

describe('fetchSummary', () => {
  it('makes one runReport per report with both periods as two named relative date ranges', async () => {
    const { inputs, data } = await build();
    expect(inputs).toEqual(YESTERDAY_BY_COUNTRY_REQUESTS);
    expect(data.spans.current).toEqual({ startDate: '2025-11-21', endDate: '2025-11-21' });
    expect(data.timeZone).toBe('Europe/Berlin');
  });

  it('makes exactly one call without a dimension (/report): both periods and their totals', async () => {
    const { inputs, data } = await build({ range: '7d', metrics: METRICS });
    expect(inputs).toEqual([
      {
        dimensions: ['date'],
        metrics: [...METRICS],
        dateRanges: [
          { startDate: '7daysAgo', endDate: 'yesterday', name: 'current' },
          { startDate: '14daysAgo', endDate: '8daysAgo', name: 'previous' },
        ],
        metricAggregations: ['TOTAL'],
      },
    ]);
    // Totals from GA4's aggregation, not the sum of the daily rows (users are not additive).
    expect(data.totals.current.rows).toEqual([{ dimensions: [], metrics: [1234, 987, 321, 15_000, 42] }]);
    expect(data.daily.current.rows).toHaveLength(6);
    expect(data.daily.previous.rows).toHaveLength(7);
  });

  it("splits a report by its dateRange column, and takes each range's totals row; a range GA4 left out is empty", () => {
    const both = domainReport(
      ['date', 'dateRange'],
      [
        { dims: ['20251121', 'current'], values: [6, 5, 1, 70, 2] },
        { dims: ['20251120', 'previous'], values: [3, 2, 1, 40, 0] },
        { dims: ['20251120', 'current'], values: [1, 1, 0, 20, 0] },
      ],
      [
        { dims: ['RESERVED_TOTAL', 'current'], values: [7, 5, 1, 90, 2] },
        { dims: ['RESERVED_TOTAL', 'previous'], values: [3, 2, 1, 40, 0] },
      ],
    );
    const current = rangeRows(both, 'current');
    expect(current.dimensionHeaders).toEqual(['date']);
    expect(current.rows.map((r) => r.dimensions)).toEqual([['20251121'], ['20251120']]);
    expect(rangeRows(both, 'previous').rows).toEqual([
      { dimensions: ['20251120'], metrics: [3, 2, 1, 40, 0] },
    ]);
    // Users: 5 in all over two days with 5 and 1, so the total is GA4's, not 6.
    expect(rangeTotals(both, 'current').rows).toEqual([{ dimensions: [], metrics: [7, 5, 1, 90, 2] }]);
    expect(rangeTotals(both, 'trend')).toMatchObject({ rows: [], rowCount: 0 });
    expect(rangeRows(both, 'trend')).toMatchObject({ rows: [], rowCount: 0 });
  });
});

describe('summarize and renderSummaryReply', () => {
  it('shows each metric with its value, the previous value, one change format and the sparkline', async () => {
    const { summary } = await build();
    expect(summary.metrics).toEqual([
      {
        name: 'sessions',
        label: 'Sessions',
        value: '1,234',
        previous: '1,100',
        change: '↑ 12.2%',
        trend: '▂▂▃▁▄▇█',
      },
      {
        name: 'totalUsers',
        label: 'Users',
        value: '987',
        previous: '1,000',
        change: '↓ 1.3%',
        trend: '▂▂▃▁▄██',
      },
      {
        name: 'newUsers',
        label: 'New users',
        value: '321',
        previous: '321',
        change: 'no change',
        trend: '▂▂▃▁▄██',
      },
      {
        name: 'eventCount',
        label: 'Events',
        value: '15,000',
        previous: '14,000',
        change: '↑ 7.1%',
        trend: '▁▂▂▁▃██',
      },
      { name: 'keyEvents', label: 'Key events', value: '42', previous: '0', change: 'new', trend: '▁▁▂▁▂▁█' },
    ]);
  });

  it('renders one embed: the period, a field per metric, the top rows, the trend span and the zone', async () => {
    const { summary } = await build();
    const reply = renderSummaryReply(summary, 'UTC');
    expect(reply.text).toBe(
      'Analytics summary for yesterday (21 Nov 2025): sessions 1,234 (↑ 12.2%), users 987 (↓ 1.3%), ' +
        'new users 321 (no change), events 15,000 (↑ 7.1%), key events 42 (new).',
    );
    const [embed] = reply.embeds!;
    expect(reply.embeds).toHaveLength(1);
    expect(embed).toMatchObject({
      title: 'Analytics summary: yesterday',
      description: '**21 Nov 2025** compared with 20 Nov 2025',
      color: 'info',
      timestamp: timeValue(new Date('2025-11-22T08:00:03.250Z'), 'UTC'),
      footer: 'Trend: daily values, 15–21 Nov 2025; days in Europe/Berlin',
    });
    expect(embed!.fields![0]).toEqual({
      name: 'Sessions',
      value: '**1,234**\n↑ 12.2% (was 1,100)\n`▂▂▃▁▄▇█`',
      inline: true,
    });
    expect(embed!.fields![5]).toEqual({
      name: 'Top countries by sessions',
      value:
        '1. Japan: 600 (49%)\n2. Germany: 300 (24%)\n3. France: 150 (12%)\n4. Canada: 100 (8%)\n5. Brazil: 80 (6%)',
      inline: false,
    });
    expect(COUNTRIES).toHaveLength(6);
  });

  it('escapes markdown in dimension values so that a page title cannot restyle the post', async () => {
    const client = fakeAnalytics();
    const inner = client.runReport.bind(client);
    client.runReport = async (input) =>
      input.dimensions[0] === 'pageTitle'
        ? domainReport(
            ['pageTitle'],
            [{ dims: ['*Sale* _now_ `50%` [click](http://x)'], values: [9, 9, 9, 9, 9] }],
          )
        : inner(input);
    const { summary } = await build({ ...REQUEST, dimension: 'pageTitle' }, client);
    const field = renderSummaryReply(summary, 'UTC').embeds![0]!.fields!.at(-1)!;
    expect(field.name).toBe('Top pages by sessions');
    expect(field.value).toBe('1. \\*Sale\\* \\_now\\_ \\`50%\\` \\[click\\](http://x): 9 (1%)');
  });

  it('answers an empty property with a "no data" report instead of failing', async () => {
    const { summary } = await build(REQUEST, fakeAnalytics({ empty: true }));
    const reply = renderSummaryReply(summary, 'UTC');
    expect(reply.text).toBe('No data for yesterday (21 Nov 2025).');
    expect(reply.embeds).toEqual([
      {
        title: 'Analytics summary: yesterday',
        description:
          'No data for yesterday (21 Nov 2025). The property recorded nothing in that range, or its data is not processed yet.',
        color: 'warning',
        timestamp: timeValue(new Date('2025-11-22T08:00:03.250Z'), 'UTC'),
      },
    ]);
  });
});

describe('formatting', () => {
  it('formats values by their GA4 metric type, money in the report currency', () => {
    expect(formatMetric(15000, 'TYPE_INTEGER', { name: 'eventCount' })).toBe('15,000');
    expect(formatMetric(1200.5, 'TYPE_CURRENCY', { name: 'totalRevenue', currency: 'EUR' })).toBe(
      '€1,200.50',
    );
    expect(formatMetric(1200.5, 'TYPE_CURRENCY', { name: 'totalRevenue', currency: 'JPY' })).toBe('JP¥1,201');
    expect(formatMetric(93.8124, 'TYPE_SECONDS', { name: 'averageSessionDuration' })).toBe('1m 34s');
    expect(formatMetric(0.5234, 'TYPE_FLOAT', { name: 'engagementRate' })).toBe('52.3%');
    expect(formatMetric(12.5, 'TYPE_KILOMETERS', { name: 'distance' })).toBe('12.50 km');
  });

  it('draws a sparkline from lowest to highest, flat when nothing changes', () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([5, 5, 5])).toBe('▄▄▄');
    expect(sparkline([0, 0])).toBe('▁▁');
    expect(sparkline([])).toBe('');
    expect([...sparkline(Array.from({ length: 90 }, (_, i) => i))]).toHaveLength(31);
  });
});
