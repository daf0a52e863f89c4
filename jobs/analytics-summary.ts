// analytics-summary: the S2 report of the configured range against the range before, posted
// through the S7 webhook as one embed with its chart and, when recipients are configured, emailed
// through S1. The same builder as /report (src/analytics-summary); GA4 resolves the days in the
// property's time zone, and a slot run late still reports the days it was due for.
import { createHash } from 'node:crypto';
import {
  fetchSummary,
  renderSummaryReply,
  summarize,
  summaryChart,
} from '../src/analytics-summary/summary.ts';
import { daysLate } from '../src/analytics-summary/ranges.ts';
import { tryDrawChart, withChart } from '../src/charts/index.ts';
import { defineJob, type Job } from '../src/schedule/job.ts';
import { withFooter } from '../src/schedule/simulated.ts';
import { buildAnalyticsSummaryEmail } from './analytics-summary-email.ts';
import { spokenBriefing } from './analytics-summary-media.ts';
import { renderDiscordWebhook, webhookUsername } from '../src/render/discord.ts';

export interface AnalyticsSummarySettings {
  /** yesterday, today or Nd. */
  range: string;
  metrics: readonly string[];
  dimension: string;
  /** The schedule's zone: "yesterday" is yesterday there. */
  timezone: string;
  emailTo: readonly string[];
  /** The webhook's display name for the post. */
  username: string;
  /** Also the summary read aloud (S5), as an mp3 in the same post. */
  speak?: boolean;
}

/** A short stable stand-in for an address in an Idempotency-Key (the address itself stays out of headers). */
function recipientKey(address: string): string {
  return createHash('sha256').update(address).digest('hex').slice(0, 16);
}

/** GA4 refuses a request with more metrics than this. */
const MAX_METRICS = 10;

export function createAnalyticsSummaryJob(settings: AnalyticsSummarySettings): Job {
  return defineJob({
    name: 'analytics-summary',
    description: 'Posts the analytics summary of the configured range through the webhook',
    needs: ['analytics', 'webhook'],
    // ANALYTICS_SUMMARY_SPEAK posts S5's audio with the summary.
    uses: settings.speak ? ['speech'] : [],
    async run(ctx) {
      const { analytics } = ctx.services;
      if (settings.metrics.length > MAX_METRICS) {
        ctx.log.warn(
          { job: 'analytics-summary', metrics: settings.metrics.length },
          `only the first ${MAX_METRICS} metrics are reported`,
        );
      }
      const metrics = settings.metrics.slice(0, MAX_METRICS);
      const now = ctx.now();
      const request = {
        range: settings.range,
        metrics,
        dimension: settings.dimension,
        shiftDays: daysLate(ctx.slot.scheduledAt, now, settings.timezone),
      };
      const data = await fetchSummary(analytics, request, now, { signal: ctx.signal });
      const summary = summarize(data, request, now);
      const chart =
        summary.isEmpty || metrics[0] === undefined
          ? undefined
          : await tryDrawChart(() => summaryChart(data, metrics[0]!, 'analytics-summary.png'), ctx.log);
      if (settings.username.trim() !== '' && webhookUsername(settings.username) === undefined) {
        ctx.log.warn(
          { job: 'analytics-summary' },
          'WEBHOOK_USERNAME is not a name Discord accepts; posting under the webhook default',
        );
      }
      let reply = withChart(renderSummaryReply(summary, settings.timezone), chart);
      if (settings.speak) reply = await spokenBriefing(reply, ctx);
      if (ctx.footer) reply = withFooter(reply, ctx.footer);
      ctx.deliver({ kind: 'webhook', message: renderDiscordWebhook(reply, { username: settings.username }) });

      if (settings.emailTo.length === 0) return;
      if (!ctx.services.email) {
        ctx.log.warn(
          { job: 'analytics-summary' },
          'ANALYTICS_SUMMARY_EMAIL_TO is set but the email service is not configured',
        );
        return;
      }
      const { subject, html } = buildAnalyticsSummaryEmail(summary, settings.timezone);
      // One email per recipient, so that no recipient sees the others' addresses; each is its own
      // outbox entry with a key derived from the slot and the recipient, so a resend after a crash
      // or a retry is the same email to Resend (kept 24 h), and each recipient gets it once.
      for (const recipient of new Set(settings.emailTo.map((a) => a.trim().toLowerCase()))) {
        ctx.deliver({
          kind: 'email',
          email: {
            to: [recipient],
            subject,
            html,
            idempotencyKey: `herald/analytics-summary/${ctx.slot.id}/${recipientKey(recipient)}`,
          },
        });
      }
    },
  });
}
