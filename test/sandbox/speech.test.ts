import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  MP3_FRAME_HEADER,
  SANDBOX_VOICE_IDS,
  buildSilentMp3,
  speechHandlers,
} from '../../src/sandbox/speech.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const KEY = 'sandbox-speech-key-0a1b2c';
let server: SandboxServer;
let base: string;

beforeAll(async () => {
  server = await startFake(speechHandlers({ credential: KEY }));
  base = sandboxBaseUrl(server.url, 'speech');
});
afterAll(() => server.close());

function tts(body: unknown, voiceId = SANDBOX_VOICE_IDS[0]!, key: string | null = KEY): Promise<Response> {
  return fetch(`${base}/text-to-speech/${voiceId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'xi-api-key': key }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('speech sandbox', () => {
  it('builds whole MPEG-1 Layer III frames whose length follows the bitrate and padding bit', () => {
    const mp3 = buildSilentMp3(1_000);
    // 1 s at 1152 samples per frame and 44.1 kHz is 39 frames of about 417.96 bytes.
    expect(mp3.length).toBe(Math.floor(39 * ((144 * 128_000) / 44_100)));
    expect([...mp3.slice(0, 4)]).toEqual(MP3_FRAME_HEADER);
    let offset = 0;
    let frames = 0;
    while (offset < mp3.length) {
      expect(mp3[offset]).toBe(0xff);
      expect(mp3[offset + 1]).toBe(0xfb);
      offset += 417 + (((mp3[offset + 2] ?? 0) >> 1) & 1);
      frames++;
    }
    expect(frames).toBe(39);
    expect(offset).toBe(mp3.length);
  });

  it('answers audio/mpeg whose length grows with the text, identical for identical input', async () => {
    const short = await tts({ text: 'Hello.', model_id: 'eleven_multilingual_v2' });
    expect(short.status).toBe(200);
    expect(short.headers.get('content-type')).toBe('audio/mpeg');
    expect(short.headers.get('x-character-count')).toBe('6');
    const a = new Uint8Array(await short.arrayBuffer());
    const long = new Uint8Array(await (await tts({ text: 'Hello. '.repeat(40) })).arrayBuffer());
    expect(long.length).toBeGreaterThan(a.length * 5);
    const again = await tts({ text: 'Hello.', model_id: 'eleven_multilingual_v2' });
    expect(again.headers.get('request-id')).toBe(short.headers.get('request-id'));
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(a);
  });

  it('answers ElevenLabs auth failures: no key (legacy shape) and a wrong key (current shape)', async () => {
    const missing = await tts({ text: 'hi' }, undefined, null);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      detail: {
        status: 'needs_authorization',
        message: 'Neither authorization header nor xi-api-key received, please provide one.',
      },
    });
    const wrong = await tts({ text: 'hi' }, undefined, 'other-key-123456');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({
      detail: { code: 'invalid_api_key', status: 'invalid_api_key' },
    });
  });

  it('validates like ElevenLabs: 422 lists for a bad body, 400 for empty or too long text, 404 for a voice', async () => {
    const noText = await tts({ model_id: 'eleven_v3' });
    expect(noText.status).toBe(422);
    expect(await noText.json()).toMatchObject({ detail: [{ type: 'missing', loc: ['body', 'text'] }] });
    expect((await tts('{not json')).status).toBe(422);
    const empty = await tts({ text: '  ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ detail: { code: 'empty_text' } });
    const tooLong = await tts({ text: 'a'.repeat(5_001), model_id: 'eleven_v3' });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ detail: { code: 'max_character_limit_exceeded' } });
    const model = await tts({ text: 'hi', model_id: 'eleven_nonexistent' });
    expect(model.status).toBe(400);
    expect(await model.json()).toMatchObject({ detail: { code: 'model_not_found' } });
    const voice = await tts({ text: 'hi' }, 'nope');
    expect(voice.status).toBe(404);
    expect(await voice.json()).toMatchObject({ detail: { code: 'voice_not_found', type: 'not_found' } });
  });

  it('lists voices with accent, age, gender, description and use_case labels', async () => {
    const res = await fetch(`${base}/voices`, { headers: { 'xi-api-key': KEY } });
    const body = (await res.json()) as { voices: { voice_id: string; labels: Record<string, string> }[] };
    expect(body.voices.length).toBeGreaterThanOrEqual(8);
    expect(body.voices.map((v) => v.voice_id)).toEqual(SANDBOX_VOICE_IDS);
    for (const v of body.voices) {
      expect(Object.keys(v.labels).sort()).toEqual(['accent', 'age', 'description', 'gender', 'use_case']);
    }
  });
});
