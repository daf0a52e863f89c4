import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { buildCommands, type CommandSettings } from '../../commands/index.ts';
import { parseLine, readInput, resolveCommand } from '../../src/core/args.ts';
import { defineCommand, describeOptions, type Command, type NeededServices } from '../../src/core/command.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { createContext, SLACK_MEMBER } from './context.ts';
import type { GeocodingClient } from '../../src/services/geocoding/client.ts';
import type { WeatherClient } from '../../src/services/weather/client.ts';

const SETTINGS: CommandSettings = {
  access: {
    emailUsers: ['U04ABCDEF12'],
    emailRoles: [],
    emailDomains: ['example.com'],
    hostUsers: [],
    hostRoles: [],
  },
  limits: { perUserPerMinute: 10, sayDailyChars: 2000 },
  speechModelId: 'eleven_v3',
  jobsCountry: 'de',
};

const byName = (commands: Command[], name: string) => commands.find((c) => c.name === name)!;

describe('buildCommands', () => {
  it('lists every command, help last', () => {
    expect(buildCommands(SETTINGS).map((c) => c.name)).toEqual([
      'weather',
      'forecast',
      'geocode',
      'host',
      'jobs',
      'say',
      'read-aloud',
      'voices',
      'email send',
      'email status',
      'report',
      'help',
    ]);
  });

  it('builds a list the registry accepts: unique names, no command clashing with a group', () => {
    const registry = createRegistry(buildCommands(SETTINGS));
    expect(registry.group('email')?.subcommands.map((s) => s.command.name)).toEqual([
      'email send',
      'email status',
    ]);
  });

  it('declares the services each command needs, and none for /help', () => {
    const needs = Object.fromEntries(buildCommands(SETTINGS).map((c) => [c.name, c.needs]));
    expect(needs).toEqual({
      weather: ['weather'],
      forecast: ['weather'],
      geocode: ['geocoding'],
      host: ['hostscan'],
      jobs: ['jobSearch'],
      say: ['speech'],
      'read-aloud': ['speech'],
      voices: ['speech'],
      'email send': ['email'],
      'email status': ['email'],
      report: ['analytics'],
      help: [],
    });
  });

  it('keeps every definition within what Discord can register', () => {
    for (const command of buildCommands(SETTINGS)) {
      expect(command.description.length, command.name).toBeLessThanOrEqual(100);
      const options = describeOptions(command.options);
      expect(options.length).toBeLessThanOrEqual(25);
      for (const option of options) {
        expect(option.name, `${command.name} ${option.name}`).toMatch(/^[a-z][a-z0-9_-]{0,31}$/);
        expect(option.description.length, `${command.name} ${option.name}`).toBeGreaterThan(0);
        expect(option.description.length, `${command.name} ${option.name}`).toBeLessThanOrEqual(100);
        expect(option.choices?.length ?? 0).toBeLessThanOrEqual(25);
        expect(option.maxLength ?? 0).toBeLessThanOrEqual(6000);
      }
      // Discord requires the required options before the optional ones.
      const required = options.map((o) => o.required);
      expect(required, command.name).toEqual([...required].sort((a, b) => Number(b) - Number(a)));
    }
  });

  it('gives every command at least one example, and every example parses and validates', () => {
    const commands = buildCommands(SETTINGS);
    const registry = createRegistry(commands);
    // A message command (Read aloud) is reached from a message, never typed: it has no example.
    for (const command of commands.filter((c) => c.onMessage === undefined)) {
      expect(command.examples.length, command.name).toBeGreaterThan(0);
      for (const example of command.examples) {
        const line = parseLine(example)!;
        const { command: found, rest } = resolveCommand(registry, line.name, line.text);
        expect(found.name, example).toBe(command.name);
        expect(() => readInput(found, rest), example).not.toThrow();
      }
    }
  });

  it('applies the settings: allowlists, the default job country and the speech model', async () => {
    const commands = buildCommands(SETTINGS);
    const slack = createContext({ actor: SLACK_MEMBER });
    expect(await byName(commands, 'email send').access[0]!(slack)).toBeUndefined();
    expect(await byName(commands, 'email status').access[0]!(slack)).toBeUndefined();
    expect((await byName(commands, 'host').access[0]!(slack))?.code).toBe('forbidden');
    expect(describeOptions(byName(commands, 'say').options)[0]!.description).toContain(
      'at most 5000 characters',
    );
    await expect(
      byName(commands, 'email send').handler(
        { to: 'someone@gmail.com', subject: 'x', body: 'y' },
        createContext({ actor: SLACK_MEMBER }),
      ),
    ).rejects.toThrow('example.com');
  });

  it('marks the private replies ephemeral up front', () => {
    const ephemeral = buildCommands(SETTINGS)
      .filter((c) => c.ephemeral)
      .map((c) => c.name);
    expect(ephemeral).toEqual(['email send', 'email status', 'help']);
  });
});

describe('defineCommand', () => {
  it('infers the handler input from the options schema', () => {
    const command = defineCommand({
      name: 'typed',
      description: 'A command for the type test',
      options: z.object({
        city: z.string().describe('City'),
        units: z.enum(['metric', 'imperial']).default('metric').describe('Units'),
        page: z.number().int().optional().describe('Page'),
      }),
      needs: [],
      handler: async (input) => {
        expectTypeOf(input).toEqualTypeOf<{
          city: string;
          units: 'metric' | 'imperial';
          page?: number | undefined;
        }>();
        return { text: input.city };
      },
    });
    expectTypeOf(command).toEqualTypeOf<
      Command<{ city: string; units: 'metric' | 'imperial'; page?: number | undefined }>
    >();
    expectTypeOf(command.handler).parameter(0).toHaveProperty('units').toEqualTypeOf<'metric' | 'imperial'>();
  });

  it('gives the handler exactly the services it needs, present and typed', () => {
    defineCommand({
      name: 'typed-needs',
      description: 'A command for the needs type test',
      options: z.object({}),
      needs: ['weather', 'geocoding'],
      handler: async (_input, ctx) => {
        expectTypeOf(ctx.services).toEqualTypeOf<{ weather: WeatherClient; geocoding: GeocodingClient }>();
        // @ts-expect-error: a service the command does not need is not in its bag.
        expectTypeOf(ctx.services.email).toBeUnknown();
        return { text: 'ok' };
      },
    });
    defineCommand({
      name: 'no-needs',
      description: 'A command that needs no service',
      options: z.object({}),
      needs: [],
      handler: async (_input, ctx) => {
        expectTypeOf(ctx.services).toEqualTypeOf<NeededServices<never>>();
        expectTypeOf<keyof typeof ctx.services>().toBeNever();
        return { text: 'ok' };
      },
    });
  });
});
