// /say text [voice]: speech from S5 as an mp3 attachment. The text is checked against the model's
// character limit before any request. The daily character budget (a later issue) plugs in without
// touching the handler: a yes/no guard through `access`, the per-text charge through `charge`.
import { z } from 'zod';
import {
  defineCommand,
  type AccessCheck,
  type CommandContext,
  type NeededServices,
} from '../src/core/command.ts';
import { ServiceError, refusal, type UserError } from '../src/errors.ts';
import { formatBytes, formatNumber, quote, truncate } from './format.ts';
import { characterLimitOf, countCharacters } from '../src/domain/speech.ts';
import { findVoice, voiceChoices, voiceNameOf } from './voice-format.ts';
import type { Reply } from '../src/core/reply.ts';
import type { SpeechClient } from '../src/services/speech/client.ts';

export interface SayCommandOptions {
  /** SPEECH_MODEL_ID: decides the character limit. */
  modelId: string;
  access?: readonly AccessCheck[];
  /** Called with the text's length just before synthesis; a UserError refuses (e.g. over budget). */
  charge?: (chars: number, ctx: CommandContext) => Promise<UserError | undefined>;
  /** Gives the characters back when the synthesis fails: nobody pays for audio they did not get. */
  refund?: (chars: number, ctx: CommandContext) => Promise<void>;
}

// ElevenLabs voice ids are 20 letters and digits; one not in the list may still be usable.

const VOICE_ID_RE = /^[A-Za-z0-9]{20}$/;

/** The voice a `voice` option names: one of the list, an id that looks usable, or the default. */
async function resolveVoice(
  speech: Pick<SpeechClient, 'voices'>,
  requested: string | undefined,
  ctx: Pick<CommandContext, 'signal' | 't'>,
): Promise<{ voiceId: string | undefined; voiceName: string }> {
  if (requested === undefined) return { voiceId: undefined, voiceName: ctx.t('speech:defaultVoice') };
  const voice = findVoice(await speech.voices({ signal: ctx.signal }), requested);
  if (voice !== undefined) return { voiceId: voice.id, voiceName: voice.name };
  if (VOICE_ID_RE.test(requested)) return { voiceId: requested, voiceName: requested };
  throw refusal((t) => t('speech:noSuchVoice', { voice: quote(requested, 40) }));
}

/** The reply to a spoken text: a line, an embed and the mp3, in the reader's language. */
function sayReply(
  said: {
    text: string;
    chars: number;
    voiceName: string;
    isDefault: boolean;
    modelId: string;
    filename: string;
    bytes: Uint8Array;
  },
  { t, locale }: Pick<CommandContext, 't' | 'locale'>,
): Reply {
  const size = formatBytes(said.bytes.byteLength, locale);
  const count = { count: said.chars, chars: formatNumber(said.chars, 0, locale) };
  return {
    text: t('speech:spoke', { ...count, voice: said.voiceName, file: said.filename, size }),
    embeds: [
      {
        title: `🔊 ${said.isDefault ? t('speech:defaultVoiceTitle') : said.voiceName}`,
        description: truncate(said.text, 300, { oneLine: true }),
        color: 'success',
        footer: t('speech:footer', { ...count, model: said.modelId, size }),
      },
    ],
    attachments: [{ filename: said.filename, contentType: 'audio/mpeg', bytes: said.bytes }],
  };
}

/** What is spoken: the text within the model's limit, its length, the voice, the mp3's name. */
interface Spoken {
  text: string;
  chars: number;
  voiceId: string | undefined;
  voiceName: string;
  filename: string;
}

/**
 * Speaks a text already checked against the model's limit: the budget charged, S5 asked for the
 * mp3, the characters given back when that fails. /say and Read aloud share it.
 */
export async function speakAloud(
  spoken: Spoken,
  ctx: CommandContext<NeededServices<'speech'>>,
  opts: SayCommandOptions,
): Promise<Reply> {
  const { text, chars, voiceId } = spoken;
  const speech = ctx.services.speech;
  const refused = await opts.charge?.(chars, ctx);
  if (refused) throw refused;
  let audio;
  try {
    audio = await speech.synthesize(
      { text, modelId: opts.modelId, ...(voiceId === undefined ? {} : { voiceId }) },
      { signal: ctx.signal },
    );
    if (audio.bytes.byteLength === 0) {
      throw new ServiceError({ service: 'speech', operation: 'synthesize', code: 'bad_response' });
    }
  } catch (err) {
    await opts.refund?.(chars, ctx).catch(() => undefined);
    throw err;
  }
  const defaultName =
    voiceId === undefined && audio.voiceId !== undefined
      ? await voiceNameOf(speech, audio.voiceId, ctx.signal)
      : undefined;
  return sayReply(
    {
      text,
      chars,
      voiceName: defaultName ?? spoken.voiceName,
      isDefault: voiceId === undefined && defaultName === undefined,
      modelId: opts.modelId,
      filename: spoken.filename,
      bytes: audio.bytes,
    },
    ctx,
  );
}

export function createSayCommand(opts: SayCommandOptions) {
  const limit = characterLimitOf(opts.modelId);
  return defineCommand({
    name: 'say',
    description: 'Speak a text aloud: replies with an mp3',
    options: z.object({
      text: z
        .string()
        .trim()
        .min(1)
        // The model's limit is counted in code points by the handler; as metadata it only tells
        // forms (Discord's max_length, the help) how much to take, never what zod accepts.
        .meta({ maxLength: limit })
        // A plain number, as zod's own limits read: formatNumber here would build the first
        // Intl.NumberFormat of every start, 20 ms of CPU before the console is ready (docs/PERFORMANCE.md).
        .describe(`The text to speak (at most ${limit} characters)`),
      voice: z.string().trim().min(1).max(100).optional().describe('Voice name or id; /voices lists them'),
    }),
    positional: ['text'],
    needs: ['speech'],
    access: opts.access ?? [],
    autocomplete: {
      voice: async (partial, ctx) => {
        const speech = ctx.services.speech;
        return speech ? voiceChoices(await speech.voices({ signal: ctx.signal }), partial, ctx.t) : [];
      },
    },
    examples: ['/say Hello from herald', '/say "Good morning, team" voice:Rachel'],
    async handler(input, ctx) {
      const chars = countCharacters(input.text);
      if (chars > limit) {
        throw refusal((t, locale) =>
          t('speech:tooLong', {
            chars: formatNumber(chars, 0, locale),
            model: opts.modelId,
            limit: formatNumber(limit, 0, locale),
          }),
        );
      }
      const { voiceId, voiceName } = await resolveVoice(ctx.services.speech, input.voice, ctx);
      return speakAloud({ text: input.text, chars, voiceId, voiceName, filename: 'say.mp3' }, ctx, opts);
    },
  });
}
