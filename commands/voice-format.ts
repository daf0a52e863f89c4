// Finding and describing S5 voices, shared by /say (its voice option and autocomplete) and /voices.
import type { Choice } from '../src/core/command.ts';
import type { SpeechClient, Voice } from '../src/services/speech/client.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';
import type { Translate } from '../src/i18n/translate.ts';
import { truncate } from './format.ts';

/**
 * "premade, american accent, young": the category and the labels people choose by, as the provider
 * writes them; only the word "accent" is the reader's.
 */
export function describeVoice(voice: Voice, t: Translate): string {
  const { accent, age, gender, description } = voice.labels;
  return [voice.category, accent && t('speech:voices.accent', { accent }), age, gender, description]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(', ');
}

/** A voice by id (exact) or by name (any case); undefined when none fits. */
export function findVoice(voices: readonly Voice[], given: string): Voice | undefined {
  const wanted = given.trim();
  const lower = wanted.toLowerCase();
  return voices.find((v) => v.id === wanted) ?? voices.find((v) => v.name.toLowerCase() === lower);
}

/** Autocomplete: names starting with the partial first, then names containing it; value = id. */
export function voiceChoices(voices: readonly Voice[], partial: string, t: Translate): Choice[] {
  const lower = partial.trim().toLowerCase();
  const starts = voices.filter((v) => v.name.toLowerCase().startsWith(lower));
  const contains = voices.filter(
    (v) => !v.name.toLowerCase().startsWith(lower) && v.name.toLowerCase().includes(lower),
  );
  return [...starts, ...contains].slice(0, DISCORD_LIMITS.autocompleteChoices).map((v) => {
    const detail = describeVoice(v, t);
    return { name: truncate(detail ? `${v.name} (${detail})` : v.name, 100, { oneLine: true }), value: v.id };
  });
}

/**
 * The name of the voice with `id` from the (cached) voice list, so a reply names the default
 * voice ("Rachel") rather than calling it "the default voice"; undefined when it cannot be told.
 */
export async function voiceNameOf(
  speech: Pick<SpeechClient, 'voices'>,
  id: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  try {
    return (await speech.voices({ signal })).find((v) => v.id === id)?.name;
  } catch {
    return undefined; // the audio is there; only its voice's name is missing
  }
}
