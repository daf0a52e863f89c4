// Wire shapes of Discord's execute-webhook endpoint (SPEC.md S7; API-NOTES.md "S7 Chat webhook").
// Success is 204 with no body, so only the request body and the error body have a shape here.
import { z } from 'zod';

/** Errors: `{message, code}`; form errors nest under `errors`; a 429 adds `retry_after` (float seconds). */
export const DiscordErrorResponse = z.looseObject({
  message: z.string(),
  code: z.number().int().optional(),
  retry_after: z.number().nonnegative().optional(),
  global: z.boolean().optional(),
  errors: z.record(z.string(), z.unknown()).optional(),
});

export interface EmbedPayload {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  timestamp?: string;
}

/** The JSON body of POST /{webhook.id}/{webhook.token}. */
export interface ExecuteWebhookPayload {
  content?: string;
  username?: string;
  embeds?: EmbedPayload[];
  allowed_mentions: { parse: ('roles' | 'users' | 'everyone')[] };
}

export type DiscordErrorWire = z.output<typeof DiscordErrorResponse>;
