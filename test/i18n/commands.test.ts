// The catalogue's `commands` area agrees with the definitions: every command's and option's
// description has its German and French (a definition changed without its catalogue entry would
// fall back to English, and this test names it).
import { describe, expect, it } from 'vitest';
import { buildCommands } from '../../commands/index.ts';
import { describeOptions } from '../../src/core/command.ts';
import { commandDescription, menuName, optionDescription } from '../../src/i18n/command-text.ts';

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
