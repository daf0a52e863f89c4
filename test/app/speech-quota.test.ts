// An exhausted speech quota (ElevenLabs sends it as 401 or 402 with `quota_exceeded` or
// `insufficient_credits`) does not clear in a moment: the sentence says so and nothing retries it.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { SPEECH_MAGIC_TEXTS, speechHandlers } from '../../src/sandbox/speech.ts';
import { createSpeechClient } from '../../src/services/speech/client.ts';
import { userMessageFor } from '../../src/errors.ts';
import { failure as serviceFailure, useFakeServer } from '../support/service-harness.ts';

const API_KEY = 'sandbox-speech-key-quota-51c2';
const TTS_ROUTE = route('speech', '/text-to-speech/:voiceId');
const server = useFakeServer(() => speechHandlers({ credential: API_KEY }));

function client() {
  return createSpeechClient(
    {
      baseUrl: sandboxBaseUrl(server.url, 'speech'),
      apiKey: API_KEY,
      modelId: 'eleven_multilingual_v2',
      voiceId: '21m00Tcm4TlvDq8ikWAM',
    },
    // A generous timeout: a slow shared machine must not turn the quota answer into a timeout.
    { httpOptions: { retryBaseMs: 1, requestTimeoutMs: 15_000 } },
  );
}

describe('an exhausted speech quota', () => {
  it('is told as used up, not as "try again in a moment", and is not retried (401 quota_exceeded)', async () => {
    const speech = client();
    const err = await serviceFailure(speech.synthesize({ text: SPEECH_MAGIC_TEXTS.quotaExceeded }), API_KEY);
    const sentence = userMessageFor(err);
    expect(sentence).not.toMatch(/moment/);
    expect(sentence).toBe(
      'The speech service says herald’s quota is used up; it renews with the provider’s billing period, or an operator can raise the plan.',
    );
    expect(server.requests).toHaveLength(1);
    await speech.close();
  });

  it('reads 402 insufficient_credits the same way', async () => {
    server.use(
      http.post(TTS_ROUTE, () =>
        HttpResponse.json(
          {
            detail: {
              type: 'payment_required',
              code: 'insufficient_credits',
              message: 'You have 0 credits remaining, while 91 credits are required for this request.',
              request_id: 'req_0f3a77',
              param: null,
            },
          },
          { status: 402 },
        ),
      ),
    );
    const speech = client();
    const err = await serviceFailure(speech.synthesize({ text: 'hello' }), API_KEY);
    expect(userMessageFor(err)).toMatch(/quota is used up/);
    expect(server.requests).toHaveLength(1);
    await speech.close();
  });

  it('still tells an ordinary rate limit as a wait (429 too_many_concurrent_requests)', async () => {
    server.use(
      http.post(TTS_ROUTE, () =>
        HttpResponse.json(
          { detail: { status: 'too_many_concurrent_requests', message: 'Too many concurrent requests.' } },
          { status: 429, headers: { 'retry-after': '600' } },
        ),
      ),
    );
    const speech = client();
    const err = await serviceFailure(speech.synthesize({ text: 'hello' }), API_KEY);
    expect(userMessageFor(err)).toBe('The speech service is rate limiting herald; try again in 600 seconds.');
    await speech.close();
  });
});
