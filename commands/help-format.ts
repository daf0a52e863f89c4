// Pure text for /help, generated from the command definitions: usage lines and option details, in
// the reader's language (src/i18n/help.ts; the descriptions from src/i18n/commands.ts).
import { describeOptions, type Command, type OptionSpec } from '../src/core/command.ts';
import { PREFERENCE_DEFAULTS, type Language } from '../src/domain/preferences.ts';
import {
  menuName,
  optionDescription,
  shownOptionName,
  slashName,
  type NameReader,
} from '../src/i18n/command-text.ts';
import { english, type Translate } from '../src/i18n/translate.ts';
import { formatNumber } from './format.ts';

/** Names as the console shows them: the English, which are the only ones outside Discord. */
const CONSOLE: NameReader = { language: PREFERENCE_DEFAULTS.language, platform: 'console' };

/**
 * "/jobs what [where] [country] [page]": required options bare, optional ones in brackets, named as
 * the reader finds them ("/stellen was [wo] …" on Discord in German).
 */
export function usageLine(command: Command, t: Translate = english, names: NameReader = CONSOLE): string {
  // A message command is not typed: it is found on a message's menu (Discord's Apps, Slack's More actions).
  if (command.onMessage !== undefined) {
    const shown =
      names.platform === 'discord' ? menuName(names.language, command.name, command.onMessage) : undefined;
    return t('help:onMenu', { name: shown ?? command.onMessage });
  }
  const parts = describeOptions(command.options).map((o) => {
    const name = shownOptionName(o.name, names);
    return o.required ? name : `[${name}]`;
  });
  return [slashName(command.name, names), ...parts].join(' ');
}

function bounds(
  t: Translate,
  locale: string,
  min: number | undefined,
  max: number | undefined,
  unit = '',
): string | undefined {
  const n = (value: number) => `${formatNumber(value, 0, locale)}${unit}`;
  if (min !== undefined && min === max) return n(min);
  if (min !== undefined && max !== undefined) return `${formatNumber(min, 0, locale)}–${n(max)}`;
  if (min !== undefined) return t('help:type.atLeast', { n: n(min) });
  if (max !== undefined) return t('help:type.atMost', { n: n(max) });
  return undefined;
}

function typeWords(spec: OptionSpec, t: Translate, locale: string): string {
  if (spec.choices) return t('help:type.oneOf', { values: spec.choices.join(', ') });
  const sized = (word: string) => [word, bounds(t, locale, spec.min, spec.max)].filter(Boolean).join(' ');
  if (spec.type === 'integer') return sized(t('help:type.wholeNumber'));
  if (spec.type === 'number') return sized(t('help:type.number'));
  if (spec.type === 'boolean') return t('help:type.boolean');
  const unit = ` ${t('help:type.characters')}`;
  const length = bounds(t, locale, spec.minLength === 1 ? undefined : spec.minLength, spec.maxLength, unit);
  return length ? `${t('help:type.text')}, ${length}` : t('help:type.text');
}

/** "whole number 1–10, optional, default 5". */
export function describeType(spec: OptionSpec, t: Translate = english, locale = 'en-GB'): string {
  const parts = [typeWords(spec, t, locale), t(spec.required ? 'help:type.required' : 'help:type.optional')];
  const value = spec.default;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    parts.push(t('help:type.default', { value: String(value) }));
  }
  return parts.join(', ');
}

/** Each option's name (as the reader's platform shows it), its type in words and its description. */
export function optionDetails(
  command: Command,
  t: Translate = english,
  language: Language = PREFERENCE_DEFAULTS.language,
  platform: NameReader['platform'] = 'console',
): { name: string; type: string; description: string }[] {
  return describeOptions(command.options).map((spec) => ({
    name: shownOptionName(spec.name, { language, platform }),
    type: describeType(spec, t, language),
    description: optionDescription(language, command.name, spec.name, spec.description, {
      language,
      platform,
    }),
  }));
}

/** How options are typed where there is no form (console, Slack). */
export function syntaxHint(command: Command, t: Translate = english): string | undefined {
  const specs = describeOptions(command.options);
  if (specs.length === 0) return undefined;
  const sample = specs.find((s) => !command.positional.includes(s.name)) ?? specs[0]!;
  const positional =
    command.positional.length > 0 ? ` ${t('help:positional', { names: command.positional.join(', ') })}` : '';
  return `${t('help:syntax', { sample: sample.name })}${positional}`;
}
