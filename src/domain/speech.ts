// ElevenLabs' speech models and their characters per request (docs/SERVICES.md S5), checked before a request.

export const MODEL_CHARACTER_LIMITS: Readonly<Record<string, number>> = Object.freeze({
  eleven_v3: 5_000,
  eleven_multilingual_v2: 10_000,
  eleven_flash_v2_5: 40_000,
  eleven_turbo_v2_5: 40_000,
  eleven_flash_v2: 30_000,
  eleven_turbo_v2: 30_000,
  eleven_monolingual_v1: 10_000,
  eleven_multilingual_v1: 10_000,
});

/** The model used when SPEECH_MODEL_ID is not set. */
export const DEFAULT_SPEECH_MODEL_ID = 'eleven_multilingual_v2';

/** An unknown model gets the smallest known limit, so a request is never refused for length upstream. */
const FALLBACK_CHARACTER_LIMIT = Math.min(...Object.values(MODEL_CHARACTER_LIMITS));

export function isKnownSpeechModel(modelId: string): boolean {
  return Object.hasOwn(MODEL_CHARACTER_LIMITS, modelId);
}

export function characterLimitOf(modelId: string): number {
  return isKnownSpeechModel(modelId) ? MODEL_CHARACTER_LIMITS[modelId]! : FALLBACK_CHARACTER_LIMIT;
}

/** Characters as ElevenLabs and a reader count them: code points, so an emoji or an accented letter is one. */
export function countCharacters(text: string): number {
  return [...text].length;
}
