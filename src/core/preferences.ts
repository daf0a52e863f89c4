// Preferences (/settings): what a person and a channel chose, kept in the store's key/value part
// (one JSON value per person or channel, so a command reads two keys), and the one resolution of
// what applies. A typed command: the option typed, then the user's, then the channel's, then the
// environment's default. A scheduled post: its own options, then its channel's, then its creator's;
// one to `to:me` is read by its creator alone, whose settings then come before the channel's.
import {
  LANGUAGES,
  PREFERENCE_DEFAULTS,
  UNIT_CHOICES,
  type Language,
  type Units,
} from '../domain/preferences.ts';
import { languageOfLocale } from '../i18n/translate.ts';
import type { Actor } from './actor.ts';
import { parseChannelDestination, type ChatChannel } from './channel.ts';

const PREFERENCE_KEYS = ['timezone', 'units', 'language', 'home'] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];

/** What one person or one channel set; a channel sets no home place. */
export type StoredPreferences = Partial<Record<PreferenceKey, string>>;

/**
 * Where a value that applies came from (`schedule`: the schedule's own zone; `platform`: the
 * language Discord or Slack gives for the invoker, where /settings set none).
 */
type PreferenceSource = 'typed' | 'user' | 'channel' | 'schedule' | 'platform' | 'default';

/** What applies to one command, and where each value came from. */
export interface Preferences {
  timezone: string;
  units: Units;
  language: Language;
  /** The home place; absent when nobody set one. */
  home?: string;
  from: Record<PreferenceKey, PreferenceSource>;
}

/** Whose settings: a person on their platform, or a Discord or Slack channel. */
export type PreferenceScope =
  | { kind: 'user'; actor: Pick<Actor, 'platform' | 'id'> }
  | { kind: 'channel'; channel: Pick<ChatChannel, 'platform' | 'id'> };

/** The part of the store preferences use (src/store/store.ts). */
interface KeyValue {
  getValue(key: string): Promise<string | undefined>;
  setValue(key: string, value: string): Promise<boolean>;
  deleteValues(keyPrefix: string): Promise<number>;
}

/**
 * A scheduled post: its creator, where it posts (`channel:<platform>:<id>`, src/core/channel.ts:
 * that channel's settings apply), whether that is the creator's direct messages (`to:me`), the zone
 * it fires in and whether `tz:` set that zone.
 */
export interface ScheduledFor {
  creator: Actor;
  destination: string;
  isDirect?: boolean | undefined;
  timezone: string;
  isZoneTyped?: boolean | undefined;
}

export interface PreferenceBook {
  /** What applies where nobody set anything (SCHEDULE_TZ, metric, en-GB). */
  readonly defaults: Preferences;
  read(scope: PreferenceScope): Promise<StoredPreferences>;
  /** Sets the given values, clears those given as undefined; the result as stored. */
  write(scope: PreferenceScope, changes: StoredPreferences): Promise<StoredPreferences>;
  forCommand(actor: Actor, channel?: Pick<ChatChannel, 'platform' | 'id'>): Promise<Preferences>;
  forSchedule(post: ScheduledFor): Promise<Preferences>;
}

// The id ends with "/", which no platform id holds: deleting the key by prefix deletes it alone.
function keyOf(scope: PreferenceScope): string {
  const { platform, id } = scope.kind === 'user' ? scope.actor : scope.channel;
  return `prefs:${scope.kind}:${platform}:${id}/`;
}

/** A stored value read back, keeping only what a setting may hold (anything else is dropped). */
function parseStored(text: string | undefined): StoredPreferences {
  if (text === undefined) return {};
  const raw = JSON.parse(text) as Record<string, unknown>;
  const out: StoredPreferences = {};
  for (const key of PREFERENCE_KEYS) if (typeof raw[key] === 'string') out[key] = raw[key];
  if (out.units !== undefined && !(UNIT_CHOICES as readonly string[]).includes(out.units)) delete out.units;
  if (out.language !== undefined && !(LANGUAGES as readonly string[]).includes(out.language))
    delete out.language;
  return out;
}

type Layer = [PreferenceSource, StoredPreferences];

/** Each value from the first layer that has it, else the default. */
function resolve(defaults: Preferences, layers: readonly Layer[]): Preferences {
  const out: Preferences = { ...defaults, from: { ...defaults.from } };
  for (const key of PREFERENCE_KEYS) {
    const hit = layers.find(([, prefs]) => prefs[key] !== undefined);
    if (!hit) continue;
    (out as unknown as Record<PreferenceKey, string>)[key] = hit[1][key]!;
    out.from[key] = hit[0];
  }
  return out;
}

/** What applies where nobody set anything: `timezone` (SCHEDULE_TZ), metric, en-GB, no home place. */
export function defaultPreferences(timezone: string): Preferences {
  const from = { timezone: 'default', units: 'default', language: 'default', home: 'default' } as const;
  return { timezone, ...PREFERENCE_DEFAULTS, from };
}

export function createPreferenceBook(store: KeyValue, env: { timezone: string }): PreferenceBook {
  const defaults = defaultPreferences(env.timezone);
  const read = async (scope: PreferenceScope) => parseStored(await store.getValue(keyOf(scope)));
  const readBoth = (actor: Actor, channel: Pick<ChatChannel, 'platform' | 'id'> | undefined) =>
    Promise.all([read({ kind: 'user', actor }), channel ? read({ kind: 'channel', channel }) : {}]);
  return {
    defaults,
    read,
    async write(scope, changes) {
      const next = { ...(await read(scope)), ...changes };
      for (const key of PREFERENCE_KEYS) if (next[key] === undefined) delete next[key];
      if (Object.keys(next).length === 0) await store.deleteValues(keyOf(scope));
      else await store.setValue(keyOf(scope), JSON.stringify(next));
      return next;
    },
    async forCommand(actor, channel) {
      const [user, chat] = await readBoth(actor, channel);
      return resolve(defaults, [
        ['user', user],
        ['channel', chat],
      ]);
    },
    async forSchedule(post) {
      const [user, chat] = await readBoth(post.creator, parseChannelDestination(post.destination));
      // The home place is a person's; the zone the schedule fires in is the last word on its times.
      const own: StoredPreferences = { timezone: post.timezone };
      const zone: Layer[] = post.isZoneTyped ? [['schedule', own]] : [];
      const channel: Layer = ['channel', { ...chat, home: undefined }];
      const creator: Layer = ['user', user];
      const readers = post.isDirect ? [creator, channel] : [channel, creator];
      return resolve(defaults, [...zone, ...readers, ['schedule', own]]);
    },
  };
}

/** Who runs what: a typed command's invoker and channel, or a scheduled post. */
interface PreferredRun {
  actor: Actor;
  channel?: Pick<ChatChannel, 'platform' | 'id'> | undefined;
  schedule?: ScheduledFor | undefined;
}

/**
 * The one resolution of a run's preferences (the dispatcher calls it once per command); without a
 * book, or when the store fails, the defaults apply and the command still runs.
 */
export async function resolvePreferences(
  at: {
    preferences?: PreferenceBook | undefined;
    defaults: Preferences;
    log: { warn(o: object, m: string): void };
  },
  run: PreferredRun,
): Promise<Preferences> {
  const { preferences: book, defaults, log } = at;
  if (!book) return defaults;
  try {
    return await (run.schedule ? book.forSchedule(run.schedule) : book.forCommand(run.actor, run.channel));
  } catch (err) {
    log.warn({ err }, 'command.preferences_failed');
    return defaults;
  }
}

/**
 * The language the platform gives for the invoker (Discord's interaction locale, Slack's user
 * locale) where nobody chose one with /settings; a locale herald does not write, or one that cannot
 * be read, leaves the default.
 */
export async function withPlatformLanguage(
  prefs: Preferences,
  locale: string | (() => Promise<string | undefined>) | undefined,
): Promise<Preferences> {
  if (prefs.from.language !== 'default' || locale === undefined) return prefs;
  let language;
  try {
    language = languageOfLocale(typeof locale === 'string' ? locale : await locale());
  } catch {
    return prefs;
  }
  if (language === undefined) return prefs;
  return { ...prefs, language, from: { ...prefs.from, language: 'platform' } };
}
