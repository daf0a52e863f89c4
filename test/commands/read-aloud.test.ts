// Read aloud: the message command that speaks a message's words on /say's path (limit, budget, S5).
import { describe, expect, it, vi } from 'vitest';
import { createReadAloudCommand, READ_ALOUD } from '../../commands/read-aloud.ts';
import { timeValue } from '../../src/core/reply.ts';
import { ServiceError, userMessageFor } from '../../src/errors.ts';
import { discordMessageWords } from '../../adapters/discord/message-words.ts';
import { slackMessageWords } from '../../adapters/slack/message-words.ts';
import { userMessage } from '../adapters/discord/fake-discord.ts';
import type { SpeechClient } from '../../src/services/speech/client.ts';
import { createQuotas, createSayCharge, createSayRefund } from '../../src/user-limits.ts';
import { createContext, expectWellFormed, invoke, onlyEmbed, SLACK_MEMBER } from './context.ts';

const MP3 = new Uint8Array([0xff, 0xfb, 0x90, 0x64, ...new Array<number>(1020).fill(0)]);

function fakeSpeech(
  synthesize: SpeechClient['synthesize'] = async () => ({ bytes: MP3, contentType: 'audio/mpeg' }),
) {
  return {
    synthesize: vi.fn<SpeechClient['synthesize']>(synthesize),
    voices: vi.fn<SpeechClient['voices']>(async () => []),
    close: vi.fn(async () => {}),
  } satisfies SpeechClient;
}

describe('Read aloud', () => {
  it('is a message command named for the menu, not a slash command', () => {
    const command = createReadAloudCommand({ modelId: 'eleven_multilingual_v2' });
    expect(command.onMessage).toBe(READ_ALOUD);
    expect(command.needs).toEqual(['speech']);
  });

  it('speaks the words with the default voice and model and answers with read-aloud.mp3', async () => {
    const speech = fakeSpeech();
    const command = createReadAloudCommand({ modelId: 'eleven_multilingual_v2' });
    const reply = await invoke(
      command,
      { text: 'Ada, the deploy is done.' },
      createContext({ services: { speech } }),
    );
    expect(speech.synthesize).toHaveBeenCalledWith(
      { text: 'Ada, the deploy is done.', modelId: 'eleven_multilingual_v2' },
      { signal: expect.any(AbortSignal) },
    );
    expectWellFormed(reply);
    expect(reply.attachments).toEqual([
      { filename: 'read-aloud.mp3', contentType: 'audio/mpeg', bytes: MP3 },
    ]);
    expect(reply.text).toBe('Spoke 24 characters as the default voice (read-aloud.mp3, 1.0 KiB).');
    expect(onlyEmbed(reply).description).toBe('Ada, the deploy is done.');
  });

  it("speaks the message's times (time values from the adapter) in the reader's zone", async () => {
    const speech = fakeSpeech();
    const command = createReadAloudCommand({ modelId: 'eleven_multilingual_v2' });
    const ctx = createContext({ services: { speech } });
    const at = new Date('2026-11-29T13:00:00Z');
    const text = `Deploy at ${timeValue(at, 'UTC')}.`;
    await command.handler({ text }, { ...ctx, preferences: { ...ctx.preferences, timezone: 'Asia/Tokyo' } });
    expect(speech.synthesize).toHaveBeenCalledWith(
      { text: 'Deploy at Sun, 29 Nov 2026, 22:00 GMT+9.', modelId: 'eleven_multilingual_v2' },
      { signal: expect.any(AbortSignal) },
    );
  });

  it("refuses a message over the model's limit in one sentence naming the limit, before any request", async () => {
    const speech = fakeSpeech();
    const command = createReadAloudCommand({ modelId: 'eleven_v3' });
    const failure = invoke(command, { text: 'a'.repeat(5_001) }, createContext({ services: { speech } }));
    await expect(failure).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(failure).rejects.toThrow(
      'That message has 5,001 characters to read, and Read aloud takes at most 5,000 (the limit of the speech model eleven_v3).',
    );
    expect(speech.synthesize).not.toHaveBeenCalled();
  });

  it('says a message without words has nothing to read, without charging or calling S5', async () => {
    const speech = fakeSpeech();
    const charge = vi.fn(async () => undefined);
    const command = createReadAloudCommand({ modelId: 'eleven_multilingual_v2', charge });
    await expect(invoke(command, { text: '  ' }, createContext({ services: { speech } }))).rejects.toThrow(
      'That message has no text to read aloud.',
    );
    expect(charge).not.toHaveBeenCalled();
    expect(speech.synthesize).not.toHaveBeenCalled();
  });

  it("charges the invoker's /say budget, refuses past it, and refunds a failed synthesis", async () => {
    const now = () => new Date('2026-11-29T12:00:00Z');
    const quotas = createQuotas({ perUserPerMinute: 100, sayDailyChars: 30, now });
    const failing = fakeSpeech(async () => {
      throw new ServiceError({ service: 'speech', operation: 'synthesize', code: 'unavailable' });
    });
    const settings = {
      modelId: 'eleven_multilingual_v2',
      charge: createSayCharge(quotas, now),
      refund: createSayRefund(quotas, now),
    };
    const command = createReadAloudCommand(settings);
    const ctx = () => createContext({ services: { speech: failing }, actor: SLACK_MEMBER });
    await expect(invoke(command, { text: 'twenty characters!!!' }, ctx())).rejects.toMatchObject({
      code: 'unavailable',
    });
    // Refunded: the whole budget is there again.
    const speech = fakeSpeech();
    await invoke(
      command,
      { text: 'twenty characters!!!' },
      createContext({ services: { speech }, actor: SLACK_MEMBER }),
    );
    const over = invoke(
      command,
      { text: 'eleven more' },
      createContext({ services: { speech }, actor: SLACK_MEMBER }),
    );
    await expect(over).rejects.toThrow(
      'That needs 11 characters, but your /say budget has 10 left today; it resets at midnight UTC.',
    );
    expect(speech.synthesize).toHaveBeenCalledTimes(1);
  });
});

describe('Read aloud in the reader’s language', () => {
  it('says the words the reader could not name, and the times, in German, and answers in German', async () => {
    const speech = fakeSpeech();
    const command = createReadAloudCommand({ modelId: 'eleven_multilingual_v2' });
    const at = new Date('2026-11-29T13:00:00Z');
    // As the Discord adapter writes an unresolved mention, a role, a link and a time.
    const text = discordMessageWords(
      userMessage(
        `<@${'1'.repeat(18)}> <@&${'2'.repeat(18)}> see https://www.example.com/x at <t:${at.getTime() / 1000}:f>`,
      ),
    );
    const reply = await invoke(command, { text }, createContext({ services: { speech }, language: 'de' }));
    expect(speech.synthesize).toHaveBeenCalledWith(
      {
        text: 'jemand eine Rolle see ein Link zu example.com at So., 29. Nov. 2026, 13:00 UTC.',
        modelId: 'eleven_multilingual_v2',
      },
      { signal: expect.any(AbortSignal) },
    );
    expect(reply.text).toBe('79 Zeichen gesprochen mit der Standardstimme (read-aloud.mp3, 1,0 KiB).');
  });

  it('says Slack’s placeholder words in French', async () => {
    const speech = fakeSpeech();
    const command = createReadAloudCommand({ modelId: 'eleven_multilingual_v2' });
    const none = { users: new Map<string, string>(), channels: new Map<string, string>() };
    const text = slackMessageWords('<@U123ABC> in <#C123ABC>: <!channel> <mailto:a@b.fr|write>', none);
    await invoke(command, { text }, createContext({ services: { speech }, language: 'fr' }));
    expect(speech.synthesize.mock.calls[0]![0].text).toBe(
      "quelqu'un in un salon: tout le monde dans le salon write.",
    );
  });

  it('refuses a long message and an empty one in French, naming the limit in French numbers', async () => {
    const speech = fakeSpeech();
    const command = createReadAloudCommand({ modelId: 'eleven_v3' });
    const ctx = createContext({ services: { speech }, language: 'fr' });
    const said = async (text: string) =>
      userMessageFor(await invoke(command, { text }, ctx).catch((e: unknown) => e), ctx.t, ctx.locale);
    expect(await said('a'.repeat(5_001))).toBe(
      'Ce message compte 5\u202f001 caractères à lire, et Lire à voix haute en accepte au plus 5\u202f000 (la limite du modèle vocal eleven_v3).',
    );
    expect(await said('  ')).toBe("Ce message n'a pas de texte à lire à voix haute.");
    expect(speech.synthesize).not.toHaveBeenCalled();
  });
});
