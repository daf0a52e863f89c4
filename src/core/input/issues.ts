// Turns the first zod issue of a command's input into one sentence that names the option and the
// rule it broke, from the catalogue (src/i18n/input.ts); zod's own default texts ("Invalid input", "Too big") never reach a user.
import type { z } from 'zod';
import type { Command } from '../command.ts';
import { optionSpecs } from '../options.ts';
import { usageOf } from './bind.ts';
import { PREFERENCE_DEFAULTS } from '../../domain/preferences.ts';
import { formatNumber } from '../../format.ts';
import { optionDescription } from '../../i18n/command-text.ts';
import { languageOfLocale, type MessageKey, type Translate } from '../../i18n/translate.ts';

/** The fields of zod's issue kinds read here (https://zod.dev/error-customization). */
type Issue = z.core.$ZodIssue & {
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  values?: unknown[];
  format?: string;
  divisor?: number | bigint;
};

const ZOD_DEFAULT_RE = /^(Invalid|Too big|Too small|Unrecognized)/;
const CATALOGUE_KEY_RE = /^[a-z][A-Za-z]*:[A-Za-z]+(\.[A-Za-z]+)*$/;
const FORMATS = ['email', 'url', 'ipv4', 'ipv6', 'uuid', 'datetime', 'date'] as const;
const EXPECTED = ['number', 'int', 'boolean', 'string'] as const;

const isOneOf = <T extends string>(list: readonly T[], value: string | undefined): value is T =>
  list.includes(value as T);

function bound(t: Translate, issue: Issue, word: 'least' | 'most', locale: string): string {
  const count = Number(word === 'least' ? issue.minimum : issue.maximum);
  const limit = formatNumber(count, 0, locale);
  if (issue.origin === 'string') {
    if (word === 'least' && count === 1) return t('input:rule.notEmpty');
    const rule = t(word === 'least' ? 'input:rule.charsAtLeast' : 'input:rule.charsAtMost', { count, limit });
    if (typeof issue.input !== 'string') return rule;
    return t('input:rule.itHas', { rule, length: formatNumber(Array.from(issue.input).length, 0, locale) });
  }
  if (issue.origin === 'array')
    return t(word === 'least' ? 'input:rule.itemsAtLeast' : 'input:rule.itemsAtMost', {
      count,
      limit,
    });
  if (issue.inclusive === false)
    return t(word === 'least' ? 'input:rule.moreThan' : 'input:rule.lessThan', { limit });
  return t(word === 'least' ? 'input:rule.atLeast' : 'input:rule.atMost', { limit });
}

/** A schema's own message may be a catalogue key ("input:option.tz"): then the reader reads it translated. */
function ownMessage(t: Translate, message: string): string {
  return CATALOGUE_KEY_RE.test(message) ? t(message as MessageKey) : message;
}

function withoutDot(text: string): string {
  return text.replace(/\.$/, '');
}

/** The option's description in the reader's language, without its closing dot. */
function describe(
  command: Command,
  name: string,
  english: string | undefined,
  locale: string,
): string | undefined {
  if (!english) return undefined;
  const language = languageOfLocale(locale) ?? PREFERENCE_DEFAULTS.language;
  return withoutDot(optionDescription(language, command.name, name, english));
}

/**
 * One sentence naming the option and the rule it broke (never zod's raw text), in the language of
 * `t`; a message the command's schema wrote itself is passed on as it is.
 */
export function sentenceFor(command: Command, issue: Issue, t: Translate, locale: string): string {
  const name = issue.path.length > 0 ? String(issue.path[0]) : t('input:theInput');
  const spec = optionSpecs(command.options).find((s) => s.name === name);
  const finish = (rule: string): string => t('input:broke', { name, rule });
  if (issue.code !== 'invalid_type' && !ZOD_DEFAULT_RE.test(issue.message)) {
    const own = withoutDot(ownMessage(t, issue.message));
    // A rule ("must be …") follows the option's name; a sentence, or one naming it ("ping: takes …"), stands alone.
    return /^[a-z]/.test(own) && !own.startsWith(`${name}:`) ? finish(own) : `${own}.`;
  }
  const description = describe(command, name, spec?.description, locale);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) {
        const values = { command: command.name, name, usage: usageOf(command) };
        return description === undefined
          ? t('input:needs', values)
          : t('input:needsDescribed', { ...values, description });
      }
      const wanted = spec?.type === 'integer' ? 'int' : issue.expected;
      return finish(isOneOf(EXPECTED, wanted) ? t(`input:rule.${wanted}`) : t('input:rule.wrongType'));
    }
    case 'too_small':
      return finish(bound(t, issue, 'least', locale));
    case 'too_big':
      return finish(bound(t, issue, 'most', locale));
    case 'invalid_value':
      return finish(t('input:rule.oneOf', { values: (issue.values ?? []).map(String).join(', ') }));
    case 'invalid_format': {
      if (isOneOf(FORMATS, issue.format))
        return finish(t('input:rule.format', { format: t(`input:format.${issue.format}`) }));
      return finish(
        description === undefined
          ? t('input:rule.expectedFormat')
          : t('input:rule.expectedFormatDescribed', { description }),
      );
    }
    case 'not_multiple_of':
      return finish(t('input:rule.multipleOf', { divisor: formatNumber(Number(issue.divisor), 0, locale) }));
    default:
      return finish(t('input:rule.notValid'));
  }
}
