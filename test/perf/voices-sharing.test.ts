import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { speechHandlers } from '../../src/sandbox/speech.ts';
import { VOICES_CACHE_TTL_MS, createSpeechClient } from '../../src/services/speech/client.ts';
import { describeSharing } from './sharing.ts';

const API_KEY = 'sandbox-speech-key-0c41';

describeSharing({
  name: 'speech.voices',
  ttlMs: VOICES_CACHE_TTL_MS,
  handlers: () => speechHandlers({ credential: API_KEY }),
  route: route('speech', '/voices'),
  create: (origin, deps) =>
    createSpeechClient(
      {
        baseUrl: sandboxBaseUrl(origin, 'speech'),
        apiKey: API_KEY,
        modelId: 'eleven_multilingual_v2',
        voiceId: '21m00Tcm4TlvDq8ikWAM',
      },
      deps,
    ),
  call: (client, _input, opts) => client.voices(opts),
  pathname: '/speech/v1/voices',
  hasInput: false,
  failureBody: {
    detail: {
      type: 'service_unavailable',
      code: 'service_unavailable',
      message: 'The service is temporarily unavailable. Please try again later.',
      status: 'service_unavailable',
      request_id: '5f1d0c3a5f1d0c3a5f1d0c3a5f1d0c3a',
    },
  },
  failureCode: 'unavailable',
});
