// S7 chat webhook: Discord's execute webhook (docs/SERVICES.md S7).
// https://discord.com/developers/docs/resources/webhook#execute-webhook
// Posts ask Discord to confirm (`wait=true`): only an answer carrying the created message counts as
// posted. Files go in the same request as multipart (`payload_json` plus `files[n]`).
// The token path segment is the credential: it is registered for redaction and never logged.
import {
  type CallOptions,
  type HttpRequest,
  type ProviderErrorReader,
  bodyExcerpt,
} from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import type { DiscordEmbed, DiscordFile, DiscordWebhookMessage } from '../../render/discord.ts';
import type { SlackFile, SlackMessage } from '../../render/slack.ts';
import { discordMessageUrl } from '../../domain/discord.ts';
import { watchRateLimit, type PostOptions } from './rate-limit.ts';
import {
  CreatedMessage,
  DiscordErrorResponse,
  WebhookObject,
  type ExecuteWebhookPayload,
  type PayloadAttachment,
} from './schemas.ts';
import { z } from 'zod';

export interface WebhookConfig {
  /** Base URL carrying api/webhooks (Discord) or services/T… (Slack). */
  baseUrl: string;
  id: string;
  token: string;
}

/** A destination's webhook: Discord's execute webhook, or a Slack incoming webhook (slack.ts). */
export interface WebhookDestination extends WebhookConfig {
  kind: 'discord' | 'slack';
}

/** An embed as Discord takes it. */
export type WebhookEmbed = DiscordEmbed;

/** A file uploaded with the message (an mp3, a chart PNG). */
export type WebhookFile = DiscordFile;

/**
 * A Slack post: the one Slack renderer's message, tagged so it cannot go to Discord. `files` only in
 * a post into a channel through the bot (uploaded beside it); an incoming webhook carries none, and
 * its renderer has said in the message which it left out.
 */
export interface SlackWebhookMessage extends SlackMessage {
  platform: 'slack';
  // None of a Discord post's parts, so code reading a WebhookMessage's Discord parts finds none here.
  content?: undefined;
  username?: undefined;
  embeds?: undefined;
  files?: SlackFile[];
}

/**
 * What a webhook post carries: a Discord message (src/render/discord.ts renderDiscordWebhook) or a
 * Slack one (platform: 'slack'). Each client posts only its own platform's.
 */
export type WebhookMessage = DiscordWebhookMessage | SlackWebhookMessage;

/** What Discord confirmed it created. */
export interface PostedMessage {
  /** The message's snowflake id. */
  id: string;
  channelId?: string;
}

/** A posted message as its platform named it: enough to find its address. */
export interface MessageRef {
  /** Discord's snowflake, Slack's `ts`. */
  messageId: string;
  /** The channel the platform said the message is in. */
  channelId?: string;
  /** Discord: the server (guild) the channel is in, when it is known. */
  guildId?: string;
}

/** How long a webhook's guild is kept: a webhook never changes guild; a day bounds a deleted one's. */
const WEBHOOK_GUILD_TTL_MS = 24 * 60 * 60_000;

export interface WebhookClient extends Closable {
  /**
   * Posts and waits for Discord's confirmation (`wait=true`); resolves with the created message.
   * An answer that is not a message (a 204, an HTML page) is a `bad_response` failure.
   * Mentions are always suppressed (allowed_mentions parse: []). `opts.onRateLimit` is told the
   * rate-limit facts of every answer, a failure's too.
   */
  post(message: WebhookMessage, opts?: PostOptions): Promise<PostedMessage>;
  /**
   * The address of a message this webhook posted, where the platform gives one (Discord; a Slack
   * incoming webhook names no message, so it has none); undefined when it cannot say.
   */
  messageLink?(ref: MessageRef, opts?: CallOptions): Promise<string | undefined>;
}

/**
 * A channel post made in parts (Slack: the message, then its files): what an earlier try already
 * posted, and where to record a part the moment it is posted, so that a retry sends only the rest.
 */
export interface PostProgress {
  /** The id of the message an earlier try posted (the outbox entry's receipt). */
  posted?: string | undefined;
  /** Records the posted message's id before the next part is sent. */
  record(id: string): Promise<void>;
}

/**
 * Posts into a chat channel through the bot's own connection (a Discord bot token's channel
 * message, Slack's chat.postMessage), and says at add time whether it can.
 */
export interface ChannelClient extends Closable {
  /** Posts `message` into the channel; resolves with the created message. As WebhookClient.post. */
  post(
    channelId: string,
    message: WebhookMessage,
    opts?: PostOptions & { progress?: PostProgress },
  ): Promise<PostedMessage>;
  /**
   * One sentence saying what to grant when the bot cannot post into the channel, else undefined.
   * `appPermissions`: Discord's bitfield from the interaction, when the caller has it.
   */
  check(channelId: string, opts?: CallOptions & { appPermissions?: string }): Promise<string | undefined>;
  /** The address of a message the bot posted; undefined when the platform cannot say (a DM). */
  messageLink(ref: MessageRef, opts?: CallOptions): Promise<string | undefined>;
  /** Sends `text` to a user privately (a schedule's creator), where the platform lets the bot. */
  directMessage?(userId: string, text: string, opts?: CallOptions): Promise<PostedMessage>;
}

/** Discord's JSON error codes that say more than the HTTP status. */
const DISCORD_CODES: Readonly<Record<number, ServiceErrorCode>> = {
  // Both mean "stop using this webhook": it was deleted, or its token was reset.
  10015: 'not_found',
  50027: 'unauthorized',
};

/** Flattens Discord's nested form errors into "embeds.0.title: Must be 256 or fewer in length." */
function formErrors(errors: unknown, prefix: string[] = [], out: string[] = []): string[] {
  if (!errors || typeof errors !== 'object' || out.length >= 5) return out;
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const e of value as { message?: unknown }[]) {
        out.push(`${prefix.join('.') || '(body)'}: ${typeof e.message === 'string' ? e.message : 'invalid'}`);
      }
    } else {
      formErrors(value, [...prefix, key], out);
    }
  }
  return out;
}

/** Reads `{message, code, errors}` and a 429's `retry_after` (float seconds, rounded up to ms). */
export const readWebhookError: ProviderErrorReader = ({ body, text }) => {
  const parsed = DiscordErrorResponse.safeParse(body);
  if (!parsed.success) return { message: bodyExcerpt(text) };
  const { message, code, retry_after: retryAfter, errors } = parsed.data;
  const details = formErrors(errors);
  return {
    message: [code === undefined ? message : `${message} (${code})`, ...details].join('; '),
    code: code === undefined ? undefined : DISCORD_CODES[code],
    retryAfterMs: retryAfter === undefined ? undefined : Math.ceil(retryAfter * 1000),
  };
};

function failure(code: ServiceErrorCode, message: string, status?: number): ServiceError {
  return new ServiceError({ service: 'webhook', operation: 'post', code, status, message });
}

/** The JSON payload, with one `attachments` entry per file (ids match the `files[n]` parts). */
export function toPayload(message: DiscordWebhookMessage): ExecuteWebhookPayload {
  const files = message.files ?? [];
  return {
    content: message.content,
    username: message.username,
    embeds: message.embeds,
    // Text from users or providers must never ping anyone; webhooks default to parsing users.
    allowed_mentions: { parse: [] },
    ...(files.length === 0 ? {} : { attachments: attachmentsOf(files) }),
  };
}

/** The payload's `attachments`: one entry per `files[n]` part, its id the part's index. */
export function attachmentsOf(files: readonly WebhookFile[]): PayloadAttachment[] {
  return files.map((f, id) =>
    f.description === undefined
      ? { id, filename: f.name }
      : { id, filename: f.name, description: f.description },
  );
}

/**
 * `multipart/form-data` with `payload_json` and `files[n]`, encoded by the platform's own FormData.
 * `payload_json` is a plain field, as Discord's example has it: a Blob would make it a file part
 * named "blob".
 */
async function toMultipart(
  payload: object,
  files: readonly WebhookFile[],
): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  for (const [i, f] of files.entries()) {
    form.append(`files[${i}]`, new Blob([new Uint8Array(f.bytes)], { type: f.contentType }), f.name);
  }
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type') ?? 'multipart/form-data';
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType };
}

/** A Discord post's body and its content-type: the payload as JSON, or multipart with its files. */
export async function messageBody(
  payload: object,
  files: readonly WebhookFile[],
): Promise<Pick<HttpRequest, 'body' | 'headers'>> {
  if (files.length === 0) return { body: payload };
  const { body, contentType } = await toMultipart(payload, files);
  return { body, headers: { 'content-type': contentType } };
}

export function createWebhookClient(config: WebhookConfig, deps: ClientDeps = {}): WebhookClient {
  const http = createServiceHttp(deps, {
    secrets: [config.token],
    service: 'webhook',
    baseUrl: config.baseUrl,
    readError: readWebhookError,
  });
  const now = deps.now ?? Date.now;
  const isUsable = (segment: string) => segment.trim() !== '' && !/^\.+$/.test(segment);

  return {
    async post(message, opts) {
      if (!isUsable(config.id) || !isUsable(config.token))
        throw failure('invalid_request', 'webhook.post not sent: the webhook id or token is empty');
      // The one Discord renderer keeps every limit; what it made is not checked again here.
      if ('platform' in message)
        throw failure(
          'invalid_request',
          'webhook.post not sent: a Slack message cannot go to a Discord webhook',
        );
      const answer = await http.send(
        {
          service: 'webhook',
          operation: 'post',
          method: 'POST',
          path: path`/${config.id}/${config.token}`,
          query: { wait: 'true' },
          ...(await messageBody(toPayload(message), message.files ?? [])),
        },
        z.unknown(),
        watchRateLimit(opts, now),
      );
      const created = CreatedMessage.safeParse(answer);
      if (!created.success) {
        // With wait=true Discord answers with the message; anything else is no proof it was saved.
        // An empty answer is a 204: Discord created the message without saying its id.
        throw answer === undefined
          ? failure('bad_response', 'webhook.post not confirmed: the webhook answered without a message', 204)
          : failure('bad_response', 'webhook.post not confirmed: the answer is not a Discord message');
      }
      const { id, channel_id: channelId } = created.data;
      return channelId === undefined ? { id } : { id, channelId };
    },

    // A message object names no guild; the webhook object (Get Webhook with Token) does, and it
    // never changes, so one GET per webhook is kept by the HTTP core's cache.
    async messageLink(ref, opts) {
      if (ref.channelId === undefined || !isUsable(config.id) || !isUsable(config.token)) return undefined;
      const webhook = await http.send(
        {
          service: 'webhook',
          operation: 'get',
          method: 'GET',
          path: path`/${config.id}/${config.token}`,
          cacheTtlMs: WEBHOOK_GUILD_TTL_MS,
        },
        WebhookObject,
        opts,
      );
      const guildId = webhook.guild_id ?? undefined;
      return guildId === undefined ? undefined : discordMessageUrl(guildId, ref.channelId, ref.messageId);
    },

    close: () => http.close(),
  };
}
