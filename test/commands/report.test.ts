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

/**
 * GA4's answer to the summary's one request (the `date` dimension over named ranges, TOTAL asked):
 * a range with data has a daily row on 21 Nov and its totals row (RESERVED_TOTAL, its name); a
 * range without data has neither. The trend ranges carry the period's figures.
 */
function answer(
  input: RunReportInput,
  current: number[] | undefined,
  previous: number[] | undefined,
): Report {
  const figures = (name: string) => (name === 'current' || name === 'trend' ? current : previous);
  const withData = input.dateRanges.flatMap((r) => {
    const values = figures(r.name ?? '');
    return values ? [{ name: r.name!, values }] : [];
  });
  return {
    dimensionHeaders: ['date', 'dateRange'],
    metricHeaders: METRICS.map((name) => ({ name, type: 'TYPE_INTEGER' })),
    rows: withData.map((d) => ({ dimensions: ['20261121', d.name], metrics: d.values })),
    rowCount: withData.length,
    currencyCode: 'USD',
    timeZone: 'America/Los_Angeles',
    ...(withData.length > 0
      ? { totals: withData.map((d) => ({ dimensions: ['RESERVED_TOTAL', d.name], metrics: d.values })) }
      : {}),
  };
}

/** GA4 with the given totals of both periods (undefined: no data in that period). */
function fakeAnalytics(current: number[] | undefined, previous: number[] | undefined) {
  return {
    runReport: vi.fn<AnalyticsClient['runReport']>(async (input: RunReportInput) =>
      answer(input, current, previous),
    ),
    close: vi.fn(async () => {}),
  } satisfies AnalyticsClient;
}

describe('/report', () => {
  it('compares each metric of the last 7 days with the 7 days before in exactly one request, relative dates', async () => {
    const analytics = fakeAnalytics([12345, 8000, 2100, 98000, 37], [10974, 8000, 0, 100000, 40]);
    const ctx = createContext({ services: { analytics } });
    const reply = await invoke(report, {}, ctx);

    expect(analytics.runReport.mock.calls.map((c) => c[0])).toEqual([
      {
        dimensions: ['date'],
        metrics: METRICS,
        dateRanges: [
          { startDate: '7daysAgo', endDate: 'yesterday', name: 'current' },
          { startDate: '14daysAgo', endDate: '8daysAgo', name: 'previous' },
        ],
        metricAggregations: ['TOTAL'],
      },
    ]);
    expect(analytics.runReport.mock.calls[0]![1]).toEqual({ signal: expect.any(AbortSignal) });
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('Analytics summary: last 7 days');
    // NOW is 10:00 UTC on 22 Nov, 02:00 in the property's Los Angeles: its yesterday is 21 Nov.
    expect(embed.description).toBe('**15–21 Nov 2026** compared with 8–14 Nov 2026');
    expect(field(reply, 'Sessions')).toBe('**12,345**\n↑ 12.5% (was 10,974)\n`▁▁▁▁▁▁█`');
    expect(field(reply, 'Users')).toBe('**8,000**\nno change (was 8,000)\n`▁▁▁▁▁▁█`');
    expect(field(reply, 'New users')).toBe('**2,100**\nnew (was 0)\n`▁▁▁▁▁▁█`');
    expect(field(reply, 'Events')).toBe('**98,000**\n↓ 2.0% (was 100,000)\n`▁▁▁▁▁▁█`');
    expect(field(reply, 'Key events')).toBe('**37**\n↓ 7.5% (was 40)\n`▁▁▁▁▁▁█`');
    expect(embed.footer).toBe('Trend: daily values, 15–21 Nov 2026; days in America/Los_Angeles');
    expect(reply.text).toBe(
      'Analytics summary for last 7 days (15–21 Nov 2026): sessions 12,345 (↑ 12.5%), users 8,000 (no change), new users 2,100 (new), events 98,000 (↓ 2.0%), key events 37 (↓ 7.5%).',
    );
  });

  it('answers a German reader in German, with German numbers, dates and percentages', async () => {
    const analytics = fakeAnalytics([12345, 8000, 2100, 98000, 37], [10974, 8000, 0, 100000, 40]);
    const reply = await invoke(report, {}, createContext({ services: { analytics }, language: 'de' }));
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('Analytics-Zusammenfassung: die letzten 7 Tage');
    expect(embed.description).toBe('**15.–21. Nov. 2026** verglichen mit 8.–14. Nov. 2026');
    expect(field(reply, 'Sitzungen')).toBe('**12.345**\n↑ 12,5\u00a0% (vorher 10.974)\n`▁▁▁▁▁▁█`');
    expect(field(reply, 'Nutzer')).toBe('**8.000**\nunverändert (vorher 8.000)\n`▁▁▁▁▁▁█`');
    expect(field(reply, 'Neue Nutzer')).toBe('**2.100**\nneu (vorher 0)\n`▁▁▁▁▁▁█`');
    expect(embed.footer).toBe(
      'Trend: Tageswerte, 15.–21. Nov. 2026; Tage in der Zeitzone America/Los_Angeles',
    );
    expect(reply.text).toBe(
      'Analytics-Zusammenfassung für die letzten 7 Tage (15.–21. Nov. 2026): Sitzungen 12.345 (↑ 12,5\u00a0%), ' +
        'Nutzer 8.000 (unverändert), Neue Nutzer 2.100 (neu), Ereignisse 98.000 (↓ 2,0\u00a0%), ' +
        'Schlüsselereignisse 37 (↓ 7,5\u00a0%).',
    );
  });

  it('answers a French reader in French, an empty period too', async () => {
    const analytics = fakeAnalytics([12345, 8000, 2100, 98000, 37], [10974, 8000, 0, 100000, 40]);
    const reply = await invoke(
      report,
      { range: '28d' },
      createContext({ services: { analytics }, language: 'fr' }),
    );
    expect(onlyEmbed(reply).title).toBe('Résumé analytique : les 28 derniers jours');
    expect(onlyEmbed(reply).description).toBe('**25 oct. – 21 nov. 2026** comparé à 27 sept. – 24 oct. 2026');
    expect(field(reply, 'Sessions')).toMatch(/^\*\*12\u202f345\*\*\n↑ 12,5\u00a0% \(avant : 10\u202f974\)/);
    expect(field(reply, 'Événements clés')).toMatch(/^\*\*37\*\*\n↓ 7,5\u00a0% \(avant : 40\)/);
    const empty = await invoke(
      report,
      { range: 'yesterday' },
      createContext({ services: { analytics: fakeAnalytics(undefined, undefined) }, language: 'fr' }),
    );
    expect(empty.text).toBe('Aucune donnée pour hier (21 nov. 2026).');
    expect(onlyEmbed(empty).description).toBe(
      "Aucune donnée pour hier (21 nov. 2026). La propriété n'a rien enregistré sur cette période, ou ses données ne sont pas encore traitées.",
    );
  });

  it("decides the days in the property's time zone, not the bot's", async () => {
    const analytics = fakeAnalytics([10, 8, 2, 50, 1], [5, 4, 1, 25, 1]);
    analytics.runReport.mockImplementation(async (input) => ({
      ...answer(input, [10, 8, 2, 50, 1], [5, 4, 1, 25, 1]),
      timeZone: 'Pacific/Auckland',
    }));
    // 12:00 UTC on 22 Nov is already 01:00 on 23 Nov in Auckland: yesterday there is 22 Nov.
    const late = createContext({ services: { analytics }, now: new Date('2026-11-22T12:00:00Z') });
    const reply = await invoke(report, { range: 'yesterday' }, late);
    expect(onlyEmbed(reply).description).toBe('**22 Nov 2026** compared with 21 Nov 2026');
    expect(field(reply, 'Sessions')).toMatch(/^\*\*10\*\*\n↑ 100\.0% \(was 5\)/);
  });

  it('treats a period GA4 sends without rows as zeros', async () => {
    const analytics = fakeAnalytics([300, 200, 50, 900, 3], undefined);
    const reply = await invoke(report, { range: '28d' }, createContext({ services: { analytics } }));
    expect(field(reply, 'Sessions')).toMatch(/^\*\*300\*\*\nnew \(was 0\)/);
  });

  it('answers with a warning when there is no data', async () => {
    const analytics = fakeAnalytics(undefined, undefined);
    const reply = await invoke(report, { range: '90d' }, createContext({ services: { analytics } }));
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(onlyEmbed(reply).fields).toBeUndefined();
    expect(reply.text).toBe('No data for last 90 days (24 Aug – 21 Nov 2026).');
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
    const analytics = fakeAnalytics(undefined, undefined);
    await expect(invoke(report, { range }, createContext({ services: { analytics } }))).rejects.toMatchObject(
      {
        code: 'invalid_input',
      },
    );
    expect(analytics.runReport).not.toHaveBeenCalled();
  });
});
