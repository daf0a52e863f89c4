// What a schedule's runs say: each finished slot is one record in its history (a post the outbox
// delivers later updates it), a destination that refuses herald for good pauses the schedule and
// its creator is told, and three failed slots in a row are told once. "For good" is the platform's
// word whatever the HTTP status (Slack's `not_in_channel` comes with 200), else a 401, 403 or 404.
// A creator is told never through the destination that refuses: by a direct message where herald
// can send one, else the notice waits in the store for the reply to their next command, on
// whichever replica answers it. Every notice is also logged.
import type { Actor } from '../core/actor.ts';
import { parseChannelDestination } from '../core/channel.ts';
import { loggedText } from '../domain/text.ts';
import { userMessageFor } from '../errors.ts';
import { webhookClientFor } from './delivery.ts';
import type { DeliveryFailure, DeliveryOptions, EntryResult } from './delivery-options.ts';
import { isScheduleJobName, type ScheduleRecord, type ScheduleRun } from './schedules.ts';
import type { ManualRun } from './service.ts';
import type { ChatSettings, SlotDeps, SlotOutcome } from './slot-run.ts';
import type { Language } from '../domain/preferences.ts';
import { english, translatorFor, type Translate } from '../i18n/translate.ts';

const OVERTAKEN_SENTENCE = 'Missed: a newer slot ran before its retry.';

/** Failed slots in a row after which the schedule's channel (or the operator) is told. */
const FAILURE_STREAK = 3;

const GONE_STATUSES = new Set([401, 403, 404]);

/** Sends `text` to `user` as a direct message; false when the platform or the bot cannot. */
export type DirectMessage = (user: Actor, text: string) => Promise<boolean>;

/** Notices kept per user: a schedule refused daily must not grow the store without bound. */
const NOTICES_KEPT = 5;

const keyOf = (actor: Pick<Actor, 'platform' | 'id'>): string =>
  `creator-notice:${actor.platform}:${actor.id}`;

function parse(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

function createCreatorNotices(deps: Pick<RunBookSettings, 'store' | 'log' | 'directMessage'>) {
  const { store, log } = deps;
  return {
    /** Tells a schedule's creator, never through its destination; never throws. */
    async tell(record: ScheduleRecord, text: string): Promise<void> {
      const creator = record.creator;
      log.warn({ scheduleId: record.id, creator: `${creator.platform}:${creator.id}` }, text);
      try {
        if (creator.platform !== 'console' && deps.directMessage) {
          try {
            if (await deps.directMessage(creator, text)) return;
          } catch (err) {
            log.warn({ err, scheduleId: record.id }, 'schedule.notice_dm_failed');
          }
        }
        const key = keyOf(creator);
        const waiting = parse(await store.getValue(key)).filter((n) => n !== text);
        await store.setValue(key, JSON.stringify([...waiting, text].slice(-NOTICES_KEPT)));
      } catch (err) {
        log.error({ scheduleId: record.id, err }, 'schedule.notice_failed');
      }
    },
    /** The notices waiting for `actor`, taken. */
    async take(actor: Actor): Promise<string | undefined> {
      const key = keyOf(actor);
      const waiting = parse(await store.getValue(key));
      if (waiting.length === 0) return undefined;
      await store.setValue(key, '');
      return waiting.join('\n');
    },
  };
}

/** The runner's options for its runs' history and notices. */
export interface HistorySettings {
  directMessage?: DirectMessage;
  /** Every run recorded in a schedule's history (by schedule id or built-in job name), for metrics. */
  onRecord?: (schedule: string, run: ScheduleRun, from: 'chat' | 'built-in') => void;
  /**
   * The language of a schedule's notices (three failures in a row, a paused destination): its
   * channel's, else its creator's (/settings); absent: en-GB.
   */
  languageOf?: (record: ScheduleRecord) => Promise<Language>;
}

interface RunBookSettings
  extends
    HistorySettings,
    Pick<ChatSettings, 'toMessage'>,
    Pick<DeliveryOptions, 'services' | 'destinations'>,
    Pick<SlotDeps, 'store' | 'log' | 'now'> {
  /** Runs of one slot before it is failed for good, and the wait between them. */
  maxAttempts: number;
  retryDelayMs: number;
}

type RunBook = ReturnType<typeof createRunBook>;

export function createRunBook<S extends RunBookSettings>(settings: S) {
  return {
    ...settings,
    notices: createCreatorNotices(settings),
    // A notice that cannot learn its language is still sent, in English. It names commands as the
    // creator's platform lists them: a schedule posts where it was made.
    translatorOf: async (record: ScheduleRecord): Promise<Translate> =>
      settings.languageOf
        ? translatorFor(
            await settings.languageOf(record).catch(() => 'en-GB' as const),
            record.creator.platform,
          )
        : english,
  };
}

/**
 * Records a finished slot: a scheduled slot's failed run is pending until its last allowed run (a
 * manual slot gets no retry); a chat schedule's run goes in its history, and once the slot is
 * settled (posted, or failed its last run) `nextRunAt` moves the schedule on in the same step.
 */
export async function recordRun(
  book: RunBook,
  target: { name: string; record?: ScheduleRecord | undefined },
  outcome: SlotOutcome,
  how: { attempt: number; nextRunAt: () => number; asker?: Actor },
): Promise<void> {
  const { record } = target;
  const t = book.now().getTime();
  let run = runRecord(outcome, t, record?.onlyNew);
  const retries = outcome.status === 'failed' && isScheduled(run) && how.attempt < book.maxAttempts;
  if (retries) run = { ...run, outcome: 'pending', nextRetryAt: t + book.retryDelayMs };
  if (!record) return recordBuiltInRun(book, target.name, run);
  // A manual run's asker reads what happened in the reply: the creator asking is told there.
  const { asker } = how;
  const isCreatorAsking =
    asker !== undefined && asker.platform === record.creator.platform && asker.id === record.creator.id;
  const settles = isScheduled(run) && !retries && outcome.status !== 'skipped';
  await recordChatRun(book, record, run, {
    deliveries: outcome.deliveries,
    toldAlready: isCreatorAsking,
    ...(settles ? { nextRunAt: how.nextRunAt() } : {}),
  });
}

/** What the outbox's later deliveries make of chat schedules' slots (a slot with no record yet gets one). */
export async function recordDrained(book: RunBook, drained: readonly EntryResult[]): Promise<void> {
  for (const result of drained) {
    const [job, slotId] = result.id.split('|');
    if (!job || !isScheduleJobName(job) || slotId === undefined || result.outcome === 'pending') continue;
    const id = job.slice('schedule-'.length);
    const record = await book.store.getSchedule(id);
    const earlier = (await book.store.history(id)).find((r) => r.slotId === slotId) ?? {
      slotId,
      at: 0,
      outcome: 'pending' as const,
    };
    if (!record || earlier.outcome !== 'pending') continue;
    const later = { job, slotId, status: 'posted' as const, deliveries: [result] };
    const { error: _error, nextRetryAt: _next, ...rest } = earlier;
    const run = { ...rest, ...runRecord(later, book.now().getTime()) };
    await recordChatRun(book, record, run, { deliveries: later.deliveries });
  }
}

/** A finished slot as its history reads it: what became of each post, not the post. */
type Finished = Omit<SlotOutcome, 'deliveries'> & { deliveries: readonly EntryResult[] };

/** Why a slot's run did not post, one sentence. */
function failureSentence(outcome: Finished): string {
  if (outcome.status === 'failed') return userMessageFor(outcome.error);
  const lost = outcome.deliveries.find((d) => d.outcome === 'given_up');
  if (lost) return `The destination refused the post: ${lost.failure?.reason ?? 'see the log'}.`;
  const waiting = outcome.deliveries.find((d) => d.outcome === 'pending');
  return `Not delivered yet (${waiting?.failure?.reason ?? 'no answer'}); the outbox retries it.`;
}

/** A slot's run as its history keeps it; a watch's (`onlyNew`) that posted nothing is `no-change`. */
function runRecord(outcome: Finished, at: number, onlyNew?: boolean): ScheduleRun {
  const sent = outcome.deliveries.find((d) => d.receipt !== undefined);
  const base = {
    slotId: outcome.slotId,
    at,
    ...(outcome.durationMs === undefined ? {} : { durationMs: outcome.durationMs }),
  };
  if (outcome.skipped !== undefined) return { ...base, outcome: 'skipped', error: outcome.skipped };
  const isPosted = outcome.status === 'posted' && outcome.deliveries.every((d) => d.outcome === 'delivered');
  if (isPosted && onlyNew && outcome.deliveries.length === 0) return { ...base, outcome: 'no-change' };
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

/** `/schedule run`'s answer from a manual slot's outcome. */
export function manualRunOf(record: ScheduleRecord, outcome: SlotOutcome): ManualRun {
  if (outcome.status === 'skipped') return { outcome: 'skipped', error: 'it is running already' };
  // The answer says what happened, not when: the run's time plays no part.
  const { outcome: said, messageId, error } = runRecord(outcome, 0, record.onlyNew);
  if (said === 'posted' || said === 'no-change')
    return { outcome: said, ...(messageId ? { messageId } : {}) };
  return { outcome: said === 'pending' ? 'pending' : 'failed', error: error ?? 'unknown error' };
}

/**
 * The sentence a paused schedule's history (in English) and its creator (in `t`) read: what
 * refused, and the fix; a channel named as its users know it (`<#id>`), a webhook by name.
 */
function pausedSentence(record: ScheduleRecord, gone: DeliveryFailure, t: Translate): string {
  const { id } = record;
  const channel = parseChannelDestination(record.destination);
  if (gone.refusal) {
    // `#general` where the schedule kept the name: a Slack renderer would show `<#C…>` as written.
    const named =
      channel && record.channelName
        ? gone.reason.replaceAll(`<#${channel.id}>`, `#${record.channelName}`)
        : gone.reason;
    return t('schedule:notice.refused', {
      reason: named.replace(/\.?$/, '.'),
      id,
      command: loggedText(record.command),
    });
  }
  const status = gone.status ?? '?';
  return channel
    ? t('schedule:notice.goneChannel', { channel: `<#${channel.id}>`, status, id })
    : t('schedule:notice.goneDestination', { name: record.destination, status, id });
}

/** Scheduled runs only: a manual run's failure is told to whoever ran it. */
const isScheduled = (run: ScheduleRun) => !run.slotId.startsWith('manual:');

/** How many scheduled slots in a row failed, newest first; a skipped slot says nothing either way. */
function failedInARow(runs: readonly ScheduleRun[]): number {
  const counted = runs.filter((r) => isScheduled(r) && r.outcome !== 'skipped');
  const n = counted.findIndex((r) => r.outcome !== 'failed');
  return n === -1 ? counted.length : n;
}

function noticeSentence(record: ScheduleRecord, error: string | undefined, t: Translate): string {
  const { id, command, destination } = record;
  const last = error ?? t('schedule:unknownError');
  return t('schedule:notice.streak', { id, command, destination, count: FAILURE_STREAK, error: last });
}

interface RunContext {
  /** The run's posts: one given up on may say that the destination is gone (then the schedule pauses). */
  deliveries?: readonly EntryResult[];
  /** Its asker is its creator: the reply says it. */
  toldAlready?: boolean;
  nextRunAt?: number;
}

/**
 * Records a chat schedule's run: pauses the schedule when its destination is gone (its creator
 * told), and at the third failed slot in a row tells once, through the destination unless it fails.
 */
export async function recordChatRun(
  book: RunBook,
  record: ScheduleRecord,
  run: ScheduleRun,
  context: RunContext = {},
): Promise<ScheduleRun> {
  const givenUp = (context.deliveries ?? []).filter((d) => d.outcome === 'given_up');
  const gone = givenUp.find(
    (d) => d.failure?.refusal !== undefined || GONE_STATUSES.has(d.failure?.status ?? 0),
  )?.failure;
  let recorded = run;
  if (gone !== undefined) {
    await book.store.setPaused(record.id, true);
    const sentence = pausedSentence(record, gone, english);
    recorded = { ...run, outcome: 'failed', error: sentence, paused: true };
    book.log.warn(
      {
        scheduleId: record.id,
        destination: record.destination,
        ...(gone.status === undefined ? {} : { status: gone.status }),
        ...(gone.refusal ? { platform: gone.refusal.platform, refusal: gone.refusal.code } : {}),
      },
      'schedule.paused_destination_gone',
    );
    if (!context.toldAlready)
      await book.notices.tell(record, pausedSentence(record, gone, await book.translatorOf(record)));
  }
  await book.store.recordRuns(record.id, [recorded], gone === undefined ? context.nextRunAt : undefined);
  book.onRecord?.(record.id, recorded, 'chat');
  // A slot waiting for its retry is never tried once a newer one has run: it is closed as missed
  // (looked for when the run before was one, or a manual run that may have come after one).
  const last = record.lastRun;
  const mayOvertake = last && last.slotId !== recorded.slotId && (last.nextRetryAt || !isScheduled(last));
  if (!isScheduled(recorded) || (recorded.outcome !== 'failed' && !mayOvertake)) return recorded;
  const runs = await book.store.history(record.id);
  for (const { nextRetryAt: _, ...old } of runs.filter((r) => r.nextRetryAt && r.slotId < recorded.slotId))
    await book.store.recordRuns(record.id, [{ ...old, outcome: 'missed', error: OVERTAKEN_SENTENCE }]);
  if (recorded.outcome === 'failed' && gone === undefined && failedInARow(runs) === FAILURE_STREAK)
    await tell(book, record, recorded.error, givenUp.length > 0);
  return recorded;
}

/** `destinationFailed`: the destination refused the post, so the streak's notice cannot go there. */
async function tell(
  book: RunBook,
  record: ScheduleRecord,
  error: string | undefined,
  destinationFailed: boolean,
): Promise<void> {
  // The command line is the user's text (up to 1,000 characters): the log keeps loggedText's share.
  const logged = noticeSentence({ ...record, command: loggedText(record.command) }, error, english);
  book.log.error({ scheduleId: record.id, streak: FAILURE_STREAK }, logged);
  const notice = noticeSentence(record, error, await book.translatorOf(record));
  // A destination that refuses the posts would refuse the notice too: its creator is told instead.
  if (destinationFailed) return book.notices.tell(record, notice);
  try {
    const client = webhookClientFor(book, record.destination);
    if (client && book.toMessage) await client.post(book.toMessage({ text: notice }, record.destination));
  } catch (err) {
    book.log.error({ scheduleId: record.id, err }, 'schedule.notice_failed');
    await book.notices.tell(record, notice);
  }
}

/** A built-in's slot: counted, and at the third failed slot in a row told to the operator in the log. */
async function recordBuiltInRun(book: RunBook, name: string, run: ScheduleRun): Promise<void> {
  book.onRecord?.(name, run, 'built-in');
  if (!isScheduled(run) || run.outcome === 'pending') return;
  const key = `job:${name}:failed-in-a-row`;
  const n = run.outcome === 'failed' ? (Number(await book.store.getValue(key)) || 0) + 1 : 0;
  await book.store.setValue(key, String(n));
  if (n === FAILURE_STREAK)
    book.log.error(
      { job: name, streak: n, error: run.error },
      `${name} failed ${n} slots in a row, last: ${run.error ?? 'unknown error'} Fix its configuration; npm run job -- ${name} runs it once now.`,
    );
}
