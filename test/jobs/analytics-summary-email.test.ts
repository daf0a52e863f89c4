import { describe, expect, it } from 'vitest';
import { fetchSummary, summarize, type SummaryRequest } from '../../src/analytics-summary/summary.ts';
import { buildAnalyticsSummaryEmail } from '../../jobs/analytics-summary-email.ts';
import { METRICS, domainReport, fakeAnalytics } from './fixtures.ts';

const NOW = new Date('2025-11-22T08:00:01Z');
const REQUEST: SummaryRequest = { range: 'yesterday', metrics: METRICS, dimension: 'country' };

/** The summary from the fake GA4; `top` replaces the dimension's rows. */
async function summary(
  opts: { top?: ReturnType<typeof domainReport>; empty?: boolean; dimension?: string } = {},
) {
  const client = fakeAnalytics({ empty: opts.empty ?? false });
  const inner = client.runReport.bind(client);
  if (opts.top)
    client.runReport = async (input) =>
      input.dimensions.length === 1 && input.dimensions[0] !== 'date' ? opts.top! : inner(input);
  const request = { ...REQUEST, dimension: opts.dimension ?? 'country' };
  return summarize(await fetchSummary(client, request, NOW), request, NOW);
}

describe('buildAnalyticsSummaryEmail', () => {
  it('builds a whole HTML document with a metrics table and a top-rows table', async () => {
    const { subject, html } = buildAnalyticsSummaryEmail(await summary(), 'UTC');
    expect(subject).toBe('Analytics summary: yesterday (21 Nov 2025)');
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Analytics summary: yesterday (21 Nov 2025)</title>');
    expect(html.match(/<table /g)).toHaveLength(2);
    expect(html).toContain(
      '<tr><td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">Sessions</td>' +
        '<td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">1,234</td>' +
        '<td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">↑ 12.2%</td>' +
        '<td style="padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;">▂▂▃▁▄▇█</td></tr>',
    );
    expect(html).toContain('>Japan</td>');
    // Every opened element is closed.
    for (const tag of ['html', 'head', 'body', 'table', 'tr', 'td', 'h1', 'h2', 'p', 'title']) {
      const opened = html.match(new RegExp(`<${tag}[ >]`, 'g'))?.length ?? 0;
      expect(html.match(new RegExp(`</${tag}>`, 'g'))?.length ?? 0, tag).toBe(opened);
    }
  });

  it('says when it was sent in the schedule’s zone (ANALYTICS_SUMMARY_TZ), not as an ISO instant', async () => {
    const { html } = buildAnalyticsSummaryEmail(await summary(), 'Europe/Berlin');
    expect(html).toContain('Sent by herald at Sat, 22 Nov 2025, 09:00 CET</p>');
  });

  it('escapes data so that a page title cannot inject markup', async () => {
    const top = domainReport(
      ['pageTitle'],
      [{ dims: ['<script>alert("x")</script> & <b>'], values: [5, 5, 5, 5, 5] }],
    );
    const { html } = buildAnalyticsSummaryEmail(await summary({ top, dimension: 'pageTitle' }), 'UTC');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;');
  });

  it('says there is no data for an empty report, without tables', async () => {
    const { subject, html } = buildAnalyticsSummaryEmail(await summary({ empty: true }), 'UTC');
    expect(subject).toBe('Analytics summary: yesterday (21 Nov 2025)');
    expect(html).toContain('<p>No data for 21 Nov 2025.');
    expect(html).not.toContain('<table');
  });
});
