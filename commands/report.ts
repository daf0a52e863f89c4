// /report [range]: the analytics property's sessions, users, new users, events and key events
// (S2 runReport) for a period ending yesterday, each against the period of the same length before,
// with the daily chart. The same builder as the scheduled analytics summary (src/analytics-summary):
// one runReport per report with both periods, days resolved in the property's time zone.
import { z } from 'zod';
import {
  fetchSummary,
  renderSummaryReply,
  summarize,
  summaryChart,
} from '../src/analytics-summary/summary.ts';
import { tryDrawChart, withChart } from '../src/charts/index.ts';
import { defineCommand } from '../src/core/command.ts';

export const RANGE_CHOICES = ['yesterday', '7d', '28d', '90d'] as const;

/** GA4 Data API metric names; their labels come from the summary's one table. */
const REPORT_METRICS = ['sessions', 'totalUsers', 'newUsers', 'eventCount', 'keyEvents'] as const;

export const report = defineCommand({
  name: 'report',
  description: 'Analytics summary: sessions, users and events against the previous period',
  options: z.object({
    range: z
      .enum(RANGE_CHOICES)
      .default('7d')
      .describe('The period ending yesterday: yesterday, 7d, 28d or 90d'),
  }),
  positional: ['range'],
  needs: ['analytics'],
  examples: ['/report', '/report 28d'],
  async handler(input, ctx) {
    const request = { range: input.range, metrics: REPORT_METRICS };
    const now = ctx.now();
    const data = await fetchSummary(ctx.services.analytics, request, now, { signal: ctx.signal });
    // In the reader's language and locale; the chart's words stay English.
    const summary = summarize(data, request, now, ctx);
    const reply = renderSummaryReply(summary, ctx.preferences.timezone, ctx);
    if (summary.isEmpty) return reply;
    const chart = await tryDrawChart(() => summaryChart(data, REPORT_METRICS[0], 'report.png'), ctx.log);
    return withChart(reply, chart);
  },
});
