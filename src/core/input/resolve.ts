// Which command a name and its text address ("email" with "send to:…" is "email send"), and the
// closest name when there is none, for a "did you mean" hint.
import { refusal } from '../../errors.ts';
import type { CommandRegistry } from '../adapter.ts';
import type { Command } from '../command.ts';

/** The largest edit distance still offered as "did you mean". */
const MAX_SUGGESTION_DISTANCE = 2;

function splitFirstWord(text: string): { word: string; rest: string } {
  const match = /^\s*(\S*)\s*([\s\S]*)$/u.exec(text)!;
  return { word: match[1]!.toLowerCase(), rest: match[2]! };
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
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

/** The known name closest to `wanted`, when it is close enough to be a typo. */
function closestName(wanted: string, names: readonly string[]): string | undefined {
  const scored = names
    .map((name) => ({ name, distance: editDistance(wanted, name) }))
    .filter((s) => s.distance <= MAX_SUGGESTION_DISTANCE)
    .sort((a, b) => a.distance - b.distance);
  return scored[0]?.name;
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
  const group = registry.group(wanted);
  if (group) {
    const list = group.subcommands.map((s) => `/${s.command.name}`).join(', ');
    const { word, rest } = splitFirstWord(text);
    const sub = group.subcommands.find((s) => s.name === word)?.command;
    if (sub) return { command: sub, rest };
    if (word === '')
      throw refusal((t) => t('input:command.needsSubcommand', { wanted, list }), 'unknown_command');
    throw refusal((t) => t('input:command.noSubcommand', { wanted, word, list }), 'unknown_command');
  }
  const names = registry.entries.map((e) => e.name);
  const close = closestName(wanted, names);
  throw refusal(
    (t) => (close ? t('input:command.noneClose', { wanted, close }) : t('input:command.none', { wanted })),
    'unknown_command',
  );
}
