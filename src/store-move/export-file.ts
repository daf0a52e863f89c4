// The file `npm run store -- export` writes and `import` reads: a versioned JSON document of what
// a store holds for good (docs/store-move.md). Read with zod, so a malformed file is refused whole,
// in one sentence naming its first problem, before anything is written.
import { z } from 'zod';
import { BotError } from '../errors.ts';
import type { AuditEntry } from '../schedule/audit.ts';
import type { ScheduleRecord, ScheduleRun } from '../schedule/schedules.ts';
import { isTimeZone, nextRuns } from '../schedule/when.ts';

/** Raised on a later change to what the file holds; a herald refuses a file newer than its own. */
export const STORE_FILE_FORMAT = 1;

type StoreMoveErrorCode = 'memory_store' | 'missing_store' | 'running' | 'newer_format' | 'malformed';

/** A refusal of `npm run store`, in one sentence. */
export class StoreMoveError extends BotError {
  declare readonly code: StoreMoveErrorCode;
  constructor(opts: { code: StoreMoveErrorCode; message: string; cause?: unknown }) {
    super(opts);
  }
}

/** One schedule: its record (its last run is in its history) and its history, newest first. */
export interface MovedSchedule {
  record: Omit<ScheduleRecord, 'lastRun'>;
  history: ScheduleRun[];
}

export interface StoreFile {
  herald: 'store';
  format: number;
  /** ISO 8601: when it was exported. */
  exportedAt: string;
  /** The kind of store it came from. */
  from: string;
  schedules: MovedSchedule[];
  /** The key/value entries kept until deleted: watch memories, preferences, destination pauses… */
  values: Record<string, string>;
  /** Who changed which schedule (/schedule audit), oldest first; absent in files from before it. */
  audit?: AuditEntry[];
}

const text = z.string().min(1);
const time = z.number().int().nonnegative();

// Fields this version does not know are kept (looseObject): a record carries them to the new store.
const run = z.looseObject({
  slotId: text,
  at: time,
  outcome: text,
  error: z.string().optional(),
  messageId: z.string().optional(),
  channelId: z.string().optional(),
  durationMs: z.number().optional(),
  nextRetryAt: z.number().optional(),
  paused: z.boolean().optional(),
});

/** `check` asked once per distinct value: a store's schedules share a few crons and zones, and
 * checking one costs about 0.1 ms (croner's parse, an Intl format), a second for 10,000. */
function once(check: (value: string) => boolean): (value: string) => boolean {
  const known = new Map<string, boolean>();
  return (value) => {
    let is = known.get(value);
    if (is === undefined) known.set(value, (is = check(value)));
    return is;
  };
}

const isCron = once((cron) => {
  try {
    nextRuns(cron, 'UTC', new Date(0), 1);
    return true;
  } catch {
    return false;
  }
});
const isZone = once(isTimeZone);

const record = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'not a schedule id'),
  when: text,
  cron: text.refine(isCron, 'not a cron expression herald reads'),
  words: z.string(),
  timezone: text.refine(isZone, 'not an IANA time zone'),
  destination: text,
  command: text,
  creator: z.looseObject({
    platform: z.enum(['console', 'discord', 'slack']),
    id: text,
    displayName: z.string(),
    roles: z.array(z.string()),
  }),
  paused: z.boolean(),
  createdAt: time,
  guildId: z.string().optional(),
  home: z
    .looseObject({ workspaceId: z.string().optional(), privateChannelId: z.string().optional() })
    .optional(),
  channelName: z.string().optional(),
  onlyNew: z.boolean().optional(),
  alert: z.string().optional(),
});

const auditEntry = z.looseObject({
  scope: z.string().optional(),
  at: time,
  action: z.enum(['add', 'pause', 'resume', 'skip', 'unskip', 'remove', 'import']),
  scheduleId: text,
  by: z.looseObject({ platform: z.enum(['console', 'discord', 'slack']), id: text, displayName: z.string() }),
  via: z.enum(['typed', 'button', 'form', 'home', 'console', 'store']),
});

const storeFile = z.object({
  herald: z.literal('store'),
  format: z.number().int().positive(),
  exportedAt: z.iso.datetime(),
  from: text,
  schedules: z.array(z.object({ record, history: z.array(run) })),
  values: z.record(z.string(), z.string()),
  audit: z.array(auditEntry).optional(),
});

/** `schedules[3].record.cron` from zod's path. */
function pathOf(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}

const malformed = (message: string, cause?: unknown) =>
  new StoreMoveError({ code: 'malformed', message, ...(cause === undefined ? {} : { cause }) });

/**
 * `npm run store -- export > file` under plain `npm run` puts npm's banner (an empty line, then
 * lines starting "> ") before the JSON on stdout; the JSON starts at the first `{` that opens a line.
 */
function withoutNpmBanner(input: string): string {
  const lines = input.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith('{'));
  const isBanner = lines.slice(0, Math.max(start, 0)).every((l) => l.trim() === '' || l.startsWith('> '));
  return start > 0 && isBanner ? lines.slice(start).join('\n') : input;
}

/** The file's content as a StoreFile, or a StoreMoveError naming its first problem. */
export function parseStoreFile(input: string): StoreFile {
  let json: unknown;
  try {
    json = JSON.parse(withoutNpmBanner(input));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw malformed(`The file is not a herald store export: it is not JSON (${why}).`, err);
  }
  const head = json as Partial<Record<'herald' | 'format', unknown>> | null;
  if (typeof head !== 'object' || head === null || head.herald !== 'store')
    throw malformed('The file is not a herald store export: it has no "herald": "store" at its top.');
  if (typeof head.format === 'number' && head.format > STORE_FILE_FORMAT)
    throw new StoreMoveError({
      code: 'newer_format',
      message: `The file is in store format ${head.format}, written by a newer herald; this one reads format ${STORE_FILE_FORMAT}, so update herald before importing it.`,
    });
  const parsed = storeFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length === 0 ? 'its top' : pathOf(issue.path);
    throw malformed(`The file does not fit store format ${STORE_FILE_FORMAT} at ${where}: ${issue.message}.`);
  }
  return parsed.data as StoreFile;
}

/** The file's text: one schedule and one value a line, so that it reads and diffs line by line. */
export function serializeStoreFile(file: StoreFile): string {
  const { schedules, values, audit, ...head } = file;
  const json = JSON.stringify;
  const lines = (items: string[]) => (items.length === 0 ? '' : `\n${items.join(',\n')}\n`);
  const top = json(head).slice(0, -1);
  const scheduleLines = lines(schedules.map((s) => json(s)));
  const valueLines = lines(Object.entries(values).map(([k, v]) => `${json(k)}:${json(v)}`));
  const auditLines = audit === undefined ? '' : `,"audit":[${lines(audit.map((e) => json(e)))}]`;
  return `${top},"schedules":[${scheduleLines}],"values":{${valueLines}}${auditLines}}\n`;
}
