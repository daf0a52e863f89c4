import { describe, expect, it, vi } from 'vitest';
import { SHOWN_VOICES, voices } from '../../commands/voices.ts';
import type { SpeechClient, Voice } from '../../src/services/speech/client.ts';
import {
  createContext,
  expectWellFormed,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
} from './context.ts';

const VOICES: Voice[] = [
  {
    id: '21m00Tcm4TlvDq8ikWAM',
    name: 'Rachel',
    category: 'premade',
    labels: {
      accent: 'american',
      description: 'calm',
      age: 'young',
      gender: 'female',
      use_case: 'narration',
    },
    previewUrl:
      'https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3',
  },
  {
    id: 'ThT5KcBeYPX3keUQqHPh',
    name: 'Dorothy',
    category: 'premade',
    labels: { accent: 'british', age: 'young', gender: 'female' },
    previewUrl: undefined,
  },
  { id: 'Xb7hH8MSUJpSbSDYk0k2', name: 'Alice', category: 'cloned', labels: {}, previewUrl: undefined },
];

function fakeSpeech(list: () => Promise<Voice[]>) {
  return {
    synthesize: vi.fn<SpeechClient['synthesize']>(async () => ({
      bytes: new Uint8Array([1]),
      contentType: 'audio/mpeg',
    })),
    voices: vi.fn<SpeechClient['voices']>(() => list()),
    close: vi.fn(async () => {}),
  } satisfies SpeechClient;
}

describe('/voices', () => {
  it('lists the voices by name with category, accent and age, and their ids', async () => {
    const speech = fakeSpeech(async () => VOICES);
    const ctx = createContext({ services: { speech } });
    const reply = await invoke(voices, {}, ctx);

    expect(speech.voices).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('3 voices');
    expect(embed.description!.split('\n')).toEqual([
      'Alice — cloned · `Xb7hH8MSUJpSbSDYk0k2`',
      'Dorothy — premade, british accent, young, female · `ThT5KcBeYPX3keUQqHPh`',
      'Rachel — premade, american accent, young, female, calm · `21m00Tcm4TlvDq8ikWAM`',
    ]);
    expect(reply.text).toBe('3 voices: Alice, Dorothy, Rachel');
  });

  it('shows a bounded number of lines and counts the rest', async () => {
    const many = Array.from({ length: 55 }, (_, i) => ({
      ...VOICES[2]!,
      name: `Voice ${String(i).padStart(2, '0')}`,
    }));
    const reply = await invoke(
      voices,
      {},
      createContext({ services: { speech: fakeSpeech(async () => many) } }),
    );
    const lines = onlyEmbed(reply).description!.split('\n');
    expect(lines).toHaveLength(SHOWN_VOICES + 1);
    expect(lines.at(-1)).toBe('… and 15 more');
    expect(reply.text).toMatch(/^55 voices: Voice 00, .* and 45 more$/);
  });

  it('answers with a warning when the account has no voices', async () => {
    const reply = await invoke(
      voices,
      {},
      createContext({ services: { speech: fakeSpeech(async () => []) } }),
    );
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('speech', 'voices', code);
    const speech = fakeSpeech(() => Promise.reject(error));
    await expect(invoke(voices, {}, createContext({ services: { speech } }))).rejects.toBe(error);
  });
});

describe('/voices in the reader’s language', () => {
  it('lists the voices in German', async () => {
    const ctx = createContext({ services: { speech: fakeSpeech(async () => VOICES) }, language: 'de' });
    const reply = await invoke(voices, {}, ctx);
    expect(reply.text).toBe('3 Stimmen: Alice, Dorothy, Rachel');
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('3 Stimmen');
    expect(embed.description).toContain('Dorothy — premade, Akzent british, young, female');
    expect(embed.footer).toBe('Verwende eine mit /say text voice:<Name oder ID>');
  });

  it('says in French that there are none, and how many more there are beyond the list', async () => {
    const none = await invoke(
      voices,
      {},
      createContext({ services: { speech: fakeSpeech(async () => []) }, language: 'fr' }),
    );
    expect(none.text).toBe("Aucune voix n'est disponible pour herald.");
    const many = Array.from({ length: SHOWN_VOICES + 2 }, (_, i) => ({
      ...VOICES[2]!,
      id: `Xb7hH8MSUJpSbSDYk${String(i).padStart(3, '0')}`,
      name: `Voice ${String(i).padStart(2, '0')}`,
    }));
    const reply = await invoke(
      voices,
      {},
      createContext({ services: { speech: fakeSpeech(async () => many) }, language: 'fr' }),
    );
    expect(reply.text).toMatch(/^42 voix : Voice 00, .*, Voice 09 et 32 de plus$/);
    expect(onlyEmbed(reply).description!.split('\n').at(-1)).toBe('… et 2 de plus');
  });
});
