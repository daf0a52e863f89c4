import { describe, expect, it, vi } from 'vitest';
import { report } from '../../commands/report.ts';
import type { AnalyticsClient, Report, RunReportInput } from '../../src/services/analytics/client.ts';
import {
  createContext,
  expectWellFormed,
  field,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
} from './context.ts';

const METRICS = ['sessions', 'totalUsers', 'newUsers', 'eventCount', 'keyEvents'];

const totals = (values: number[] | undefined): Report => ({
  dimensionHeaders: [],
  metricHeaders: METRICS.map((name) => ({ name, type: 'TYPE_INTEGER' })),
  rows: values ? [{ dimensions: [], metrics: values }] : [],
  rowCount: values ? 1 : 0,
  currencyCode: 'USD',
  timeZone: 'America/Los_Angeles',
});

/** Answers by the requested start date: the current period's or the previous one's totals. */
function fakeAnalytics(byStart: Record<string, number[] | undefined>) {
  return {
    runReport: vi.fn<AnalyticsClient['runReport']>(async (input: RunReportInput) =>
      totals(byStart[input.dateRanges[0]!.startDate]),
    ),
    close: vi.fn(async () => {}),
  } satisfies AnalyticsClient;
}

describe('/report', () => {
  it('compares each metric of the last 7 days with the 7 days before, in percent', async () => {
    const analytics = fakeAnalytics({
      '2026-11-15': [12345, 8000, 2100, 98000, 37],
      '2026-11-08': [10974, 8000, 0, 100000, 40],
    });
    const ctx = createContext({ services: { analytics } });
    const reply = await invoke(report, {}, ctx);

    const totalsCalls = analytics.runReport.mock.calls.filter((c) => c[0].dimensions.length === 0);
    expect(totalsCalls.map((c) => c[0])).toEqual([
      { dimensions: [], metrics: METRICS, dateRanges: [{ startDate: '2026-11-15', endDate: '2026-11-21' }] },
      { dimensions: [], metrics: METRICS, dateRanges: [{ startDate: '2026-11-08', endDate: '2026-11-14' }] },
    ]);
    expect(analytics.runReport.mock.calls[0]![1]).toEqual({ signal: ctx.signal });
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('Analytics: last 7 days');
    expect(embed.description).toBe('15–21 Nov 2026, compared with 8–14 Nov 2026');
    expect(field(reply, 'Sessions')).toBe('12,345\n↑ 12.5% (was 10,974)');
    expect(field(reply, 'Users')).toBe('8,000\nno change (was 8,000)');
    expect(field(reply, 'New users')).toBe('2,100\nnew (was 0)');
    expect(field(reply, 'Events')).toBe('98,000\n↓ 2.0% (was 100,000)');
    expect(field(reply, 'Key events')).toBe('37\n↓ 7.5% (was 40)');
    expect(reply.text).toBe(
      'Last 7 days (15–21 Nov 2026): sessions 12,345 (↑ 12.5%), users 8,000 (no change), new users 2,100 (new), events 98,000 (↓ 2.0%), key events 37 (↓ 7.5%)',
    );
  });

  it('reports yesterday against the day before', async () => {
    const analytics = fakeAnalytics({ '2026-11-21': [10, 8, 2, 50, 1], '2026-11-20': [5, 4, 1, 25, 1] });
    const reply = await invoke(report, { range: 'yesterday' }, createContext({ services: { analytics } }));
    expect(onlyEmbed(reply).description).toBe('21 Nov 2026, compared with 20 Nov 2026');
    expect(field(reply, 'Sessions')).toBe('10\n↑ 100.0% (was 5)');
  });

  it('treats a period GA4 sends without rows as zeros', async () => {
    const analytics = fakeAnalytics({ '2026-10-25': [300, 200, 50, 900, 3], '2026-09-27': undefined });
    const reply = await invoke(report, { range: '28d' }, createContext({ services: { analytics } }));
    expect(field(reply, 'Sessions')).toBe('300\nnew (was 0)');
  });

  it('answers with a warning when neither period has data', async () => {
    const analytics = fakeAnalytics({});
    const reply = await invoke(report, { range: '90d' }, createContext({ services: { analytics } }));
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(onlyEmbed(reply).fields).toBeUndefined();
    expect(reply.text).toBe('No analytics data for 24 Aug – 21 Nov 2026 or the period before.');
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('analytics', 'runReport', code);
    const analytics = {
      runReport: vi.fn<AnalyticsClient['runReport']>(() => Promise.reject(error)),
      close: vi.fn(async () => {}),
    } satisfies AnalyticsClient;
    await expect(invoke(report, {}, createContext({ services: { analytics } }))).rejects.toBe(error);
  });

  it.each([['30d'], ['week'], ['today']])('rejects the range %s without a request', async (range) => {
    const analytics = fakeAnalytics({});
    await expect(invoke(report, { range }, createContext({ services: { analytics } }))).rejects.toMatchObject(
      {
        code: 'invalid_input',
      },
    );
    expect(analytics.runReport).not.toHaveBeenCalled();
  });
});
