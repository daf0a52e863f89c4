// What /schedule does, apart from how it is typed or shown: add (every input checked, each refusal
// one sentence, the scheduled command line read as if typed, with no upstream request), list,
// preview (add's checks, then one run shown and never posted), remove, pause, resume, skip the next
// run (src/schedule/skips.ts) and run now. The commands in commands/schedule.ts only format its answers.
import { userMessageFor } from '../errors.ts';
import type { Actor } from '../core/actor.ts';
import { parseChannelDestination } from '../core/channel.ts';
import type { Command, Choice, Surface } from '../core/command.ts';
import { forgetComponents } from '../core/component-state.ts';
import { landsKey, newScheduleId, type ScheduleRecord } from './schedules.ts';
import { destinationFor, refusal } from './add-destination.ts';
import { canSee, isScheduleAdmin, type Viewer } from './visibility.ts';
import { checkTimeZone, nextRuns, parseWhen } from './when.ts';
import { refuseWatch } from './watch.ts';
import { DISCORD_LIMITS } from '../domain/discord.ts';
import { decideSimulated, destinationModeOf } from './simulated.ts';
import { runPost } from './slot-run.ts';
import { readAudit, recordAudit, sourceOf, type AuditAction } from './audit.ts';
import { checkHolidays } from '../holidays.ts';
import { forgetSkip, pendingSkip, runsAfterSkips, setSkip } from './skips.ts';

export type {
  ScheduleSettings,
  BuiltInSchedule,
  ManualRun,
  Preview,
  ScheduleServiceOptions,
  HistoryRun,
  AddInput,
  DestinationMode,
  Listing,
  ScheduleService,
} from './service-types.ts';
import type {
  ScheduleSettings,
  ScheduleServiceOptions,
  AddInput,
  DestinationMode,
  Listing,
  ScheduleService,
} from './service-types.ts';

/** Commands that change something or manage schedules are never run on a schedule. */
const UNSCHEDULABLE = /^(email send|schedule( |$))/;

function refuseUnschedulable(command: Command): void {
  if (!UNSCHEDULABLE.test(command.name)) return;
  throw refusal('invalid_input', (t) => t('schedule:refuse.notReading', { command: command.name }));
}

/**
 * The stored schedule id, or the one-sentence refusal (built in, or unknown); one `viewer` may not
 * see reads as unknown, so that an id says nothing of another server's schedules.
 */
async function findSchedule(
  opts: ScheduleServiceOptions,
  id: string,
  viewer: Viewer,
): Promise<ScheduleRecord> {
  const wanted = id.trim().toLowerCase();
  const record = await opts.store.getSchedule(wanted);
  if (record && canSee(opts.settings, record, viewer)) return record;
  const builtIn = (await opts.builtIns?.())?.find((b) => b.name === wanted);
  if (builtIn) {
    const { name, variables } = builtIn;
    throw refusal('forbidden', (t) => t('schedule:refuse.builtIn', { name, variables }));
  }
  throw refusal('invalid_input', (t) => t('schedule:refuse.noSuch', { id: id.trim() }));
}

/**
 * Refuses `actor` managing `record` unless they added it, are the operator or a schedule admin:
 * being allowed to manage schedules does not make another user's schedule one's own (run as
 * them, it would use their access and their budget).
 */
type ManageVerb = 'remove' | 'pause' | 'resume' | 'run' | 'skip' | 'unskip';

function checkManager(
  settings: ScheduleSettings,
  record: ScheduleRecord,
  actor: Actor,
  verb: ManageVerb,
): void {
  const { creator } = record;
  if (actor.isOperator === true) return;
  if (creator.platform === actor.platform && creator.id === actor.id) return;
  if (isScheduleAdmin(settings, actor)) return;
  throw refusal('forbidden', (t) =>
    t('schedule:refuse.notYours', {
      id: record.id,
      creator: creator.displayName,
      user: actor.id,
      verb: t(`schedule:refuse.verbs.${verb}`),
    }),
  );
}

/** The command line as stored: always with its leading "/". */
function commandLineOf(command: string): string {
  const line = command.trim();
  return line.startsWith('/') ? line : `/${line}`;
}

function destinationChoices(settings: ScheduleSettings, partial: string): Choice[] {
  const p = partial.trim().toLowerCase();
  return settings.destinations
    .filter((d) => d.includes(p))
    .slice(0, DISCORD_LIMITS.autocompleteChoices)
    .map((d) => ({ name: d, value: d }));
}

function zoneChoices(settings: ScheduleSettings, zones: readonly string[], partial: string): Choice[] {
  const p = partial.trim().toLowerCase().replace(/\s+/g, '_');
  const hits =
    p === '' ? [settings.timezone, 'UTC', ...zones] : zones.filter((z) => z.toLowerCase().includes(p));
  return [...new Set(hits)].slice(0, DISCORD_LIMITS.autocompleteChoices).map((z) => ({ name: z, value: z }));
}

/** Every check of add, in its order; throws the refusal the creator sees. */
async function readAdd(opts: ScheduleServiceOptions, input: AddInput, creator: Actor) {
  const { settings } = opts;
  const when = parseWhen(input.when, {
    minIntervalMinutes: settings.minIntervalMinutes,
    now: opts.now(),
  });
  const isZoneTyped = Boolean(input.tz?.trim());
  const timezone = checkTimeZone(input.tz?.trim() || input.zone || settings.timezone);
  const line = commandLineOf(input.command);
  // The same reading as a typed command: its sentences, and no request upstream.
  const isWatch = input.only === 'new';
  const alert = input.alert?.trim();
  const holidays = input.skip && (await checkHolidays(input.skip.replace(/^holidays:/i, '')));
  // Every service a run would use: the command's own and its options' (speak:yes's speech).
  const { services: needs } = await opts.commands().check(line, creator, (command, commands) => {
    refuseUnschedulable(command);
    // The command's own watch says whether and how it may be watched.
    const refused = refuseWatch(command, line, isWatch, alert, commands);
    if (refused !== undefined) throw refusal('invalid_input', refused);
  });
  // Last: the channel check asks the platform, which a refused line need not wait for.
  if (input.ping && !creator.isOperator && !isScheduleAdmin(settings, creator))
    throw refusal('forbidden', (t) => t('schedule:refuse.pingAdmins', { user: creator.id }));
  const where = await destinationFor(
    {
      destinations: opts.settings.destinations,
      channelChecks: opts.channelChecks,
      channelAudiences: opts.channelAudiences,
      directChannels: opts.directChannels,
    },
    input,
    creator,
  );
  const { destination } = where;
  if (opts.simulated) {
    const decision = decideSimulated(needs, opts.simulated.plan, destination, opts.simulated.allow);
    if (decision.kind === 'refuse') throw refusal('invalid_input', decision.said);
  }
  if (input.mode === 'edit' && input.thread === 'yes')
    throw refusal('invalid_input', (t) => t('schedule:refuse.editOrThread'));
  const lands =
    input.mode === 'edit' ? ('edit' as const) : input.thread === 'yes' ? ('thread' as const) : undefined;
  const cannot = lands && opts.landsRefusal?.(destination, lands);
  if (cannot) throw refusal('invalid_input', cannot);
  const platform = parseChannelDestination(destination)?.platform;
  if (platform && input.ping?.some((m) => m.platform !== platform))
    throw refusal('invalid_input', (t) => t('schedule:refuse.pingPlatform', { platform }));
  const read = { when, timezone, isZoneTyped, ...where, line, isWatch, alert };
  return { ...read, lands, ping: input.ping, holidays };
}

/** The schedule an add makes of what readAdd read. */
function recordOf(read: Awaited<ReturnType<typeof readAdd>>, creator: Actor, now: Date): ScheduleRecord {
  const {
    when,
    timezone,
    isZoneTyped,
    destination,
    isDirect,
    guildId,
    channelName,
    home,
    line,
    isWatch,
    alert,
    lands,
    ping,
    holidays,
  } = read;
  return {
    id: newScheduleId(),
    when: when.text,
    cron: when.cron,
    words: when.words,
    timezone,
    ...(isZoneTyped ? { isZoneTyped } : {}),
    destination,
    ...(isDirect ? { isDirect } : {}),
    ...(guildId ? { guildId } : {}),
    home,
    ...(channelName ? { channelName } : {}),
    command: line,
    creator: { ...creator, roles: [...creator.roles] },
    paused: false,
    ...(isWatch ? { onlyNew: true } : {}),
    ...(alert ? { alert } : {}),
    ...(lands ? { lands } : {}),
    ...(ping ? { ping } : {}),
    ...(holidays ? { holidays } : {}),
    createdAt: now.getTime(),
  };
}

/** What /schedule list shows `viewer`: the schedules they may see, and the built-in ones. */
async function listFor(opts: ScheduleServiceOptions, viewer: Viewer): Promise<Listing> {
  const { store, settings } = opts;
  const next = (r: { cron: string; timezone: string }) => nextRuns(r.cron, r.timezone, opts.now(), 1)[0];
  const after = async (r: ScheduleRecord) => (await runsAfterSkips(store, r, opts.now(), 1))[0];
  const modeOf = (destination: string): { destinationMode?: DestinationMode } =>
    opts.simulated ? { destinationMode: destinationModeOf(destination, opts.simulated.plan) } : {};
  const [records, builtIns] = await Promise.all([store.listSchedules(), opts.builtIns?.() ?? []]);
  const seen = records.filter((record) => canSee(settings, record, viewer));
  const nextOf = await Promise.all(seen.map(async (r) => (r.paused ? undefined : after(r))));
  const skips = await Promise.all(
    seen.map(async (r) => (r.paused ? undefined : pendingSkip(store, r.id, opts.now()))),
  );
  return {
    schedules: seen.map((record, i) => ({
      record,
      nextRun: nextOf[i],
      skip: skips[i],
      ...modeOf(record.destination),
    })),
    builtIns: builtIns.map((schedule) => ({
      schedule,
      nextRun: schedule.disabledReason ? undefined : next(schedule),
      ...modeOf(schedule.destination),
    })),
  };
}

export function createScheduleService(opts: ScheduleServiceOptions): ScheduleService {
  const { store, settings } = opts;
  // Listed on the first completion of a zone, not at start-up: asking ICU maps its data.
  let zones: readonly string[] | undefined;
  const find = (id: string, viewer: Viewer): Promise<ScheduleRecord> => findSchedule(opts, id, viewer);
  const next = (r: ScheduleRecord, count: number) => runsAfterSkips(store, r, opts.now(), count);
  const read = (input: AddInput, creator: Actor) => readAdd(opts, input, creator);
  const audit = (record: ScheduleRecord, action: AuditAction, actor: Actor, surface?: Surface) =>
    recordAudit(store, record, { action, actor, via: sourceOf(actor, surface), at: opts.now().getTime() });

  return {
    settings,
    async add(input, creator, surface) {
      const record = recordOf(await read(input, creator), creator, opts.now());
      const result = await store.addSchedule(record, settings.max);
      if (result === 'full') {
        throw refusal('invalid_input', (t) => t('schedule:refuse.full', { max: settings.max }));
      }
      if (result === 'exists') throw new Error('schedule id collision; try again');
      await audit(record, 'add', creator, surface);
      return { record, nextRuns: await next(record, 3) };
    },
    list: (viewer) => listFor(opts, viewer),
    async remove(id, actor, channel, surface) {
      const record = await find(id, { actor, channel });
      checkManager(settings, record, actor, 'remove');
      await store.removeSchedule(record.id);
      await audit(record, 'remove', actor, surface);
      // Its buttons' targets were kept while it existed (component-state.ts).
      await forgetComponents(store, record.id);
      if (record.lands) await store.deleteValues(landsKey(record.id));
      await forgetSkip(store, record.id);
      if (record.onlyNew) await opts.forget?.(record.id);
      return record;
    },
    async setPaused(id, paused, actor, channel, surface) {
      const record = await find(id, { actor, channel });
      checkManager(settings, record, actor, paused ? 'pause' : 'resume');
      if (!(await store.setPaused(record.id, paused))) await find(id, { actor, channel });
      await audit(record, paused ? 'pause' : 'resume', actor, surface);
      const updated = { ...record, paused };
      return { record: updated, nextRun: paused ? undefined : (await next(updated, 1))[0] };
    },
    async run(id, actor, channel) {
      const record = await find(id, { actor, channel });
      checkManager(settings, record, actor, 'run');
      return { record, result: await opts.runNow(record, actor) };
    },
    async setSkip(id, isSkip, actor, channel, surface) {
      const record = await find(id, { actor, channel });
      checkManager(settings, record, actor, isSkip ? 'skip' : 'unskip');
      const skipped = await setSkip(store, record, isSkip, actor.displayName, opts.now());
      await audit(record, isSkip ? 'skip' : 'unskip', actor, surface);
      return skipped;
    },
    async history(id, viewer, signal) {
      const record = await find(id, viewer);
      const runs = await store.history(record.id);
      const link = opts.messageLink;
      if (!link) return { record, runs };
      const links = await Promise.all(runs.map((run) => link(record, run, signal)));
      return { record, runs: runs.map((run, i) => (links[i] ? { ...run, link: links[i] } : run)) };
    },
    async preview(input, creator, signal) {
      const { when, timezone, destination, line, ping, holidays } = await read(input, creator);
      const schedule = { id: '', cron: when.cron, timezone, holidays };
      const [nextRun] = await runsAfterSkips(store, schedule, opts.now(), 1);
      // Run as the slot will run it, as its creator; the post is shown, never posted or stored.
      const run = { command: line, destination, actor: creator, ping };
      const result = await runPost(opts.commands(), opts.simulated, signal, run).then(
        (reply) => ({ reply: reply! }),
        (err: unknown) => ({ error: userMessageFor(err) }),
      );
      return { line, destination, timezone, nextRun, result };
    },
    audit: (viewer, id) => readAudit(store, settings, viewer, id),
    destinationChoices: (partial) => destinationChoices(settings, partial),
    zoneChoices: (partial) => zoneChoices(settings, (zones ??= Intl.supportedValuesOf('timeZone')), partial),
  };
}
