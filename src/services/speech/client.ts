// S5 speech synthesis: ElevenLabs v1 (docs/SERVICES.md S5).
// https://elevenlabs.io/docs/api-reference/text-to-speech/convert
import { type CallOptions, type ProviderErrorReader, bodyExcerpt } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { characterLimitOf, countCharacters, isKnownSpeechModel } from '../../domain/speech.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { SpeechErrorResponse, VoiceResponse, VoicesResponse, type VoiceWire } from './schemas.ts';
import { ownEntry } from '../../domain/lookup.ts';

export interface SpeechConfig {
  baseUrl: string;
  apiKey: string;
  modelId: string;
  voiceId: string;
}

export interface Voice {
  id: string;
  name: string;
  /** premade, cloned, generated, professional; absent from some voices. */
  category: string | undefined;
  labels: Record<string, string>;
  previewUrl: string | undefined;
}

export interface Audio {
  bytes: Uint8Array;
  contentType: string;
  /** The voice that spoke: the one asked for, or the configured default. */
  voiceId?: string;
}

export interface SpeechClient extends Closable {
  synthesize(q: { text: string; voiceId?: string; modelId?: string }, opts?: CallOptions): Promise<Audio>;
  voices(opts?: CallOptions): Promise<Voice[]>;
}

/** The voice list changes rarely, so it is kept for an hour. */
export const VOICES_CACHE_TTL_MS = 60 * 60 * 1000;

/** ElevenLabs' `detail.code` / `detail.status` values that say more than the HTTP status. */
const DETAIL_CODES: Readonly<Record<string, ServiceErrorCode>> = {
  // Quota exhaustion arrives as 401 (seen live) or 402; it clears with time or a plan change.
  quota_exceeded: 'rate_limited',
  insufficient_credits: 'rate_limited',
  too_many_concurrent_requests: 'rate_limited',
  concurrent_limit_exceeded: 'rate_limited',
  system_busy: 'rate_limited',
  rate_limit_exceeded: 'rate_limited',
  invalid_api_key: 'unauthorized',
  missing_api_key: 'unauthorized',
  needs_authorization: 'unauthorized',
  missing_permissions: 'forbidden',
  feature_not_available: 'forbidden',
  subscription_required: 'forbidden',
  payment_required: 'forbidden',
  voice_not_found: 'not_found',
  max_character_limit_exceeded: 'invalid_request',
  text_too_long: 'invalid_request',
  empty_text: 'invalid_request',
  model_not_found: 'invalid_request',
  unsupported_model: 'invalid_request',
  invalid_output_format: 'invalid_request',
  invalid_voice_settings: 'invalid_request',
  service_unavailable: 'unavailable',
};

/** The codes of a used-up plan (characters, credits): it renews with the billing period, not in seconds. */
const USED_UP: ReadonlySet<string> = new Set(['quota_exceeded', 'insufficient_credits']);

/** Keys on `detail.code || detail.status` before the HTTP status: a used-up quota can come as a 401. */
export const readSpeechError: ProviderErrorReader = ({ body, text }) => {
  const parsed = SpeechErrorResponse.safeParse(body);
  if (!parsed.success) return { message: bodyExcerpt(text) };
  const detail = parsed.data.detail;
  if (typeof detail === 'string') return { message: detail };
  if (Array.isArray(detail)) {
    const issues = detail.map((i) => `${(i.loc ?? []).join('.')}: ${i.msg ?? i.type ?? 'invalid'}`);
    return { message: issues.join('; '), code: 'invalid_request' };
  }
  const key = detail.code ?? detail.status;
  return {
    message: [key, detail.message].filter((p) => p !== undefined && p !== '').join(': ') || undefined,
    code: ownEntry(DETAIL_CODES, key),
    ...(key !== undefined && USED_UP.has(key) ? { exhausted: true } : {}),
  };
};

function toVoice(v: VoiceWire): Voice {
  const labels: Record<string, string> = {};
  for (const [k, value] of Object.entries(v.labels ?? {})) if (typeof value === 'string') labels[k] = value;
  return {
    id: v.voice_id,
    name: v.name,
    category: v.category ?? undefined,
    labels,
    previewUrl: v.preview_url ?? undefined,
  };
}

/**
 * How many voices left out are logged one by one; the rest are counted in one line, so that a
 * list of a million unusable entries (2 MiB) is not a million log lines.
 */
const SKIPPED_VOICES_LOGGED = 5;

/** The voices herald can offer; the first few it cannot (no id or no name) are logged, then counted. */
function usableVoices(voices: readonly unknown[], log: ClientDeps['log']): Voice[] {
  const out: Voice[] = [];
  let skipped = 0;
  voices.forEach((raw, index) => {
    const parsed = VoiceResponse.safeParse(raw);
    if (parsed.success) {
      out.push(toVoice(parsed.data));
      return;
    }
    skipped += 1;
    if (skipped > SKIPPED_VOICES_LOGGED) return;
    const id = (raw as { voice_id?: unknown } | null)?.voice_id;
    log?.warn(
      {
        service: 'speech',
        operation: 'voices',
        index,
        voiceId: typeof id === 'string' ? id.slice(0, 64) : undefined,
        problem: parsed.error.issues.map((i) => `${i.path.join('.') || '(voice)'}: ${i.message}`).join('; '),
      },
      'speech.voice_skipped',
    );
  });
  if (skipped > SKIPPED_VOICES_LOGGED) {
    log?.warn({ service: 'speech', operation: 'voices', skipped }, 'speech.voices_skipped');
  }
  return out;
}

function rejected(operation: string, reason: string): ServiceError {
  return new ServiceError({
    service: 'speech',
    operation,
    code: 'invalid_request',
    message: `speech.${operation} not sent: ${reason}`,
  });
}

export function createSpeechClient(config: SpeechConfig, deps: ClientDeps = {}): SpeechClient {
  const http = createServiceHttp(deps, {
    secrets: [config.apiKey],
    service: 'speech',
    baseUrl: config.baseUrl,
    headers: { 'xi-api-key': config.apiKey },
    readError: readSpeechError,
  });

  return {
    async synthesize(q, opts) {
      const voiceId = q.voiceId ?? config.voiceId;
      const modelId = q.modelId ?? config.modelId;
      if (q.text.trim() === '') throw rejected('synthesize', 'the text is empty');
      const limit = characterLimitOf(modelId);
      const length = countCharacters(q.text);
      // An unknown model is left for the provider to judge.
      if (isKnownSpeechModel(modelId) && length > limit) {
        throw rejected('synthesize', `${length} characters exceed ${modelId}'s limit of ${limit}`);
      }
      // A dot-only segment would be removed by URL normalisation even when percent-encoded.
      if (voiceId.trim() === '' || /^\.+$/.test(voiceId)) throw rejected('synthesize', 'no usable voice id');
      const res = await http.sendBytes(
        {
          service: 'speech',
          operation: 'synthesize',
          method: 'POST',
          path: path`/text-to-speech/${voiceId}`,
          headers: { accept: 'audio/mpeg' },
          body: { text: q.text, model_id: modelId },
        },
        opts,
      );
      const contentType = (res.contentType.split(';')[0] ?? '').trim().toLowerCase();
      if (!contentType.startsWith('audio/') || res.bytes.length === 0) {
        throw new ServiceError({
          service: 'speech',
          operation: 'synthesize',
          code: 'bad_response',
          status: 200,
          providerMessage: `expected audio, got ${res.bytes.length} bytes of ${contentType || 'no type'}`,
        });
      }
      return { bytes: res.bytes, contentType, voiceId };
    },

    async voices(opts) {
      return http.send(
        {
          service: 'speech',
          operation: 'voices',
          method: 'GET',
          path: '/voices',
          cacheTtlMs: VOICES_CACHE_TTL_MS,
        },
        VoicesResponse,
        opts,
        (wire) => usableVoices(wire.voices, deps.log),
      );
    },

    close: () => http.close(),
  };
}
