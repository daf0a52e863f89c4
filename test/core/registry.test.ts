import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCommand, type Command } from '../../src/core/command.ts';
import { isGroup } from '../../src/core/adapter.ts';
import { createRegistry } from '../../src/core/registry.ts';

function command(name: string): Command {
  return defineCommand({
    name,
    description: `The ${name} command`,
    options: z.object({}),
    needs: [],
    handler: async () => ({ text: name }),
  });
}

describe('createRegistry', () => {
  it('finds commands by name, ignoring case and surrounding spaces', () => {
    const registry = createRegistry([command('weather'), command('email send')]);
    expect(registry.get('weather')?.name).toBe('weather');
    expect(registry.get(' Email Send ')?.name).toBe('email send');
    expect(registry.get('forecast')).toBeUndefined();
  });

  it('keeps the list order in commands and in entries', () => {
    const registry = createRegistry([
      command('weather'),
      command('email send'),
      command('help'),
      command('email status'),
    ]);
    expect(registry.commands.map((c) => c.name)).toEqual(['weather', 'email send', 'help', 'email status']);
    expect(registry.entries.map((e) => (isGroup(e) ? `group:${e.name}` : e.name))).toEqual([
      'weather',
      'group:email',
      'help',
    ]);
  });

  it('groups subcommands under their first word', () => {
    const registry = createRegistry([command('email send'), command('email status'), command('weather')]);
    expect(registry.group('email')?.subcommands.map((s) => [s.name, s.command.name])).toEqual([
      ['send', 'email send'],
      ['status', 'email status'],
    ]);
    expect(registry.group('weather')).toBeUndefined();
    expect(registry.get('email')).toBeUndefined();
  });

  it('rejects a duplicate name at startup', () => {
    expect(() => createRegistry([command('weather'), command('help'), command('weather')])).toThrow(
      'duplicate command name "weather"',
    );
  });

  it('rejects a name that is both a command and a group, in either order', () => {
    expect(() => createRegistry([command('email'), command('email send')])).toThrow(
      /both a command and a group/,
    );
    expect(() => createRegistry([command('email send'), command('email')])).toThrow(
      /both a command and a group/,
    );
  });

  it('does not let callers change its list', () => {
    const list = [command('weather')];
    const registry = createRegistry(list);
    list.push(command('help'));
    expect(registry.commands).toHaveLength(1);
    expect(Object.isFrozen(registry.commands)).toBe(true);
  });
});
