// The simulator's speech: real MP3 a person hears. Each word is a short tone (a "chirp" whose pitch
// follows the word), pauses fall between words and longer ones after sentences, so trying /say
// proves that audio reaches the chat. Tones are LAME-encoded frames (fixtures/tone-frames.ts);
// silence is frames with zeroed side information. MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono,
// no CRC: ElevenLabs' default mp3_44100_128.
import { TONE_FRAMES_BASE64 } from './fixtures/tone-frames.ts';
import { hashSeed } from './seeded-random.ts';

const SAMPLES_PER_FRAME = 1152;
const SAMPLE_RATE = 44_100;
const BITRATE = 128_000;
const FRAME_MS = (SAMPLES_PER_FRAME / SAMPLE_RATE) * 1000;
/** 0xFFFB: frame sync, MPEG-1, Layer III, no CRC; 0x90: 128 kbit/s at 44.1 kHz; 0xC4: mono, original. */
export const MP3_FRAME_HEADER: readonly number[] = [0xff, 0xfb, 0x90, 0xc4];
const MAX_AUDIO_MS = 5 * 60 * 1000;
const MAX_FRAMES = Math.ceil(MAX_AUDIO_MS / FRAME_MS);
const EXACT_FRAME_BYTES = (144 * BITRATE) / SAMPLE_RATE;

/** Per tone, its frames (each decodes on its own: no bit reservoir). */
const TONES: readonly Uint8Array[][] = TONE_FRAMES_BASE64.map((b64) =>
  splitFrames(Buffer.from(b64, 'base64')),
);

function frameLength(bytes: Uint8Array, offset: number): number {
  const padding = ((bytes[offset + 2] ?? 0) >> 1) & 1;
  return Math.floor(EXACT_FRAME_BYTES) + padding;
}

function splitFrames(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += frameLength(bytes, offset)) {
    out.push(bytes.subarray(offset, offset + frameLength(bytes, offset)));
  }
  return out;
}

/** One silent frame: a correct header, zeroed side information, no main data. */
function silentFrame(padded: boolean): Uint8Array {
  const frame = new Uint8Array(Math.floor(EXACT_FRAME_BYTES) + (padded ? 1 : 0));
  frame.set(MP3_FRAME_HEADER);
  if (padded) frame[2] = (MP3_FRAME_HEADER[2] as number) | 0x02;
  return frame;
}

/** Frames end to end; silent ones take the padding bit that keeps the stream at 128 kbit/s. */
function join(frames: readonly (Uint8Array | 'silence')[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const frame of frames.slice(0, MAX_FRAMES)) {
    const due = Math.floor((parts.length + 1) * EXACT_FRAME_BYTES) - total > Math.floor(EXACT_FRAME_BYTES);
    const bytes = frame === 'silence' ? silentFrame(due) : frame;
    parts.push(bytes);
    total += bytes.length;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Silent MP3 of about `durationMs`: whole frames with a correct header and zeroed side
 * information, lengths alternating 417/418 bytes through the padding bit as a CBR encoder's do.
 */
export function buildSilentMp3(durationMs: number): Uint8Array {
  const frames = Math.max(1, Math.ceil(Math.min(durationMs, MAX_AUDIO_MS) / FRAME_MS));
  return join(Array.from({ length: frames }, () => 'silence' as const));
}

/** Frames of a word's tone: longer words ring longer (about 80 to 160 ms). */
function wordFrames(word: string): Uint8Array[] {
  const tone = TONES[hashSeed(word.toLowerCase()) % TONES.length]!;
  const count = Math.min(6, 3 + Math.floor([...word].length / 3));
  return Array.from({ length: count }, (_, i) => tone[i % tone.length]!);
}

/**
 * The text "spoken": a tone per word, a pause of two frames (about 50 ms) between words and of
 * eight after a sentence, with a little silence before and after. Identical text, identical bytes.
 */
export function buildSpokenMp3(text: string): Uint8Array {
  const frames: (Uint8Array | 'silence')[] = ['silence', 'silence'];
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*[.!?…]*/gu) ?? [];
  for (const word of words) {
    frames.push(...wordFrames(word.replace(/[.!?…]+$/u, '')));
    const pause = /[.!?…]$/u.test(word) ? 8 : 2;
    for (let i = 0; i < pause; i++) frames.push('silence');
  }
  // Text without a word (punctuation only) still gets a short audible answer.
  if (words.length === 0) frames.push(...wordFrames(text));
  frames.push('silence', 'silence');
  return join(frames);
}
