// Slash command text to a command: Slack gives one listener per top-level name (the registry's
// entries), so a group such as /email picks its subcommand by the first word; empty text on a
// command needing arguments gets usage.
import { isGroup, type CommandGroup } from '../../src/core/adapter.ts';
import type { Command } from '../../src/core/command.ts';
import { groupUsageText, needsArguments, usageText } from './usage.ts';

type Routed = { command: Command; rest: string } | { usage: string };

/** The first word of a group's text picks the subcommand; empty text on a command needing arguments asks for them. */
export function route(entry: Command | CommandGroup, text: string): Routed {
  if (!isGroup(entry)) {
    return text === '' && needsArguments(entry) && entry.form === undefined
      ? { usage: usageText(entry) }
      : { command: entry, rest: text };
  }
  const first = text.split(/\s+/, 1)[0] ?? '';
  const sub = entry.subcommands.find((s) => s.name === first.toLowerCase())?.command;
  if (sub) {
    const rest = text.slice(first.length).trim();
    // A command with a form opens it when given nothing.
    return rest === '' && needsArguments(sub) && sub.form === undefined
      ? { usage: usageText(sub) }
      : { command: sub, rest };
  }
  const subs = entry.subcommands.map((s) => s.command);
  return { usage: groupUsageText(entry.name, subs, first === '' ? undefined : first) };
}
