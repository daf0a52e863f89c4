// The text grammar of commands (DESIGN.md, "Adapters"), shared by the console and Slack:
// `/name positional "quoted words" key:value key:"multi word"`. Text becomes a record of raw
// strings here; the dispatcher coerces and validates it against the command's schema.
import { UserError } from '../errors.ts';
import type { CommandRegistry } from './adapter.ts';
import { describeOptions, type Command, type OptionSpec } from './command.ts';

/** One word of argument text: a positional value, or an option given as `key:value`. */
export interface ArgToken {
  key?: string;
  value: string;
}

/** Opening quote to closing quote; phones and some desktops type curly quotes. */
const QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '‘': '’' };
const KEY_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** Looks like an IPv6 address (`fe80::1`, `abcd:ef01::2`): a value, not `key:value`. */
const IPV6_LIKE_RE = /^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*(%\S+)?$/i;
const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/u.test(ch);

function invalid(message: string): UserError {
  return new UserError({ code: 'invalid_input', message });
}

/** Splits argument text into tokens; an unterminated quote is a UserError. */
export function tokenize(text: string): ArgToken[] {
  const chars = Array.from(text);
  const tokens: ArgToken[] = [];
  let i = 0;

  function readQuoted(open: string): string {
    const close = QUOTES[open]!;
    let out = '';
    for (i += 1; i < chars.length; i += 1) {
      const ch = chars[i]!;
      if (ch === '\\' && (chars[i + 1] === close || chars[i + 1] === '\\' || chars[i + 1] === open)) {
        out += chars[i + 1];
        i += 1;
      } else if (ch === close) {
        i += 1;
        return out;
      } else {
        out += ch;
      }
    }
    throw invalid(
      `A quote (${open}) is never closed; end the quoted words with ${close}, or write \\${open} for a literal one.`,
    );
  }

  function readValue(): { value: string; isQuoted: boolean } {
    const open = chars[i]!;
    let value = '';
    let isQuoted = false;
    if (QUOTES[open] !== undefined) {
      value = readQuoted(open);
      isQuoted = true;
    }
    while (i < chars.length && !isSpace(chars[i])) value += chars[i++];
    return { value, isQuoted };
  }

  while (i < chars.length) {
    if (isSpace(chars[i])) {
      i += 1;
      continue;
    }
    const start = i;
    let j = i;
    while (j < chars.length && !isSpace(chars[j]) && chars[j] !== ':' && QUOTES[chars[j]!] === undefined)
      j += 1;
    const key = chars.slice(start, j).join('');
    if (chars[j] === ':' && KEY_RE.test(key) && j + 1 < chars.length && !isSpace(chars[j + 1])) {
      i = j + 1;
      const { value, isQuoted } = readValue();
      const whole = `${key}:${value}`;
      // `fe80::1` or `http://x` are words that happen to hold a colon.
      if (!isQuoted && (IPV6_LIKE_RE.test(whole) || value.startsWith('//') || value.startsWith(':'))) {
        tokens.push({ value: whole });
      } else {
        tokens.push({ key, value });
      }
      continue;
    }
    i = start;
    tokens.push({ value: readValue().value });
  }
  return tokens;
}

/** A console line: optional `/`, the command word, then the argument text. */
export function parseLine(line: string): { name: string; text: string } | undefined {
  const match = /^\s*\/?(\S+)\s*([\s\S]*)$/u.exec(line);
  if (!match || match[1] === '/') return undefined;
  return { name: match[1]!.toLowerCase(), text: match[2]!.trimEnd() };
}

function splitFirstWord(text: string): { word: string; rest: string } {
  const match = /^\s*(\S*)\s*([\s\S]*)$/u.exec(text)!;
  return { word: match[1]!.toLowerCase(), rest: match[2]! };
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let x = 1; x <= a.length; x += 1) {
    let diagonal = row[0]!;
    row[0] = x;
    for (let y = 1; y <= b.length; y += 1) {
      const above = row[y]!;
      row[y] = Math.min(row[y]! + 1, row[y - 1]! + 1, diagonal + (a[x - 1] === b[y - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function unknownCommand(message: string): UserError {
  return new UserError({ code: 'unknown_command', message });
}

/**
 * Finds the command a name and its text address: "email" with "send to:…" is "email send".
 * Slack hands over the slash command and its text; the console the first word and the rest.
 */
export function resolveCommand(
  registry: CommandRegistry,
  name: string,
  text: string,
): { command: Command; rest: string } {
  const wanted = name.trim().replace(/^\//, '').toLowerCase();
  const direct = registry.get(wanted);
  if (direct) return { command: direct, rest: text };
  const subcommands = registry.commands.filter((c) => c.name.startsWith(`${wanted} `));
  const list = subcommands.map((c) => `/${c.name}`).join(', ');
  if (subcommands.length > 0) {
    const { word, rest } = splitFirstWord(text);
    const sub = word === '' ? undefined : registry.get(`${wanted} ${word}`);
    if (sub) return { command: sub, rest };
    if (word === '') throw unknownCommand(`/${wanted} needs a subcommand: ${list}.`);
    throw unknownCommand(`/${wanted} has no subcommand "${word}"; use one of ${list}.`);
  }
  const names = [...new Set(registry.commands.map((c) => c.name.split(' ')[0]!))];
  const close = names
    .map((n) => ({ n, d: distance(wanted, n) }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d)[0];
  const hint = close ? `did you mean /${close.n}? ` : '';
  throw unknownCommand(`There is no command /${wanted}; ${hint}/help lists them all.`);
}

function usageOf(command: Command): string {
  const keys = Object.keys(command.options.shape);
  const parts = keys.map((k) => (command.positional.includes(k) ? k : `${k}:…`));
  return `/${command.name}${parts.length > 0 ? ` ${parts.join(' ')}` : ''}`;
}

/**
 * Parses a command's argument text into raw option strings. Positional words fill
 * `command.positional` in order; the last positional option takes every remaining word.
 */
export function parseArgs(command: Command, text: string): Record<string, string> {
  const names = Object.keys(command.options.shape);
  const out: Record<string, string> = {};
  const words: string[] = [];
  for (const token of tokenize(text)) {
    if (token.key === undefined) {
      words.push(token.value);
      continue;
    }
    const wanted = token.key.toLowerCase();
    const name = names.find((n) => n.toLowerCase() === wanted);
    if (name === undefined) {
      const valid = names.length > 0 ? `its options are ${names.join(', ')}` : 'it takes no options';
      throw invalid(
        `/${command.name} has no option "${token.key}"; ${valid} (put words holding ":" in quotes).`,
      );
    }
    if (Object.hasOwn(out, name)) throw invalid(`The option ${name} is given twice.`);
    out[name] = token.value;
  }
  const slots = command.positional.filter((n) => !Object.hasOwn(out, n));
  if (words.length > 0 && slots.length === 0) {
    // Quoted words may hold line breaks; the answer quoting them stays on one line.
    const extra = words.join(' ').replace(/\s+/gu, ' ');
    const shown = extra.length > 40 ? `${extra.slice(0, 39)}…` : extra;
    throw invalid(`/${command.name} did not expect "${shown}"; usage: ${usageOf(command)}.`);
  }
  slots.forEach((name, index) => {
    if (index >= words.length) return;
    out[name] = index === slots.length - 1 ? words.slice(index).join(' ') : words[index]!;
  });
  return out;
}

const specCache = new WeakMap<Command, OptionSpec[]>();
function specsOf(command: Command): OptionSpec[] {
  let specs = specCache.get(command);
  if (!specs) {
    specs = describeOptions(command.options);
    specCache.set(command, specs);
  }
  return specs;
}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'y']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'n']);

/** Turns text values into the option's type; anything that does not fit is left for zod to reject. */
function coerce(spec: OptionSpec | undefined, value: string): unknown {
  const text = value.trim();
  switch (spec?.type) {
    case 'integer':
      return /^[+-]?\d+$/.test(text) ? Number(text) : value;
    case 'number':
      return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : value;
    case 'boolean': {
      const word = text.toLowerCase();
      return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : value;
    }
    default:
      return value;
  }
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  values?: unknown[];
  format?: string;
  divisor?: number;
}

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

/** One sentence naming the option and the rule it broke (never zod's raw text). */
function sentenceFor(command: Command, issue: Issue): string {
  const name = issue.path.length > 0 ? String(issue.path[0]) : 'the input';
  const spec = specsOf(command).find((s) => s.name === name);
  const finish = (rule: string): string => `${name} ${rule}.`;
  if (issue.code !== 'invalid_type' && !ZOD_DEFAULT_RE.test(issue.message)) {
    const own = issue.message.replace(/\.$/, '');
    return /^[a-z]/.test(own) ? finish(own) : `${own}.`;
  }
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) {
        const what = spec?.description ? ` (${spec.description.replace(/\.$/, '')})` : '';
        return `/${command.name} needs ${name}${what}; usage: ${usageOf(command)}.`;
      }
      const expected: Record<string, string> = {
        number: 'must be a number',
        int: 'must be a whole number',
        boolean: 'must be true or false',
        string: 'must be text',
      };
      const wanted = spec?.type === 'integer' ? 'int' : (issue.expected ?? '');
      return finish(expected[wanted] ?? 'has the wrong type');
    }
    case 'too_small':
      return finish(bound(issue, 'least'));
    case 'too_big':
      return finish(bound(issue, 'most'));
    case 'invalid_value':
      return finish(`must be one of ${(issue.values ?? []).map(String).join(', ')}`);
    case 'invalid_format':
      return finish(
        `must be ${FORMAT_NAMES[issue.format ?? ''] ?? `in the expected format${spec?.description ? ` (${spec.description.replace(/\.$/, '')})` : ''}`}`,
      );
    case 'not_multiple_of':
      return finish(`must be a multiple of ${issue.divisor}`);
    default:
      return finish('is not valid');
  }
}

/**
 * Converts raw input to a command's options: argument text (console, Slack) is parsed, text
 * values are coerced to the option's type, and the whole is validated by the command's schema.
 */
export function readInput(
  command: Command,
  rawInput: Record<string, unknown> | string,
): Record<string, unknown> {
  const raw: Record<string, unknown> =
    typeof rawInput === 'string' ? (command.readText?.(rawInput) ?? parseArgs(command, rawInput)) : rawInput;
  const specs = specsOf(command);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    values[name] =
      typeof value === 'string'
        ? coerce(
            specs.find((s) => s.name === name),
            value,
          )
        : value;
  }
  const result = command.options.safeParse(values, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0] as Issue | undefined;
  throw invalid(issue ? sentenceFor(command, issue) : `That input is not valid for /${command.name}.`);
}
