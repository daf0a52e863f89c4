// Turns the first zod issue of a command's input into one English sentence that names the option
// and the rule it broke; zod's own default texts ("Invalid input", "Too big") never reach a user.
import type { z } from 'zod';
import type { Command } from '../command.ts';
import { optionSpecs } from '../options.ts';
import { usageOf } from './bind.ts';

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
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: 'an email address',
  url: 'a URL',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  uuid: 'a UUID',
  datetime: 'a date and time such as 2025-01-31T09:00:00Z',
  date: 'a date such as 2025-01-31',
};
const EXPECTED: Readonly<Record<string, string>> = {
  number: 'must be a number',
  int: 'must be a whole number',
  boolean: 'must be true or false',
  string: 'must be text',
};

function bound(issue: Issue, word: 'least' | 'most'): string {
  const n = Number(word === 'least' ? issue.minimum : issue.maximum);
  if (issue.origin === 'string') {
    if (word === 'least' && n === 1) return 'must not be empty';
    const length = typeof issue.input === 'string' ? ` (it has ${Array.from(issue.input).length})` : '';
    return `must be at ${word} ${n} character${n === 1 ? '' : 's'} long${length}`;
  }
  if (issue.origin === 'array') return `must have at ${word} ${n} item${n === 1 ? '' : 's'}`;
  if (issue.inclusive === false) return `must be ${word === 'least' ? 'more' : 'less'} than ${n}`;
  return `must be at ${word} ${n}`;
}

function withoutDot(text: string): string {
  return text.replace(/\.$/, '');
}

/** One sentence naming the option and the rule it broke (never zod's raw text). */
export function sentenceFor(command: Command, issue: Issue): string {
  const name = issue.path.length > 0 ? String(issue.path[0]) : 'the input';
  const spec = optionSpecs(command.options).find((s) => s.name === name);
  const finish = (rule: string): string => `${name} ${rule}.`;
  if (issue.code !== 'invalid_type' && !ZOD_DEFAULT_RE.test(issue.message)) {
    const own = withoutDot(issue.message);
    return /^[a-z]/.test(own) ? finish(own) : `${own}.`;
  }
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) {
        const what = spec?.description ? ` (${withoutDot(spec.description)})` : '';
        return `/${command.name} needs ${name}${what}; usage: ${usageOf(command)}.`;
      }
      const wanted = spec?.type === 'integer' ? 'int' : (issue.expected ?? '');
      return finish(EXPECTED[wanted] ?? 'has the wrong type');
    }
    case 'too_small':
      return finish(bound(issue, 'least'));
    case 'too_big':
      return finish(bound(issue, 'most'));
    case 'invalid_value':
      return finish(`must be one of ${(issue.values ?? []).map(String).join(', ')}`);
    case 'invalid_format': {
      const described = spec?.description ? ` (${withoutDot(spec.description)})` : '';
      return finish(`must be ${FORMAT_NAMES[issue.format ?? ''] ?? `in the expected format${described}`}`);
    }
    case 'not_multiple_of':
      return finish(`must be a multiple of ${issue.divisor}`);
    default:
      return finish('is not valid');
  }
}
