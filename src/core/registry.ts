// The command registry: built once at start-up from commands/index.ts's explicit list. It
// rejects what no platform could register (duplicate names, a name that is both a command and a
// group), so that a bad list fails at start rather than on the first interaction.
import type { CommandRegistry } from './adapter.ts';
import type { Command } from './command.ts';

/** Commands sharing a first word ("email send", "email status") form the group "email". */
export interface CommandGroup {
  name: string;
  subcommands: readonly Command[];
}

export interface Registry extends CommandRegistry {
  /** Top-level entries in list order: a plain command, or a group of subcommands. */
  readonly entries: readonly (Command | CommandGroup)[];
  /** The group named `name` ("email"), or undefined when it is not a group. */
  group(name: string): CommandGroup | undefined;
}

export function isGroup(entry: Command | CommandGroup): entry is CommandGroup {
  return 'subcommands' in entry;
}

export function createRegistry(commands: readonly Command[]): Registry {
  const byName = new Map<string, Command>();
  const groups = new Map<string, Command[]>();
  const entries: (Command | CommandGroup)[] = [];
  for (const command of commands) {
    if (byName.has(command.name)) throw new Error(`duplicate command name "${command.name}"`);
    byName.set(command.name, command);
    const [first, sub] = command.name.split(' ') as [string, string | undefined];
    if (sub === undefined) {
      if (groups.has(first)) throw new Error(`"${first}" is both a command and a group of subcommands`);
      entries.push(command);
      continue;
    }
    if (byName.has(first)) throw new Error(`"${first}" is both a command and a group of subcommands`);
    let members = groups.get(first);
    if (!members) {
      members = [];
      groups.set(first, members);
      entries.push({ name: first, subcommands: members });
    }
    members.push(command);
  }
  const frozen = Object.freeze([...commands]);
  return {
    commands: frozen,
    entries: Object.freeze(entries),
    get: (name) => byName.get(name.trim().toLowerCase()),
    group: (name) => {
      const members = groups.get(name.trim().toLowerCase());
      return members ? { name: name.trim().toLowerCase(), subcommands: members } : undefined;
    },
  };
}
