import { describe, expect, it, vi } from 'vitest';
import { createSayCommand } from '../../commands/say.ts';
import { UserError, userMessageFor } from '../../src/errors.ts';
import { createQuotas, createSayCharge, createSayRefund } from '../../src/user-limits.ts';
import type { Audio, SpeechClient, Voice } from '../../src/services/speech/client.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { buildDiscordCommands } from '../../adapters/discord/commands.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { MODEL_CHARACTER_LIMITS } from '../../src/domain/speech.ts';
import {
  createContext,
  expectWellFormed,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
  DISCORD_MEMBER,
  SLACK_MEMBER,
} from './context.ts';

// An MPEG-1 Layer III frame header followed by padding: enough to look like an mp3.
const MP3 = new Uint8Array([0xff, 0xfb, 0x90, 0x64, ...new Array<number>(4092).fill(0)]);

const RACHEL: Voice = {
  id: '21m00Tcm4TlvDq8ikWAM',
  name: 'Rachel',
  category: 'premade',
  labels: { accent: 'american', description: 'calm', age: 'young', gender: 'female', use_case: 'narration' },
  previewUrl:
    'https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3',
};
const ADAM: Voice = {
  id: 'pNInz6obpgDQGcFmaJgB',
  name: 'Adam',
  category: 'premade',
  labels: { accent: 'american', age: 'middle aged', gender: 'male' },
  previewUrl: undefined,
};
const RAJ: Voice = {
  id: 'Xb7hH8MSUJpSbSDYk0k2',
  name: 'Raj',
  category: 'cloned',
  labels: {},
  previewUrl: undefined,
};

function fakeSpeech(opts: { audio?: () => Promise<Audio>; voices?: () => Promise<Voice[]> } = {}) {
  return {
    synthesize: vi.fn<SpeechClient['synthesize']>(
      opts.audio ?? (async () => ({ bytes: MP3, contentType: 'audio/mpeg' })),
    ),
    voices: vi.fn<SpeechClient['voices']>(opts.voices ?? (async () => [RACHEL, ADAM, RAJ])),
    close: vi.fn(async () => {}),
  } satisfies SpeechClient;
}

const say = createSayCommand({ modelId: 'eleven_multilingual_v2' });

describe('/say', () => {
  it('answers with the mp3 as say.mp3 and the text inside the embed', async () => {
    const speech = fakeSpeech();
    const ctx = createContext({ services: { speech } });
    const reply = await invoke(say, { text: 'Hello from herald' }, ctx);

    expect(speech.synthesize).toHaveBeenCalledWith(
      { text: 'Hello from herald', modelId: 'eleven_multilingual_v2' },
      { signal: expect.any(AbortSignal) },
    );
    expect(speech.voices).not.toHaveBeenCalled();
    expectWellFormed(reply);
    expect(reply.attachments).toEqual([{ filename: 'say.mp3', contentType: 'audio/mpeg', bytes: MP3 }]);
    expect(onlyEmbed(reply).title).toBe('🔊 Default voice');
    expect(onlyEmbed(reply).description).toBe('Hello from herald');
    expect(onlyEmbed(reply).footer).toBe('eleven_multilingual_v2 · 17 characters · 4.0 KiB');
    expect(reply.text).toBe('Spoke 17 characters as the default voice (say.mp3, 4.0 KiB).');
  });

  it('finds a voice by name in any case, or by id, and speaks with its id', async () => {
    const speech = fakeSpeech();
    const ctx = createContext({ services: { speech } });
    const byName = await invoke(say, { text: 'Hi', voice: 'rachel' }, ctx);
    const byId = await invoke(say, { text: 'Hi', voice: ADAM.id }, ctx);
    expect(speech.synthesize.mock.calls.map((c) => c[0].voiceId)).toEqual([RACHEL.id, ADAM.id]);
    expect(byName.text).toContain('as Rachel');
    expect(onlyEmbed(byName).title).toBe('🔊 Rachel');
    expect(byId.text).toContain('as Adam');
  });

  it('passes an id-shaped voice that is not listed on to the service', async () => {
    const speech = fakeSpeech();
    await invoke(say, { text: 'Hi', voice: 'AZnzlk1XvdvUeBnXmlld' }, createContext({ services: { speech } }));
    expect(speech.synthesize.mock.calls[0]![0].voiceId).toBe('AZnzlk1XvdvUeBnXmlld');
  });

  it('refuses an unknown voice name with a pointer to /voices and no synthesis', async () => {
    const speech = fakeSpeech();
    const failure = invoke(
      say,
      { text: 'Hi', voice: 'Morgan Freeman' },
      createContext({ services: { speech } }),
    );
    await expect(failure).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(failure).rejects.toThrow(
      'There is no voice called “Morgan Freeman”; /voices lists the voices you can use.',
    );
    expect(speech.synthesize).not.toHaveBeenCalled();
  });

  it("refuses text over the model's character limit before any request", async () => {
    const speech = fakeSpeech();
    const v3 = createSayCommand({ modelId: 'eleven_v3' });
    const failure = invoke(
      v3,
      { text: 'a'.repeat(5001), voice: 'Rachel' },
      createContext({ services: { speech } }),
    );
    await expect(failure).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(failure).rejects.toThrow(
      'That text has 5,001 characters; the speech model eleven_v3 takes at most 5,000.',
    );
    expect(speech.synthesize).not.toHaveBeenCalled();
    expect(speech.voices).not.toHaveBeenCalled();
  });

  it('accepts text exactly at the limit, counting an emoji as one character', async () => {
    const speech = fakeSpeech();
    const v3 = createSayCommand({ modelId: 'eleven_v3' });
    await invoke(v3, { text: `${'a'.repeat(4999)}🎉` }, createContext({ services: { speech } }));
    expect(speech.synthesize).toHaveBeenCalledTimes(1);
  });

  it('uses the smallest known limit for a model it does not know', async () => {
    const speech = fakeSpeech();
    const unknown = createSayCommand({ modelId: 'eleven_future_v9' });
    await expect(
      invoke(unknown, { text: 'a'.repeat(5001) }, createContext({ services: { speech } })),
    ).rejects.toThrow(/at most 5,000/);
  });

  it('rejects empty text without calling the service', async () => {
    const speech = fakeSpeech();
    await expect(invoke(say, { text: '   ' }, createContext({ services: { speech } }))).rejects.toMatchObject(
      {
        code: 'invalid_input',
      },
    );
    expect(speech.synthesize).not.toHaveBeenCalled();
  });

  it('treats empty audio as an unreadable answer from the service', async () => {
    const speech = fakeSpeech({
      audio: async () => ({ bytes: new Uint8Array(), contentType: 'audio/mpeg' }),
    });
    await expect(invoke(say, { text: 'Hi' }, createContext({ services: { speech } }))).rejects.toMatchObject({
      service: 'speech',
      code: 'bad_response',
    });
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('speech', 'synthesize', code);
    const speech = fakeSpeech({ audio: () => Promise.reject(error) });
    await expect(invoke(say, { text: 'Hi' }, createContext({ services: { speech } }))).rejects.toBe(error);
  });

  it('lets a voice-list failure through when a voice is named', async () => {
    const error = serviceError('speech', 'voices', 'timeout');
    const speech = fakeSpeech({ voices: () => Promise.reject(error) });
    await expect(
      invoke(say, { text: 'Hi', voice: 'Rachel' }, createContext({ services: { speech } })),
    ).rejects.toBe(error);
    expect(speech.synthesize).not.toHaveBeenCalled();
  });

  describe('budget hooks', () => {
    it('runs extra access checks before anything else', async () => {
      const speech = fakeSpeech();
      const overBudget = () =>
        new UserError({ code: 'rate_limited', message: 'You have used today’s /say budget.' });
      const limited = createSayCommand({ modelId: 'eleven_multilingual_v2', access: [overBudget] });
      // The console operator passes every access check: a member is checked.
      const member = createContext({ services: { speech }, actor: DISCORD_MEMBER });
      await expect(invoke(limited, { text: 'Hi' }, member)).rejects.toThrow(
        'You have used today’s /say budget.',
      );
      expect(speech.synthesize).not.toHaveBeenCalled();
    });

    it('charges the text length to the invoker before synthesis, and stops when refused', async () => {
      const speech = fakeSpeech();
      const charged: [number, string][] = [];
      let left = 10;
      const charging = createSayCommand({
        modelId: 'eleven_multilingual_v2',
        charge: async (chars, ctx) => {
          charged.push([chars, ctx.actor.id]);
          if (chars > left)
            return new UserError({ code: 'rate_limited', message: `Only ${left} characters left today.` });
          left -= chars;
          return undefined;
        },
      });
      const ctx = createContext({ services: { speech }, actor: SLACK_MEMBER });
      await invoke(charging, { text: 'Hello' }, ctx);
      await expect(invoke(charging, { text: 'Hello again' }, ctx)).rejects.toThrow(
        'Only 5 characters left today.',
      );
      expect(charged).toEqual([
        [5, SLACK_MEMBER.id],
        [11, SLACK_MEMBER.id],
      ]);
      expect(speech.synthesize).toHaveBeenCalledTimes(1);
    });
  });

  describe('the daily budget at midnight', () => {
    it('gives a refund back to the day it was charged to, and drops it once that day is over', async () => {
      let now = new Date('2026-11-26T23:59:59Z');
      const clock = () => now;
      const quotas = createQuotas({ perUserPerMinute: 100, sayDailyChars: 1000, now: clock });
      // An unknown voice id gives a 404 only after the charge, once the day has turned.
      const speech = fakeSpeech({
        audio: async () => {
          now = new Date('2026-11-27T00:00:01Z');
          throw serviceError('speech', 'synthesize', 'not_found');
        },
      });
      const budgeted = createSayCommand({
        modelId: 'eleven_multilingual_v2',
        charge: createSayCharge(quotas, clock),
        refund: createSayRefund(quotas, clock),
      });
      const ctx = createContext({ services: { speech }, actor: SLACK_MEMBER });
      const text = 'x'.repeat(850);
      await expect(invoke(budgeted, { text, voice: 'AAAAAAAAAAAAAAAAAAAA' }, ctx)).rejects.toThrow();
      const key = `${SLACK_MEMBER.platform}:${SLACK_MEMBER.id}`;
      // The new day has its own 1,000 characters, not 1,850.
      expect((await quotas.sayChars.consume(key, 0)).remaining).toBe(1000);

      // The same failure within one day gives the characters back to that day.
      now = new Date('2026-11-27T10:00:00Z');
      const sameDay = fakeSpeech({
        audio: () => Promise.reject(serviceError('speech', 'synthesize', 'not_found')),
      });
      const ctx2 = createContext({ services: { speech: sameDay }, actor: SLACK_MEMBER });
      await expect(invoke(budgeted, { text, voice: 'AAAAAAAAAAAAAAAAAAAA' }, ctx2)).rejects.toThrow();
      expect((await quotas.sayChars.consume(key, 0)).remaining).toBe(1000);
    });
  });

  describe('voice autocomplete', () => {
    it('offers voices whose names match the partial, prefix matches first, valued by id', async () => {
      const speech = fakeSpeech();
      const complete = say.autocomplete.voice!;
      const choices = await complete('ra', createContext({ services: { speech } }));
      expect(choices).toEqual([
        { name: 'Rachel (premade, american accent, young, female, calm)', value: RACHEL.id },
        { name: 'Raj (cloned)', value: RAJ.id },
      ]);
      expect((await complete('da', createContext({ services: { speech } }))).map((c) => c.value)).toEqual([
        ADAM.id,
      ]);
    });

    it('offers at most 25 voices', async () => {
      const many = Array.from({ length: 40 }, (_, i) => ({
        ...RAJ,
        id: `voice${String(i).padStart(15, '0')}`,
        name: `Voice ${i}`,
      }));
      const speech = fakeSpeech({ voices: async () => many });
      const choices = await say.autocomplete.voice!('', createContext({ services: { speech } }));
      expect(choices).toHaveLength(25);
    });

    it('offers nothing when speech is not configured', async () => {
      expect(await say.autocomplete.voice!('ra', createContext())).toEqual([]);
    });
  });
});

describe('/say on Discord', () => {
  it("caps the text option's max_length at Discord's 6000, and at the model's limit below it", () => {
    for (const [modelId, limit] of Object.entries(MODEL_CHARACTER_LIMITS)) {
      const [json] = buildDiscordCommands(createRegistry([createSayCommand({ modelId })]));
      const options = (json as { options?: { name: string }[] }).options ?? [];
      const text = options.find((o) => o.name === 'text') as { max_length?: number };
      expect(text.max_length).toBe(Math.min(limit, DISCORD_LIMITS.stringOptionLength));
      expect(text.max_length).toBeLessThanOrEqual(6000);
    }
  });

  it('still takes a text over 6000 characters typed in the console for a long-text model', () => {
    const say = createSayCommand({ modelId: 'eleven_flash_v2_5' });
    const text = 'a'.repeat(7000);
    expect(say.options.safeParse({ text }).success).toBe(true);
  });
});

describe('/say in the reader’s language', () => {
  it('answers in German, with German numbers and sizes', async () => {
    const speech = fakeSpeech();
    const reply = await invoke(
      say,
      { text: 'Hallo von herald' },
      createContext({ services: { speech }, language: 'de' }),
    );
    expect(onlyEmbed(reply).title).toBe('🔊 Standardstimme');
    expect(onlyEmbed(reply).footer).toBe('eleven_multilingual_v2 · 16 Zeichen · 4,0 KiB');
    expect(reply.text).toBe('16 Zeichen gesprochen mit der Standardstimme (say.mp3, 4,0 KiB).');
  });

  it('refuses an unknown voice and a long text in French, and describes voices in French', async () => {
    const speech = fakeSpeech({ voices: async () => [RACHEL] });
    const ctx = createContext({ services: { speech }, language: 'fr' });
    const said = async (input: { text: string; voice?: string }) =>
      userMessageFor(await invoke(say, input, ctx).catch((e: unknown) => e), ctx.t, ctx.locale);
    expect(await said({ text: 'Bonjour', voice: 'Nobody' })).toBe(
      "Il n'y a pas de voix nommée “Nobody” ; /voices liste les voix que vous pouvez utiliser.",
    );
    expect(await said({ text: 'a'.repeat(10_001) })).toBe(
      'Ce texte compte 10\u202f001 caractères ; le modèle vocal eleven_multilingual_v2 en accepte au plus 10\u202f000. Raccourcissez-le et réessayez.',
    );
    expect(speech.synthesize).not.toHaveBeenCalled();
    const choices = await say.autocomplete.voice!('ra', ctx);
    expect(choices[0]!.name).toBe('Rachel (premade, accent american, young, female, calm)');
  });
});
