// The simulator's /say audio is heard, not silence. The bytes are parsed as
// MPEG-1 Layer III frames (headers, side information, main data) and decoded to PCM with a
// WebAssembly mpg123 build, then measured: a tone per word, pauses between them.
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { speechHandlers } from '../../src/sandbox/speech.ts';
import { buildSilentMp3, buildSpokenMp3 } from '../../src/sandbox/speech-audio.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const SAMPLES_PER_FRAME = 1152;

interface Frame {
  offset: number;
  length: number;
  mainDataBegin: number;
  /** Bits of main data in granule 0 and 1 (mono). */
  part23: [number, number];
  /** The frame's bytes after header and side information. */
  mainData: Uint8Array;
}

/** Reads `count` bits MSB first from `bytes` at bit `pos`. */
function bits(bytes: Uint8Array, pos: number, count: number): number {
  let value = 0;
  for (let i = 0; i < count; i++)
    value = (value << 1) | (((bytes[(pos + i) >> 3] ?? 0) >> (7 - ((pos + i) & 7))) & 1);
  return value;
}

/** Splits MP3 bytes into MPEG-1 Layer III mono frames, failing on anything else. */
function parseFrames(mp3: Uint8Array): Frame[] {
  const frames: Frame[] = [];
  let offset = 0;
  while (offset < mp3.length) {
    const h = mp3.subarray(offset, offset + 4);
    expect(bits(h, 0, 11), `sync at ${offset}`).toBe(0x7ff);
    expect(bits(h, 11, 2), 'MPEG-1').toBe(3);
    expect(bits(h, 13, 2), 'Layer III').toBe(1);
    expect(bits(h, 20, 2), '44.1 kHz').toBe(0);
    expect(bits(h, 24, 2), 'mono').toBe(3);
    const length = Math.floor((144 * BITRATES[bits(h, 16, 4)]! * 1000) / 44_100) + bits(h, 22, 1);
    const hasCrc = bits(h, 15, 1) === 0;
    const side = mp3.subarray(offset + 4 + (hasCrc ? 2 : 0), offset + 4 + (hasCrc ? 2 : 0) + 17);
    // Mono side information: main_data_begin 9, private 5, scfsi 4, then per granule part2_3_length 12 ...
    frames.push({
      offset,
      length,
      mainDataBegin: bits(side, 0, 9),
      part23: [bits(side, 18, 12), bits(side, 18 + 59, 12)],
      mainData: mp3.subarray(offset + 4 + (hasCrc ? 2 : 0) + 17, offset + length),
    });
    offset += length;
  }
  expect(offset).toBe(mp3.length);
  return frames;
}

let decoder: MPEGDecoder;
beforeAll(async () => {
  decoder = new MPEGDecoder();
  await decoder.ready;
});
afterAll(() => decoder.free());

async function decode(mp3: Uint8Array): Promise<Float32Array> {
  await decoder.reset();
  const out = decoder.decode(mp3);
  expect(out.errors).toEqual([]);
  expect(out.sampleRate).toBe(44_100);
  return out.channelData[0]!;
}

/** RMS of each frame-long block of samples. */
function loudness(pcm: Float32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + SAMPLES_PER_FRAME <= pcm.length; i += SAMPLES_PER_FRAME) {
    let sum = 0;
    for (let j = i; j < i + SAMPLES_PER_FRAME; j++) sum += pcm[j]! * pcm[j]!;
    out.push(Math.sqrt(sum / SAMPLES_PER_FRAME));
  }
  return out;
}

/** Runs of consecutive loud blocks: the "words" a listener hears. */
function bursts(levels: number[], threshold = 0.05): number[][] {
  const runs: number[][] = [];
  let current: number[] | undefined;
  for (const level of levels) {
    if (level > threshold) (current ??= []).push(level);
    else if (current) {
      runs.push(current);
      current = undefined;
    }
  }
  if (current) runs.push(current);
  return runs;
}

/** The pitch of a stretch of samples from its zero crossings. */
function pitchHz(pcm: Float32Array): number {
  let crossings = 0;
  for (let i = 1; i < pcm.length; i++) if (pcm[i - 1]! < 0 !== pcm[i]! < 0) crossings++;
  return (crossings / 2 / pcm.length) * 44_100;
}

describe('the speech simulator’s audio', () => {
  const text = 'Hello from herald. Audio works!';

  it('is MPEG-1 Layer III frames that carry main data, each decodable on its own', () => {
    const frames = parseFrames(buildSpokenMp3(text));
    const voiced = frames.filter((f) => f.part23[0] > 0 || f.part23[1] > 0);
    expect(voiced.length).toBeGreaterThan(12);
    for (const f of voiced) {
      expect(f.mainDataBegin).toBe(0); // no bit reservoir: a frame never borrows from the one before
      expect(f.mainData.some((b) => b !== 0)).toBe(true);
    }
    // The old silent answer had no main data at all: the parser tells the two apart.
    expect(parseFrames(buildSilentMp3(1_000)).every((f) => f.part23[0] === 0 && f.part23[1] === 0)).toBe(
      true,
    );
  });

  it('decodes to a tone per word with quiet pauses between words', async () => {
    const pcm = await decode(buildSpokenMp3(text));
    const levels = loudness(pcm);
    const words = bursts(levels);
    expect(words).toHaveLength(5);
    for (const word of words) expect(Math.max(...word)).toBeGreaterThan(0.2);
    expect(levels.filter((l) => l < 0.01).length).toBeGreaterThan(8); // pauses are silence
    // About as long as saying it: 5 words with pauses, well under 2 s.
    const seconds = pcm.length / 44_100;
    expect(seconds).toBeGreaterThan(0.8);
    expect(seconds).toBeLessThan(2);
  });

  it('sounds each word at one of a few pitches between 400 and 800 Hz, the same word alike', async () => {
    const pcm = await decode(buildSpokenMp3('alpha beta gamma delta epsilon zeta'));
    const levels = loudness(pcm);
    const pitches: number[] = [];
    levels.forEach((level, i) => {
      if (level > 0.25)
        pitches.push(pitchHz(pcm.subarray(i * SAMPLES_PER_FRAME, (i + 1) * SAMPLES_PER_FRAME)));
    });
    expect(pitches.length).toBeGreaterThan(6);
    for (const hz of pitches) expect(hz).toBeGreaterThan(400);
    for (const hz of pitches) expect(hz).toBeLessThan(800);
    expect(new Set(pitches.map((hz) => Math.round(hz / 50))).size).toBeGreaterThan(1);
    expect(buildSpokenMp3('same words')).toEqual(buildSpokenMp3('same words'));
  });

  it('is what the simulated ElevenLabs answers for /text-to-speech', async () => {
    const server: SandboxServer = await startFake(speechHandlers());
    try {
      const res = await fetch(`${sandboxBaseUrl(server.url, 'speech')}/text-to-speech/21m00Tcm4TlvDq8ikWAM`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xi-api-key': 'any-key' },
        body: JSON.stringify({ text, model_id: 'eleven_multilingual_v2' }),
      });
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      const pcm = await decode(new Uint8Array(await res.arrayBuffer()));
      expect(bursts(loudness(pcm))).toHaveLength(5);
    } finally {
      await server.close();
    }
  });
});
