// /report [range]: the analytics property's sessions, users, new users, events and key events
// (S2 runReport) for a period ending yesterday, each against the period of the same length before.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import type { DateRange } from '../src/services/analytics/client.ts';
import { withChart } from '../src/charts/index.ts';
import type { Reply } from '../src/core/reply.ts';
import { reportChart } from './report-chart.ts';
import { formatChange, formatNumber, percentChange } from './format.ts';
import { RANGE_CHOICES, REPORT_METRICS, formatPeriod, metricTotals, reportPeriods } from './report-ranges.ts';

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
    const periods = reportPeriods(input.range, ctx.now());
    const names = REPORT_METRICS.map((m) => m.name);
    const analytics = ctx.services.analytics;
    // Two single-range reports rather than one with two ranges: each answers with plain totals,
    // without GA4's synthetic dateRange dimension to untangle.
    const run = (range: DateRange) =>
      analytics.runReport({ dimensions: [], metrics: names, dateRanges: [range] }, { signal: ctx.signal });
    const [current, previous] = await Promise.all([run(periods.current), run(periods.previous)]);
    const now = metricTotals(current, names);
    const before = metricTotals(previous, names);
    const currentText = formatPeriod(periods.current);
    const previousText = formatPeriod(periods.previous);

    if (now.every((v) => v === 0) && before.every((v) => v === 0)) {
      return {
        text: `No analytics data for ${currentText} or the period before.`,
        embeds: [
          {
            title: `${periods.label}: no data`,
            description: `The property recorded nothing from ${previousText} to ${currentText}. If the site is live, check that its analytics tag is installed.`,
            color: 'warning',
          },
        ],
      };
    }

    // The chart's daily reports only once the totals answered: a failing S2 is asked no more.
    const chart = reportChart(periods, ctx);
    const rows = REPORT_METRICS.map((metric, i) => {
      const value = now[i] ?? 0;
      const prior = before[i] ?? 0;
      return { label: metric.label, value, prior, change: formatChange(percentChange(value, prior)) };
    });
    const reply: Reply = {
      text: `${periods.label} (${currentText}): ${rows
        .map((r) => `${r.label.toLowerCase()} ${formatNumber(r.value)} (${r.change})`)
        .join(', ')}`,
      embeds: [
        {
          title: `Analytics: ${periods.label.toLowerCase()}`,
          description: `${currentText}, compared with ${previousText}`,
          color: 'info',
          fields: rows.map((r) => ({
            name: r.label,
            value: `${formatNumber(r.value)}\n${r.change} (was ${formatNumber(r.prior)})`,
            inline: true,
          })),
          footer: 'Dates in UTC; the property may report in its own time zone',
        },
      ],
    };
    return withChart(reply, await chart);
  },
});
