// The built-in schedules: the jobs set by environment (jobs/index.ts), each a job with a cron
// expression and a zone, checked at start and then run by the one engine (schedule/runner.ts) with
// the same time arithmetic (when.ts), claim, lease, timeout, retry rule and outbox as /schedule.
// node-cron (https://nodecron.com) checks the expressions: its messages name what is wrong.
import { validateDetailed } from 'node-cron';
import { ConfigError, type ConfigProblem } from '../errors.ts';
import type { Job } from './job.ts';
import { isTimeZone, nextRuns } from './when.ts';

export interface JobSchedule {
  job: Job;
  cron: string;
  timezone: string;
  /** The variables that set `cron` and `timezone`, named in errors. */
  variables: { cron: string; timezone: string };
  /** Set when the job cannot run (its services are not configured): validated, not scheduled. */
  disabledReason?: string;
}

export type { SlotOutcome } from './slot-run.ts';

/** Checks every schedule (cron syntax, IANA zone) and throws one ConfigError naming each variable. */
export function validateSchedules(schedules: readonly JobSchedule[]): void {
  const problems: ConfigProblem[] = [];
  for (const s of schedules) {
    const result = validateDetailed(s.cron);
    if (!result.valid) {
      const why = result.errors.map((e) => e.message).join('; ');
      problems.push({ variable: s.variables.cron, message: `invalid cron expression "${s.cron}": ${why}` });
    } else if (s.cron.trim().split(/\s+/).length !== 5) {
      // One rule for every schedule: five fields, as /schedule takes them.
      problems.push({
        variable: s.variables.cron,
        message: `"${s.cron}" has a seconds field; write five fields: minute hour day month weekday`,
      });
    } else {
      try {
        nextRuns(s.cron, 'UTC', new Date(0), 1);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        problems.push({ variable: s.variables.cron, message: `invalid cron expression "${s.cron}": ${why}` });
      }
    }
    if (!isTimeZone(s.timezone)) {
      problems.push({
        variable: s.variables.timezone,
        message: `unknown time zone "${s.timezone}" (use an IANA name such as Europe/Berlin)`,
      });
    }
  }
  if (problems.length > 0) throw new ConfigError({ problems });
}
