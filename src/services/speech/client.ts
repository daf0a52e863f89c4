import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

export interface SpeechConfig {
  baseUrl: string;
  apiKey: string;
  modelId: string;
  voiceId: string;
}

export interface Voice {
  id: string;
  name: string;
  category: string;
  labels: Record<string, string>;
  previewUrl: string | undefined;
}

export interface Audio {
  bytes: Uint8Array;
  contentType: string;
}

export interface SpeechClient extends Closable {
  synthesize(q: { text: string; voiceId?: string; modelId?: string }, opts?: CallOptions): Promise<Audio>;
  voices(opts?: CallOptions): Promise<Voice[]>;
}

/** Characters per request for each model (API-NOTES.md, S5 "Models"). */
export declare const MODEL_CHARACTER_LIMITS: Readonly<Record<string, number>>;
export declare function createSpeechClient(config: SpeechConfig, deps?: ClientDeps): SpeechClient;
