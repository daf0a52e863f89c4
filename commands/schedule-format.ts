// The replies of /schedule: what was added (with the next runs and the lines to type next, as
// buttons where the platform has them), the list, and the one-line answers. Every time is a time
// value (timeValue): each reader sees it in their own zone where the platform can, else in `zone`,
// the reader's (their /settings, else SCHEDULE_TZ); a schedule's rule stays in its own zone.
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
import { listWithMore, truncate } from './format.ts';
import { mentionToken, type Mention } from '../src/domain/mentions.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';

/**
 * Where a schedule posts, in a reply: `in this channel` where the reader is in it (`here`), else
 * `in the Discord channel 123…`; a named destination as `<word> <name>` (`to ops`), or the bare
 * name without a word.
 */
function destinationWords(destination: string, here: boolean, word?: string): string {
  const channel = parseChannelDestination(destination);
  if (!channel) return word === undefined ? destination : `${word} ${destination}`;
  const platform = channel.platform === 'discord' ? 'Discord' : 'Slack';
  return here ? 'in this channel' : `in the ${platform} channel ${channel.id}`;
}

function nextLines(id: string): Action[] {
  return [
    { label: 'Run now', command: 'schedule run', input: { id } },
    { label: 'Remove', command: 'schedule remove', input: { id } },
  ];
}

export function addedReply(record: ScheduleRecord, runs: readonly Date[], zone: string): Reply {
  const tz = record.timezone;
  const next = runs.map((d) => timeValue(d, zone));
  return {
    text: `Schedule ${record.id} added: ${record.words} (${tz}), ${record.command} ${destinationWords(record.destination, true, 'to')}.`,
    embeds: [
      {
        title: `Schedule ${record.id} added`,
        color: 'success',
        fields: [
          { name: 'When', value: `${record.words} (${tz})` },
          { name: 'Command', value: truncate(record.command, 1000, { oneLine: true }) },
          {
            name: 'Destination',
            value: destinationWords(record.destination, true),
            inline: true,
          },
          { name: 'Next runs', value: next.join('\n') || 'none' },
        ],
        footer: `Next: /schedule run ${record.id} to post now, /schedule remove ${record.id} to remove it`,
      },
    ],
    actions: nextLines(record.id),
  };
}

/** The link's words after a posted run, on every platform. */
const MESSAGE_LINK_LABEL = 'view message';

/** Which message was posted, where no link says it: its ids, as the platform named them. */
function messageIds(run: HistoryRun): string {
  if (!run.messageId || run.link) return '';
  return ` (message ${run.messageId}${run.channelId ? ` in channel ${run.channelId}` : ''})`;
}

/** A run's outcome in one line: posted, no change, pending until when, failed and why, missed, skipped and why. */
function runLine(run: HistoryRun, zone: string): string {
  const at = timeValue(new Date(run.at), zone);
  const why = truncate(run.error ?? 'unknown error', 300, { oneLine: true });
  if (run.outcome === 'posted') return `posted ${at}${messageIds(run)}`;
  if (run.outcome === 'no-change') return `no change ${at}: nothing new, nothing posted`;
  if (run.outcome === 'missed') return `missed ${at}: ${why}`;
  if (run.outcome === 'skipped') return `skipped (${why})`;
  if (run.outcome === 'pending') {
    const retry =
      run.nextRetryAt === undefined ? '' : ` Next try ${timeValue(new Date(run.nextRetryAt), zone, 'fR')}.`;
    return `pending since ${at}: ${why}${retry}`;
  }
  return `failed ${at}: ${why}`;
}

function lastRunLine(run: ScheduleRun | undefined, zone: string): string {
  return run ? runLine(run, zone) : 'not run yet';
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? '' : ` · ${(ms / 1000).toFixed(1)} s`;
}

/**
 * /schedule history: the latest runs, newest first, each with its slot, outcome and duration, and a
 * posted run's message as a link where the platform gives one.
 */
export function historyReply(record: ScheduleRecord, runs: readonly HistoryRun[], zone: string): Reply {
  const state = record.paused ? ' (paused)' : '';
  if (runs.length === 0)
    return { text: `Schedule ${record.id}${state} has not run yet; /schedule run ${record.id} runs it now.` };
  const fields = runs.map((run): EmbedField => ({
    name: `${run.slotId.startsWith('manual:') ? 'run by hand' : `slot ${timeValue(new Date(run.slotId), zone)}`}${seconds(run.durationMs)}`,
    value: runLine(run, zone),
    ...(run.link ? { link: { label: MESSAGE_LINK_LABEL, url: run.link } } : {}),
  }));
  return {
    text: `Schedule ${record.id}${state}, ${record.command} → ${record.destination}: the last ${runs.length} run${runs.length === 1 ? '' : 's'}, newest first.`,
    embeds: [
      {
        title: `Schedule ${record.id} history`,
        color: runs[0]!.outcome === 'failed' ? 'error' : 'info',
        fields,
      },
    ],
  };
}

const DONE: Record<AuditEntry['action'], string> = {
  add: 'added',
  pause: 'paused',
  resume: 'resumed',
  skip: 'skipped the next run of',
  unskip: 'took back the skip of',
  remove: 'removed',
  import: 'imported',
};

const VIA: Record<AuditEntry['via'], string> = {
  typed: 'typed',
  button: 'a button',
  form: 'the form',
  home: 'the Home tab',
  console: 'the console',
  store: 'npm run store',
};

/** /schedule audit: who changed what, newest first, one line each (times in the reader's zone). */
export function auditReply(entries: readonly AuditEntry[], id: string | undefined, zone: string): Reply {
  const which = id === undefined ? 'the schedules you may see' : `schedule ${id.trim().toLowerCase()}`;
  if (entries.length === 0) return { text: `No changes are recorded for ${which}.` };
  const lines = entries.map(
    (e) =>
      `${timeValue(new Date(e.at), zone)} · ${truncate(e.by.displayName, 40, { oneLine: true })} ${DONE[e.action]} ${e.scheduleId} (${VIA[e.via]})`,
  );
  const count = entries.length === 1 ? 'The last change' : `The last ${entries.length} changes`;
  return {
    text: `${count} to ${which}, newest first.`,
    embeds: [{ title: 'Schedule audit', color: 'info', description: lines.join('\n') }],
  };
}

/** ` (real)`, ` (simulated)` or ` (disabled: …)` after a destination, where the guard knows which. */
function modeWord(mode: DestinationMode | undefined): string {
  if (mode === 'disabled') return ' (disabled: set WEBHOOK_URL)';
  return mode ? ` (${mode})` : '';
}

/** At most this many of a schedule's pings are listed, so that its field stays within Discord's 1,024. */
const SHOWN_PINGS = 5;

/**
 * A `ping:` as the list shows it, pinging no one: a Discord mention, which an embed shows as the
 * role's or user's name and never pings with; a Slack one in words (its token would be escaped).
 */
const pingWords = (m: Mention) =>
  m.platform === 'discord' ? mentionToken(m) : `${m.kind === 'role' ? 'user group' : 'user'} ${m.id}`;

/** Whom a schedule's posts ping, and which runs it skips: its holidays, a `/schedule skip`. */
function pingAndSkipLines({ record, skip }: Listing['schedules'][number], zone: string): string[] {
  const pings = (record.ping ?? []).map(pingWords);
  const skips = [
    ...(record.holidays ? [`public holidays (skip:holidays:${record.holidays})`] : []),
    ...(skip
      ? [
          `the run at ${timeValue(new Date(skip.slotId), zone)} (/schedule skip by ${truncate(skip.by, 40, { oneLine: true })})`,
        ]
      : []),
  ];
  return [
    ...(pings.length > 0 ? [`Pings: ${listWithMore(pings, SHOWN_PINGS)}`] : []),
    ...(skips.length > 0 ? [`Skips: ${skips.join('; ')}`] : []),
  ];
}

const LANDS_WORDS = { edit: ' (mode:edit)', thread: ' (thread:yes)' } as const;

export function scheduleField(entry: Listing['schedules'][number], zone: string): EmbedField {
  const { record, nextRun, destinationMode: mode } = entry;
  const tz = record.timezone;
  const watch = record.onlyNew ? ` (watch: only new${record.alert ? `, alert ${record.alert}` : ''})` : '';
  const state = `${watch}${record.paused ? ' (paused)' : ''}`;
  return {
    name: truncate(`${record.id}${state} · ${record.words}`, 250, { oneLine: true }),
    value: [
      `When: "${truncate(record.when, 100, { oneLine: true })}", ${tz}`,
      `Runs: ${truncate(record.command, 300, { oneLine: true })} ${destinationWords(record.destination, false, '→')}${modeWord(mode)}${record.lands ? LANDS_WORDS[record.lands] : ''}`,
      `By: ${truncate(record.creator.displayName, 80, { oneLine: true })} (${record.creator.platform})`,
      ...pingAndSkipLines(entry, zone),
      `Next: ${record.paused ? 'paused' : nextRun ? timeValue(nextRun, zone, 'fR') : 'none'}`,
      `Last: ${lastRunLine(record.lastRun, zone)}`,
    ].join('\n'),
  };
}

function builtInField(
  b: BuiltInSchedule,
  nextRun: Date | undefined,
  mode: DestinationMode | undefined,
  zone: string,
): EmbedField {
  return {
    name: `${b.name} (built in, read-only) · ${b.description}`,
    value: [
      `When: "${b.cron}", ${b.timezone} (${b.variables})`,
      `Runs: the ${b.name} job → ${b.destination}${modeWord(mode)}`,
      `Next: ${b.disabledReason ?? (nextRun ? timeValue(nextRun, zone, 'fR') : 'none')}`,
      `Last: ${lastRunLine(b.lastRun, zone)}`,
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

function scheduleActions(records: readonly ScheduleRecord[]): Action[] {
  return records
    .slice(0, SCHEDULES_WITH_BUTTONS)
    .flatMap(({ id, paused }) => [
      { label: `Run ${id} now`, command: 'schedule run', input: { id } },
      paused
        ? { label: `Resume ${id}`, command: 'schedule resume', input: { id } }
        : { label: `Pause ${id}`, command: 'schedule pause', input: { id } },
      { label: `Remove ${id}`, command: 'schedule remove', input: { id } },
    ]);
}

function pageActions(page: number, last: number): Action[] {
  return [
    ...(page > 1 ? [{ label: 'Previous page', command: 'schedule list', input: { page: page - 1 } }] : []),
    ...(page < last ? [{ label: 'Next page', command: 'schedule list', input: { page: page + 1 } }] : []),
  ];
}

/**
 * The list, one page of it: a page holds what one Discord message shows whole (its 6,000 embed
 * characters and 10 embeds of 25 fields), so a long list is paged (`page:`, and buttons) rather
 * than cut.
 */
export function listReply(listing: Listing, max: number, page: number, zone: string): Reply {
  const owned = new Map<EmbedField, ScheduleRecord>();
  const fields = [
    ...listing.builtIns.map((b) => builtInField(b.schedule, b.nextRun, b.destinationMode, zone)),
    ...listing.schedules.map((s) => {
      const field = scheduleField(s, zone);
      owned.set(field, s.record);
      return field;
    }),
  ];
  const count = listing.schedules.length;
  if (fields.length === 0)
    return { text: 'No schedules yet; add one with /schedule add "every weekday at 07:30" /weather Oslo.' };
  const pages = pagesOf(fields);
  const summary = `${count} schedule${count === 1 ? '' : 's'} (at most ${max})${listing.builtIns.length > 0 ? ', and the built-in ones' : ''}.`;
  if (page > pages.length)
    return {
      text: `${summary} There ${pages.length === 1 ? 'is 1 page' : `are ${pages.length} pages`}; page ${page} is past the last.`,
      ephemeral: true,
    };
  const shown = pages[page - 1]!;
  const embeds: Embed[] = [];
  for (let i = 0; i < shown.length; i += DISCORD_LIMITS.fields) {
    embeds.push({
      ...(i === 0
        ? { title: pages.length > 1 ? `Schedules, page ${page} of ${pages.length}` : 'Schedules' }
        : {}),
      color: 'info',
      fields: shown.slice(i, i + DISCORD_LIMITS.fields),
    });
  }
  const records = shown.flatMap((field) => owned.get(field) ?? []);
  const actions = scheduleActions(records);
  if (pages.length === 1) return { text: summary, embeds, ...(actions.length > 0 ? { actions } : {}) };
  const next = page < pages.length ? ` /schedule list page:${page + 1} shows the next.` : '';
  return {
    text: `${summary} Page ${page} of ${pages.length}.${next}`,
    embeds,
    actions: [...actions, ...pageActions(page, pages.length)],
  };
}

export function pausedReply(record: ScheduleRecord, nextRun: Date | undefined, zone: string): Reply {
  return record.paused
    ? { text: `Schedule ${record.id} is paused; /schedule resume ${record.id} starts it again.` }
    : {
        text: `Schedule ${record.id} resumed; next run ${nextRun ? timeValue(nextRun, zone, 'fR') : 'none'}.`,
      };
}

/** /schedule skip and unskip: which run is set aside or restored, and the next run. */
export function skipReply({ record, slot, nextRun }: Skipped, isSkip: boolean, zone: string): Reply {
  const { id } = record;
  const next = nextRun ? timeValue(nextRun, zone, 'fR') : 'none';
  return {
    text: isSkip
      ? `Schedule ${id} skips its run at ${timeValue(slot, zone)}; next run ${next}. /schedule unskip ${id} takes that back.`
      : `Schedule ${id} runs at ${timeValue(slot, zone)} after all; /schedule skip ${id} skips it again.`,
  };
}

export function removedReply(record: ScheduleRecord): Reply {
  return { text: `Schedule ${record.id} (${record.words}, ${record.command}) removed.` };
}

export function ranReply(record: ScheduleRecord, result: ManualRun): Reply {
  if (result.outcome === 'posted') {
    return {
      text: `Schedule ${record.id} posted ${record.command} ${destinationWords(record.destination, false, 'to')}.`,
    };
  }
  if (result.outcome === 'no-change') {
    return { text: `Schedule ${record.id} ran: nothing new since its last post, so nothing was posted.` };
  }
  if (result.outcome === 'pending') {
    return {
      text: `Schedule ${record.id} ran; ${result.error ?? 'its post waits in the outbox for a retry.'}`,
    };
  }
  if (result.outcome === 'skipped') {
    return { text: `Schedule ${record.id} did not run: ${result.error ?? 'another run holds it'}.` };
  }
  return { text: `Schedule ${record.id} failed: ${result.error ?? 'unknown error'}`, ephemeral: true };
}

/** A preview: the post as the schedule would make it now, marked as not posted; actions left out. */
export function previewReply(preview: Preview, zone: string): Reply {
  const next = preview.nextRun ? timeValue(preview.nextRun, zone, 'fR') : 'none';
  const head = `Preview of ${preview.line} ${destinationWords(preview.destination, true, 'for')} (not posted, not added; next run ${next}):`;
  if ('error' in preview.result) {
    return { text: `${head} it fails now, so it would fail then: ${preview.result.error}`, ephemeral: true };
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
export function previewAction(input: Record<string, string | undefined>): Action {
  const given = Object.entries(input).filter((e): e is [string, string] => e[1] !== undefined);
  return {
    label: 'Preview',
    command: 'schedule add',
    input: { ...Object.fromEntries(given), preview: 'yes' },
  };
}
