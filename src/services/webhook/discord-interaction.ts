// Discord's interaction webhook: once an interaction has its first answer, its token is a webhook
// token for 15 minutes, used without the bot token. Edit Original Interaction Response, Create
// Followup Message and Delete Original Interaction Response
// (https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages),
// through the one Discord request path (discord-rest.ts). These routes are outside the bot's
// global limit: they never take from the shared budget, and a route's 429 is waited out.
import type { CallOptions } from '../../http/client.ts';
import { ServiceError } from '../../errors.ts';
import type { DiscordMessage } from '../../render/discord.ts';
import type { Closable } from '../deps.ts';
import { attachmentsOf, rawFiles } from './discord-message.ts';
import { createDiscordRest, type DiscordRequest, type DiscordRestDeps } from './discord-rest.ts';

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

/** The message as the interaction routes take it: its files' parts named in `attachments`. */
function interactionPayload(message: DiscordMessage, withFlags: boolean): Record<string, unknown> {
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

/** Whether a failed edit may be sent again: the edit sets the whole message, a repeat changes nothing. */
const isPassing = (err: unknown) =>
  err instanceof ServiceError && ['upstream', 'unavailable', 'network', 'timeout'].includes(err.code);

export function createInteractionWebhookClient(
  config: InteractionWebhookConfig,
  deps: DiscordRestDeps = {},
): InteractionWebhookClient {
  const rest = createDiscordRest(
    { api: config.apiUrl, versioned: true, caller: { kind: 'interaction' } },
    // Interaction responses never take from the shared budget.
    { ...deps, rateBudget: undefined },
  );
  const app = config.applicationId;
  return {
    async editOriginal(token, message, opts) {
      // One request, sent once more should it fail in passing.
      const edit = {
        operation: 'edit',
        method: 'PATCH',
        route: (routes) => routes.webhookMessage(app, token, '@original'),
        body: interactionPayload(message, false),
        files: rawFiles(message.files),
        signal: opts?.signal,
      } satisfies DiscordRequest;
      try {
        await rest.send(edit);
      } catch (err) {
        if (!isPassing(err) || opts?.signal?.aborted) throw err;
        await rest.send(edit);
      }
    },
    async followUp(token, message, opts) {
      // Never repeated after a failure: a repeat could post twice.
      await rest.send({
        operation: 'follow_up',
        method: 'POST',
        route: (routes) => routes.webhook(app, token),
        body: interactionPayload(message, true),
        files: rawFiles(message.files),
        signal: opts?.signal,
      });
    },
    async deleteOriginal(token, opts) {
      await rest.send({
        operation: 'delete',
        method: 'DELETE',
        route: (routes) => routes.webhookMessage(app, token, '@original'),
        signal: opts?.signal,
      });
    },
    close: () => rest.close(),
  };
}
