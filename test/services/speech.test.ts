import { describe, expect, it } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  MP3_FRAME_HEADER,
  SANDBOX_VOICE_IDS,
  SPEECH_MAGIC_TEXTS,
  buildSilentMp3,
  speechHandlers,
} from '../../src/sandbox/speech.ts';
import { MODEL_CHARACTER_LIMITS } from '../../src/domain/speech.ts';
import { createSpeechClient, type SpeechConfig } from '../../src/services/speech/client.ts';
import type { ClientDeps } from '../../src/services/deps.ts';
import {
  expectNoSecret,
  failure as serviceFailure,
  htmlPage,
  readFixture,
  useFakeServer,
  useLogCapture,
} from '../support/service-harness.ts';

const API_KEY = 'sandbox-speech-key-7f3a9c';
const VOICES_FIXTURE = readFixture('speech', 'voices.json');
const ERRORS = readFixture<Record<string, Record<string, unknown>>>('speech', 'errors.json');
const TTS_ROUTE = route('speech', '/text-to-speech/:voiceId');
const VOICES_ROUTE = route('speech', '/voices');
const HTML_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>';

const server = useFakeServer(() => speechHandlers({ credential: API_KEY }));
const { log: capturingLog, lines: logLines } = useLogCapture();

function client(config: Partial<SpeechConfig> = {}, deps: ClientDeps = {}) {
  return createSpeechClient(
    {
      baseUrl: sandboxBaseUrl(server.url, 'speech'),
      apiKey: API_KEY,
      modelId: 'eleven_multilingual_v2',
      voiceId: '21m00Tcm4TlvDq8ikWAM',
      ...config,
    },
    { log: capturingLog, httpOptions: { retryBaseMs: 1, requestTimeoutMs: 2_000 }, ...deps },
  );
}

// No credential in the message, the provider's message or anything serialised, ever.
const failure = (p: Promise<unknown>) => serviceFailure(p, API_KEY);

/** Walks the MP3 frame by frame: every frame starts with a valid MPEG-1 Layer III header. */
function mp3Frames(bytes: Uint8Array): number {
  let offset = 0;
  let frames = 0;
  while (offset < bytes.length) {
    expect(bytes[offset]).toBe(0xff);
    expect((bytes[offset + 1] ?? 0) & 0xfe).toBe(0xfa);
    const padding = ((bytes[offset + 2] ?? 0) >> 1) & 1;
    offset += Math.floor((144 * 128_000) / 44_100) + padding;
    frames++;
  }
  expect(offset).toBe(bytes.length);
  return frames;
}

describe('speech client', () => {
  it('posts the text and model to the voice path with the xi-api-key header and returns MP3 bytes', async () => {
    const speech = client();
    const audio = await speech.synthesize({ text: 'Deploy finished, all checks green.' });

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.pathname).toBe('/speech/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM');
    expect(req.headers['xi-api-key']).toBe(API_KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.query.toString()).toBe('');
    expect(JSON.parse(req.body)).toEqual({
      text: 'Deploy finished, all checks green.',
      model_id: 'eleven_multilingual_v2',
    });
    expect(audio.contentType).toBe('audio/mpeg');
    expect([...audio.bytes.slice(0, 2)]).toEqual(MP3_FRAME_HEADER.slice(0, 2));
    expect(mp3Frames(audio.bytes)).toBeGreaterThan(40);
    await speech.close();
  });

  it('refuses an mp3 that carries its key (raw or base64) as a bad answer, logged, and keeps nothing', async () => {
    const frame = Buffer.from([0xff, 0xfb, 0x90, 0x64, ...new Array<number>(413).fill(0)]);
    for (const inside of [API_KEY, Buffer.from(`ID3${API_KEY}`).toString('base64')]) {
      server.use(
        http.post(
          TTS_ROUTE,
          () =>
            new HttpResponse(Buffer.concat([frame, Buffer.from(inside), frame]), {
              headers: { 'content-type': 'audio/mpeg', 'request-id': 'req-echo' },
            }),
        ),
      );
      const err = await failure(client().synthesize({ text: 'Deploy finished.' }));
      expect(err.code).toBe('bad_response');
      expect(err.providerMessage).toBe('the answer holds a configured secret');
      expect(logLines.some((l) => l.includes('http.answer_holds_secret'))).toBe(true);
    }
  });

  it('uses the voice and model given in the call over the configured ones', async () => {
    const speech = client();
    await speech.synthesize({ text: 'hi', voiceId: SANDBOX_VOICE_IDS[3]!, modelId: 'eleven_flash_v2_5' });
    expect(server.requests[0]!.pathname).toBe(`/speech/v1/text-to-speech/${SANDBOX_VOICE_IDS[3]}`);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ text: 'hi', model_id: 'eleven_flash_v2_5' });
    await speech.close();
  });

  it('keeps a hostile voice id inside its path segment and maps voice_not_found to not_found', async () => {
    const speech = client();
    const err = await failure(speech.synthesize({ text: 'hello', voiceId: 'a b/../?x=1#frag é' }));
    expect(server.requests[0]!.pathname).toBe(
      '/speech/v1/text-to-speech/a%20b%2F..%2F%3Fx%3D1%23frag%20%C3%A9',
    );
    expect(server.requests[0]!.url).not.toContain('?');
    expect(err.code).toBe('not_found');
    expect(err.status).toBe(404);
    expect(err.providerMessage).toContain('voice_not_found');
    await speech.close();
  });

  it('rejects empty text, a dot-only voice id and text over the model limit before any request', async () => {
    const speech = client();
    expect((await failure(speech.synthesize({ text: '' }))).code).toBe('invalid_request');
    expect((await failure(speech.synthesize({ text: '  \n ' }))).code).toBe('invalid_request');
    expect((await failure(speech.synthesize({ text: 'x', voiceId: '..' }))).code).toBe('invalid_request');
    const limit = MODEL_CHARACTER_LIMITS.eleven_v3!;
    const tooLong = await failure(speech.synthesize({ text: 'a'.repeat(limit + 1), modelId: 'eleven_v3' }));
    expect(tooLong.code).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
    // Exactly at the limit is sent, and non-BMP characters count once each.
    await speech.synthesize({ text: '😀'.repeat(limit), modelId: 'eleven_v3' });
    expect(server.requests).toHaveLength(1);
    await speech.close();
  });

  it('lists voices with their labels from GET /voices', async () => {
    const speech = client();
    const voices = await speech.voices();
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.pathname).toBe('/speech/v1/voices');
    expect(req.headers['xi-api-key']).toBe(API_KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toBe('');
    expect(voices.length).toBeGreaterThanOrEqual(8);
    expect(voices[0]).toEqual({
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
    });
    for (const v of voices) expect(Object.keys(v.labels)).toEqual(expect.arrayContaining(['accent', 'age']));
    await speech.close();
  });

  it('parses a realistic voice list with extra fields, null labels and a null preview', async () => {
    server.use(http.get(VOICES_ROUTE, () => HttpResponse.json(VOICES_FIXTURE)));
    const speech = client();
    const voices = await speech.voices();
    expect(voices).toHaveLength(2);
    expect(voices[1]).toEqual({
      id: 'cgSgspJ2msm6clMCkdW9',
      name: 'Jessica (cloned)',
      category: 'cloned',
      labels: {},
      previewUrl: undefined,
    });
    await speech.close();
  });

  it('keeps the voice list for an hour, then asks again', async () => {
    let nowMs = 1_000_000;
    const speech = client({}, { now: () => nowMs });
    await speech.voices();
    await speech.voices();
    expect(server.requests).toHaveLength(1);
    nowMs += 60 * 60 * 1000 + 1;
    await speech.voices();
    expect(server.requests).toHaveLength(2);
    await speech.close();
  });

  it('maps a wrong key to unauthorized and a missing key to unauthorized', async () => {
    const wrong = client({ apiKey: 'not-the-right-key-123' });
    const err = await failure(wrong.voices());
    expect(err.code).toBe('unauthorized');
    expect(err.status).toBe(401);
    expect(err.providerMessage).toBe('invalid_api_key: Invalid API key');
    await wrong.close();

    server.use(http.get(VOICES_ROUTE, () => HttpResponse.json(ERRORS.needsAuthorization, { status: 401 })));
    const speech = client();
    expect((await failure(speech.voices())).code).toBe('unauthorized');
    await speech.close();
  });

  it('maps an exhausted quota sent as 401 to rate_limited', async () => {
    const speech = client();
    const err = await failure(speech.synthesize({ text: SPEECH_MAGIC_TEXTS.quotaExceeded }));
    expect(err.code).toBe('rate_limited');
    expect(err.status).toBe(401);
    expect(err.providerMessage).toMatch(/^quota_exceeded: This request exceeds your quota/);
    expect(server.requests).toHaveLength(1);
    await speech.close();
  });

  it('maps a 400 from the provider to invalid_request with its code and message', async () => {
    server.use(http.post(TTS_ROUTE, () => HttpResponse.json(ERRORS.textTooLong, { status: 400 })));
    const speech = client();
    const err = await failure(speech.synthesize({ text: 'hello' }));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(400);
    expect(err.providerMessage).toBe(
      'max_character_limit_exceeded: Text is too long. Maximum length is 10000 characters.',
    );
    await speech.close();
  });

  it('maps a FastAPI validation list (422) to invalid_request', async () => {
    server.use(http.post(TTS_ROUTE, () => HttpResponse.json(ERRORS.validationList, { status: 422 })));
    const speech = client();
    const err = await failure(speech.synthesize({ text: 'hello' }));
    expect(err.code).toBe('invalid_request');
    expect(err.providerMessage).toBe('body.voice_settings.stability: Input should be a valid number');
    await speech.close();
  });

  it('maps a 403 plan restriction to forbidden', async () => {
    server.use(http.post(TTS_ROUTE, () => HttpResponse.json(ERRORS.featureNotAvailable, { status: 403 })));
    const speech = client();
    expect((await failure(speech.synthesize({ text: 'hello' }))).code).toBe('forbidden');
    await speech.close();
  });

  it('maps a 429 to rate_limited with Retry-After in ms, and does not retry the POST', async () => {
    server.use(
      http.post(TTS_ROUTE, () =>
        HttpResponse.json(ERRORS.tooManyConcurrent, { status: 429, headers: { 'retry-after': '3' } }),
      ),
    );
    const speech = client();
    const err = await failure(speech.synthesize({ text: 'hello' }));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(3_000);
    expect(server.requests).toHaveLength(1);
    await speech.close();
  });

  it('also maps the simulator busy answer to rate_limited', async () => {
    const speech = client();
    expect((await failure(speech.synthesize({ text: SPEECH_MAGIC_TEXTS.systemBusy }))).code).toBe(
      'rate_limited',
    );
    await speech.close();
  });

  it('retries a 5xx voice list twice, then fails with upstream and a readable excerpt of the HTML page', async () => {
    server.use(http.get(VOICES_ROUTE, () => htmlPage(HTML_PAGE, 502)));
    const speech = client();
    const err = await failure(speech.voices());
    expect(err.code).toBe('upstream');
    expect(err.status).toBe(502);
    expect(err.providerMessage).toBe('502 Bad Gateway 502 Bad Gateway');
    expect(server.requests).toHaveLength(3);
    await speech.close();
  });

  it('fails with timeout when the provider is slower than the request timeout', async () => {
    // The provider answers only once the test lets it (or, should the timeout not fire, after 2 s,
    // so that a broken timeout fails the test with audio instead of hanging it).
    let letAnswer!: () => void;
    const held = new Promise<void>((resolve) => (letAnswer = resolve));
    let hasAnswered = false;
    server.use(
      http.post(TTS_ROUTE, async () => {
        await Promise.race([held, delay(2_000)]);
        hasAnswered = true;
        return new HttpResponse(buildSilentMp3(500), { headers: { 'content-type': 'audio/mpeg' } });
      }),
    );
    const speech = client({}, { httpOptions: { retryBaseMs: 1, requestTimeoutMs: 100 } });
    expect((await failure(speech.synthesize({ text: 'hello' }))).code).toBe('timeout');
    expect(hasAnswered).toBe(false);
    letAnswer();
    await speech.close();
  });

  it('fails with network when the connection is reset', async () => {
    server.use(http.post(TTS_ROUTE, () => HttpResponse.error()));
    const speech = client();
    expect((await failure(speech.synthesize({ text: 'hello' }))).code).toBe('network');
    await speech.close();
  });

  it('treats a 200 HTML page instead of audio as bad_response', async () => {
    server.use(http.post(TTS_ROUTE, () => htmlPage('<html><body>Welcome</body></html>')));
    const speech = client();
    expect((await failure(speech.synthesize({ text: 'hello' }))).code).toBe('bad_response');
    await speech.close();
  });

  it('treats a voice list that is not JSON, or does not fit the schema, as bad_response', async () => {
    server.use(http.get(VOICES_ROUTE, () => htmlPage('<html>maintenance</html>')));
    const speech = client();
    expect((await failure(speech.voices())).code).toBe('bad_response');
    server.resetHandlers();
    server.use(http.get(VOICES_ROUTE, () => HttpResponse.json({ voices: 'none' })));
    const err = await failure(speech.voices());
    expect(err.code).toBe('bad_response');
    expect(err.providerMessage).toContain('voices');
    await speech.close();
  });

  it('keeps the valid voices when one lacks a name, a category or an id, and logs each it leaves out', async () => {
    const [rachel, jessica] = (VOICES_FIXTURE as { voices: Record<string, unknown>[] }).voices;
    const without = (voice: Record<string, unknown>, field: string, extra: Record<string, unknown>) =>
      Object.fromEntries(Object.entries({ ...voice, ...extra }).filter(([k]) => k !== field));
    const nameless = without(rachel!, 'name', { voice_id: 'NoName000000000000001' });
    const uncategorised = without(jessica!, 'category', { voice_id: 'NoCat0000000000000001', name: 'Ada' });
    const idless = without(rachel!, 'voice_id', { name: 'Nobody' });
    server.use(
      http.get(VOICES_ROUTE, () =>
        HttpResponse.json({
          voices: [rachel, nameless, { ...jessica, name: null }, uncategorised, idless, 'junk', jessica],
        }),
      ),
    );
    const speech = client();
    const voices = await speech.voices();
    expect(voices.map((v) => [v.id, v.name, v.category])).toEqual([
      ['21m00Tcm4TlvDq8ikWAM', 'Rachel', 'premade'],
      ['NoCat0000000000000001', 'Ada', undefined],
      ['cgSgspJ2msm6clMCkdW9', 'Jessica (cloned)', 'cloned'],
    ]);
    const skipped = logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'speech.voice_skipped');
    expect(skipped.map((l) => [l.index, l.voiceId])).toEqual([
      [1, 'NoName000000000000001'],
      [2, 'cgSgspJ2msm6clMCkdW9'],
      [4, undefined],
      [5, undefined],
    ]);
    expect(skipped[0]!.problem).toContain('name');
    expect(skipped.every((l) => l.level === 'warn')).toBe(true);
    await speech.close();
  });

  it('logs the first few voices it leaves out and then one count, not a line for each of 1,000,000', async () => {
    const [rachel] = (VOICES_FIXTURE as { voices: Record<string, unknown>[] }).voices;
    server.use(
      http.get(VOICES_ROUTE, () =>
        HttpResponse.json({ voices: [...Array.from({ length: 1_000_000 }, () => 0), rachel] }),
      ),
    );
    const speech = client();
    const voices = await speech.voices();
    expect(voices.map((v) => v.name)).toEqual(['Rachel']);
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const skipped = lines.filter((l) => l.msg === 'speech.voice_skipped');
    expect(skipped.map((l) => l.index)).toEqual([0, 1, 2, 3, 4]);
    expect(lines.filter((l) => l.msg === 'speech.voices_skipped')).toMatchObject([
      { level: 'warn', skipped: 1_000_000 },
    ]);
    await speech.close();
  });

  it('never writes the key into log lines, even when the provider echoes it', async () => {
    server.use(
      http.get(VOICES_ROUTE, () =>
        HttpResponse.json(
          { detail: { status: 'invalid_api_key', message: `Invalid API key: ${API_KEY}` } },
          { status: 401 },
        ),
      ),
    );
    const speech = client();
    const err = await failure(speech.voices());
    expect(err.providerMessage).toBe('invalid_api_key: Invalid API key: [REDACTED]');
    await speech.synthesize({ text: 'hello' });
    expect(logLines.length).toBeGreaterThanOrEqual(2);
    expectNoSecret([API_KEY], ...logLines);
    await speech.close();
  });
});
