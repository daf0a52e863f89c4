// What the analytics summary posts besides its embed: the chart of the first metric per day over
// the trend range against the same number of days before (one more `date` report for those), and,
// with ANALYTICS_SUMMARY_SPEAK, the summary read aloud. Neither can lose the post: a chart that
// cannot be drawn is left out, a synthesis that fails leaves one sentence saying so.
import { comparisonChart, dailyValues, spanBefore, spanDays } from '../src/charts/comparison.ts';
import { tryDrawChart } from '../src/charts/index.ts';
import type { JobContext } from '../src/core/job.ts';
import type { Attachment, Reply } from '../src/core/reply.ts';
import {
  audioFailedSentence,
  speechNotConfigured,
  spokenText,
  synthesizeSpoken,
  withAudio,
  withAudioProblem,
} from '../src/speak.ts';
import type { Report } from '../src/services/analytics/client.ts';
import { formatSpan, type SummaryRanges } from './analytics-summary-build.ts';
import { metricLabel } from './analytics-summary-format.ts';

export interface SummaryChartInput {
  ranges: SummaryRanges;
  /** The first configured metric is the one drawn. */
  metric: string;
  /** The `date` report over `ranges.trend` the summary already fetched. */
  trend: Report;
}

export function summaryChart(input: SummaryChartInput, ctx: JobContext): Promise<Attachment | undefined> {
  const { ranges, metric } = input;
  const current = ranges.trend;
  const previous = spanBefore(current);
  const days = spanDays(current).length;
  return tryDrawChart(async () => {
    const before = await ctx.services.analytics!.runReport(
      { dimensions: ['date'], metrics: [metric], dateRanges: [previous] },
      { signal: ctx.signal },
    );
    return comparisonChart({
      filename: 'analytics-summary.png',
      metricLabel: metricLabel(metric),
      currentName: `Last ${days} days`,
      previousName: `Previous ${days} days`,
      currentText: formatSpan(current),
      previousText: formatSpan(previous),
      current: { span: current, values: dailyValues(input.trend, current, metric) },
      previous: { values: dailyValues(before, previous, metric) },
    });
  }, ctx.log);
}

/**
 * The summary read aloud as analytics-summary.mp3 in the same post (ANALYTICS_SUMMARY_SPEAK);
 * when S5 is missing or fails, the post says so in one sentence instead.
 */
export async function spokenBriefing(reply: Reply, ctx: JobContext): Promise<Reply> {
  const speech = ctx.services.speech;
  try {
    if (!speech) throw speechNotConfigured();
    const text = spokenText(reply.text);
    return withAudio(
      reply,
      await synthesizeSpoken({ speech, text, filename: 'analytics-summary.mp3', signal: ctx.signal }),
    );
  } catch (err) {
    ctx.log.warn(
      { err, job: 'analytics-summary' },
      'the spoken briefing could not be made; posting without it',
    );
    return withAudioProblem(reply, audioFailedSentence(err));
  }
}
