// The catalogue's `commands` area agrees with the definitions: every command's and option's
// name and description has its German and French (a definition changed without its catalogue entry
// would fall back to English, and this test names it).
import { describe, expect, it } from 'vitest';
import { buildCommands } from '../../commands/index.ts';
import { describeOptions } from '../../src/core/command.ts';
import {
  choiceName,
  commandDescription,
  commandWord,
  menuName,
  optionDescription,
  optionName,
  slashName,
} from '../../src/i18n/command-text.ts';
import { discordNames } from '../../src/i18n/discord-names.ts';

const commands = buildCommands({
  access: { emailUsers: [], emailRoles: [], emailDomains: [], hostUsers: [], hostRoles: [] },
  limits: { perUserPerMinute: 10, sayDailyChars: 2000 },
  speechModelId: 'eleven_multilingual_v2',
  jobsCountry: 'gb',
  schedules: {} as never,
  preferences: {} as never,
});

describe('the commands area of the catalogue', () => {
  it('translates every command’s and option’s description into German and French', () => {
    const untranslated: string[] = [];
    for (const command of commands) {
      const texts = [
        [
          command.name,
          command.description,
          (l: 'de' | 'fr') => commandDescription(l, command.name, command.description),
        ],
        ...describeOptions(command.options).map(
          (o) =>
            [
              `${command.name} ${o.name}`,
              o.description,
              (l: 'de' | 'fr') => optionDescription(l, command.name, o.name, o.description),
            ] as const,
        ),
      ] as const;
      for (const [where, english, translate] of texts)
        for (const language of ['de', 'fr'] as const)
          if (translate(language) === english) untranslated.push(`${where} (${language})`);
    }
    expect(untranslated).toEqual([]);
  });

  it('writes a configured number in the language’s own way', () => {
    expect(optionDescription('de', 'say', 'text', 'The text to speak (at most 2,000 characters)')).toBe(
      'Der zu sprechende Text (höchstens 2.000 Zeichen)',
    );
  });

  it('names Read aloud on the message menu in each language', () => {
    expect(menuName('de', 'read-aloud', 'Read aloud')).toBe('Vorlesen');
    expect(menuName('fr', 'read-aloud', 'Read aloud')).toBe('Lire à voix haute');
  });
});

describe('the names of the commands area', () => {
  // What Discord's picker shows: slash commands and their options (a message command has none).
  const slash = commands.filter((c) => c.onMessage === undefined);
  const words = new Set(
    slash.flatMap((c) => c.name.split(' ').map((_, i, all) => all.slice(0, i + 1).join(' '))),
  );
  const options = new Set(slash.flatMap((c) => describeOptions(c.options).map((o) => o.name)));
  const choices = new Set(slash.flatMap((c) => describeOptions(c.options).flatMap((o) => o.choices ?? [])));
  const english = discordNames['en-GB'];

  it('names exactly the definitions’ commands, subcommands, options and choices, in their English (a subcommand by its own word)', () => {
    const same = (map: Record<string, string>) =>
      Object.entries(map).filter(([k, v]) => k.split(' ').at(-1) !== v);
    expect([...same(english.commands), ...same(english.options), ...same(english.choices)]).toEqual([]);
    expect(Object.keys(english.commands).sort()).toEqual([...words].sort());
    expect(Object.keys(english.options).sort()).toEqual([...options].sort());
    expect(Object.keys(english.choices).sort()).toEqual([...choices].sort());
  });

  it('gives every command and subcommand a German and a French name', () => {
    const untranslated = [...words].flatMap((word) =>
      (['de', 'fr'] as const)
        .filter((l) => commandWord(l, word) === word.split(' ').at(-1))
        .map((l) => `${word} (${l})`),
    );
    expect(untranslated).toEqual([]);
  });

  it('writes a command as the reader finds it: localized on Discord, English on Slack and the console', () => {
    expect(slashName('schedule list', { language: 'de', platform: 'discord' })).toBe('/zeitplan liste');
    expect(slashName('weather', { language: 'fr', platform: 'discord' })).toBe('/météo');
    expect(slashName('schedule list', { language: 'de', platform: 'slack' })).toBe('/schedule list');
    expect(slashName('weather', { language: 'en-GB', platform: 'discord' })).toBe('/weather');
    expect(optionName('de', 'city')).toBe('stadt');
    expect(choiceName('fr', 'yes')).toBe('oui');
  });

  it('writes a command a description names as the reader finds it', () => {
    const voices = 'List the voices /say can use';
    expect(commandDescription('de', 'voices', voices, { language: 'de', platform: 'discord' })).toBe(
      'Listet die Stimmen, die /sprechen verwenden kann',
    );
    expect(commandDescription('de', 'voices', voices, { language: 'de', platform: 'slack' })).toBe(
      'Listet die Stimmen, die /say verwenden kann',
    );
    const id = 'The schedule id, as /schedule list shows it';
    expect(optionDescription('fr', 'schedule run', 'id', id, { language: 'fr', platform: 'discord' })).toBe(
      "L'identifiant de la planification, tel que /planification liste l'affiche",
    );
  });
});
