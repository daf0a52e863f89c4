// Binds a command's tokens to its option names: `key:value` by name (any case), plain words to
// the positional options in order, the last positional taking every remaining word, and a command
// line to the option that takes one.
import { refusal } from '../../errors.ts';
import type { Command } from '../command.ts';
import { optionSpecs } from '../options.ts';
import { tokenize, tokenizeToCommandLine } from './tokenize.ts';

/** "/jobs what where:… country:…": how the command is typed. */
export function usageOf(command: Command): string {
  const keys = Object.keys(command.options.shape);
  const parts = keys.map((k) => (command.positional.includes(k) ? k : `${k}:…`));
  return `/${command.name}${parts.length > 0 ? ` ${parts.join(' ')}` : ''}`;
}

/** "units:metric": the option written with a value, for the sentence refusing an empty one. */
function exampleOf(command: Command, name: string): string {
  const spec = optionSpecs(command.options).find((s) => s.name === name);
  const fallback = spec?.default;
  const value =
    spec?.choices?.[0] ??
    (typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : '…');
  return `${name}:${value}`;
}

/**
 * Parses a command's argument text into raw option strings. Positional words fill
 * `command.positional` in order; the last positional option takes every remaining word. An option
 * that takes a command line (OptionSpec.commandLine) takes the text from its first word starting
 * with "/" as typed, options and quotes included; only what comes before it is bound here.
 */
export function parseArgs(command: Command, text: string): Record<string, string> {
  const names = Object.keys(command.options.shape);
  const lineOption = optionSpecs(command.options).find((s) => s.commandLine)?.name;
  const { tokens, line } =
    lineOption === undefined ? { tokens: tokenize(text) } : tokenizeToCommandLine(text);
  const out: Record<string, string> = {};
  const words: string[] = [];
  for (const token of tokens) {
    const name =
      token.key === undefined ? undefined : names.find((n) => n.toLowerCase() === token.key!.toLowerCase());
    if (token.key === undefined || (token.hasNoValue && name === undefined)) {
      // "Note:" before a space is a word when the command has no option of that name.
      words.push(token.hasNoValue ? `${token.key}:` : token.value);
      continue;
    }
    if (name === undefined) {
      const values = { command: command.name, key: token.key, names: names.join(', ') };
      throw refusal((t) => t(names.length > 0 ? 'input:text.noOption' : 'input:text.noOptions', values));
    }
    if (token.hasNoValue) {
      const example = exampleOf(command, name);
      throw refusal((t) => t('input:text.noValue', { name, example }));
    }
    if (Object.hasOwn(out, name)) throw refusal((t) => t('input:text.twice', { name }));
    out[name] = token.value;
  }
  if (lineOption !== undefined && line !== undefined) {
    if (Object.hasOwn(out, lineOption)) throw refusal((t) => t('input:text.twice', { name: lineOption }));
    out[lineOption] = line;
  }
  const slots = command.positional.filter((n) => !Object.hasOwn(out, n));
  if (words.length > 0 && slots.length === 0) {
    // Quoted words may hold line breaks; the answer quoting them stays on one line.
    const extra = words.join(' ').replace(/\s+/gu, ' ');
    const shown = extra.length > 40 ? `${extra.slice(0, 39)}…` : extra;
    const values = { command: command.name, shown, usage: usageOf(command) };
    throw refusal((t) => t('input:text.unexpected', values));
  }
  slots.forEach((name, index) => {
    if (index >= words.length) return;
    out[name] = index === slots.length - 1 ? words.slice(index).join(' ') : words[index]!;
  });
  return out;
}
