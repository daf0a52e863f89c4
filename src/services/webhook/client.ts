// S7 chat webhook: Discord's execute webhook (SPEC.md S7; API-NOTES.md "S7 Chat webhook").
// https://discord.com/developers/docs/resources/webhook#execute-webhook
// The token path segment is the credential: it is registered for redaction and never logged.
import { type CallOptions, type ProviderErrorReader, bodyExcerpt } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { registerSecret } from '../../http/redact.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { DiscordErrorResponse, type ExecuteWebhookPayload } from './schemas.ts';

export interface WebhookConfig {
  /** Base URL carrying api/webhooks. */
  baseUrl: string;
  id: string;
  token: string;
}

export interface WebhookEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  timestamp?: string;
}

export interface WebhookMessage {
  content?: string;
  username?: string;
  embeds?: WebhookEmbed[];
}

export interface WebhookClient extends Closable {
  /** Resolves on 204. Mentions are always suppressed (allowed_mentions parse: []). */
  post(message: WebhookMessage, opts?: CallOptions): Promise<void>;
}

/** Discord's documented message and embed limits, in characters after trimming. */
export const WEBHOOK_LIMITS = Object.freeze({
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** Title, description, field names and values and footers of all embeds together. */
  total: 6000,
  username: 80,
  color: 0xffffff,
});

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

function length(text: string | undefined): number {
  return text === undefined ? 0 : [...text.trim()].length;
}

/** The first limit the message breaks, or undefined; Discord would answer 400 for each. */
export function findMessageProblem(message: WebhookMessage): string | undefined {
  const L = WEBHOOK_LIMITS;
  const embeds = message.embeds ?? [];
  if (length(message.content) === 0 && embeds.length === 0) return 'the message is empty';
  if (length(message.content) > L.content) return `content is over ${L.content} characters`;
  if (message.username !== undefined) {
    const name = length(message.username);
    if (name < 1 || name > L.username) return `username must be 1 to ${L.username} characters`;
    if (/discord|clyde/i.test(message.username)) return 'username must not contain "discord" or "clyde"';
  }
  if (embeds.length > L.embeds) return `more than ${L.embeds} embeds`;
  let total = 0;
  for (const [i, e] of embeds.entries()) {
    const fields = e.fields ?? [];
    if (length(e.title) > L.title) return `embeds[${i}].title is over ${L.title} characters`;
    if (length(e.description) > L.description)
      return `embeds[${i}].description is over ${L.description} characters`;
    if (fields.length > L.fields) return `embeds[${i}] has more than ${L.fields} fields`;
    for (const [j, f] of fields.entries()) {
      if (length(f.name) === 0 || length(f.value) === 0)
        return `embeds[${i}].fields[${j}] needs a name and a value`;
      if (length(f.name) > L.fieldName)
        return `embeds[${i}].fields[${j}].name is over ${L.fieldName} characters`;
      if (length(f.value) > L.fieldValue)
        return `embeds[${i}].fields[${j}].value is over ${L.fieldValue} characters`;
    }
    if (length(e.footer?.text) > L.footer) return `embeds[${i}].footer is over ${L.footer} characters`;
    if (e.color !== undefined && !(Number.isInteger(e.color) && e.color >= 0 && e.color <= L.color)) {
      return `embeds[${i}].color must be an integer from 0 to 0xFFFFFF`;
    }
    total += length(e.title) + length(e.description) + length(e.footer?.text);
    for (const f of fields) total += length(f.name) + length(f.value);
  }
  if (total > L.total) return `the embeds together are over ${L.total} characters`;
  return undefined;
}

function rejected(reason: string): ServiceError {
  return new ServiceError({
    service: 'webhook',
    operation: 'post',
    code: 'invalid_request',
    message: `webhook.post not sent: ${reason}`,
  });
}

export function createWebhookClient(config: WebhookConfig, deps: ClientDeps = {}): WebhookClient {
  registerSecret(config.token);
  const http = createServiceHttp(deps, {
    service: 'webhook',
    baseUrl: config.baseUrl,
    readError: readWebhookError,
  });
  const isUsable = (segment: string) => segment.trim() !== '' && !/^\.+$/.test(segment);

  return {
    async post(message, opts) {
      if (!isUsable(config.id) || !isUsable(config.token)) throw rejected('the webhook id or token is empty');
      const problem = findMessageProblem(message);
      if (problem !== undefined) throw rejected(problem);
      const body: ExecuteWebhookPayload = {
        content: message.content,
        username: message.username,
        embeds: message.embeds,
        // User-supplied text must never ping anyone (DESIGN.md); webhooks default to parsing users.
        allowed_mentions: { parse: [] },
      };
      await http.sendEmpty(
        {
          service: 'webhook',
          operation: 'post',
          method: 'POST',
          path: path`/${config.id}/${config.token}`,
          body,
        },
        opts,
      );
    },

    close: () => http.close(),
  };
}
