// The catalogue: every key in every language, each German and French message really translated
// (names and numbers aside, listed below), the same placeholders as the English, and i18next
// filling them.
import { describe, expect, it } from 'vitest';
import { leaves, type Tree } from './leaves.ts';
import { LANGUAGES } from '../../src/domain/preferences.ts';
import { CATALOGUE } from '../../src/i18n/catalogue.ts';
import { defineMessages } from '../../src/i18n/define.ts';
import { commandNames } from '../../src/i18n/command-text.ts';
import { languageOfLocale, translatorFor } from '../../src/i18n/translate.ts';

/** Messages that are rightly the same as the English: a word both languages share. Keep it short. */
const ALLOWED_SAME: ReadonlySet<string> = new Set([
  'errors:window.minute@fr',
  'weather:wind@de',
  'weather:conditions.Tornado@de',
  // GA4's own French names of these metrics.
  'report:metrics.sessions@fr',
  'report:metrics.conversions@fr',
  'report:metrics.transactions@fr',
  // Option names as Discord's French and German clients would name them too.
  'discordNames:options.page@fr',
  'discordNames:options.mode@fr',
  'discordNames:options.text@de',
  'discordNames:options.thread@de',
]);

/** A message's placeholders: values (`{{id}}`) and the commands it names (`{{/schedule list}}`). */
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\/?[\w ]+?)\s*\}\}/g)].map((m) => m[1]).sort();
const isNameOrNumber = (text: string) => !/\p{L}{3,}/u.test(text.replace(/\{\{\s*\/?[\w ]+?\s*\}\}/g, ''));

describe('the catalogue', () => {
  const areas = Object.entries(CATALOGUE) as unknown as [string, Record<string, Tree>][];

  it('holds every key of the English messages in German and French, and no other', () => {
    for (const [area, messages] of areas) {
      const english = [...leaves(messages['en-GB']!).keys()].sort();
      for (const language of LANGUAGES) {
        expect([...leaves(messages[language]!).keys()].sort(), `${area} in ${language}`).toEqual(english);
      }
    }
  });

  it('translates every message: each differs from the English but names, numbers and the few listed', () => {
    const same: string[] = [];
    for (const [area, messages] of areas) {
      const english = leaves(messages['en-GB']!);
      for (const language of ['de', 'fr'] as const) {
        for (const [key, value] of leaves(messages[language]!)) {
          const id = `${area}:${key}@${language}`;
          if (value === english.get(key) && !isNameOrNumber(value) && !ALLOWED_SAME.has(id)) same.push(id);
        }
      }
    }
    expect(same).toEqual([]);
  });

  it('gives each translation exactly the placeholders of its English message', () => {
    for (const [area, messages] of areas) {
      const english = leaves(messages['en-GB']!);
      for (const language of ['de', 'fr'] as const) {
        for (const [key, value] of leaves(messages[language]!)) {
          expect(placeholders(value), `${area}:${key} in ${language}`).toEqual(
            placeholders(english.get(key)!),
          );
        }
      }
    }
  });

  it('names only commands the translator knows in `{{/…}}` (else the placeholder would show raw)', () => {
    const known = new Set(commandNames());
    const unknown = areas.flatMap(([area, messages]) =>
      [...leaves(messages['en-GB']!)].flatMap(([key, text]) =>
        placeholders(text)
          .filter((p) => p!.startsWith('/') && !known.has(p!.slice(1)))
          .map((p) => `${area}:${key} ${p!}`),
      ),
    );
    expect(unknown).toEqual([]);
    expect(translatorFor('de', 'discord')('schedule:refuse.noSuch', { id: 'x' })).toContain(
      '/zeitplan liste',
    );
    expect(translatorFor('de', 'slack')('schedule:refuse.noSuch', { id: 'x' })).toContain('/schedule list');
    expect(translatorFor('fr')('schedule:refuse.noSuch', { id: 'x' })).toContain('/schedule list');
  });

  it('makes a key missing from a translation a type error', () => {
    const defined = defineMessages(
      { greeting: 'Hello', farewell: 'Goodbye' },
      // @ts-expect-error: German lacks `farewell`.
      { de: { greeting: 'Hallo' }, fr: { greeting: 'Bonjour', farewell: 'Au revoir' } },
    );
    expect(Object.keys(defined)).toEqual(['en-GB', 'de', 'fr']);
  });

  it('writes a message with its values and plural form in each language', () => {
    expect(translatorFor('en-GB')('errors:when.seconds', { count: 1 })).toBe('in 1 second');
    expect(translatorFor('de')('errors:when.seconds', { count: 3 })).toBe('in 3 Sekunden');
    expect(translatorFor('fr')('errors:when.seconds', { count: 1 })).toBe('dans 1 seconde');
    expect(translatorFor('de')('errors:service.notFound', { service: 'Wetter' })).toBe(
      'Der Dienst Wetter hat dazu nichts gefunden.',
    );
  });

  it('reads a platform locale as the language herald writes, or none', () => {
    expect(languageOfLocale('de')).toBe('de');
    expect(languageOfLocale('fr-FR')).toBe('fr');
    expect(languageOfLocale('en-US')).toBe('en-GB');
    expect(languageOfLocale('es-ES')).toBeUndefined();
    expect(languageOfLocale(undefined)).toBeUndefined();
  });
});
