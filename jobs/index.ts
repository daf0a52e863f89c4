// The list of built-in jobs, each with its schedule from configuration; the one engine
// (src/schedule/runner.ts, put together in jobs/schedule-engine.ts) runs them beside /schedule's.
// Adding a job: one file in jobs/, one entry in createJobSchedules with its two variables.
import type { Config } from '../src/config/index.ts';
import type { JobSchedule } from '../src/schedule/job.ts';
import type { Services } from '../src/core/services.ts';
import { createAnalyticsSummaryJob } from './analytics-summary.ts';

/** Why a job cannot run with these services, naming the variables to set; undefined when it can. */
function missingServices(job: JobSchedule['job'], services: Services, config: Config): string | undefined {
  const missing = job.needs.filter((key) => services[key] === undefined);
  if (missing.length === 0) return undefined;
  return `not configured: set ${missing.map((key) => config.serviceVariables[key]).join(' and ')}`;
}

/** Every job with its schedule; a job whose services are missing is listed but disabled. */
export function createJobSchedules(config: Config, services: Services): JobSchedule[] {
  const s = config.analyticsSummary;
  const summary = createAnalyticsSummaryJob({
    range: s.range,
    metrics: s.metrics,
    dimension: s.dimension,
    timezone: s.timezone,
    emailTo: s.emailTo,
    speak: s.speak,
    username: config.webhookUsername,
  });
  const schedules: JobSchedule[] = [
    {
      job: summary,
      cron: s.cron,
      timezone: s.timezone,
      variables: { cron: 'ANALYTICS_SUMMARY_CRON', timezone: 'ANALYTICS_SUMMARY_TZ' },
    },
  ];
  return schedules.map((entry) => {
    const disabledReason = missingServices(entry.job, services, config);
    return disabledReason === undefined ? entry : { ...entry, disabledReason };
  });
}
