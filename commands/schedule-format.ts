// The replies of /schedule: what was added (with the next runs and the lines to type next, as
// buttons where the platform has them), history, audit and the one-line answers (the list is
// schedule-list-format.ts's). Every time is a time value (timeValue): each reader sees it in their
// own zone where the platform can, else in `zone`, the reader's (their /settings, else
// SCHEDULE_TZ); a schedule's rule stays in its own zone. Every sentence is the reader's language (`Lang`, src/i18n/schedule.ts); the words of `when` stay English.
import { parseChannelDestination } from '../src/core/channel.ts';
import { timeValue, type Action, type EmbedField, type Reply } from '../src/core/reply.ts';
import type { AuditEntry } from '../src/schedule/audit.ts';
import type { HistoryRun, ManualRun, Preview } from '../src/schedule/service.ts';
import type { ScheduleRecord, ScheduleRun } from '../src/schedule/schedules.ts';
import type { Skipped } from '../src/schedule/skips.ts';
import { formatQuantity, LOCALE, truncate } from './format.ts';
import { english, type Translate } from '../src/i18n/translate.ts';

/** The reader's language: its messages and the locale of its numbers and dates. */
export interface Lang {
  t: Translate;
  locale: string;
}

export const ENGLISH: Lang = { t: english, locale: LOCALE };

/** A point in time for the reader, in `zone` and their locale. */
export const at = (date: Date | number, zone: string, { locale }: Lang, style?: 'f' | 'fR') =>
  timeValue(new Date(date), zone, style, locale);

/**
 * Where a schedule posts, in a reply: `in this channel` where the reader is in it (`here`), else
 * `in the Discord channel 123…`; a named destination as `<word> <name>` (`to ops`), or the bare
 * name without a word.
 */
export function destinationWords(
  destination: string,
  here: boolean,
  { t }: Lang,
  word?: 'to' | 'for',
): string {
  const channel = parseChannelDestination(destination);
  if (!channel) return word === undefined ? destination : t(`schedule:where.${word}`, { name: destination });
  const platform = channel.platform === 'discord' ? 'Discord' : 'Slack';
  return here ? t('schedule:where.here') : t('schedule:where.channel', { platform, id: channel.id });
}

function nextLines(id: string, { t }: Lang): Action[] {
  return [
    { label: t('schedule:actions.runNow'), command: 'schedule run', input: { id } },
    { label: t('schedule:actions.remove'), command: 'schedule remove', input: { id } },
  ];
}

export function addedReply(
  record: ScheduleRecord,
  runs: readonly Date[],
  zone: string,
  lang: Lang = ENGLISH,
): Reply {
  const { t } = lang;
  const { id, words, timezone: tz } = record;
  const next = runs.map((d) => at(d, zone, lang));
  const where = destinationWords(record.destination, true, lang, 'to');
  return {
    text: t('schedule:added.text', { id, words, tz, command: record.command, where }),
    embeds: [
      {
        title: t('schedule:added.title', { id }),
        color: 'success',
        fields: [
          { name: t('schedule:added.when'), value: `${words} (${tz})` },
          { name: t('schedule:added.command'), value: truncate(record.command, 1000, { oneLine: true }) },
          {
            name: t('schedule:added.destination'),
            value: destinationWords(record.destination, true, lang),
            inline: true,
          },
          { name: t('schedule:added.nextRuns'), value: next.join('\n') || t('schedule:none') },
        ],
        footer: t('schedule:added.footer', { id }),
      },
    ],
    actions: nextLines(id, lang),
  };
}

/** Which message was posted, where no link says it: its ids, as the platform named them. */
function messageIds(run: HistoryRun, { t }: Lang): string {
  if (!run.messageId || run.link) return '';
  const message = run.messageId;
  return run.channelId
    ? t('schedule:run.messageIn', { message, channel: run.channelId })
    : t('schedule:run.message', { message });
}

/** A run's outcome in one line: posted, no change, pending until when, failed and why, missed, skipped and why. */
function runLine(run: HistoryRun, zone: string, lang: Lang): string {
  const { t } = lang;
  const when = at(run.at, zone, lang);
  const why = truncate(run.error ?? t('schedule:unknownError'), 300, { oneLine: true });
  if (run.outcome === 'posted') return `${t('schedule:run.posted', { at: when })}${messageIds(run, lang)}`;
  if (run.outcome === 'no-change') return t('schedule:run.noChange', { at: when });
  if (run.outcome === 'missed') return t('schedule:run.missed', { at: when, why });
  if (run.outcome === 'skipped') return t('schedule:run.skipped', { why });
  if (run.outcome === 'pending') {
    const retry =
      run.nextRetryAt === undefined
        ? ''
        : t('schedule:run.nextTry', { at: at(run.nextRetryAt, zone, lang, 'fR') });
    return `${t('schedule:run.pending', { at: when, why })}${retry}`;
  }
  return t('schedule:run.failed', { at: when, why });
}

export function lastRunLine(run: ScheduleRun | undefined, zone: string, lang: Lang): string {
  return run ? runLine(run, zone, lang) : lang.t('schedule:run.notYet');
}

function seconds(ms: number | undefined, { locale }: Lang): string {
  return ms === undefined ? '' : ` · ${formatQuantity(ms / 1000, 's', 1, locale)}`;
}

/**
 * /schedule history: the latest runs, newest first, each with its slot, outcome and duration, and a
 * posted run's message as a link where the platform gives one.
 */
export function historyReply(
  record: ScheduleRecord,
  runs: readonly HistoryRun[],
  zone: string,
  lang: Lang = ENGLISH,
): Reply {
  const { t } = lang;
  const { id } = record;
  const state = record.paused ? t('schedule:pausedMark') : '';
  if (runs.length === 0) return { text: t('scheduleHistory:history.none', { id, state }) };
  const fields = runs.map((run): EmbedField => ({
    name: `${run.slotId.startsWith('manual:') ? t('scheduleHistory:history.byHand') : t('scheduleHistory:history.slot', { at: at(Date.parse(run.slotId), zone, lang) })}${seconds(run.durationMs, lang)}`,
    value: runLine(run, zone, lang),
    ...(run.link ? { link: { label: t('scheduleHistory:history.viewMessage'), url: run.link } } : {}),
  }));
  const { command, destination } = record;
  return {
    text: t('scheduleHistory:history.text', { id, state, command, destination, count: runs.length }),
    embeds: [
      {
        title: t('scheduleHistory:history.title', { id }),
        color: runs[0]!.outcome === 'failed' ? 'error' : 'info',
        fields,
      },
    ],
  };
}

/** How a change was asked for, in the reader's words; `npm run store` is a command's name. */
const via = (how: AuditEntry['via'], { t }: Lang) =>
  how === 'store' ? 'npm run store' : t(`scheduleHistory:audit.via.${how}`);

/** /schedule audit: who changed what, newest first, one line each (times in the reader's zone). */
export function auditReply(
  entries: readonly AuditEntry[],
  id: string | undefined,
  zone: string,
  lang: Lang = ENGLISH,
): Reply {
  const { t } = lang;
  const which =
    id === undefined
      ? t('scheduleHistory:audit.all')
      : t('scheduleHistory:audit.one', { id: id.trim().toLowerCase() });
  if (entries.length === 0) return { text: t('scheduleHistory:audit.none', { which }) };
  const lines = entries.map((e) =>
    t(`scheduleHistory:audit.line.${e.action}`, {
      at: at(e.at, zone, lang),
      who: truncate(e.by.displayName, 40, { oneLine: true }),
      id: e.scheduleId,
      via: via(e.via, lang),
    }),
  );
  return {
    text: t('scheduleHistory:audit.text', { count: entries.length, which }),
    embeds: [{ title: t('scheduleHistory:audit.title'), color: 'info', description: lines.join('\n') }],
  };
}

/** A listed schedule's next run: paused, when, or none. */
export function nextWords(
  paused: boolean | undefined,
  nextRun: Date | undefined,
  zone: string,
  lang: Lang,
): string {
  if (paused) return lang.t('schedule:paused');
  return nextRun ? at(nextRun, zone, lang, 'fR') : lang.t('schedule:none');
}

export function pausedReply(
  record: ScheduleRecord,
  nextRun: Date | undefined,
  zone: string,
  lang: Lang = ENGLISH,
): Reply {
  const { id } = record;
  return record.paused
    ? { text: lang.t('schedule:isPaused', { id }) }
    : { text: lang.t('schedule:resumed', { id, next: nextWords(false, nextRun, zone, lang) }) };
}

/** /schedule skip and unskip: which run is set aside or restored, and the next run. */
export function skipReply(
  { record, slot, nextRun }: Skipped,
  isSkip: boolean,
  zone: string,
  lang: Lang = ENGLISH,
): Reply {
  const { id } = record;
  const when = at(slot, zone, lang);
  return {
    text: isSkip
      ? lang.t('schedule:skipped', { id, at: when, next: nextWords(false, nextRun, zone, lang) })
      : lang.t('schedule:unskipped', { id, at: when }),
  };
}

export function removedReply(record: ScheduleRecord, lang: Lang = ENGLISH): Reply {
  const { id, words, command } = record;
  return { text: lang.t('schedule:removed', { id, words, command }) };
}

export function ranReply(record: ScheduleRecord, result: ManualRun, lang: Lang = ENGLISH): Reply {
  const { t } = lang;
  const { id, command } = record;
  if (result.outcome === 'posted') {
    const where = destinationWords(record.destination, false, lang, 'to');
    return { text: t('schedule:ran.posted', { id, command, where }) };
  }
  if (result.outcome === 'no-change') return { text: t('schedule:ran.noChange', { id }) };
  if (result.outcome === 'pending')
    return { text: t('schedule:ran.pending', { id, why: result.error ?? t('schedule:ran.pendingWhy') }) };
  if (result.outcome === 'skipped')
    return { text: t('schedule:ran.skipped', { id, why: result.error ?? t('schedule:ran.skippedWhy') }) };
  const why = result.error ?? t('schedule:unknownError');
  return { text: t('schedule:ran.failed', { id, why }), ephemeral: true };
}

/** A preview: the post as the schedule would make it now, marked as not posted; actions left out. */
export function previewReply(preview: Preview, zone: string, lang: Lang = ENGLISH): Reply {
  const { t } = lang;
  const next = nextWords(false, preview.nextRun, zone, lang);
  const where = destinationWords(preview.destination, true, lang, 'for');
  const head = t('schedule:preview.head', { line: preview.line, where, next });
  if ('error' in preview.result) {
    return { text: t('schedule:preview.fails', { head, error: preview.result.error }), ephemeral: true };
  }
  // The post as it will be (its footers included), under a heading every platform shows once; its
  // buttons would act, so they are left out.
  const { text, embeds, attachments, mentions } = preview.result.reply;
  return {
    heading: head,
    text,
    // Shown as the post will carry them; a private answer pings no one (the renderers).
    ...(mentions ? { mentions } : {}),
    ...(embeds ? { embeds } : {}),
    ...(attachments ? { attachments } : {}),
    ephemeral: true,
  };
}

/** The add reply's "Preview" button: the same schedule, previewed (it is not added again). */
export function previewAction(input: Record<string, string | undefined>, lang: Lang = ENGLISH): Action {
  const given = Object.entries(input).filter((e): e is [string, string] => e[1] !== undefined);
  return {
    label: lang.t('schedule:actions.preview'),
    command: 'schedule add',
    input: { ...Object.fromEntries(given), preview: 'yes' },
  };
}
