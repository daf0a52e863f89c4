// What /schedule does, apart from how it is typed or shown: add (every input checked, each refusal
// one sentence, the scheduled command line read as if typed, with no upstream request), list,
// preview (add's checks, then one run shown and never posted), remove, pause, resume, skip the next
// run (src/schedule/skips.ts) and run now; and the shapes it takes and answers. The commands in
// commands/schedule.ts only format its answers.
import { refusal, userMessageFor, type Said } from '../errors.ts';
import type { Actor } from '../core/actor.ts';
import { parseChannelDestination, type ChatChannel } from '../core/channel.ts';
import type { Choice, Surface } from '../core/command.ts';
import { forgetComponents } from '../core/component-state.ts';
import type { Dispatcher } from '../core/dispatch-contract.ts';
import type { Mention } from '../domain/mentions.ts';
import type { Store } from '../store/store.ts';
import { landsKey, newScheduleId, skipKey, type ScheduleRecord, type ScheduleRun } from './schedules.ts';
import { destinationFor, type DestinationSources } from './add-destination.ts';
import { canSee, isScheduleAdmin, mayManage, type ScheduleAdmins, type Viewer } from './visibility.ts';
import { canonicalTimeZone, nextRuns, parseWhen } from './when.ts';
import { refuseWatch, watchMemoryKey } from './watch.ts';
import { DISCORD_LIMITS } from '../domain/discord.ts';
import { decideSimulated, destinationModeOf, type SimulatedPolicy } from './simulated.ts';
import type { MessageLinker } from './message-links.ts';
import type { ServiceMode } from '../sandbox/resolve.ts';
import { runPost } from './slot-run.ts';
import { readAudit, recordAudit, sourceOf, type AuditAction } from './audit.ts';
import { checkHolidays } from '../holidays.ts';
import { pendingSkip, runsAfterSkips, setSkip } from './skips.ts';

export interface ScheduleSettings extends ScheduleAdmins {
  /** The zone of a schedule added without `tz` (SCHEDULE_TZ). */
  timezone: string;
  minIntervalMinutes: number;
  max: number;
  /** Configured destination names; never their addresses. */
  destinations: readonly string[];
}

/** A schedule set by the deployment (the analytics summary): listed, never changed from chat. */
export type BuiltInSchedule = Pick<ScheduleRecord, 'cron' | 'timezone' | 'destination' | 'lastRun'> & {
  name: string;
  description: string;
  /** The variables that set it, for the read-only answer. */
  variables: string;
  disabledReason?: string;
};

/** `/schedule run`'s answer: a run as its history keeps it (never `missed`), without its times. */
export type ManualRun = Pick<ScheduleRun, 'error' | 'messageId'> & {
  outcome: Exclude<ScheduleRun['outcome'], 'missed'>;
};

/** What a preview shows: the post the schedule would make now, or why it would fail. */
export type Preview = Awaited<ReturnType<ScheduleService['preview']>>;

/** What the service is built from; the platforms' hooks for where an add may post in add-destination.ts. */
export interface ScheduleServiceOptions extends Omit<DestinationSources, 'destinations'> {
  store: Store;
  settings: ScheduleSettings;
  /**
   * Reads a command line as if typed, and runs one for a preview. Late-bound: the dispatcher is
   * built from the registry that holds /schedule.
   */
  commands: () => Pick<Dispatcher, 'check' | 'run'>;
  /**
   * Runs a schedule once now (a manual slot) as `asker`, the person who asked: their command
   * access and their /say budget, never the creator's. Late-bound to the runner.
   */
  runNow: (record: ScheduleRecord, asker: Actor) => Promise<ManualRun>;
  builtIns?: () => Promise<BuiltInSchedule[]>;
  /** Refuses a schedule that would post simulated data to a real destination (simulated.ts). */
  simulated?: SimulatedPolicy;
  /** Each posted run's message address for the history (message-links.ts); absent: ids only. */
  messageLink?: MessageLinker;
  /** Why `destination` cannot edit its post or reply in a thread (src/destinations.ts), one sentence. */
  landsRefusal?: (destination: string, lands: 'edit' | 'thread') => Said | undefined;
  now: () => Date;
}

/** A run as the history shows it: with its posted message's address, where the platform gives one. */
export interface HistoryRun extends ScheduleRun {
  link?: string;
}

/** /schedule add's options as its command reads them (commands/schedule-line.ts), where it was typed. */
export interface AddInput {
  when: string;
  command: string;
  to?: string | undefined;
  tz?: string | undefined;
  /** The zone without `tz`: the creator's, else their channel's (/settings); else SCHEDULE_TZ. */
  zone?: string | undefined;
  only?: 'new' | undefined;
  alert?: string | undefined;
  mode?: 'edit' | 'new' | undefined;
  thread?: 'yes' | 'no' | undefined;
  ping?: Mention[] | undefined;
  skip?: string | undefined;
  /** The Discord or Slack channel /schedule add was typed in: the destination when `to` is absent. */
  channel?: ChatChannel | undefined;
}

/** What /schedule list shows: each schedule with its next run and the run `/schedule skip` set aside. */
export type Listing = Awaited<ReturnType<typeof listFor>>;

/** Commands that change something or manage schedules are never run on a schedule. */
const UNSCHEDULABLE = /^(email send|settings|schedule( |$))/;

type ManageVerb = 'remove' | 'pause' | 'resume' | 'run' | 'skip' | 'unskip';

/**
 * The stored schedule id, or the one-sentence refusal (built in, or unknown); one `viewer` may not
 * see reads as unknown, so that an id says nothing of another server's schedules. To `verb` it,
 * the viewer must also manage it: its creator, the operator or a schedule admin. Being allowed to
 * manage schedules does not make another user's schedule one's own (run as them, it would use
 * their access and their budget).
 */
async function findSchedule(opts: ScheduleServiceOptions, id: string, viewer: Viewer, verb?: ManageVerb) {
  const wanted = id.trim().toLowerCase();
  const record = await opts.store.getSchedule(wanted);
  if (record && canSee(opts.settings, record, viewer)) {
    if (!verb || mayManage(opts.settings, record, viewer.actor)) return record;
    throw refusal(
      (t) =>
        t('schedule:refuse.notYours', {
          id: record.id,
          creator: record.creator.displayName,
          user: viewer.actor.id,
          verb: t(`schedule:refuse.verbs.${verb}`),
        }),
      'forbidden',
    );
  }
  const builtIn = (await opts.builtIns?.())?.find((b) => b.name === wanted);
  if (builtIn) {
    const { name, variables } = builtIn;
    throw refusal((t) => t('schedule:refuse.builtIn', { name, variables }), 'forbidden');
  }
  throw refusal((t) => t('schedule:refuse.noSuch', { id: id.trim() }));
}

const choices = (values: readonly string[]): Choice[] =>
  [...new Set(values)].slice(0, DISCORD_LIMITS.autocompleteChoices).map((v) => ({ name: v, value: v }));

/** Every check of add, in its order, and the schedule it makes; throws the refusal the creator sees. */
async function readAdd(
  opts: ScheduleServiceOptions,
  input: AddInput,
  creator: Actor,
): Promise<ScheduleRecord> {
  const { settings } = opts;
  const when = parseWhen(input.when, { minIntervalMinutes: settings.minIntervalMinutes, now: opts.now() });
  const isZoneTyped = Boolean(input.tz?.trim());
  const tz = input.tz?.trim() || input.zone || settings.timezone;
  const timezone = canonicalTimeZone(tz);
  if (timezone === undefined) throw refusal((t) => t('scheduleRefusals:when.timeZone', { tz }));
  // Stored with its leading "/".
  const line = input.command.trim().replace(/^\/?/, '/');
  const isWatch = input.only === 'new';
  const alert = input.alert?.trim();
  const holidays = input.skip && (await checkHolidays(input.skip.replace(/^holidays:/i, '')));
  // The same reading as a typed command: its sentences, and no request upstream. Every service a
  // run would use: the command's own and its options' (speak:yes's speech).
  const { services: needs } = await opts.commands().check(line, creator, (command, commands) => {
    if (UNSCHEDULABLE.test(command.name))
      throw refusal((t) => t('schedule:refuse.notReading', { command: command.name }));
    // The command's own watch says whether and how it may be watched.
    const refused = refuseWatch(command, line, isWatch, alert, commands);
    if (refused !== undefined) throw refusal(refused);
  });
  // Last: the channel check asks the platform, which a refused line need not wait for.
  if (input.ping && !isScheduleAdmin(settings, creator))
    throw refusal((t) => t('schedule:refuse.pingAdmins', { user: creator.id }), 'forbidden');
  const where = await destinationFor({ ...opts, destinations: settings.destinations }, input, creator);
  if (opts.simulated) {
    const decision = decideSimulated(needs, opts.simulated.plan, where.destination, opts.simulated.allow);
    if (decision.kind === 'refuse') throw refusal(decision.said);
  }
  if (input.mode === 'edit' && input.thread === 'yes')
    throw refusal((t) => t('schedule:refuse.editOrThread'));
  const lands =
    input.mode === 'edit' ? ('edit' as const) : input.thread === 'yes' ? ('thread' as const) : undefined;
  const cannot = lands && opts.landsRefusal?.(where.destination, lands);
  if (cannot) throw refusal(cannot);
  const platform = parseChannelDestination(where.destination)?.platform;
  if (platform && input.ping?.some((m) => m.platform !== platform))
    throw refusal((t) => t('schedule:refuse.pingPlatform', { platform }));
  return {
    id: newScheduleId(),
    when: when.text,
    cron: when.cron,
    words: when.words,
    timezone,
    ...(isZoneTyped ? { isZoneTyped } : {}),
    ...where,
    command: line,
    creator: { ...creator, roles: [...creator.roles] },
    paused: false,
    ...(isWatch ? { onlyNew: true } : {}),
    ...(alert ? { alert } : {}),
    ...(lands ? { lands } : {}),
    ...(input.ping ? { ping: input.ping } : {}),
    ...(holidays ? { holidays } : {}),
    createdAt: opts.now().getTime(),
  };
}

/** What /schedule list shows `viewer`: the schedules they may see, and the built-in ones. */
async function listFor(opts: ScheduleServiceOptions, viewer: Viewer) {
  const { store, settings } = opts;
  const now = opts.now();
  const modeOf = (destination: string): { destinationMode?: ServiceMode } =>
    opts.simulated ? { destinationMode: destinationModeOf(destination, opts.simulated.plan) } : {};
  const [records, builtIns] = await Promise.all([store.listSchedules(), opts.builtIns?.() ?? []]);
  const seen = records.filter((record) => canSee(settings, record, viewer));
  const schedules = seen.map(async (record) => {
    const skip = record.paused ? undefined : await pendingSkip(store, record.id, now);
    const [nextRun] = record.paused ? [] : await runsAfterSkips(record, skip, now, 1);
    return { record, nextRun, skip, ...modeOf(record.destination) };
  });
  return {
    schedules: await Promise.all(schedules),
    builtIns: builtIns.map((schedule) => ({
      schedule,
      nextRun: schedule.disabledReason ? undefined : nextRuns(schedule.cron, schedule.timezone, now, 1)[0],
      ...modeOf(schedule.destination),
    })),
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;

export function createScheduleService(opts: ScheduleServiceOptions) {
  const { store, settings } = opts;
  // Listed on the first completion of a zone, not at start-up: asking ICU maps its data.
  let zones: readonly string[] | undefined;
  const next = async (r: ScheduleRecord, count: number, now = opts.now()) =>
    runsAfterSkips(r, await pendingSkip(store, r.id, now), now, count);
  const audit = (record: ScheduleRecord, action: AuditAction, actor: Actor, surface?: Surface) =>
    recordAudit(store, record, { action, actor, via: sourceOf(actor, surface), at: opts.now().getTime() });
  return {
    settings,
    /** `surface`, here and below: how the change was asked for, for the audit (absent: typed). */
    async add(input: AddInput, creator: Actor, surface?: Surface) {
      const record = await readAdd(opts, input, creator);
      const result = await store.addSchedule(record, settings.max);
      if (result === 'full') throw refusal((t) => t('schedule:refuse.full', { max: settings.max }));
      if (result === 'exists') throw new Error('schedule id collision; try again');
      await audit(record, 'add', creator, surface);
      return { record, nextRuns: await next(record, 3) };
    },
    /** The schedules `viewer` may see where they type (visibility.ts), and the built-in ones. */
    list: (viewer: Viewer) => listFor(opts, viewer),
    /** `channel`, here and below: where the asker types. */
    async remove(id: string, actor: Actor, channel?: ChatChannel, surface?: Surface) {
      const record = await findSchedule(opts, id, { actor, channel }, 'remove');
      await store.removeSchedule(record.id);
      await audit(record, 'remove', actor, surface);
      // Its buttons' targets were kept while it existed (component-state.ts).
      await forgetComponents(store, record.id);
      if (record.lands) await store.deleteValues(landsKey(record.id));
      await store.deleteValues(skipKey(record.id));
      if (record.onlyNew) await store.deleteValues(watchMemoryKey(record.id));
      return record;
    },
    async setPaused(id: string, paused: boolean, actor: Actor, channel?: ChatChannel, surface?: Surface) {
      const record = await findSchedule(opts, id, { actor, channel }, paused ? 'pause' : 'resume');
      if (!(await store.setPaused(record.id, paused))) await findSchedule(opts, id, { actor, channel });
      await audit(record, paused ? 'pause' : 'resume', actor, surface);
      const updated = { ...record, paused };
      return { record: updated, nextRun: paused ? undefined : (await next(updated, 1))[0] };
    },
    async run(id: string, actor: Actor, channel?: ChatChannel) {
      const record = await findSchedule(opts, id, { actor, channel }, 'run');
      return { record, result: await opts.runNow(record, actor) };
    },
    /** Skips the next run (`isSkip`), or takes that back: the slot, and the next run after it. */
    async setSkip(id: string, isSkip: boolean, actor: Actor, channel?: ChatChannel, surface?: Surface) {
      const record = await findSchedule(opts, id, { actor, channel }, isSkip ? 'skip' : 'unskip');
      const skipped = await setSkip(store, record, isSkip, actor.displayName, opts.now());
      await audit(record, isSkip ? 'skip' : 'unskip', actor, surface);
      return skipped;
    },
    /** A schedule `viewer` may see, and its latest runs, newest first, with their links. */
    async history(id: string, viewer: Viewer, signal?: AbortSignal) {
      const record = await findSchedule(opts, id, viewer);
      const runs: HistoryRun[] = await store.history(record.id);
      const links = await Promise.all(runs.map(async (run) => await opts.messageLink?.(record, run, signal)));
      return { record, runs: runs.map((run, i) => (links[i] ? { ...run, link: links[i] } : run)) };
    },
    /** Checks `input` as add does, then runs its command once as `creator`, posting nothing. */
    async preview(input: AddInput, creator: Actor, signal: AbortSignal) {
      const record = await readAdd(opts, input, creator);
      const [nextRun] = await runsAfterSkips(record, undefined, opts.now(), 1);
      // Run as the slot will run it, as its creator; the post is shown, never posted or stored.
      const run = { ...record, actor: creator };
      const result = await runPost(opts.commands(), opts.simulated, signal, run).then(
        (reply) => ({ reply: reply! }),
        (err: unknown) => ({ error: userMessageFor(err) }),
      );
      return { line: record.command, destination: record.destination, nextRun, result };
    },
    /** The audit's latest entries `viewer` may read (audit.ts), of schedule `id` when given. */
    audit: (viewer: Viewer, id?: string) => readAudit(store, settings, viewer, id),
    destinationChoices: (partial: string) =>
      choices(settings.destinations.filter((d) => d.includes(partial.trim().toLowerCase()))),
    zoneChoices(partial: string) {
      const p = partial.trim().toLowerCase().replace(/\s+/g, '_');
      zones ??= Intl.supportedValuesOf('timeZone');
      return choices(
        p === '' ? [settings.timezone, 'UTC', ...zones] : zones.filter((z) => z.toLowerCase().includes(p)),
      );
    },
  };
}
