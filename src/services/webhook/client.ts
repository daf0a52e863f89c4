// S7 chat webhook: Discord's execute webhook (SPEC.md S7; API-NOTES.md "S7 Chat webhook").
// https://discord.com/developers/docs/resources/webhook#execute-webhook
// Posts ask Discord to confirm (`wait=true`): only an answer carrying the created message counts as
// posted. Files go in the same request as multipart (`payload_json` plus `files[n]`).
// The token path segment is the credential: it is registered for redaction and never logged.
import { type CallOptions, type ProviderErrorReader, bodyExcerpt } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { DISCORD_LIMITS, discordLength as charCount, webhookUsernameProblem } from '../../domain/discord.ts';
import {
  CreatedMessage,
  DiscordErrorResponse,
  type EmbedPayload,
  type ExecuteWebhookPayload,
} from './schemas.ts';
import { z } from 'zod';

export interface WebhookConfig {
  /** Base URL carrying api/webhooks. */
  baseUrl: string;
  id: string;
  token: string;
}

/** An embed as Discord takes it (the wire shape in schemas.ts: field names are the same). */
export type WebhookEmbed = EmbedPayload;

/** A file uploaded with the message (an mp3, a chart PNG). */
export interface WebhookFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
  /** Alt text shown by Discord. */
  description?: string;
}

export interface WebhookMessage {
  content?: string;
  username?: string;
  embeds?: WebhookEmbed[];
  files?: WebhookFile[];
}

/** What Discord confirmed it created. */
export interface PostedMessage {
  /** The message's snowflake id. */
  id: string;
  channelId?: string;
}

export interface WebhookClient extends Closable {
  /**
   * Posts and waits for Discord's confirmation (`wait=true`); resolves with the created message.
   * An answer that is not a message (a 204, an HTML page) is a `bad_response` failure.
   * Mentions are always suppressed (allowed_mentions parse: []).
   */
  post(message: WebhookMessage, opts?: CallOptions): Promise<PostedMessage>;
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

function embedProblem(e: WebhookEmbed, i: number): string | undefined {
  const L = DISCORD_LIMITS;
  const fields = e.fields ?? [];
  if (charCount(e.title) > L.title) return `embeds[${i}].title is over ${L.title} characters`;
  if (charCount(e.description) > L.description)
    return `embeds[${i}].description is over ${L.description} characters`;
  if (fields.length > L.fields) return `embeds[${i}] has more than ${L.fields} fields`;
  for (const [j, f] of fields.entries()) {
    if (charCount(f.name) === 0 || charCount(f.value) === 0)
      return `embeds[${i}].fields[${j}] needs a name and a value`;
    if (charCount(f.name) > L.fieldName)
      return `embeds[${i}].fields[${j}].name is over ${L.fieldName} characters`;
    if (charCount(f.value) > L.fieldValue)
      return `embeds[${i}].fields[${j}].value is over ${L.fieldValue} characters`;
  }
  if (charCount(e.footer?.text) > L.footer) return `embeds[${i}].footer is over ${L.footer} characters`;
  if (e.color !== undefined && !(Number.isInteger(e.color) && e.color >= 0 && e.color <= L.color)) {
    return `embeds[${i}].color must be an integer from 0 to 0xFFFFFF`;
  }
  return undefined;
}

function embedLength(e: WebhookEmbed): number {
  let total = charCount(e.title) + charCount(e.description) + charCount(e.footer?.text);
  for (const f of e.fields ?? []) total += charCount(f.name) + charCount(f.value);
  return total;
}

function filesProblem(message: WebhookMessage): string | undefined {
  const L = DISCORD_LIMITS;
  const files = message.files ?? [];
  if (files.length > L.files) return `more than ${L.files} files`;
  const names = new Set<string>();
  let bytes = 0;
  for (const [i, f] of files.entries()) {
    if (f.name.trim() === '' || /[\\/]/.test(f.name)) return `files[${i}] needs a plain file name`;
    if (names.has(f.name)) return `files[${i}]: two files are named "${f.name}"`;
    names.add(f.name);
    if (f.bytes.byteLength > L.fileBytes) return `files[${i}] is over ${L.fileBytes} bytes`;
    bytes += f.bytes.byteLength;
  }
  if (bytes > L.uploadBytes) return `the files together are over ${L.uploadBytes} bytes`;
  for (const [i, e] of (message.embeds ?? []).entries()) {
    for (const url of [e.image?.url, e.thumbnail?.url]) {
      const name = url?.startsWith('attachment://') ? url.slice('attachment://'.length) : undefined;
      if (name !== undefined && !names.has(name))
        return `embeds[${i}] refers to ${url} but no file has that name`;
    }
  }
  return undefined;
}

/** Why Discord would refuse `name` as this post's username (1 to 80 characters once collapsed), or undefined. */
function usernameProblem(name: string): string | undefined {
  const collapsed = name.trim().replace(/\s+/g, ' ');
  const n = charCount(collapsed);
  if (n < 1 || n > DISCORD_LIMITS.username)
    return `username must be 1 to ${DISCORD_LIMITS.username} characters`;
  return webhookUsernameProblem(collapsed);
}

/** The first limit the message breaks, or undefined; Discord would answer 400 for each. */
export function findMessageProblem(message: WebhookMessage): string | undefined {
  const L = DISCORD_LIMITS;
  const embeds = message.embeds ?? [];
  if (charCount(message.content) === 0 && embeds.length === 0 && (message.files ?? []).length === 0)
    return 'the message is empty';
  if (charCount(message.content) > L.content) return `content is over ${L.content} characters`;
  if (message.username !== undefined) {
    const problem = usernameProblem(message.username);
    if (problem !== undefined) return problem;
  }
  if (embeds.length > L.embeds) return `more than ${L.embeds} embeds`;
  for (const [i, e] of embeds.entries()) {
    const problem = embedProblem(e, i);
    if (problem !== undefined) return problem;
  }
  if (embeds.reduce((n, e) => n + embedLength(e), 0) > L.embedsTotal)
    return `the embeds together are over ${L.embedsTotal} characters`;
  return filesProblem(message);
}

function failure(code: ServiceErrorCode, message: string, status?: number): ServiceError {
  return new ServiceError({ service: 'webhook', operation: 'post', code, status, message });
}

/** The JSON payload, with one `attachments` entry per file (ids match the `files[n]` parts). */
function toPayload(message: WebhookMessage): ExecuteWebhookPayload {
  const files = message.files ?? [];
  return {
    content: message.content,
    username: message.username,
    embeds: message.embeds,
    // Nothing herald posts may ping anyone (DESIGN.md); webhooks default to parsing users.
    allowed_mentions: { parse: [] },
    ...(files.length === 0
      ? {}
      : {
          attachments: files.map((f, id) =>
            f.description === undefined
              ? { id, filename: f.name }
              : { id, filename: f.name, description: f.description },
          ),
        }),
  };
}

/** `multipart/form-data` with `payload_json` and `files[n]`, encoded by the platform's own FormData. */
async function toMultipart(
  payload: ExecuteWebhookPayload,
  files: readonly WebhookFile[],
): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.append('payload_json', new Blob([JSON.stringify(payload)], { type: 'application/json' }));
  for (const [i, f] of files.entries()) {
    form.append(`files[${i}]`, new Blob([new Uint8Array(f.bytes)], { type: f.contentType }), f.name);
  }
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type') ?? 'multipart/form-data';
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType };
}

export function createWebhookClient(config: WebhookConfig, deps: ClientDeps = {}): WebhookClient {
  const http = createServiceHttp(deps, {
    secrets: [config.token],
    service: 'webhook',
    baseUrl: config.baseUrl,
    readError: readWebhookError,
  });
  const isUsable = (segment: string) => segment.trim() !== '' && !/^\.+$/.test(segment);

  return {
    async post(message, opts) {
      if (!isUsable(config.id) || !isUsable(config.token))
        throw failure('invalid_request', 'webhook.post not sent: the webhook id or token is empty');
      const problem = findMessageProblem(message);
      if (problem !== undefined) throw failure('invalid_request', `webhook.post not sent: ${problem}`);
      const payload = toPayload(message);
      const files = message.files ?? [];
      const multipart = files.length === 0 ? undefined : await toMultipart(payload, files);
      const answer = await http.send(
        {
          service: 'webhook',
          operation: 'post',
          method: 'POST',
          path: path`/${config.id}/${config.token}`,
          query: { wait: 'true' },
          ...(multipart
            ? { body: multipart.body, headers: { 'content-type': multipart.contentType } }
            : { body: payload }),
        },
        z.unknown(),
        opts,
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

    close: () => http.close(),
  };
}
