// The `speak` option of the reading commands (weather, forecast, report, jobs, host): one wrapper
// adds the option to a command and, when it is yes, reads a short version of the reply aloud
// through S5 (src/speak.ts), attached as an mp3 and charged to the invoker's /say budget. The
// wrapped commands' own files do not change.
import { z } from 'zod';
import type { Command, CommandContext } from '../src/core/command.ts';
import type { Reply } from '../src/core/reply.ts';
import { countCharacters } from '../src/domain/speech.ts';
import {
  audioFailedSentence,
  speechNotConfigured,
  spokenText,
  withAudioProblem,
  withSpokenVersion,
} from '../src/speak.ts';
import type { SayCommandOptions } from './say.ts';

const SPEAK_OPTION = z
  .enum(['yes', 'no'])
  .default('no')
  .describe('yes: also a short spoken version (mp3), counted against your /say budget');

interface SpeakSettings {
  /** The /say budget: spends the spoken text's characters, or refuses. */
  charge?: SayCommandOptions['charge'];
  refund?: SayCommandOptions['refund'];
}

/** The reply with its spoken version attached, or with one sentence saying why there is none. */
async function addSpokenVersion(
  reply: Reply,
  filename: string,
  ctx: CommandContext,
  settings: SpeakSettings,
): Promise<Reply> {
  const speech = ctx.services.speech;
  const { t, locale } = ctx;
  if (!speech) return withAudioProblem(reply, audioFailedSentence(speechNotConfigured(), t, locale));
  const text = spokenText(reply.text, t);
  const chars = countCharacters(text);
  const refused = await settings.charge?.(chars, ctx);
  if (refused) return withAudioProblem(reply, audioFailedSentence(refused, t, locale));
  return withSpokenVersion(reply, { speech, text, filename, signal: ctx.signal, t, locale }, async (err) => {
    await settings.refund?.(chars, ctx).catch(() => undefined);
    ctx.log.warn({ err, command: filename }, 'speak.synthesis_failed');
  });
}

/** The command with a `speak` option; its handler is the command's own, then the spoken version. */
export function withSpeakOption<I extends object>(
  command: Command<I>,
  settings: SpeakSettings,
): Command<I & { speak: 'yes' | 'no' }> {
  const filename = `${command.name.replaceAll(' ', '-')}.mp3`;
  return {
    ...command,
    options: command.options.extend({ speak: SPEAK_OPTION }),
    // speak:yes posts S5's audio: the simulated-data guard counts speech with the command's own.
    uses: (input) => {
      const { speak, ...own } = input;
      const used = command.uses?.(own as unknown as I) ?? [];
      return speak === 'yes' ? [...used, 'speech'] : used;
    },
    examples: command.examples.length > 0 ? [...command.examples, `${command.examples[0]} speak:yes`] : [],
    async handler(input, ctx) {
      const { speak, ...own } = input;
      const reply = await command.handler(own as unknown as I, ctx);
      // An error reply or a private one is not read out.
      if (speak !== 'yes' || reply.ephemeral) return reply;
      return addSpokenVersion(reply, filename, ctx, settings);
    },
  };
}
