// Prometheus metrics (prom-client) on a registry of our own: commands by name and outcome,
// upstream calls by service and status, latency histograms, job runs. No label ever carries a
// chat schedule's id: users add and remove schedules without end, and series never go away, so
// every chat schedule counts under one label value and only built-in jobs (a fixed list) have their own.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isScheduleJobName, type ScheduleRun } from './schedule/schedules.ts';
import type { CallRecord } from './http/client.ts';

export interface Metrics {
  readonly registry: Registry;
  /** Pass as ClientDeps.onCall. */
  onCall(record: CallRecord): void;
  command(e: { command: string; outcome: string; durationMs: number }): void;
  job(e: { job: string; outcome: string; durationMs: number }): void;
  /** A run recorded in a schedule's history (a chat schedule's id, or a built-in job's name). */
  scheduleRun(schedule: string, run: ScheduleRun, from: 'chat' | 'built-in'): void;
  /** Scheduled posting stopped, e.g. for Discord's invalid-request safety limit (once per window). */
  postingStopped(reason: 'discord_invalid_requests'): void;
}

/** The one `job` label value every chat schedule's runs count under. */
export const CHAT_SCHEDULES_JOB_LABEL = 'chat-schedules';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** herald's own meters, registered on `registry`. */
function createMeters(registry: Registry) {
  const commands = new Counter({
    name: 'herald_commands_total',
    help: 'Commands run, by command and outcome',
    labelNames: ['command', 'outcome'] as const,
    registers: [registry],
  });
  const commandSeconds = new Histogram({
    name: 'herald_command_duration_seconds',
    help: 'End-to-end command latency',
    labelNames: ['command'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const upstream = new Counter({
    name: 'herald_upstream_requests_total',
    help: 'Upstream calls by service, operation, HTTP status and outcome code',
    labelNames: ['service', 'operation', 'status', 'code', 'cached'] as const,
    registers: [registry],
  });
  const upstreamSeconds = new Histogram({
    name: 'herald_upstream_duration_seconds',
    help: 'Upstream call latency including retries',
    labelNames: ['service', 'operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'herald_job_runs_total',
    help: 'Scheduled job runs by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'herald_job_duration_seconds',
    help: 'Scheduled job duration',
    labelNames: ['job'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  // By outcome only: a label per schedule would grow with every schedule ever added.
  const scheduleRuns = new Counter({
    name: 'herald_schedule_runs_total',
    help: 'Scheduled runs by outcome (posted, pending, failed, no-change, missed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lastSuccess = new Gauge({
    name: 'herald_schedule_last_success_timestamp_seconds',
    help: 'When each built-in job last posted (or found nothing new), in Unix seconds',
    labelNames: ['schedule'] as const,
    registers: [registry],
  });
  const postingStopped = new Counter({
    name: 'herald_scheduled_posting_stopped_total',
    help: "Times scheduled posting stopped for a window, by reason (Discord's invalid-request safety limit)",
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  return {
    commands,
    commandSeconds,
    upstream,
    upstreamSeconds,
    jobs,
    jobSeconds,
    scheduleRuns,
    lastSuccess,
    postingStopped,
  };
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'herald_' });
  const m = createMeters(registry);
  return {
    registry,
    postingStopped(reason) {
      m.postingStopped.inc({ reason });
    },
    scheduleRun(schedule, run, from) {
      m.scheduleRuns.inc({ outcome: run.outcome });
      if (from === 'built-in' && (run.outcome === 'posted' || run.outcome === 'no-change'))
        m.lastSuccess.set({ schedule }, run.at / 1000);
    },
    onCall(r) {
      m.upstream.inc({
        service: r.service,
        operation: r.operation,
        status: r.status === undefined ? 'none' : String(r.status),
        code: r.code,
        cached: String(r.cached),
      });
      if (!r.cached)
        m.upstreamSeconds.observe({ service: r.service, operation: r.operation }, r.durationMs / 1000);
    },
    command(e) {
      m.commands.inc({ command: e.command, outcome: e.outcome });
      m.commandSeconds.observe({ command: e.command }, e.durationMs / 1000);
    },
    job(e) {
      const job = isScheduleJobName(e.job) ? CHAT_SCHEDULES_JOB_LABEL : e.job;
      m.jobs.inc({ job, outcome: e.outcome });
      m.jobSeconds.observe({ job }, e.durationMs / 1000);
    },
  };
}
