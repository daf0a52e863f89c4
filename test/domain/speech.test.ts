import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPEECH_MODEL_ID,
  MODEL_CHARACTER_LIMITS,
  characterLimitOf,
  countCharacters,
} from '../../src/domain/speech.ts';

describe('speech models', () => {
  it('gives each model its documented per-request limit', () => {
    expect(MODEL_CHARACTER_LIMITS).toMatchObject({
      eleven_v3: 5_000,
      eleven_multilingual_v2: 10_000,
      eleven_flash_v2_5: 40_000,
      eleven_turbo_v2_5: 40_000,
      eleven_flash_v2: 30_000,
      eleven_turbo_v2: 30_000,
    });
    expect(characterLimitOf(DEFAULT_SPEECH_MODEL_ID)).toBe(10_000);
  });

  it('gives an unknown model, or an inherited property name, the smallest limit', () => {
    expect(characterLimitOf('eleven_next')).toBe(5_000);
    expect(characterLimitOf('toString')).toBe(5_000);
  });

  it('counts code points, so emoji and accents count once', () => {
    expect(countCharacters('héllo 🎉')).toBe(7);
  });
});
