// /settings: a person's time zone, units, language and home place, and a channel's time zone, units
// and language (scope:channel, set by schedule admins and the operator). Kept in the store
// (src/core/preferences.ts, which also resolves what applies); `default` clears a value.
import { z } from 'zod';
import type { Actor } from '../src/core/actor.ts';
import { parseChannelDestination, type ChatChannel } from '../src/core/channel.ts';
import { defineCommand, type Command, type CommandContext } from '../src/core/command.ts';
import type {
  PreferenceBook,
  PreferenceScope,
  Preferences,
  StoredPreferences,
} from '../src/core/preferences.ts';
import { CLEAR_WORD, LANGUAGES, UNIT_CHOICES, type Language } from '../src/domain/preferences.ts';
import { refusal } from '../src/errors.ts';
import { translatorFor, type Translate } from '../src/i18n/translate.ts';
import { isScheduleAdmin } from '../src/schedule/visibility.ts';
import { canonicalTimeZone, isTimeZone } from '../src/schedule/when.ts';
import { appliesReply, changedLead, channelReply } from './settings-format.ts';

export interface SettingsCommandOptions {
  book: PreferenceBook;
  /** SCHEDULE_ADMIN_USERS / _ROLES: who may set a channel's values (the operator always may). */
  adminUsers: readonly string[];
  adminRoles: readonly string[];
}

const SCOPE_RE = /^(me|channel|channel:(discord|slack):[A-Za-z0-9]{1,32})$/;

const OPTIONS = z.object({
  tz: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((tz) => tz.toLowerCase() === CLEAR_WORD || isTimeZone(tz), {
      message: 'input:option.tz',
    })
    .optional()
    .describe('Your time zone, IANA: Europe/Berlin (default clears it)'),
  units: z
    .enum([...UNIT_CHOICES, CLEAR_WORD])
    .optional()
    .describe('metric, imperial or standard for /weather and /forecast (default clears it)'),
  language: z
    .enum([...LANGUAGES, CLEAR_WORD])
    .optional()
    .describe('en-GB, de or fr (default clears it)'),
  home: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('Your home place, for /weather and /forecast without a city: "Paris,FR" (default clears it)'),
  scope: z
    .string()
    .trim()
    .regex(SCOPE_RE, { message: 'input:option.scope' })
    .optional()
    .describe('me (default), or channel: this channel’s values, set by schedule admins'),
});

type Input = z.output<typeof OPTIONS>;

/** Whose settings `scope` names; a channel's only where the asker is in one, or for the operator. */
function scopeOf(scope: string | undefined, ctx: CommandContext): PreferenceScope {
  if (scope === undefined || scope === 'me') return { kind: 'user', actor: ctx.actor };
  const named = parseChannelDestination(scope);
  if (named && ctx.actor.isOperator !== true) throw refusal((t) => t('settings:refuse.operatorNames'));
  const channel: ChatChannel | undefined = named ?? ctx.channel;
  if (!channel) throw refusal((t) => t('settings:refuse.console'));
  return { kind: 'channel', channel };
}

function checkChannelAdmin(opts: SettingsCommandOptions, actor: Actor): void {
  if (isScheduleAdmin({ adminUsers: opts.adminUsers, adminRoles: opts.adminRoles }, actor)) return;
  throw refusal((t) => t('settings:refuse.admins', { user: actor.id }), 'forbidden');
}

/** The changes typed, each value as stored (a zone in its IANA spelling), `default` as a clear. */
function changesOf(input: Omit<Input, 'scope'>): StoredPreferences {
  const typed: StoredPreferences = { timezone: input.tz, units: input.units, language: input.language };
  if (input.home !== undefined) typed.home = input.home;
  const changes: StoredPreferences = {};
  for (const [key, value] of Object.entries(typed) as [keyof StoredPreferences, string | undefined][]) {
    if (value === undefined) continue;
    if (value.toLowerCase() === CLEAR_WORD) changes[key] = undefined;
    else changes[key] = key === 'timezone' ? (canonicalTimeZone(value) ?? value) : value;
  }
  return changes;
}

/**
 * The language a reply to a change is written in: the reader asked for the one just set, so it
 * answers at once; one just cleared gives way to what now applies (the channel's, or the default).
 */
function answerLanguage(changes: StoredPreferences, prefs: Preferences, ctx: CommandContext): Translate {
  return 'language' in changes
    ? translatorFor((changes.language as Language | undefined) ?? prefs.language, ctx.actor.platform)
    : ctx.t;
}

export function createSettingsCommand(opts: SettingsCommandOptions): Command {
  const { book } = opts;
  return defineCommand({
    name: 'settings',
    description: 'Your time zone, units, language and home place; a channel’s with scope:channel',
    options: OPTIONS,
    needs: [],
    ephemeral: true,
    changesState: true,
    examples: [
      '/settings',
      '/settings tz:Europe/Berlin units:metric home:Berlin',
      '/settings scope:channel tz:America/New_York units:imperial',
      '/settings home:default',
    ],
    async handler(input, ctx) {
      const { scope: scopeText, ...typed } = input;
      const scope = scopeOf(scopeText, ctx);
      const changes = changesOf(typed);
      const isChange = Object.keys(changes).length > 0;
      const { t } = ctx;
      if (scope.kind === 'user') {
        if (isChange) await book.write(scope, changes);
        const prefs = await book.forCommand(ctx.actor, ctx.channel);
        const say = answerLanguage(changes, prefs, ctx);
        return appliesReply(prefs, say, isChange ? changedLead(changes, say) : undefined);
      }
      const name =
        scopeText === 'channel' ? t('settings:thisChannel') : t('settings:channel', { id: scope.channel.id });
      if (!isChange) return channelReply(name, await book.read(scope), t);
      if ('home' in changes) throw refusal((t) => t('settings:refuse.noHome'));
      checkChannelAdmin(opts, ctx.actor);
      const stored = await book.write(scope, changes);
      return channelReply(name, stored, t, changedLead(changes, t, name));
    },
  });
}
