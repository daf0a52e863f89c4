// Read aloud: the message command on a message's menu (Discord's Apps menu, Slack's message
// shortcut). The adapter turns the message into words (mentions as names, links as "a link",
// markup gone) and hands them over as `text`; from there it is /say's path: the model's length
// limit, the invoker's daily /say budget, S5, an mp3 reply.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { plainTimes } from '../src/core/reply.ts';
import { characterLimitOf, countCharacters } from '../src/domain/speech.ts';
import { spokenWords } from '../src/message-words.ts';
import { formatNumber } from './format.ts';
import { speakAloud, type SayCommandOptions } from './say.ts';
import { refusal } from '../src/errors.ts';

/** Its name on a message's menu, as Discord and Slack show it. */
export const READ_ALOUD = 'Read aloud';

export function createReadAloudCommand(opts: SayCommandOptions) {
  const limit = characterLimitOf(opts.modelId);
  return defineCommand({
    name: 'read-aloud',
    onMessage: READ_ALOUD,
    description: 'Read a message aloud: replies with an mp3',
    options: z.object({
      text: z.string().trim().describe('The message as words, as the adapter read it'),
    }),
    positional: ['text'],
    needs: ['speech'],
    access: opts.access ?? [],
    handler(input, ctx) {
      // The adapter wrote the message's times as time values and the words for what it could not
      // name as placeholders: spoken in the reader's zone and language.
      const text = spokenWords(plainTimes(input.text, ctx.preferences.timezone, ctx.locale), ctx.t);
      const chars = countCharacters(text);
      if (chars === 0) throw refusal((t) => t('speech:readAloud.empty'));
      if (chars > limit) {
        throw refusal((t, locale) =>
          t('speech:readAloud.tooLong', {
            chars: formatNumber(chars, 0, locale),
            name: t('commands:read-aloud.menu'),
            limit: formatNumber(limit, 0, locale),
            model: opts.modelId,
          }),
        );
      }
      const spoken = {
        text,
        chars,
        voiceId: undefined,
        voiceName: ctx.t('speech:defaultVoice'),
        filename: 'read-aloud.mp3',
      };
      return speakAloud(spoken, ctx, opts);
    },
  });
}
