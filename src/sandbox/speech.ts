// Simulated ElevenLabs v1 (docs/SERVICES.md S5): POST /text-to-speech/{voice_id} answers real
// MP3 bytes (MPEG-1 Layer III frames: a short tone per word, speech-length pauses; speech-audio.ts) and
// GET /voices the premade voices. Auth, validation and not-found answers use ElevenLabs' bodies.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { magicKey, route, type HandlerOptions } from './layout.ts';
import { hashSeed } from './seeded-random.ts';
import { DEFAULT_SPEECH_MODEL_ID, MODEL_CHARACTER_LIMITS, isKnownSpeechModel } from '../domain/speech.ts';
import { buildSpokenMp3 } from './speech-audio.ts';

/** Texts that make the simulator fail the way ElevenLabs does (for demos and tests; `sandbox:…` too). */
export const SPEECH_MAGIC_TEXTS = Object.freeze({
  /** 401 quota_exceeded, the live shape of an exhausted character quota. */
  quotaExceeded: 'sandbox-quota',
  /** 429 system_busy. */
  systemBusy: 'sandbox-busy',
});

interface VoiceSeed {
  id: string;
  name: string;
  accent: string;
  age: string;
  gender: string;
  description: string;
  useCase: string;
}

// ElevenLabs' long-standing premade voices (public ids, shown in their docs and voice library).
// prettier-ignore
const VOICE_SEEDS: readonly VoiceSeed[] = [
  { id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', accent: 'american', age: 'young', gender: 'female', description: 'calm', useCase: 'narration' },
  { id: 'AZnzlk1XvdvUeBnXmlld', name: 'Domi', accent: 'american', age: 'young', gender: 'female', description: 'strong', useCase: 'narration' },
  { id: 'EXAVITQu4vr4xnSDxMaL', name: 'Bella', accent: 'american', age: 'young', gender: 'female', description: 'soft', useCase: 'narration' },
  { id: 'ErXwobaYiN019PkySvjV', name: 'Antoni', accent: 'american', age: 'young', gender: 'male', description: 'well-rounded', useCase: 'narration' },
  { id: 'TxGEqnHWrfWFTfGW9XjX', name: 'Josh', accent: 'american', age: 'young', gender: 'male', description: 'deep', useCase: 'narration' },
  { id: 'VR6AewLTigWG4xSOukaG', name: 'Arnold', accent: 'american', age: 'middle aged', gender: 'male', description: 'crisp', useCase: 'narration' },
  { id: 'pNInz6obpgDQGcFmaJgB', name: 'Adam', accent: 'american', age: 'middle aged', gender: 'male', description: 'deep', useCase: 'narration' },
  { id: 'onwK4e9ZLuTAKqWW03F9', name: 'Daniel', accent: 'british', age: 'middle aged', gender: 'male', description: 'authoritative', useCase: 'news' },
  { id: 'XB0fDUnXU5powFXDhCwa', name: 'Charlotte', accent: 'swedish', age: 'young', gender: 'female', description: 'warm', useCase: 'characters' },
];

export const SANDBOX_VOICE_IDS: readonly string[] = VOICE_SEEDS.map((v) => v.id);

function voiceBody(v: VoiceSeed): Record<string, unknown> {
  return {
    voice_id: v.id,
    name: v.name,
    samples: null,
    category: 'premade',
    fine_tuning: {
      is_allowed_to_fine_tune: true,
      state: {},
      verification_failures: [],
      verification_attempts_count: 0,
      manual_verification_requested: false,
      verification_attempts: null,
    },
    labels: {
      accent: v.accent,
      description: v.description,
      age: v.age,
      gender: v.gender,
      use_case: v.useCase,
    },
    description: null,
    preview_url: `https://storage.googleapis.com/eleven-public-prod/premade/voices/${v.id}/preview.mp3`,
    available_for_tiers: [],
    settings: null,
    sharing: null,
    high_quality_base_model_ids: ['eleven_turbo_v2', 'eleven_multilingual_v2', 'eleven_turbo_v2_5'],
    verified_languages: [],
    safety_control: null,
    voice_verification: { requires_verification: false, is_verified: false, verification_failures: [] },
    permission_on_resource: null,
    is_owner: false,
    is_legacy: false,
    is_mixed: false,
    created_at_unix: null,
  };
}

export { buildSilentMp3, MP3_FRAME_HEADER } from './speech-audio.ts';

function errorDetail(status: number, code: string, message: string, type: string): Response {
  return HttpResponse.json(
    {
      detail: {
        type,
        code,
        message,
        status: code,
        request_id: hashSeed(code, message).toString(16).padStart(8, '0').repeat(4),
      },
    },
    { status },
  );
}

function checkKey(request: Request, opts: HandlerOptions): Response | undefined {
  const key = request.headers.get('xi-api-key');
  if (key === null || key === '') {
    // The legacy shape, as ElevenLabs still sends it for a request without any credential.
    return HttpResponse.json(
      {
        detail: {
          status: 'needs_authorization',
          message: 'Neither authorization header nor xi-api-key received, please provide one.',
        },
      },
      { status: 401 },
    );
  }
  if (opts.credential !== undefined && key !== opts.credential) {
    return errorDetail(401, 'invalid_api_key', 'Invalid API key', 'authentication_error');
  }
  return undefined;
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text()) as unknown;
  } catch {
    return undefined;
  }
}

function validationError(loc: (string | number)[], type: string, msg: string, input: unknown): Response {
  return HttpResponse.json({ detail: [{ type, loc, msg, input }] }, { status: 422 });
}

/** Why ElevenLabs would refuse to speak `text`, in its order of checks; undefined when it would not. */
function refusal(text: string, modelId: string, voiceId: string): Response | undefined {
  const limit = isKnownSpeechModel(modelId) ? MODEL_CHARACTER_LIMITS[modelId] : undefined;
  if (limit === undefined) {
    return errorDetail(
      400,
      'model_not_found',
      `A model with model ID ${modelId} does not exist.`,
      'validation_error',
    );
  }
  if (!SANDBOX_VOICE_IDS.includes(voiceId)) {
    return errorDetail(
      404,
      'voice_not_found',
      `A voice with voice_id '${voiceId}' was not found.`,
      'not_found',
    );
  }
  const characters = [...text].length;
  if (text.trim() === '') {
    return errorDetail(400, 'empty_text', 'The text you provided is empty.', 'validation_error');
  }
  if (characters > limit) {
    return errorDetail(
      400,
      'max_character_limit_exceeded',
      `You are sending ${characters} characters. The maximum for ${modelId} is ${limit} characters per request.`,
      'validation_error',
    );
  }
  if (magicKey(text) === SPEECH_MAGIC_TEXTS.quotaExceeded) {
    return HttpResponse.json(
      {
        detail: {
          status: 'quota_exceeded',
          message: `This request exceeds your quota of 10000. You have 0 credits remaining, while ${characters} credits are required for this request.`,
        },
      },
      { status: 401 },
    );
  }
  if (magicKey(text) === SPEECH_MAGIC_TEXTS.systemBusy) {
    return errorDetail(
      429,
      'system_busy',
      'We are experiencing high traffic at the moment. Please try again later.',
      'rate_limit_error',
    );
  }
  return undefined;
}

/** The spoken text as an MP3, with ElevenLabs' headers. */
function audioResponse(text: string, voiceId: string, modelId: string): Response {
  const characters = [...text].length;
  const seed = hashSeed(voiceId, modelId, text).toString(16).padStart(8, '0');
  const audio = buildSpokenMp3(text);
  return new HttpResponse(audio, {
    status: 200,
    headers: {
      'content-type': 'audio/mpeg',
      'content-length': String(audio.byteLength),
      'request-id': seed.repeat(4),
      'history-item-id': `${seed}${seed.slice(0, 4)}`.slice(0, 20),
      'x-character-count': String(characters),
      'character-cost': String(characters),
      'current-concurrent-requests': '1',
      'maximum-concurrent-requests': '5',
    },
  });
}

export function speechHandlers(opts: HandlerOptions = {}): RequestHandler[] {
  return [
    http.get(route('speech', '/voices'), ({ request }) => {
      const denied = checkKey(request, opts);
      if (denied) return denied;
      return HttpResponse.json({ voices: VOICE_SEEDS.map(voiceBody) });
    }),

    http.post(route('speech', '/text-to-speech/:voiceId'), async ({ request, params }) => {
      const denied = checkKey(request, opts);
      if (denied) return denied;
      const body = await readJson(request);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return validationError(['body', 0], 'json_invalid', 'JSON decode error', {});
      }
      const { text, model_id: modelField } = body as { text?: unknown; model_id?: unknown };
      if (text === undefined) return validationError(['body', 'text'], 'missing', 'Field required', body);
      if (typeof text !== 'string') {
        return validationError(['body', 'text'], 'string_type', 'Input should be a valid string', text);
      }
      const modelId = typeof modelField === 'string' ? modelField : DEFAULT_SPEECH_MODEL_ID;
      const voiceId = String(params.voiceId);
      const refused = refusal(text, modelId, voiceId);
      if (refused) return refused;
      return audioResponse(text, voiceId, modelId);
    }),
  ];
}
