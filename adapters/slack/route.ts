// Slash command text to a command: Slack gives one listener per top-level name, so a group such
// as /email picks its subcommand by the first word; empty text on a command needing arguments gets usage.
import type { CommandRegistry } from '../../src/core/adapter.ts';
import type { Command } from '../../src/core/command.ts';
import { groupUsageText, needsArguments, usageText } from './usage.ts';

export interface TopLevel {
  name: string;
  command: Command | undefined;
  subcommands: Map<string, Command>;
}

export function topLevels(registry: CommandRegistry): TopLevel[] {
  const byName = new Map<string, TopLevel>();
  for (const command of registry.commands) {
    const [first, sub] = command.name.split(' ') as [string, string | undefined];
    const entry = byName.get(first) ?? { name: first, command: undefined, subcommands: new Map() };
    if (sub === undefined) entry.command = command;
    else entry.subcommands.set(sub, command);
    byName.set(first, entry);
  }
  return [...byName.values()];
}

export type Routed = { command: Command; rest: string } | { usage: string };

/** The first word of a group's text picks the subcommand; empty text on a command needing arguments asks for them. */
export function route(entry: TopLevel, text: string): Routed {
  const first = text.split(/\s+/, 1)[0] ?? '';
  const sub = entry.subcommands.get(first.toLowerCase());
  if (sub) {
    const rest = text.slice(first.length).trim();
    return rest === '' && needsArguments(sub) ? { usage: usageText(sub) } : { command: sub, rest };
  }
  if (entry.command) {
    return text === '' && needsArguments(entry.command)
      ? { usage: usageText(entry.command) }
      : { command: entry.command, rest: text };
  }
  const subs = [...entry.subcommands.values()];
  return { usage: groupUsageText(entry.name, subs, first === '' ? undefined : first) };
}
