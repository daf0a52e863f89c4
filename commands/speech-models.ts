// Characters per request for each speech model (API-NOTES.md S5 "Models"). Commands may not import
// service values, so this copy must stay equal to the speech client's MODEL_CHARACTER_LIMITS.

export const MODEL_CHARACTER_LIMITS: Readonly<Record<string, number>> = {
  eleven_v3: 5_000,
  eleven_multilingual_v2: 10_000,
  eleven_flash_v2_5: 40_000,
  eleven_turbo_v2_5: 40_000,
  eleven_flash_v2: 30_000,
  eleven_turbo_v2: 30_000,
  eleven_monolingual_v1: 10_000,
  eleven_multilingual_v1: 10_000,
};

/** An unknown model gets the smallest known limit, so a request is never refused for length upstream. */
export const FALLBACK_CHARACTER_LIMIT = Math.min(...Object.values(MODEL_CHARACTER_LIMITS));

export function characterLimitOf(modelId: string): number {
  return Object.hasOwn(MODEL_CHARACTER_LIMITS, modelId)
    ? MODEL_CHARACTER_LIMITS[modelId]!
    : FALLBACK_CHARACTER_LIMIT;
}

/** Characters as a reader counts them: code points, so an emoji or an accented letter is one. */
export function countCharacters(text: string): number {
  return [...text].length;
}
