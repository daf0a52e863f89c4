// Wire schemas of ElevenLabs v1 (SPEC.md S5; API-NOTES.md "S5 Speech"). Unknown fields survive.
import { z } from 'zod';

export const VoiceResponse = z.looseObject({
  voice_id: z.string().min(1),
  name: z.string(),
  category: z.string(),
  /** A free-form string map; older voices send null. */
  labels: z.record(z.string(), z.string()).nullish(),
  preview_url: z.string().nullish(),
});

export const VoicesResponse = z.looseObject({
  voices: z.array(VoiceResponse),
});

/** The current and legacy `detail` objects: {status, message} or {type, code, status, message, request_id}. */
const ErrorDetail = z.looseObject({
  type: z.string().optional(),
  code: z.string().optional(),
  status: z.string().optional(),
  message: z.string().optional(),
  param: z.string().nullish(),
  request_id: z.string().optional(),
});

/** FastAPI's validation list (422). */
const ValidationIssue = z.looseObject({
  type: z.string().optional(),
  loc: z.array(z.union([z.string(), z.number()])).optional(),
  msg: z.string().optional(),
});

/** ElevenLabs' three error shapes (object detail, validation list, and FastAPI's plain string). */
export const SpeechErrorResponse = z.looseObject({
  detail: z.union([ErrorDetail, z.array(ValidationIssue), z.string()]),
});

export type VoiceWire = z.output<typeof VoiceResponse>;
export type SpeechErrorWire = z.output<typeof SpeechErrorResponse>;
