// The replies of /schedule: what was added (with the next runs and the lines to type next, as
// buttons where the platform has them), the list, and the one-line answers. Every time is a time
// value (timeValue): each reader sees it in their own zone where the platform can, else in `zone`,
// the reader's (their /settings, else SCHEDULE_TZ); a schedule's rule stays in its own zone. Every
// sentence is the reader's language (`Lang`, src/i18n/schedule.ts); the words of `when` stay English.
import { parseChannelDestination } from '../src/core/channel.ts';
import { timeValue, type Action, type Embed, type EmbedField, type Reply } from '../src/core/reply.ts';
import type { AuditEntry } from '../src/schedule/audit.ts';
import type {
  BuiltInSchedule,
  DestinationMode,
  HistoryRun,
  Listing,
  ManualRun,
  Preview,
} from '../src/schedule/service.ts';
import type { ScheduleRecord, ScheduleRun } from '../src/schedule/schedules.ts';
import type { Skipped } from '../src/schedule/skips.ts';
import { formatQuantity, LOCALE, truncate } from './format.ts';
import { mentionToken, type Mention } from '../src/domain/mentions.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';
import { english, type Translate } from '../src/i18n/translate.ts';

/** The reader's language: its messages and the locale of its numbers and dates. */
interface Lang {
  t: Translate;
  locale: string;
}

const ENGLISH: Lang = { t: english, locale: LOCALE };

/** A point in time for the reader, in `zone` and their locale. */
const at = (date: Date | number, zone: string, { locale }: Lang, style?: 'f' | 'fR') =>
  timeValue(new Date(date), zone, style, locale);

/**
 * Where a schedule posts, in a reply: `in this channel` where the reader is in it (`here`), else
 * `in the Discord channel 123…`; a named destination as `<word> <name>` (`to ops`), or the bare
 * name without a word.
 */
function destinationWords(destination: string, here: boolean, { t }: Lang, word?: 'to' | 'for'): string {
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

function lastRunLine(run: ScheduleRun | undefined, zone: string, lang: Lang): string {
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
  if (runs.length === 0) return { text: t('schedule:history.none', { id, state }) };
  const fields = runs.map((run): EmbedField => ({
    name: `${run.slotId.startsWith('manual:') ? t('schedule:history.byHand') : t('schedule:history.slot', { at: at(Date.parse(run.slotId), zone, lang) })}${seconds(run.durationMs, lang)}`,
    value: runLine(run, zone, lang),
    ...(run.link ? { link: { label: t('schedule:history.viewMessage'), url: run.link } } : {}),
  }));
  const { command, destination } = record;
  return {
    text: t('schedule:history.text', { id, state, command, destination, count: runs.length }),
    embeds: [
      {
        title: t('schedule:history.title', { id }),
        color: runs[0]!.outcome === 'failed' ? 'error' : 'info',
        fields,
      },
    ],
  };
}

/** How a change was asked for, in the reader's words; `npm run store` is a command's name. */
const via = (how: AuditEntry['via'], { t }: Lang) =>
  how === 'store' ? 'npm run store' : t(`schedule:audit.via.${how}`);

/** /schedule audit: who changed what, newest first, one line each (times in the reader's zone). */
export function auditReply(
  entries: readonly AuditEntry[],
  id: string | undefined,
  zone: string,
  lang: Lang = ENGLISH,
): Reply {
  const { t } = lang;
  const which =
    id === undefined ? t('schedule:audit.all') : t('schedule:audit.one', { id: id.trim().toLowerCase() });
  if (entries.length === 0) return { text: t('schedule:audit.none', { which }) };
  const lines = entries.map((e) =>
    t(`schedule:audit.line.${e.action}`, {
      at: at(e.at, zone, lang),
      who: truncate(e.by.displayName, 40, { oneLine: true }),
      id: e.scheduleId,
      via: via(e.via, lang),
    }),
  );
  return {
    text: t('schedule:audit.text', { count: entries.length, which }),
    embeds: [{ title: t('schedule:audit.title'), color: 'info', description: lines.join('\n') }],
  };
}

/** ` (real)`, ` (simulated)` or ` (disabled: …)` after a destination, where the guard knows which. */
function modeWord(mode: DestinationMode | undefined, { t }: Lang): string {
  return mode ? t(`schedule:list.mode.${mode}`) : '';
}

/** A listed schedule's next run: paused, when, or none. */
function nextWords(paused: boolean | undefined, nextRun: Date | undefined, zone: string, lang: Lang): string {
  if (paused) return lang.t('schedule:paused');
  return nextRun ? at(nextRun, zone, lang, 'fR') : lang.t('schedule:none');
}

/** At most this many of a schedule's pings are listed, so that its field stays within Discord's 1,024. */
const SHOWN_PINGS = 5;

/**
 * A `ping:` as the list shows it, pinging no one: a Discord mention, which an embed shows as the
 * role's or user's name and never pings with; a Slack one in words (its token would be escaped).
 */
const pingWords = (m: Mention, { t }: Lang) =>
  m.platform === 'discord'
    ? mentionToken(m)
    : t(m.kind === 'role' ? 'schedule:list.slackGroup' : 'schedule:list.slackUser', { id: m.id });

/** Whom a schedule's posts ping, and which runs it skips: its holidays, a `/schedule skip`. */
function pingAndSkipLines(
  { record, skip }: Listing['schedules'][number],
  zone: string,
  lang: Lang,
): string[] {
  const { t } = lang;
  const pings = (record.ping ?? []).map((m) => pingWords(m, lang));
  const more = pings.length - SHOWN_PINGS;
  const shown =
    pings.slice(0, SHOWN_PINGS).join(', ') + (more > 0 ? t('schedule:list.more', { n: more }) : '');
  const by = truncate(skip?.by ?? '', 40, { oneLine: true });
  const skips = [
    ...(record.holidays ? [t('schedule:list.skipHolidays', { region: record.holidays })] : []),
    ...(skip ? [t('schedule:list.skipRun', { at: at(new Date(skip.slotId), zone, lang), by })] : []),
  ];
  return [
    ...(pings.length > 0 ? [t('schedule:list.pings', { pings: shown })] : []),
    ...(skips.length > 0 ? [t('schedule:list.skips', { skips: skips.join('; ') })] : []),
  ];
}

/** Where a schedule's posts land, in its own option words (which stay English). */
const LANDS_WORDS = { edit: ' (mode:edit)', thread: ' (thread:yes)' } as const;

export function scheduleField(entry: Listing['schedules'][number], zone: string, lang = ENGLISH): EmbedField {
  const { record, nextRun, destinationMode: mode } = entry;
  const { t } = lang;
  const { alert } = record;
  const watch = record.onlyNew
    ? alert
      ? t('schedule:list.watchAlert', { alert })
      : t('schedule:list.watch')
    : '';
  const state = `${watch}${record.paused ? t('schedule:pausedMark') : ''}`;
  const command = truncate(record.command, 300, { oneLine: true });
  // A named destination reads after an arrow in every language: "→ ops".
  const where = parseChannelDestination(record.destination)
    ? destinationWords(record.destination, false, lang)
    : `→ ${record.destination}`;
  const lands = record.lands ? LANDS_WORDS[record.lands] : '';
  return {
    name: truncate(`${record.id}${state} · ${record.words}`, 250, { oneLine: true }),
    value: [
      t('schedule:list.when', { when: truncate(record.when, 100, { oneLine: true }), tz: record.timezone }),
      t('schedule:list.runs', { command, where, mode: `${modeWord(mode, lang)}${lands}` }),
      t('schedule:list.by', {
        name: truncate(record.creator.displayName, 80, { oneLine: true }),
        platform: record.creator.platform,
      }),
      ...pingAndSkipLines(entry, zone, lang),
      t('schedule:list.next', { next: nextWords(record.paused, nextRun, zone, lang) }),
      t('schedule:list.last', { last: lastRunLine(record.lastRun, zone, lang) }),
    ].join('\n'),
  };
}

function builtInField(
  b: BuiltInSchedule,
  nextRun: Date | undefined,
  mode: DestinationMode | undefined,
  zone: string,
  lang: Lang,
): EmbedField {
  const { t } = lang;
  return {
    name: t('schedule:list.builtIn', { name: b.name, description: b.description }),
    value: [
      t('schedule:list.builtInWhen', { cron: b.cron, tz: b.timezone, variables: b.variables }),
      t('schedule:list.builtInRuns', {
        name: b.name,
        destination: b.destination,
        mode: modeWord(mode, lang),
      }),
      t('schedule:list.next', { next: b.disabledReason ?? nextWords(false, nextRun, zone, lang) }),
      t('schedule:list.last', { last: lastRunLine(b.lastRun, zone, lang) }),
    ].join('\n'),
  };
}

/** A field's share of a message's embed characters, counted as Discord counts them (name and value). */
const fieldChars = (f: EmbedField) => f.name.length + f.value.length;
/** Room left for the title and the closing note within Discord's 6,000 characters a message. */
const PAGE_CHARS = DISCORD_LIMITS.embedsTotal - 200;
const PAGE_FIELDS = DISCORD_LIMITS.embeds * DISCORD_LIMITS.fields;

/** The fields cut into pages, each whole within one Discord message's limits, in list order. */
function pagesOf(fields: EmbedField[]): EmbedField[][] {
  const pages: EmbedField[][] = [];
  let page: EmbedField[] = [];
  let chars = 0;
  for (const field of fields) {
    if (page.length > 0 && (chars + fieldChars(field) > PAGE_CHARS || page.length === PAGE_FIELDS)) {
      pages.push(page);
      page = [];
      chars = 0;
    }
    page.push(field);
    chars += fieldChars(field);
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/**
 * A page's buttons on each schedule (Run now, Pause or Resume, Remove), for the first schedules of
 * the page: with the page buttons they stay within one Discord message's 25 buttons (5 rows of 5).
 * Whoever may not manage a schedule is refused by the service in one sentence, as when typed.
 */
const SCHEDULES_WITH_BUTTONS = 7;

function scheduleActions(records: readonly ScheduleRecord[], { t }: Lang): Action[] {
  return records
    .slice(0, SCHEDULES_WITH_BUTTONS)
    .flatMap(({ id, paused }) => [
      { label: t('schedule:actions.runId', { id }), command: 'schedule run', input: { id } },
      paused
        ? { label: t('schedule:actions.resumeId', { id }), command: 'schedule resume', input: { id } }
        : { label: t('schedule:actions.pauseId', { id }), command: 'schedule pause', input: { id } },
      { label: t('schedule:actions.removeId', { id }), command: 'schedule remove', input: { id } },
    ]);
}

function pageActions(page: number, last: number, { t }: Lang): Action[] {
  const previous = {
    label: t('schedule:actions.previousPage'),
    command: 'schedule list',
    input: { page: page - 1 },
  };
  const next = { label: t('schedule:actions.nextPage'), command: 'schedule list', input: { page: page + 1 } };
  return [...(page > 1 ? [previous] : []), ...(page < last ? [next] : [])];
}

/**
 * The list, one page of it: a page holds what one Discord message shows whole (its 6,000 embed
 * characters and 10 embeds of 25 fields), so a long list is paged (`page:`, and buttons) rather
 * than cut.
 */
export function listReply(listing: Listing, max: number, page: number, zone: string, lang = ENGLISH): Reply {
  const { t } = lang;
  const owned = new Map<EmbedField, ScheduleRecord>();
  const fields = [
    ...listing.builtIns.map((b) => builtInField(b.schedule, b.nextRun, b.destinationMode, zone, lang)),
    ...listing.schedules.map((s) => {
      const field = scheduleField(s, zone, lang);
      owned.set(field, s.record);
      return field;
    }),
  ];
  const count = listing.schedules.length;
  if (fields.length === 0) return { text: t('schedule:list.empty') };
  const pages = pagesOf(fields);
  const summary = t(listing.builtIns.length > 0 ? 'schedule:list.summaryBuiltIns' : 'schedule:list.summary', {
    count,
    max,
  });
  if (page > pages.length)
    return { text: t('schedule:list.pastLast', { summary, count: pages.length, page }), ephemeral: true };
  const shown = pages[page - 1]!;
  const embeds: Embed[] = [];
  const title =
    pages.length > 1 ? t('schedule:list.titlePage', { page, pages: pages.length }) : t('schedule:list.title');
  for (let i = 0; i < shown.length; i += DISCORD_LIMITS.fields) {
    embeds.push({
      ...(i === 0 ? { title } : {}),
      color: 'info',
      fields: shown.slice(i, i + DISCORD_LIMITS.fields),
    });
  }
  const records = shown.flatMap((field) => owned.get(field) ?? []);
  const actions = scheduleActions(records, lang);
  if (pages.length === 1) return { text: summary, embeds, ...(actions.length > 0 ? { actions } : {}) };
  const next = page < pages.length ? t('schedule:list.nextHint', { next: page + 1 }) : '';
  return {
    text: `${t('schedule:list.page', { summary, page, pages: pages.length })}${next}`,
    embeds,
    actions: [...actions, ...pageActions(page, pages.length, lang)],
  };
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
