// The list of scheduled jobs, each with its schedule from configuration, and startJobs for main.ts.
// Adding a job: one file in jobs/, one entry in createJobSchedules with its two variables.
import type { Config } from '../src/config.ts';
import {
  createScheduler,
  validateSchedules,
  type JobSchedule,
  type Scheduler,
  type SchedulerOptions,
} from '../src/core/scheduler.ts';
import type { JobLog } from '../src/core/job.ts';
import type { Services } from '../src/core/services.ts';
import { RETENTION_MS, type Store } from '../src/store/index.ts';
import type { WebhookClient } from '../src/services/webhook/client.ts';
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

export interface StartJobsOptions {
  config: Config;
  services: Services;
  store: Store;
  log: JobLog;
  now?: () => Date;
  /** e.g. metrics.job from src/metrics.ts. */
  onRun?: SchedulerOptions['onRun'];
  /** Wait for the outbox retry and the catch-up run before resolving (tests); false by default. */
  awaitRecovery?: boolean;
  /** The named webhooks of /schedule: the outbox this scheduler drains holds their posts too. */
  destinations?: Readonly<Record<string, WebhookClient>>;
}

export interface RunningJobs {
  scheduler: Scheduler;
  stop(): Promise<void>;
}

/**
 * Validates every schedule (a ConfigError names the variable), prunes old records and schedules
 * the enabled jobs; the outbox retry and the catch-up of a recently missed slot follow.
 */
export async function startJobs(opts: StartJobsOptions): Promise<RunningJobs> {
  const schedules = createJobSchedules(opts.config, opts.services);
  validateSchedules(schedules);
  await opts.store.prune(RETENTION_MS);
  const scheduler = createScheduler({
    schedules,
    services: opts.services,
    store: opts.store,
    log: opts.log,
    catchupMinutes: opts.config.jobCatchupMinutes,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.onRun ? { onRun: opts.onRun } : {}),
    ...(opts.destinations ? { delivery: { destinations: opts.destinations } } : {}),
  });
  // The bot does not wait for the outbox retry and the catch-up run: they continue in the background.
  await scheduler.start({ awaitRecovery: opts.awaitRecovery ?? false });
  return { scheduler, stop: () => scheduler.stop() };
}
