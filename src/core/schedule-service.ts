// What /schedule does, apart from how it is typed or shown: add (every input checked, each refusal
// one sentence, the scheduled command line read as if typed, with no upstream request), list,
// remove, pause, resume and run now. The commands in commands/schedule.ts only format its answers.
import { UserError } from '../errors.ts';
import type { Actor } from './actor.ts';
import type { Command, Choice } from './command.ts';
import { newScheduleId, type ScheduleRecord, type ScheduleRun, type ScheduleStore } from './schedules.ts';
import { checkTimeZone, nextRuns, parseWhen } from './when.ts';
import { parseAlert, WATCHABLE } from './watch.ts';
import { DISCORD_LIMITS } from '../domain/discord.ts';

export interface ScheduleSettings {
  /** The zone of a schedule added without `tz` (SCHEDULE_TZ). */
  timezone: string;
  minIntervalMinutes: number;
  max: number;
  /** Configured destination names; never their addresses. */
  destinations: readonly string[];
}

/** A schedule set by the deployment (the analytics summary): listed, never changed from chat. */
export interface BuiltInSchedule {
  name: string;
  description: string;
  cron: string;
  timezone: string;
  /** The variables that set it, for the read-only answer. */
  variables: string;
  destination: string;
  disabledReason?: string;
  lastRun?: ScheduleRun;
}

export interface ManualRun {
  outcome: 'posted' | 'pending' | 'failed' | 'skipped' | 'no-change';
  /** Why it failed or was skipped, one sentence. */
  error?: string;
  messageId?: string;
}

/** The part of the dispatcher /schedule uses to read a command line as if typed. */
export interface CommandLineChecker {
  check(line: string, actor: Actor, accept?: (command: Command) => void): Promise<Command>;
}

export interface ScheduleServiceOptions {
  store: ScheduleStore;
  settings: ScheduleSettings;
  /** Late-bound: the dispatcher is built from the registry that holds /schedule. */
  commands: () => CommandLineChecker;
  /** Runs a schedule once now (a manual slot); late-bound to the runner. */
  runNow: (record: ScheduleRecord) => Promise<ManualRun>;
  builtIns?: () => Promise<BuiltInSchedule[]>;
  /** Drops what a removed watch remembered. */
  forget?: (id: string) => Promise<void>;
  now: () => Date;
}

export interface AddInput {
  when: string;
  command: string;
  to?: string | undefined;
  tz?: string | undefined;
  /** `new`: a watch. */
  only?: 'new' | undefined;
  /** With only:new on /forecast: `rain`, `snow`, `below 0`, `above 30`. */
  alert?: string | undefined;
}

export interface Listing {
  schedules: { record: ScheduleRecord; nextRun: Date | undefined }[];
  builtIns: { schedule: BuiltInSchedule; nextRun: Date | undefined }[];
}

export interface ScheduleService {
  readonly settings: ScheduleSettings;
  add(input: AddInput, creator: Actor): Promise<{ record: ScheduleRecord; nextRuns: Date[] }>;
  list(): Promise<Listing>;
  remove(id: string): Promise<ScheduleRecord>;
  setPaused(id: string, paused: boolean): Promise<{ record: ScheduleRecord; nextRun: Date | undefined }>;
  run(id: string): Promise<{ record: ScheduleRecord; result: ManualRun }>;
  destinationChoices(partial: string): Choice[];
  zoneChoices(partial: string): Choice[];
}

/** Commands that change something or manage schedules are never run on a schedule. */
const UNSCHEDULABLE = /^(email send|schedule( |$))/;

function fail(code: 'invalid_input' | 'forbidden', message: string): UserError {
  return new UserError({ code, message });
}

function destinationOf(settings: ScheduleSettings, to: string | undefined): string {
  const name = (to ?? 'default').trim().toLowerCase();
  if (settings.destinations.includes(name)) return name;
  if (settings.destinations.length === 0) {
    throw fail(
      'invalid_input',
      'No destination is configured; set WEBHOOK_URL (the destination "default") or WEBHOOK_URL_<NAME>.',
    );
  }
  const known = settings.destinations.join(', ');
  throw fail('invalid_input', `There is no destination "${name}"; the configured ones are ${known}.`);
}

function refuseUnschedulable(command: Command): void {
  if (!UNSCHEDULABLE.test(command.name)) return;
  throw fail(
    'invalid_input',
    `/${command.name} cannot be scheduled: only commands that read can, such as /weather, /jobs or /report.`,
  );
}

function refuseUnwatchable(command: Command): void {
  if (WATCHABLE[command.name] !== undefined) return;
  const names = Object.keys(WATCHABLE).map((n) => `/${n}`);
  const which = `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  throw fail(
    'invalid_input',
    `/${command.name} cannot be a watch (only:new): only ${which} can post just what is new.`,
  );
}

/** A /jobs watch reads the first page only (watch.ts asks for the largest): page: would contradict it. */
function refusePagedWatch(command: Command, line: string): void {
  if (command.name !== 'jobs' || !/(^|\s)page:/i.test(line)) return;
  throw fail(
    'invalid_input',
    'A /jobs watch reads the first page of results only (the largest the provider gives); leave out page:.',
  );
}

/** alert: belongs to a /forecast watch, which needs one. */
function checkAlert(command: Command, isWatch: boolean, alert: string | undefined): void {
  const isForecastWatch = isWatch && command.name === 'forecast';
  if (alert === undefined && !isForecastWatch) return;
  if (alert !== undefined && !isForecastWatch)
    throw fail('invalid_input', 'alert: is for a /forecast watch; add only:new and schedule /forecast.');
  if (alert === undefined || parseAlert(alert) === undefined)
    throw fail(
      'invalid_input',
      `A /forecast watch needs alert:rain, alert:snow, alert:"below 0" or alert:"above 30"${alert === undefined ? '' : `, not "${alert}"`}.`,
    );
}

/** The stored schedule id, or the one-sentence refusal (built in, or unknown). */
async function findSchedule(opts: ScheduleServiceOptions, id: string): Promise<ScheduleRecord> {
  const wanted = id.trim().toLowerCase();
  const record = await opts.store.get(wanted);
  if (record) return record;
  const builtIn = (await opts.builtIns?.())?.find((b) => b.name === wanted);
  if (builtIn) {
    throw fail(
      'forbidden',
      `${builtIn.name} is built in (set by ${builtIn.variables}); it cannot be changed from chat.`,
    );
  }
  throw fail('invalid_input', `There is no schedule "${id.trim()}"; /schedule list shows them all.`);
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

export function createScheduleService(opts: ScheduleServiceOptions): ScheduleService {
  const { store, settings } = opts;
  // Listed on the first completion of a zone, not at start-up: asking ICU maps its data (issue 16).
  let zones: readonly string[] | undefined;
  const find = (id: string): Promise<ScheduleRecord> => findSchedule(opts, id);
  const next = (r: { cron: string; timezone: string }, count: number): Date[] =>
    nextRuns(r.cron, r.timezone, opts.now(), count);

  return {
    settings,
    async add(input, creator) {
      const when = parseWhen(input.when, { minIntervalMinutes: settings.minIntervalMinutes });
      const timezone = checkTimeZone(input.tz?.trim() || settings.timezone);
      const destination = destinationOf(settings, input.to);
      const line = commandLineOf(input.command);
      // The same reading as a typed command: its sentences, and no request upstream.
      const isWatch = input.only === 'new';
      const alert = input.alert?.trim();
      await opts.commands().check(line, creator, (command) => {
        refuseUnschedulable(command);
        if (isWatch) refuseUnwatchable(command);
        if (isWatch) refusePagedWatch(command, line);
        checkAlert(command, isWatch, alert);
      });
      const record: ScheduleRecord = {
        id: newScheduleId(),
        when: when.text,
        cron: when.cron,
        words: when.words,
        timezone,
        destination,
        command: line,
        creator: { ...creator, roles: [...creator.roles] },
        paused: false,
        ...(isWatch ? { onlyNew: true } : {}),
        ...(alert ? { alert } : {}),
        createdAt: opts.now().getTime(),
      };
      const result = await store.add(record, settings.max);
      if (result === 'full') {
        throw fail(
          'invalid_input',
          `There are already ${settings.max} schedules, the most SCHEDULE_MAX allows; remove one first.`,
        );
      }
      if (result === 'exists') throw new Error('schedule id collision; try again');
      return { record, nextRuns: next(record, 3) };
    },
    async list() {
      const [records, builtIns] = await Promise.all([store.list(), opts.builtIns?.() ?? []]);
      return {
        schedules: records.map((record) => ({
          record,
          nextRun: record.paused ? undefined : next(record, 1)[0],
        })),
        builtIns: builtIns.map((schedule) => ({
          schedule,
          nextRun: schedule.disabledReason ? undefined : next(schedule, 1)[0],
        })),
      };
    },
    async remove(id) {
      const record = await find(id);
      await store.remove(record.id);
      if (record.onlyNew) await opts.forget?.(record.id);
      return record;
    },
    async setPaused(id, paused) {
      const record = await find(id);
      if (!(await store.setPaused(record.id, paused))) await find(id);
      const updated = { ...record, paused };
      return { record: updated, nextRun: paused ? undefined : next(record, 1)[0] };
    },
    async run(id) {
      const record = await find(id);
      return { record, result: await opts.runNow(record) };
    },
    destinationChoices: (partial) => destinationChoices(settings, partial),
    zoneChoices: (partial) => zoneChoices(settings, (zones ??= Intl.supportedValuesOf('timeZone')), partial),
  };
}
