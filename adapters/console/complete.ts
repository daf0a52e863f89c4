// Tab completion for the interactive console, pure: command names (with or without the leading
// slash, subcommands of a group), then the command's option names (`units:`) and, after `name:`,
// the values an option allows (an enum's choices, true/false). Everything comes from the command
// definitions through describeOptions, the description every adapter uses.
import type { CommandRegistry } from '../../src/core/adapter.ts';
import { describeOptions, type Command, type OptionSpec } from '../../src/core/command.ts';

/** readline's completer result: the candidates, and the part of the line they replace. */
type Completion = [hits: string[], replaced: string];

function valuesOf(spec: OptionSpec): readonly string[] {
  if (spec.choices) return spec.choices;
  return spec.type === 'boolean' ? ['true', 'false'] : [];
}

/** The command a line names and the words after it, or undefined while the name is incomplete. */
function commandOf(
  registry: CommandRegistry,
  words: readonly string[],
): { command: Command; used: number } | undefined {
  const first = words[0]?.replace(/^\//, '').toLowerCase() ?? '';
  const single = registry.get(first);
  if (single) return { command: single, used: 1 };
  const sub = words[1]?.toLowerCase();
  if (sub === undefined || words.length < 3) return undefined;
  const grouped = registry.get(`${first} ${sub}`);
  return grouped ? { command: grouped, used: 2 } : undefined;
}

function completeName(registry: CommandRegistry, words: readonly string[], partial: string): Completion {
  if (words.length === 0) {
    const hasSlash = partial.startsWith('/');
    const typed = partial.replace(/^\//, '').toLowerCase();
    const tops = registry.entries.map((e) => e.name);
    const hits = tops.filter((n) => n.startsWith(typed)).map((n) => (hasSlash ? `/${n}` : n));
    return [hits, partial];
  }
  // The second word of a group: "email s" → "send", "status".
  const group = registry.group(words[0]!.replace(/^\//, ''));
  const hits = (group?.subcommands ?? [])
    .map((s) => s.name)
    .filter((sub) => sub.startsWith(partial.toLowerCase()));
  return [hits, partial];
}

function completeOption(command: Command, given: readonly string[], partial: string): Completion {
  const specs = describeOptions(command.options);
  const colon = partial.indexOf(':');
  if (colon > 0) {
    const key = partial.slice(0, colon);
    const spec = specs.find((s) => s.name === key);
    const typed = partial.slice(colon + 1).toLowerCase();
    const hits = spec ? valuesOf(spec).filter((v) => v.toLowerCase().startsWith(typed)) : [];
    return [hits.map((v) => `${key}:${v}`), partial];
  }
  const used = new Set(given.map((word) => word.split(':')[0]));
  const hits = specs.filter((s) => !used.has(s.name) && s.name.startsWith(partial)).map((s) => `${s.name}:`);
  return [hits, partial];
}

/** Completes the last word of `line`; no candidates inside an open quote or after an unknown command. */
export function completeLine(registry: CommandRegistry, line: string): Completion {
  const quotes = line.match(/["“”]/g)?.length ?? 0;
  if (quotes % 2 === 1) return [[], line];
  const words = line.trimStart().split(/\s+/);
  const partial = /\s$/.test(line) ? '' : (words.pop() ?? '');
  if (partial === '' && words.length > 0 && words.at(-1) === '') words.pop();
  const found = commandOf(registry, [...words, partial]);
  if (found && found.used <= words.length) {
    return completeOption(found.command, words.slice(found.used), partial);
  }
  if (words.length <= 1) return completeName(registry, words, partial);
  return [[], partial];
}
