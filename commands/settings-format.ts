// The replies of /settings: what applies and where each value comes from, and what one person or
// channel set.
import type { Reply } from '../src/core/reply.ts';
import type {
  PreferenceKey,
  PreferenceSource,
  Preferences,
  StoredPreferences,
} from '../src/core/preferences.ts';
import { quote } from './format.ts';

/** Each setting's words, and the option that sets it. */
const SETTINGS: readonly { key: PreferenceKey; label: string; option: string }[] = [
  { key: 'timezone', label: 'Time zone', option: 'tz' },
  { key: 'units', label: 'Units', option: 'units' },
  { key: 'language', label: 'Language', option: 'language' },
  { key: 'home', label: 'Home place', option: 'home' },
];

const SOURCE_WORDS: Readonly<Record<PreferenceSource, string>> = {
  typed: 'typed',
  user: 'yours',
  channel: "this channel's",
  schedule: "the schedule's",
  platform: 'your Discord or Slack language',
  default: 'the default',
};

/** Each setting as a line's two halves: its label, and its value with where it came from. */
function applying(prefs: Preferences): { name: string; value: string }[] {
  return SETTINGS.map(({ key, label, option }) => {
    const value = prefs[key];
    if (value === undefined) return { name: label, value: `none (set one with /settings ${option}:Oslo)` };
    const from = prefs.from[key];
    const env = key === 'timezone' && from === 'default' ? ', SCHEDULE_TZ' : '';
    return { name: label, value: `${value} (${SOURCE_WORDS[from]}${env})` };
  });
}

/** `/settings` alone, or after a change (`lead`): every value that applies here and where it comes from. */
export function appliesReply(prefs: Preferences, lead?: string): Reply {
  const fields = applying(prefs);
  return {
    text: [lead ?? 'What applies to your commands here:', ...fields.map((f) => `${f.name}: ${f.value}`)].join(
      '\n',
    ),
    embeds: [
      {
        title: 'Your settings',
        color: lead ? 'success' : 'info',
        ...(lead ? { description: lead } : {}),
        fields: fields.map((f) => ({ ...f, inline: true })),
        footer: 'Yours first, then this channel’s, then the default; an option you type wins over all.',
      },
    ],
    ephemeral: true,
  };
}

/** What a channel set (`scope:channel`), each value or "not set". */
export function channelReply(name: string, stored: StoredPreferences, lead?: string): Reply {
  const lines = SETTINGS.filter((s) => s.key !== 'home').map(
    ({ key, label }) => `${label}: ${stored[key] ?? 'not set'}`,
  );
  return {
    text: [lead ?? `What ${name} set:`, ...lines].join('\n'),
    ephemeral: true,
  };
}

/** The one sentence a change answers with. */
export function changedLead(changes: StoredPreferences, whose: string): string {
  const parts = SETTINGS.filter(({ key }) => key in changes).map(({ key, label }) => {
    const value = changes[key];
    return value === undefined ? `${label.toLowerCase()} cleared` : `${label.toLowerCase()} ${quote(value)}`;
  });
  return `Saved ${whose}: ${parts.join(', ')}.`;
}
