// herald's own check of a slash command's names before `npm run register` sends them
// (adapters/discord/command-names.ts): the same refusals as Discord's (fake-commands.test.ts shows
// the fake Discord making them), named in one sentence with the name at fault.
import { describe, expect, it } from 'vitest';
import { namingProblem } from '../../../adapters/discord/command-names.ts';
import { commandChars } from '../../../adapters/discord/commands.ts';

const option = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 3,
  name,
  description: 'd',
  ...extra,
});
const weather = (options: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 1,
  name: 'weather',
  description: 'Current weather',
  options,
  ...extra,
});

describe('herald’s check of Discord command names', () => {
  it('takes lower-case names in any script, with hyphens and apostrophes, localized or not', () => {
    const ok = weather([option('city', { name_localizations: { de: 'stadt', fr: 'ville' } })], {
      name_localizations: { de: 'wetter', fr: 'météo', hi: 'मौसम' },
    });
    expect(namingProblem(ok)).toBeUndefined();
    expect(namingProblem(weather([option("aujourd'hui"), option('pro-seite')]))).toBeUndefined();
  });

  it.each([
    ['capitals', weather([], { name_localizations: { de: 'Wetter' } }), /"Wetter" is not in lower case/],
    ['a space', weather([], { name_localizations: { fr: 'la météo' } }), /"la météo" is not a valid name/],
    ['a slash', weather([option('city', { name_localizations: { de: 'ort/stadt' } })]), /"ort\/stadt"/],
    ['33 characters', weather([], { name_localizations: { de: 'w'.repeat(33) } }), /not a valid name/],
    ['an empty name', weather([option('')]), /not a valid name/],
  ])('refuses a name with %s', (_what, command, message) => {
    expect(namingProblem(command)).toMatch(message);
  });

  it('refuses a localized option name that another option of the command has', () => {
    const sameInLocale = weather([
      option('city', { name_localizations: { de: 'ort' } }),
      option('place', { name_localizations: { de: 'ort' } }),
    ]);
    expect(namingProblem(sameInLocale)).toMatch(/the de name "ort" of option place/);
    const otherDefault = weather([option('city'), option('place', { name_localizations: { fr: 'city' } })]);
    expect(namingProblem(otherDefault)).toMatch(/the fr name "city" of option place/);
    // The same word in two locales, or in two subcommands, is no clash.
    const fine = weather([option('city', { name_localizations: { de: 'ort', fr: 'ort' } })]);
    expect(namingProblem(fine)).toBeUndefined();
  });

  it('refuses a localized option name inside a subcommand', () => {
    const group = {
      type: 1,
      name: 'email',
      description: 'Email',
      options: [
        {
          type: 1,
          name: 'send',
          description: 'Send',
          options: [option('to'), option('subject', { name_localizations: { de: 'to' } })],
        },
      ],
    };
    expect(namingProblem(group)).toMatch(/send: the de name "to" of option subject/);
  });

  it('refuses a choice whose localized name is over 100 characters', () => {
    const choices = [{ name: 'metric', name_localizations: { de: 'm'.repeat(101) }, value: 'metric' }];
    expect(namingProblem(weather([option('units', { choices })]))).toMatch(/choice name "m+" is not 1-100/);
  });
});

describe('herald’s count of the 8,000 characters', () => {
  it('counts a name at its longest localization, as Discord does', () => {
    const english = weather([option('city')]);
    const localized = weather([option('city', { name_localizations: { de: 'stadt', fr: 'ville' } })], {
      name_localizations: { de: 'wetter', fr: 'météo' },
    });
    expect(commandChars(localized) - commandChars(english)).toBe('stadt'.length - 'city'.length);
    const long = weather([option('city', { name_localizations: { de: 'ortschaft-oder-stadt' } })]);
    expect(commandChars(long) - commandChars(english)).toBe('ortschaft-oder-stadt'.length - 'city'.length);
  });
});
