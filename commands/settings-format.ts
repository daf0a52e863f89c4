// The replies of /settings: what applies and where each value comes from, and what one person or
// channel set, in the reader's language (src/i18n/settings.ts); values are shown as stored.
import type { Reply } from '../src/core/reply.ts';
import type { PreferenceKey, Preferences, StoredPreferences } from '../src/core/preferences.ts';
import type { Translate } from '../src/i18n/translate.ts';
import { quote } from './format.ts';

/** Each setting, and the option that sets it. */
const SETTINGS: readonly { key: PreferenceKey; option: string }[] = [
  { key: 'timezone', option: 'tz' },
  { key: 'units', option: 'units' },
  { key: 'language', option: 'language' },
  { key: 'home', option: 'home' },
];

/** Each setting as a line's two halves: its label, and its value with where it came from. */
function applying(prefs: Preferences, t: Translate): { name: string; value: string }[] {
  return SETTINGS.map(({ key, option }) => {
    const name = t(`settings:labels.${key}`);
    const value = prefs[key];
    if (value === undefined) return { name, value: t('settings:none', { option }) };
    const from = prefs.from[key];
    const env = key === 'timezone' && from === 'default' ? ', SCHEDULE_TZ' : '';
    return { name, value: `${value} (${t(`settings:sources.${from}`)}${env})` };
  });
}

/** `/settings` alone, or after a change (`lead`): every value that applies here and where it comes from. */
export function appliesReply(prefs: Preferences, t: Translate, lead?: string): Reply {
  const fields = applying(prefs, t);
  return {
    text: [lead ?? t('settings:applies'), ...fields.map((f) => t('settings:line', f))].join('\n'),
    embeds: [
      {
        title: t('settings:title'),
        color: lead ? 'success' : 'info',
        ...(lead ? { description: lead } : {}),
        fields: fields.map((f) => ({ ...f, inline: true })),
        footer: t('settings:footer'),
      },
    ],
    ephemeral: true,
  };
}

/** What a channel set (`scope:channel`), each value or "not set". */
export function channelReply(name: string, stored: StoredPreferences, t: Translate, lead?: string): Reply {
  const lines = SETTINGS.filter((s) => s.key !== 'home').map(({ key }) =>
    t('settings:line', { name: t(`settings:labels.${key}`), value: stored[key] ?? t('settings:notSet') }),
  );
  return {
    text: [lead ?? t('settings:channelSet', { name }), ...lines].join('\n'),
    ephemeral: true,
  };
}

/** The one sentence a change answers with: saved for the reader, or for channel `name`. */
export function changedLead(changes: StoredPreferences, t: Translate, name?: string): string {
  const parts = SETTINGS.filter(({ key }) => key in changes).map(({ key }) => {
    const setting = t(`settings:inLine.${key}`);
    const value = changes[key];
    return value === undefined ? t('settings:cleared', { setting }) : `${setting} ${quote(value)}`;
  });
  const list = parts.join(', ');
  return name === undefined
    ? t('settings:savedForYou', { changes: list })
    : t('settings:savedFor', { name, changes: list });
}
