// What a schedule's runs say, truthfully: each finished slot becomes one record in its history (a
// post delivered later by the outbox updates its slot's record), a destination that answers
// 401/403/404 pauses the schedule, and three failed slots in a row are told once, with the fix.
import { loggedText } from '../domain/text.ts';
import { userMessageFor } from '../errors.ts';
import type { JobLog } from './job.ts';
import type { ScheduleRecord, ScheduleRun, ScheduleStore } from './schedules.ts';
import type { SlotOutcome } from './slot-run.ts';

/** Failed slots in a row after which the schedule's channel (or the operator) is told. */
const FAILURE_STREAK = 3;

/** A destination answering with one of these is gone (deleted webhook, bot removed): the schedule pauses. */
const GONE_STATUSES = new Set([401, 403, 404]);

export interface RunBook {
  schedules: ScheduleStore;
  log: JobLog;
  /** Posts a one-sentence notice through the schedule's own destination. */
  notify?: (record: ScheduleRecord, text: string) => Promise<void>;
  /** Every recorded run, built-in (by job name) and from chat (by schedule id), for metrics. */
  onRecord?: (schedule: string, run: ScheduleRun, from: 'chat' | 'built-in') => void;
}

/** Why a slot's run did not post, one sentence. */
function failureSentence(outcome: SlotOutcome): string {
  if (outcome.status === 'failed') return userMessageFor(outcome.error);
  const lost = outcome.deliveries.find((d) => d.outcome === 'given_up');
  if (lost) return `The destination refused the post: ${lost.failure?.reason ?? 'see the log'}.`;
  const waiting = outcome.deliveries.find((d) => d.outcome === 'pending');
  return `Not delivered yet (${waiting?.failure?.reason ?? 'no answer'}); the outbox retries it.`;
}

/** The schedule's record of a finished run. */
export function runRecord(outcome: SlotOutcome, at: number): ScheduleRun {
  const sent = outcome.deliveries.find((d) => d.receipt !== undefined);
  const base = {
    slotId: outcome.slotId,
    at,
    ...(outcome.durationMs === undefined ? {} : { durationMs: outcome.durationMs }),
  };
  const isPosted = outcome.status === 'posted' && outcome.deliveries.every((d) => d.outcome === 'delivered');
  if (isPosted)
    return {
      ...base,
      outcome: 'posted',
      ...(sent?.receipt ? { messageId: sent.receipt } : {}),
      ...(sent?.channelId ? { channelId: sent.channelId } : {}),
    };
  const isPending = outcome.status === 'posted' && outcome.deliveries.every((d) => d.outcome !== 'given_up');
  return { ...base, outcome: isPending ? 'pending' : 'failed', error: failureSentence(outcome) };
}

/** The HTTP status of a delivery that says the destination is gone, if one does. */
export function goneStatus(outcome: Pick<SlotOutcome, 'deliveries'>): number | undefined {
  return outcome.deliveries.find((d) => d.outcome === 'given_up' && GONE_STATUSES.has(d.failure?.status ?? 0))
    ?.failure?.status;
}

function pausedSentence(record: ScheduleRecord, status: number): string {
  return `The destination ${record.destination} answered HTTP ${status} (webhook deleted or bot removed?), so schedule ${record.id} is paused; fix the destination, then /schedule resume ${record.id}.`;
}

/** Scheduled runs only: a manual run's failure is told to whoever ran it. */
const isScheduled = (run: ScheduleRun) => !run.slotId.startsWith('manual:');

/** How many scheduled slots in a row failed, newest first. */
function failedInARow(runs: readonly ScheduleRun[]): number {
  let n = 0;
  for (const run of runs.filter(isScheduled)) {
    if (run.outcome !== 'failed') break;
    n++;
  }
  return n;
}

function noticeSentence(record: ScheduleRecord, error: string | undefined): string {
  return `Schedule ${record.id} (${record.command} → ${record.destination}) failed ${FAILURE_STREAK} times in a row, last: ${error ?? 'unknown error'} Fix it, or preview it with /schedule add … preview:yes; /schedule history ${record.id} shows each run.`;
}

/**
 * Records a chat schedule's run: pauses the schedule when its destination is gone, keeps the run
 * in its history, counts it and, when this run makes the third failed slot in a row, tells the
 * schedule's destination once. Returns the run as recorded.
 */
export async function recordChatRun(
  book: RunBook,
  record: ScheduleRecord,
  run: ScheduleRun,
  gone?: number,
): Promise<ScheduleRun> {
  let recorded = run;
  if (gone !== undefined) {
    await book.schedules.setPaused(record.id, true);
    recorded = { ...run, outcome: 'failed', error: pausedSentence(record, gone), paused: true };
    book.log.warn(
      { scheduleId: record.id, destination: record.destination, status: gone },
      'schedule.paused_destination_gone',
    );
  }
  await book.schedules.recordRun(record.id, recorded);
  book.onRecord?.(record.id, recorded, 'chat');
  if (recorded.outcome === 'failed' && isScheduled(recorded) && gone === undefined) {
    const runs = await book.schedules.history(record.id);
    if (failedInARow(runs) === FAILURE_STREAK) await tell(book, record, recorded.error);
  }
  return recorded;
}

async function tell(book: RunBook, record: ScheduleRecord, error: string | undefined): Promise<void> {
  // The command line is the user's text (up to 1,000 characters): the log keeps loggedText's share.
  const logged = noticeSentence({ ...record, command: loggedText(record.command) }, error);
  book.log.error({ scheduleId: record.id, streak: FAILURE_STREAK }, logged);
  if (!book.notify) return;
  try {
    await book.notify(record, noticeSentence(record, error));
  } catch (err) {
    book.log.error({ scheduleId: record.id, err }, 'schedule.notice_failed');
  }
}

/**
 * A built-in's slot: counted for metrics and, at the third failed slot in a row (kept in
 * `streak`), told to the operator in the log at error level, once.
 */
export async function recordBuiltInRun(
  book: RunBook,
  name: string,
  run: ScheduleRun,
  streak: { read(): Promise<number>; write(n: number): Promise<void> },
): Promise<void> {
  book.onRecord?.(name, run, 'built-in');
  if (!isScheduled(run) || run.outcome === 'pending') return;
  const n = run.outcome === 'failed' ? (await streak.read()) + 1 : 0;
  await streak.write(n);
  if (n === FAILURE_STREAK)
    book.log.error(
      { job: name, streak: n, error: run.error },
      `${name} failed ${n} slots in a row, last: ${run.error ?? 'unknown error'} Fix its configuration; npm run job -- ${name} runs it once now.`,
    );
}
