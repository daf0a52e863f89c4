// /schedule list: each schedule as an embed field (when, what, where, pings and skips, next and
// last run), the built-in schedules beside them, paged within Discord's embed limits, with buttons
// for each schedule where the platform has them. The Slack Home tab lists the same fields.
import { parseChannelDestination } from '../src/core/channel.ts';
import type { Action, Embed, EmbedField, Reply } from '../src/core/reply.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';
import { mentionToken, type Mention } from '../src/domain/mentions.ts';
import type { BuiltInSchedule, Listing } from '../src/schedule/service.ts';
import type { ScheduleRecord } from '../src/schedule/schedules.ts';
import { listMore, truncate } from './format.ts';
import { at, destinationWords, ENGLISH, lastRunLine, nextWords, type Lang } from './schedule-format.ts';

/** A destination as the simulated-data guard sees it; absent where no guard is set. */
type DestinationMode = Listing['builtIns'][number]['destinationMode'];

/** ` (real)`, ` (simulated)` or ` (disabled: …)` after a destination, where the guard knows which. */
function modeWord(mode: DestinationMode, { t }: Lang): string {
  return mode ? t(`scheduleList:mode.${mode}`) : '';
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
    : t(m.kind === 'role' ? 'scheduleList:slackGroup' : 'scheduleList:slackUser', { id: m.id });

/** Whom a schedule's posts ping, and which runs it skips: its holidays, a `/schedule skip`. */
function pingAndSkipLines(
  { record, skip }: Listing['schedules'][number],
  zone: string,
  lang: Lang,
): string[] {
  const { t } = lang;
  const pings = (record.ping ?? []).map((m) => pingWords(m, lang));
  const by = truncate(skip?.by ?? '', 40, { oneLine: true });
  const skips = [
    ...(record.holidays ? [t('scheduleList:skipHolidays', { region: record.holidays })] : []),
    ...(skip ? [t('scheduleList:skipRun', { at: at(new Date(skip.slotId), zone, lang), by })] : []),
  ];
  return [
    ...(pings.length > 0
      ? [t('scheduleList:pings', { pings: listMore(pings, SHOWN_PINGS, t, lang.locale) })]
      : []),
    ...(skips.length > 0 ? [t('scheduleList:skips', { skips: skips.join('; ') })] : []),
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
      ? t('scheduleList:watchAlert', { alert })
      : t('scheduleList:watch')
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
      t('scheduleList:when', { when: truncate(record.when, 100, { oneLine: true }), tz: record.timezone }),
      t('scheduleList:runs', { command, where, mode: `${modeWord(mode, lang)}${lands}` }),
      t('scheduleList:by', {
        name: truncate(record.creator.displayName, 80, { oneLine: true }),
        platform: record.creator.platform,
      }),
      ...pingAndSkipLines(entry, zone, lang),
      t('scheduleList:next', { next: nextWords(record.paused, nextRun, zone, lang) }),
      t('scheduleList:last', { last: lastRunLine(record.lastRun, zone, lang) }),
    ].join('\n'),
  };
}

function builtInField(
  b: BuiltInSchedule,
  nextRun: Date | undefined,
  mode: DestinationMode,
  zone: string,
  lang: Lang,
): EmbedField {
  const { t } = lang;
  return {
    name: t('scheduleList:builtIn', { name: b.name, description: b.description }),
    value: [
      t('scheduleList:builtInWhen', { cron: b.cron, tz: b.timezone, variables: b.variables }),
      t('scheduleList:builtInRuns', {
        name: b.name,
        destination: b.destination,
        mode: modeWord(mode, lang),
      }),
      t('scheduleList:next', { next: b.disabledReason ?? nextWords(false, nextRun, zone, lang) }),
      t('scheduleList:last', { last: lastRunLine(b.lastRun, zone, lang) }),
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
  if (fields.length === 0) return { text: t('scheduleList:empty') };
  const pages = pagesOf(fields);
  const summary = t(listing.builtIns.length > 0 ? 'scheduleList:summaryBuiltIns' : 'scheduleList:summary', {
    count,
    max,
  });
  if (page > pages.length)
    return { text: t('scheduleList:pastLast', { summary, count: pages.length, page }), ephemeral: true };
  const shown = pages[page - 1]!;
  const embeds: Embed[] = [];
  const title =
    pages.length > 1 ? t('scheduleList:titlePage', { page, pages: pages.length }) : t('scheduleList:title');
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
  const next = page < pages.length ? t('scheduleList:nextHint', { next: page + 1 }) : '';
  return {
    text: `${t('scheduleList:page', { summary, page, pages: pages.length })}${next}`,
    embeds,
    actions: [...actions, ...pageActions(page, pages.length, lang)],
  };
}
