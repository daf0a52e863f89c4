// The runs a chat schedule skips: its public holidays (`skip:holidays:de-by`, src/holidays.ts) in
// its zone, and the one run `/schedule skip` set aside, kept in the store for every replica.
import { refusal } from '../errors.ts';
import { skipKey, type ScheduleRecord, type ScheduleSkip } from './schedules.ts';
import { formatInZone } from '../format.ts';
import { runsAfter } from './when.ts';
import { readSkip, skipReason } from './slot-run.ts';
import type { Store } from '../store/store.ts';

/** The run `/schedule skip` set aside that is still to come, as /schedule list shows it. */
export async function pendingSkip(store: Store, id: string, now: Date): Promise<ScheduleSkip | undefined> {
  const skip = await readSkip(store, id);
  return skip && Date.parse(skip.slotId) > now.getTime() ? skip : undefined;
}

/** How far the next runs are looked for: a year, at most this many slots (every 5 minutes over Christmas: 576). */
const LOOK_AHEAD = 2_048;
const YEAR_MS = 366 * 86_400_000;

/** The schedule's next `count` runs after `from`, its public holidays and `skip` (pendingSkip) left out. */
export async function runsAfterSkips(
  schedule: Pick<ScheduleRecord, 'cron' | 'timezone' | 'holidays'>,
  skip: ScheduleSkip | undefined,
  from: Date,
  count: number,
): Promise<Date[]> {
  const out: Date[] = [];
  let seen = 0;
  for (const at of runsAfter(schedule.cron, schedule.timezone, from, count + (skip ? 1 : 0))) {
    if (seen++ === LOOK_AHEAD || at.getTime() > from.getTime() + YEAR_MS) break;
    if ((await skipReason(schedule, at, () => Promise.resolve(skip))) !== undefined) continue;
    if (out.push(at) === count) break;
  }
  return out;
}

/** A run `/schedule skip` set aside or `/schedule unskip` restored, and the next run after that. */
export type Skipped = Awaited<ReturnType<typeof setSkip>>;

/** `/schedule skip` (`isSkip`) sets aside the next run, `/schedule unskip` takes that back. */
export async function setSkip(store: Store, record: ScheduleRecord, isSkip: boolean, by: string, now: Date) {
  const { id, timezone } = record;
  if (record.paused) throw refusal((t) => t('scheduleRefusals:skip.paused', { id }));
  const pending = await pendingSkip(store, id, now);
  if (!isSkip) {
    if (!pending) throw refusal((t) => t('scheduleRefusals:skip.none', { id }));
    await store.deleteValues(skipKey(id));
    const [nextRun] = await runsAfterSkips(record, undefined, now, 1);
    return { record, slot: new Date(pending.slotId), nextRun };
  }
  if (pending)
    throw refusal((t, locale) =>
      t('scheduleRefusals:skip.already', {
        id,
        at: formatInZone(new Date(pending.slotId), timezone, locale),
      }),
    );
  const [slot, nextRun] = await runsAfterSkips(record, undefined, now, 2);
  if (!slot) throw refusal((t) => t('scheduleRefusals:skip.noNext', { id }));
  await store.setValue(skipKey(id), JSON.stringify({ slotId: slot.toISOString(), by: by.slice(0, 80) }));
  return { record, slot, nextRun };
}
