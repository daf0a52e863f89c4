// Spoken versions of replies: a reply's plain text made readable aloud, synthesized
// through S5 with the configured voice and model, and attached as an mp3. Used by the `speak`
// option of the reading commands (commands/speak-option.ts) and by the analytics summary's spoken
// briefing (ANALYTICS_SUMMARY_SPEAK). A synthesis that fails never loses the reply: it goes out
// with one sentence saying the audio could not be made.
import type { Attachment, Reply } from './core/reply.ts';
import { countCharacters } from './domain/speech.ts';
import { ServiceError, refusal, userMessageFor, type UserError } from './errors.ts';
import type { SpeechClient } from './services/speech/client.ts';
import { writeTimes } from './render/time.ts';
import { english, type Translate } from './i18n/translate.ts';

/** A spoken reply is short: about half a minute of speech. */
export const SPOKEN_MAX_CHARS = 500;

// Each symbol as words in the reply's language (the reply is already in it: "12,5 °C").
const SPOKEN_UNITS: readonly [RegExp, (t: Translate) => string][] = [
  [/\s?°C\b/g, (t) => ` ${t('speech:units.celsius')}`],
  [/\s?°F\b/g, (t) => ` ${t('speech:units.fahrenheit')}`],
  [/\s?°/g, (t) => ` ${t('speech:units.degrees')}`],
  [/(\d)\s?K\b/g, (t) => `$1 ${t('speech:units.kelvin')}`],
  [/(\d)\s?m\/s\b/g, (t) => `$1 ${t('speech:units.metresPerSecond')}`],
  [/(\d)\s?mph\b/g, (t) => `$1 ${t('speech:units.milesPerHour')}`],
  [/(\d)\s?km\/h\b/g, (t) => `$1 ${t('speech:units.kilometresPerHour')}`],
  [/(\d)\s?%/g, (t) => `$1 ${t('speech:units.percent')}`],
  [/↑|▲/g, (t) => `${t('speech:units.up')} `],
  [/↓|▼/g, (t) => `${t('speech:units.down')} `],
];

/** Clips at the last sentence or clause end that fits, else at a word, with a full stop. */
function clip(text: string, max: number): string {
  if (countCharacters(text) <= max) return text;
  const head = [...text].slice(0, max).join('');
  const stop = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '), head.lastIndexOf(', '));
  const cut = stop > max / 2 ? head.slice(0, stop) : head.slice(0, Math.max(head.lastIndexOf(' '), 1));
  return `${cut.replace(/[\s,;:.]+$/, '')}.`;
}

/**
 * The reply's text as something to read aloud: no links, markup, emoji or symbols for units (said
 * as words in `t`'s language, the reply's).
 */
export function spokenText(text: string, t: Translate = english, max = SPOKEN_MAX_CHARS): string {
  // A time value is read as its words, in the zone the reply was written for.
  let out = writeTimes(text, 'plain')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/[*_`~|>#]/g, '')
    .replace(/\p{Extended_Pictographic}\uFE0F?/gu, '')
    .replace(/[▁▂▃▄▅▆▇█]+/g, '')
    .replace(/\s·\s/g, ', ');
  for (const [pattern, words] of SPOKEN_UNITS) out = out.replace(pattern, words(t));
  out = out
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => (/[.!?;:]$/.test(line) ? line : `${line}.`))
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:])/g, '$1')
    .trim();
  return clip(out, max);
}

interface SpeakRequest {
  speech: SpeechClient;
  /** Already spoken text (spokenText). */
  text: string;
  /** The mp3's file name, e.g. weather.mp3. */
  filename: string;
  signal?: AbortSignal;
  /** The reader's language, for the sentence a failure adds and the audio's description. */
  t?: Translate;
  locale?: string;
}

/** The text synthesized with the configured voice and model, as an mp3 attachment. */
async function synthesizeSpoken(req: SpeakRequest): Promise<Attachment> {
  const audio = await req.speech.synthesize({ text: req.text }, req.signal ? { signal: req.signal } : {});
  if (audio.bytes.byteLength === 0) {
    throw new ServiceError({ service: 'speech', operation: 'synthesize', code: 'bad_response' });
  }
  return {
    filename: req.filename,
    contentType: 'audio/mpeg',
    bytes: audio.bytes,
    description: (req.t ?? english)('speech:spokenVersion', { text: req.text }),
  };
}

/** Why there is no audio when S5 has no credentials. */
export function speechNotConfigured(): UserError {
  return refusal((t) => t('speech:notConfigured'), 'not_configured');
}

/** The one sentence a reply carries when its audio could not be made, with the reason. */
export function audioFailedSentence(reason: unknown, t: Translate = english, locale?: string): string {
  const why = userMessageFor(reason, t, locale).replace(/[.!]$/, '');
  return t('speech:audioFailed', { reason: `${why.charAt(0).toLowerCase()}${why.slice(1)}` });
}

function withAudio(reply: Reply, audio: Attachment): Reply {
  return { ...reply, attachments: [...(reply.attachments ?? []), audio] };
}

/** The reply as it was, plus the sentence in its text and, where it has embeds, as a last one. */
export function withAudioProblem(reply: Reply, sentence: string): Reply {
  return {
    ...reply,
    text: `${reply.text}\n${sentence}`,
    ...(reply.embeds && reply.embeds.length > 0
      ? { embeds: [...reply.embeds, { description: sentence, color: 'warning' as const }] }
      : {}),
  };
}

/**
 * The reply with `req.text` read aloud attached, or, when S5 is missing or fails, with the one
 * sentence saying why there is none; `onFailure` (a log line, a refund) runs first. Never throws.
 */
export async function withSpokenVersion(
  reply: Reply,
  req: Omit<SpeakRequest, 'speech'> & { speech: SpeechClient | undefined },
  onFailure: (err: unknown) => unknown,
): Promise<Reply> {
  const { speech } = req;
  try {
    if (!speech) throw speechNotConfigured();
    return withAudio(reply, await synthesizeSpoken({ ...req, speech }));
  } catch (err) {
    await onFailure(err);
    return withAudioProblem(reply, audioFailedSentence(err, req.t, req.locale));
  }
}
