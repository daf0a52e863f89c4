// Discord's interaction webhook: once an interaction has its first answer, its token is a webhook's
// token for 15 minutes, used without the bot token (docs/SERVICES.md S7). Edit Original Interaction
// Response, PATCH /webhooks/{application.id}/{interaction.token}/messages/@original; Create Followup
// Message, POST /webhooks/{application.id}/{interaction.token}; Delete Original Interaction Response.
// https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages
// JSON, or multipart with `payload_json` and `files[n]` as an executed webhook's (messageBody).
// These routes are outside the bot's global rate limit; a route's 429 is waited out (`retry_after`).
// The token is a path segment: redact.ts blanks `/webhooks/<id>/<token>` in any text, and the HTTP
// core logs no path; a token lives 15 minutes, so none is registered as a secret.
import type { CallOptions } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import type { DiscordMessage } from '../../render/discord.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { attachmentsOf, messageBody, readWebhookError } from './client.ts';

export interface InteractionWebhookConfig {
  /** The REST base without the version (DISCORD_API_URL), e.g. https://discord.com/api. */
  apiUrl: string;
  applicationId: string;
}

/** What answers an interaction after its first answer; every call needs only its token. */
export interface InteractionWebhookClient extends Closable {
  /** Replaces the original response (the deferred message): its text, embeds, buttons and files. */
  editOriginal(token: string, message: DiscordMessage, opts?: CallOptions): Promise<void>;
  /** A new message under the interaction; private when the message's flags say so. */
  followUp(token: string, message: DiscordMessage, opts?: CallOptions): Promise<void>;
  deleteOriginal(token: string, opts?: CallOptions): Promise<void>;
}

/** The message as the webhook routes take it: its files' parts named in `attachments`. */
function toPayload(message: DiscordMessage, withFlags: boolean) {
  return {
    content: message.content,
    embeds: message.embeds,
    components: message.components,
    allowed_mentions: message.allowed_mentions,
    // An edit's list replaces the message's files: an earlier page's go away.
    attachments: attachmentsOf(message.files),
    // The original response's visibility was fixed by its deferral; only a follow-up sets its own.
    ...(withFlags && message.flags !== 0 ? { flags: message.flags } : {}),
  };
}

export function createInteractionWebhookClient(
  config: InteractionWebhookConfig,
  deps: ClientDeps = {},
): InteractionWebhookClient {
  const http = createServiceHttp(
    // The bot's 5-in-2-seconds webhook rate is an executed webhook's, not an interaction's.
    { ...deps, httpOptions: { ...deps.httpOptions, providerRateLimit: false } },
    { secrets: [], service: 'webhook', baseUrl: config.apiUrl, readError: readWebhookError },
  );
  const app = config.applicationId;
  return {
    async editOriginal(token, message, opts) {
      await http.sendEmpty(
        {
          service: 'webhook',
          operation: 'edit',
          method: 'PATCH',
          path: path`/v10/webhooks/${app}/${token}/messages/@original`,
          // The edit sets the whole message: a repeat changes nothing.
          retryable: true,
          ...(await messageBody(toPayload(message, false), message.files)),
        },
        opts,
      );
    },
    async followUp(token, message, opts) {
      await http.sendEmpty(
        {
          service: 'webhook',
          operation: 'follow_up',
          method: 'POST',
          path: path`/v10/webhooks/${app}/${token}`,
          // A repeat after a 5xx could post twice; a 429 was refused unread.
          retryable: 'after-429',
          ...(await messageBody(toPayload(message, true), message.files)),
        },
        opts,
      );
    },
    async deleteOriginal(token, opts) {
      await http.sendEmpty(
        {
          service: 'webhook',
          operation: 'delete',
          method: 'DELETE',
          path: path`/v10/webhooks/${app}/${token}/messages/@original`,
        },
        opts,
      );
    },
    close: () => http.close(),
  };
}
