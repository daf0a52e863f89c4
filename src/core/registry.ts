// The command registry: built once at start-up from commands/index.ts's explicit list. It
// rejects what no platform could register (duplicate names, a name that is both a command and a
// group), so that a bad list fails at start rather than on the first interaction. It is the one
// place that groups subcommands: adapters read `entries` and `group` and never split names.
import type { CommandGroup, CommandRegistry, Subcommand } from './adapter.ts';
import type { Command } from './command.ts';

export type Registry = CommandRegistry;

export function createRegistry(commands: readonly Command[]): Registry {
  const byName = new Map<string, Command>();
  const groups = new Map<string, CommandGroup & { subcommands: Subcommand[] }>();
  const entries: (Command | CommandGroup)[] = [];
  const messageCommands: Command[] = [];
  for (const command of commands) {
    if (byName.has(command.name)) throw new Error(`duplicate command name "${command.name}"`);
    byName.set(command.name, command);
    if (command.onMessage !== undefined) {
      messageCommands.push(command);
      continue;
    }
    const [first, sub] = command.name.split(' ') as [string, string | undefined];
    if (sub === undefined) {
      if (groups.has(first)) throw new Error(`"${first}" is both a command and a group of subcommands`);
      entries.push(command);
      continue;
    }
    if (byName.has(first)) throw new Error(`"${first}" is both a command and a group of subcommands`);
    let group = groups.get(first);
    if (!group) {
      group = { name: first, subcommands: [] };
      groups.set(first, group);
      entries.push(group);
    }
    group.subcommands.push({ name: sub, command });
  }
  const frozen = Object.freeze([...commands]);
  return {
    commands: frozen,
    entries: Object.freeze(entries),
    messageCommands: Object.freeze(messageCommands),
    get: (name) => byName.get(name.trim().toLowerCase()),
    group: (name) => groups.get(name.trim().toLowerCase()),
  };
}
