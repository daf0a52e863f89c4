// Wire shapes of Discord's execute-webhook endpoint (docs/SERVICES.md S7).
// herald posts with `wait=true`, so success is 200 with the created message (a 204 means the post
// was not confirmed); errors are `{message, code}` with form errors nested under `errors`.
import { z } from 'zod';
import type { DiscordEmbed } from '../../render/discord.ts';

/** Errors: `{message, code}`; form errors nest under `errors`; a 429 adds `retry_after` (float seconds). */
export const DiscordErrorResponse = z.object({
  message: z.string(),
  code: z.number().int().optional(),
  retry_after: z.number().nonnegative().optional(),
  global: z.boolean().optional(),
  errors: z.record(z.string(), z.unknown()).optional(),
});

/** The message Discord created (`?wait=true`): a snowflake id, and more that herald keeps but does not need. */
export const CreatedMessage = z.object({
  id: z.string().regex(/^\d{1,20}$/, 'a message id is a snowflake'),
  channel_id: z.string().optional(),
  webhook_id: z.string().optional(),
  attachments: z.array(z.object({ id: z.string(), filename: z.string() })).optional(),
});

/** Get Webhook with Token: the webhook object, of which herald reads the guild (null or absent outside one). */
export const WebhookObject = z.object({
  id: z.string(),
  guild_id: z.string().nullable().optional(),
  channel_id: z.string().nullable().optional(),
});

/** The JSON body of POST /{webhook.id}/{webhook.token}, or its `payload_json` part with files. */
export interface ExecuteWebhookPayload {
  content?: string;
  username?: string;
  embeds?: DiscordEmbed[];
  allowed_mentions: { parse: ('roles' | 'users' | 'everyone')[] };
  /** One per `files[n]` part, in order; `attachment://<filename>` in an embed refers to it. */
  attachments?: PayloadAttachment[];
}

/** A `files[n]` part as the JSON payload names it: `id` is n. */
export interface PayloadAttachment {
  id: number;
  filename: string;
  description?: string;
}

export type DiscordErrorWire = z.output<typeof DiscordErrorResponse>;
