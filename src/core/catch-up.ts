// Slots missed while no replica ran: found from the cron expression's previous fire times (croner's
// previousRuns, https://croner.56k.guru), each confirmed by node-cron's own matcher so that a slot
// id is one node-cron would have fired. The latest young enough slot is run; older ones are logged.
import { Cron } from 'croner';
import type { Store } from '../store/store.ts';
import type { JobLog, JobSlot } from './job.ts';
import type { SlotOutcome } from './slot-run.ts';

/** Missed slots checked one by one; older ones are only mentioned. */
export const MAX_SLOTS_CHECKED = 50;
const DAY_MS = 24 * 60 * 60_000;

/**
 * The fire times of `cron` in (from, to], oldest first, at most `max` of the latest; `more` when
 * older ones were left out. `matches` is node-cron's matcher: croner runs a time that falls in a
 * daylight-saving gap an hour later, node-cron skips it, and a slot must mean the same to both.
 */
export function fireTimesBetween(
  cron: string,
  timezone: string,
  range: { from: number; to: number; max: number },
  matches: (at: Date) => boolean,
): { slots: Date[]; more: boolean } {
  // node-cron ANDs day-of-month and day-of-week; croner's domAndDow does the same.
  const parser = new Cron(cron, { timezone, paused: true, domAndDow: true });
  // previousRuns excludes a run exactly at the reference; +1 ms makes `to` inclusive.
  const runs = parser.previousRuns(range.max + 1, new Date(range.to + 1));
  const inRange = runs.filter((at) => at.getTime() > range.from);
  const slots = inRange.slice(0, range.max).filter(matches).reverse();
  return { slots, more: inRange.length > range.max };
}

export interface CatchUpDeps {
  store: Store;
  log: JobLog;
  now: () => Date;
  catchupMs: number;
  runSlot(name: string, scheduledAt: Date, reason: JobSlot['reason']): Promise<SlotOutcome>;
}

/**
 * Runs the latest slot of one job missed since the job was first scheduled, when it is younger than
 * the catch-up window; logs the others as missed. `probe` is a node-cron task of the same schedule.
 */
export async function catchUpJob(
  deps: CatchUpDeps,
  job: { name: string; cron: string; timezone: string },
  probe: { match(at: Date): boolean },
): Promise<void> {
  const { store, log, catchupMs } = deps;
  const name = job.name;
  const t = deps.now().getTime();
  await store.setValue(`job:${name}:since`, new Date(t).toISOString(), { ifAbsent: true });
  const since = Date.parse((await store.getValue(`job:${name}:since`)) ?? '') || t;
  const lookbackMs = Math.min(Math.max(catchupMs, DAY_MS), 7 * DAY_MS);
  const range = { from: Math.max(since, t - lookbackMs), to: t, max: MAX_SLOTS_CHECKED };
  const { slots, more } = fireTimesBetween(job.cron, job.timezone, range, (at) => probe.match(at));
  if (more) log.warn({ job: name, before: slots[0]?.toISOString() }, 'job.missed');
  for (const [i, slot] of slots.entries()) {
    const slotId = slot.toISOString();
    if ((await store.getSlot(name, slotId))?.status === 'posted') continue;
    const ageMs = t - slot.getTime();
    const isLatest = i === slots.length - 1;
    if (isLatest && ageMs <= catchupMs) {
      await deps.runSlot(name, slot, 'catch-up');
      continue;
    }
    const why = isLatest
      ? 'older than the catch-up window (JOB_CATCHUP_MINUTES)'
      : 'a later slot supersedes it';
    log.warn({ job: name, slotId, ageMinutes: Math.round(ageMs / 60_000), reason: why }, 'job.missed');
  }
}
