import { describe, expect, it } from 'vitest';
import * as service from '../../src/services/speech/client.ts';
import { characterLimitOf, countCharacters, MODEL_CHARACTER_LIMITS } from '../../commands/speech-models.ts';

describe('speech models', () => {
  it('gives each model its per-request limit from API-NOTES.md', () => {
    expect(characterLimitOf('eleven_v3')).toBe(5_000);
    expect(characterLimitOf('eleven_multilingual_v2')).toBe(10_000);
    expect(characterLimitOf('eleven_flash_v2_5')).toBe(40_000);
    expect(characterLimitOf('eleven_turbo_v2')).toBe(30_000);
  });

  it('gives an unknown model, or an inherited property name, the smallest limit', () => {
    expect(characterLimitOf('eleven_next')).toBe(5_000);
    expect(characterLimitOf('toString')).toBe(5_000);
  });

  // Commands may not import the service's table, so the copy is checked here once the client has it.
  it.runIf(typeof (service as { MODEL_CHARACTER_LIMITS?: unknown }).MODEL_CHARACTER_LIMITS === 'object')(
    "equals the speech client's MODEL_CHARACTER_LIMITS",
    () => {
      expect(MODEL_CHARACTER_LIMITS).toEqual(service.MODEL_CHARACTER_LIMITS);
    },
  );

  it('counts code points, so emoji and accents count once', () => {
    expect(countCharacters('héllo 🎉')).toBe(7);
  });
});
