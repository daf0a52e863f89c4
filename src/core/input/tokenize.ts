// The text grammar of commands, shared by the console and Slack:
// `/name positional "quoted words" key:value key:"multi word"`, and a command line inside it for
// an option that takes one (`/schedule add daily /weather Oslo`). This file only cuts text into
// tokens; binding them to a command's options is bind.ts's job.
import { refusal } from '../../errors.ts';

/** One word of argument text: a positional value, or an option given as `key:value`. */
export interface ArgToken {
  key?: string;
  value: string;
  /** `key:` followed by a space or the end: an option written without its value. */
  hasNoValue?: true;
}

/** Opening quote to closing quote; phones and some desktops type curly quotes. */
const QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '‘': '’' };
const KEY_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** Looks like an IPv6 address (`fe80::1`, `abcd:ef01::2`): a value, not `key:value`. */
const IPV6_LIKE_RE = /^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*(%\S+)?$/i;
const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/u.test(ch);

/** Reads words and quoted runs of one text, left to right. */
class Reader {
  readonly chars: string[];
  i = 0;
  constructor(text: string) {
    this.chars = Array.from(text);
  }

  private readQuoted(open: string): string {
    const { chars } = this;
    const close = QUOTES[open]!;
    let out = '';
    for (this.i += 1; this.i < chars.length; this.i += 1) {
      const ch = chars[this.i]!;
      const next = chars[this.i + 1];
      if (ch === '\\' && (next === close || next === '\\' || next === open)) {
        out += next;
        this.i += 1;
      } else if (ch === close) {
        this.i += 1;
        return out;
      } else {
        out += ch;
      }
    }
    throw refusal((t) => t('input:text.unclosedQuote', { open, close }));
  }

  /** A value: an optional quoted run, then every character up to the next space. */
  readValue(): { value: string; isQuoted: boolean } {
    const open = this.chars[this.i]!;
    let value = '';
    let isQuoted = false;
    if (QUOTES[open] !== undefined) {
      value = this.readQuoted(open);
      isQuoted = true;
    }
    while (this.i < this.chars.length && !isSpace(this.chars[this.i])) value += this.chars[this.i++];
    return { value, isQuoted };
  }

  /** The `key` of `key:…` at the reader, with the index of its colon, or undefined. */
  peekKey(): { key: string; colon: number } | undefined {
    const { chars } = this;
    let j = this.i;
    while (j < chars.length && !isSpace(chars[j]) && chars[j] !== ':' && QUOTES[chars[j]!] === undefined)
      j += 1;
    const key = chars.slice(this.i, j).join('');
    return chars[j] === ':' && KEY_RE.test(key) ? { key, colon: j } : undefined;
  }
}

/** The token for `key:…` at the reader, or undefined when the word is not an option. */
function readOption(reader: Reader): ArgToken | undefined {
  const found = reader.peekKey();
  if (found === undefined) return undefined;
  const { key, colon } = found;
  const after = reader.chars[colon + 1];
  if (after === undefined || isSpace(after)) {
    reader.i = colon + 1;
    return { key, value: '', hasNoValue: true };
  }
  reader.i = colon + 1;
  const { value, isQuoted } = reader.readValue();
  const whole = `${key}:${value}`;
  // `fe80::1` or `http://x` are words that happen to hold a colon.
  if (!isQuoted && (IPV6_LIKE_RE.test(whole) || value.startsWith('//') || value.startsWith(':'))) {
    return { value: whole };
  }
  return { key, value };
}

/**
 * The tokens of `text`, up to a command line when `atCommandLine`: the first word starting with "/"
 * outside quotes that is no `key:value`, returned with the rest of the text as typed. Only the
 * tokens read are checked, so a quote left open in the command line is that line's to refuse.
 */
function cut(text: string, atCommandLine: boolean): { tokens: ArgToken[]; line?: string } {
  const reader = new Reader(text);
  const tokens: ArgToken[] = [];
  while (reader.i < reader.chars.length) {
    if (isSpace(reader.chars[reader.i])) {
      reader.i += 1;
      continue;
    }
    const option = readOption(reader);
    if (option === undefined && atCommandLine && reader.chars[reader.i] === '/') {
      return { tokens, line: reader.chars.slice(reader.i).join('') };
    }
    tokens.push(option ?? { value: reader.readValue().value });
  }
  return { tokens };
}

/** Splits argument text into tokens; an unterminated quote is a UserError. */
export function tokenize(text: string): ArgToken[] {
  return cut(text, false).tokens;
}

/** The tokens before a command line (`"daily" /weather Oslo`), and that line as typed, if any. */
export function tokenizeToCommandLine(text: string): { tokens: ArgToken[]; line?: string } {
  return cut(text, true);
}

/** A console line: optional `/`, the command word, then the argument text. */
export function parseLine(line: string): { name: string; text: string } | undefined {
  const match = /^\s*\/?(\S+)\s*([\s\S]*)$/u.exec(line);
  if (!match || match[1] === '/') return undefined;
  return { name: match[1]!.toLowerCase(), text: match[2]!.trimEnd() };
}
