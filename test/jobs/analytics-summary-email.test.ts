import { describe, expect, it } from 'vitest';
import { resolveRanges, summarize } from '../../jobs/analytics-summary-build.ts';
import { buildAnalyticsSummaryEmail } from '../../jobs/analytics-summary-email.ts';
import { COUNTRIES, CURRENT_TOTALS, DAILY, METRICS, PREVIOUS_TOTALS, domainReport } from './fixtures.ts';

const base = {
  previous: domainReport([], PREVIOUS_TOTALS),
  trend: domainReport(['date'], DAILY),
  ranges: resolveRanges('yesterday', new Date('2025-11-22T08:00:00Z'), 'UTC'),
  metrics: METRICS,
  dimension: 'country',
  now: new Date('2025-11-22T08:00:01Z'),
};

describe('buildAnalyticsSummaryEmail', () => {
  it('builds a whole HTML document with a metrics table and a top-rows table', () => {
    const { subject, html } = buildAnalyticsSummaryEmail(
      summarize({
        ...base,
        current: domainReport([], CURRENT_TOTALS),
        top: domainReport(['country'], COUNTRIES),
      }),
    );
    expect(subject).toBe('Analytics summary: yesterday (21 Nov 2025)');
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Analytics summary: yesterday (21 Nov 2025)</title>');
    expect(html.match(/<table /g)).toHaveLength(2);
    expect(html).toContain(
      '<tr><td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">Sessions</td>' +
        '<td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">1,234</td>' +
        '<td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">▲ 12.2%</td>' +
        '<td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">▂▂▃▁▄▇█</td></tr>',
    );
    expect(html).toContain('>Japan</td>');
    // Every opened element is closed.
    for (const tag of ['html', 'head', 'body', 'table', 'tr', 'td', 'h1', 'h2', 'p', 'title']) {
      const opened = html.match(new RegExp(`<${tag}[ >]`, 'g'))?.length ?? 0;
      expect(html.match(new RegExp(`</${tag}>`, 'g'))?.length ?? 0, tag).toBe(opened);
    }
  });

  it('escapes data so that a page title cannot inject markup', () => {
    const top = domainReport(
      ['pageTitle'],
      [{ dims: ['<script>alert("x")</script> & <b>'], values: [5, 5, 5, 5, 5] }],
    );
    const { html } = buildAnalyticsSummaryEmail(
      summarize({ ...base, current: domainReport([], CURRENT_TOTALS), top, dimension: 'pageTitle' }),
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;');
  });

  it('says there is no data for an empty report, without tables', () => {
    const { subject, html } = buildAnalyticsSummaryEmail(
      summarize({ ...base, current: domainReport([], []), top: domainReport(['country'], []) }),
    );
    expect(subject).toBe('Analytics summary: yesterday (21 Nov 2025)');
    expect(html).toContain('<p>No data for 21 Nov 2025.');
    expect(html).not.toContain('<table');
  });
});
