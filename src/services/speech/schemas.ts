// Wire schemas of ElevenLabs v1 (docs/SERVICES.md S5). Fields herald does not read are dropped.
import { z } from 'zod';

/**
 * One voice. ElevenLabs' newer SDK marks `name`, `category` and `labels` optional; herald needs the
 * id and the name (people choose by name), and shows the category and labels when present.
 */
export const VoiceResponse = z.object({
  voice_id: z.string().min(1),
  name: z.string().min(1),
  category: z.string().nullish(),
  /** A free-form map; older voices send null. Only string values are shown. */
  labels: z.record(z.string(), z.unknown()).nullish(),
  preview_url: z.string().nullish(),
});

/** Each voice is checked on its own (VoiceResponse), so that one odd voice cannot fail the list. */
export const VoicesResponse = z.object({
  voices: z.array(z.unknown()),
});

/** The current and legacy `detail` objects: {status, message} or {type, code, status, message, request_id}. */
const ErrorDetail = z.object({
  type: z.string().optional(),
  code: z.string().optional(),
  status: z.string().optional(),
  message: z.string().optional(),
  param: z.string().nullish(),
  request_id: z.string().optional(),
});

/** FastAPI's validation list (422). */
const ValidationIssue = z.object({
  type: z.string().optional(),
  loc: z.array(z.union([z.string(), z.number()])).optional(),
  msg: z.string().optional(),
});

/** ElevenLabs' three error shapes (object detail, validation list, and FastAPI's plain string). */
export const SpeechErrorResponse = z.object({
  detail: z.union([ErrorDetail, z.array(ValidationIssue), z.string()]),
});

export type VoiceWire = z.output<typeof VoiceResponse>;
