// The input pipeline's refusals (which command, the text, an option's rule) in the reader's
// language, the English kept for the logs; through the real dispatcher on the console too.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseArgs, readInput, resolveCommand, tokenize } from '../../src/core/args.ts';
import { defineCommand, type Command } from '../../src/core/command.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { userMessageFor } from '../../src/errors.ts';
import { translatorFor } from '../../src/i18n/translate.ts';
import { MANAGER, startWorld } from '../schedule/world.ts';

const geocode = defineCommand({
  name: 'geocode',
  description: 'Find the coordinates of a place, with a map link',
  options: z.object({
    query: z.string().min(1).max(2000).describe('What to look for: a place, an address or a landmark'),
    limit: z.number().int().min(1).max(10).default(5).describe('How many matches to show (1-10)'),
    units: z.enum(['metric', 'imperial']).optional().describe('Units'),
    mail: z.email().optional().describe('Mail'),
  }),
  positional: ['query'],
  needs: [],
  handler: async () => ({ text: 'ok' }),
});
const emailSend = defineCommand({
  name: 'email send',
  description: 'Send',
  options: z.object({ to: z.string().describe('To') }),
  positional: ['to'],
  needs: [],
  handler: async () => ({ text: 'ok' }),
});
const registry = createRegistry([geocode, emailSend] as Command[]);

/** The sentence `fn`'s refusal gives a reader of `language`, and its English message. */
function refusal(
  fn: () => unknown,
  language: 'de' | 'fr',
  locale: string,
): { said: string; english: string } {
  try {
    fn();
  } catch (err) {
    return { said: userMessageFor(err, translatorFor(language), locale), english: (err as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('the input pipeline in German and French', () => {
  it('names an option and the rule it broke, numbers in the reader’s locale', () => {
    const long = 'x'.repeat(2001);
    expect(refusal(() => readInput(geocode, { query: long }), 'de', 'de-DE')).toEqual({
      said: 'query darf höchstens 2.000 Zeichen lang sein (es sind 2.001).',
      english: 'query must be at most 2,000 characters long (it has 2,001).',
    });
    expect(refusal(() => readInput(geocode, { query: 'Oslo', limit: 11 }), 'fr', 'fr-FR').said).toBe(
      'limit doit être au plus 10.',
    );
    expect(refusal(() => readInput(geocode, { query: 'Oslo', units: 'kelvin' }), 'de', 'de-DE').said).toBe(
      'units muss eines von metric, imperial sein.',
    );
    expect(refusal(() => readInput(geocode, { query: 'Oslo', mail: 'nope' }), 'fr', 'fr-FR').said).toBe(
      'mail doit être une adresse e-mail.',
    );
    expect(refusal(() => readInput(geocode, 'Oslo limit:many'), 'de', 'de-DE').said).toBe(
      'limit muss eine ganze Zahl sein.',
    );
  });

  it('asks for a missing option with its description in the reader’s language; usage stays as typed', () => {
    expect(refusal(() => readInput(geocode, {}), 'de', 'de').said).toBe(
      '/geocode braucht query (Wonach gesucht wird: ein Ort, eine Adresse oder ein Wahrzeichen); Aufruf: /geocode query limit:… units:… mail:….',
    );
    expect(refusal(() => readInput(geocode, {}), 'fr', 'fr').english).toBe(
      '/geocode needs query (What to look for: a place, an address or a landmark); usage: /geocode query limit:… units:… mail:….',
    );
  });

  it('refuses the text itself: a quote never closed, an unknown, empty or repeated option', () => {
    expect(refusal(() => tokenize('"Oslo'), 'fr', 'fr').said).toBe(
      'Un guillemet (") n’est jamais fermé ; terminez les mots entre guillemets par ", ou écrivez \\" pour un guillemet littéral.',
    );
    expect(refusal(() => parseArgs(geocode, 'Oslo colour:red'), 'de', 'de').said).toBe(
      '/geocode hat keine Option „colour“; seine Optionen sind query, limit, units, mail (setze Wörter mit „:“ in Anführungszeichen).',
    );
    expect(refusal(() => parseArgs(geocode, 'Oslo limit: 3'), 'fr', 'fr').said).toBe(
      'L’option limit n’a pas de valeur ; écrivez-la limit:5 sans espace après les deux-points, ou omettez-la.',
    );
    expect(refusal(() => parseArgs(geocode, 'Oslo limit:1 limit:2'), 'de', 'de').said).toBe(
      'Die Option limit ist doppelt angegeben.',
    );
  });

  it('refuses an unknown command or subcommand, with its "did you mean"', () => {
    expect(refusal(() => resolveCommand(registry, 'geocod', ''), 'de', 'de').said).toBe(
      'Es gibt keinen Befehl /geocod; meintest du /geocode? /help listet alle auf.',
    );
    expect(refusal(() => resolveCommand(registry, 'email', 'frobnicate'), 'fr', 'fr').said).toBe(
      '/email n’a pas de sous-commande « frobnicate » ; utilisez l’une de /email send.',
    );
  });

  it('reaches a German reader through the dispatcher', async () => {
    const world = await startWorld();
    try {
      await world.type('/settings language:de', MANAGER);
      const reply = await world.type('/settings colour:red', MANAGER);
      expect(reply.text).toMatch(/^\/settings hat keine Option „colour“; seine Optionen sind /);
    } finally {
      await world.close();
    }
  });
});
