// A Discord post as herald sends it and reads its answer, for webhook and channel posts alike
// (discord-webhook.ts, discord-channel.ts) and an interaction's follow-ups (discord-interaction.ts).
// What @discordjs/rest does not serve, since it sends any body and hands back any answer: mentions
// suppressed unless a schedule's ping: lists them (a webhook parses user mentions by default:
// https://discord.com/developers/docs/resources/message#allowed-mentions-object); `attachments`
// naming each `files[n]` part by its index, and an edit naming every part so that what it drops goes
// (https://discord.com/developers/docs/reference#uploading-files); only an answer carrying the
// created message counts as posted; Discord's codes read as the destination refusing herald, in a
// sentence naming where. Shown by test/adapters/discord/contract.test.ts,
// test/adapters/discord/landing-contract.test.ts and test/safety/mentions.test.ts.
import type { RawFile } from '@discordjs/rest';
import { z } from 'zod';
import { ServiceError } from '../../errors.ts';
import type { DiscordFile, DiscordWebhookMessage } from '../../render/discord.ts';
import type { Landing, PostedMessage, WebhookMessage } from './client.ts';

/** The message Discord created: a snowflake id, and more that herald keeps but does not need. */
const CreatedMessage = z.object({
  id: z.string().regex(/^\d{1,20}$/, 'a message id is a snowflake'),
  channel_id: z.string().optional(),
});

/** A `files[n]` part as the JSON payload names it: `id` is n. */
interface PayloadAttachment {
  id: number;
  filename: string;
  description?: string;
}

/** The payload's `attachments`: one entry per `files[n]` part, its id the part's index. */
export function attachmentsOf(files: readonly DiscordFile[]): PayloadAttachment[] {
  return files.map((f, id) =>
    f.description === undefined
      ? { id, filename: f.name }
      : { id, filename: f.name, description: f.description },
  );
}

/** The files as the SDK sends them: `files[n]`, in the payload's order. */
export function rawFiles(files: readonly DiscordFile[] | undefined): RawFile[] | undefined {
  if (!files || files.length === 0) return undefined;
  return files.map((f) => ({ name: f.name, data: f.bytes, contentType: f.contentType }));
}

/** A webhook or channel post's JSON payload (or its `payload_json` part with files). */
export function postPayload(message: DiscordWebhookMessage): Record<string, unknown> {
  const files = message.files ?? [];
  return {
    content: message.content,
    username: message.username,
    embeds: message.embeds,
    // Text from users or providers must never ping anyone (webhooks default to parsing users): only
    // the roles and users the renderer lists from a schedule's ping:.
    allowed_mentions: message.allowed_mentions ?? { parse: [] },
    ...(files.length === 0 ? {} : { attachments: attachmentsOf(files) }),
  };
}

/**
 * An edit's payload: every part named, so that what the earlier post had and this one has not
 * (text, embeds, files: `attachments` lists the ones kept) goes. A webhook's name is not editable.
 */
export function editPayload(message: DiscordWebhookMessage): Record<string, unknown> {
  const { username: _name, ...post } = postPayload(message);
  return {
    ...post,
    content: message.content ?? '',
    embeds: message.embeds ?? [],
    attachments: attachmentsOf(message.files ?? []),
  };
}

/** Discord's JSON code of a failure: discord-rest.ts writes it after Discord's message, "Unknown Message (10008)". */
export function discordCodeOf(err: unknown): string | undefined {
  return err instanceof ServiceError ? /\((\d+)\)/.exec(err.providerMessage ?? '')?.[1] : undefined;
}

/** The message (10008) or the thread (10003) a landing names is gone: the post starts afresh. */
const isGone = (err: unknown, code: '10003' | '10008') => discordCodeOf(err) === code;

/** A thread's name as Discord takes it: 1-100 characters. */
export const threadName = (lands: Landing) => lands.title.slice(0, 100) || 'herald';

/** What each of Discord's refusals means, as the person who added the schedule can act on it. */
const REFUSAL_MEANS: Readonly<Record<string, string>> = {
  '10003': 'Discord says the channel no longer exists',
  '10015': 'Discord says the webhook was deleted or its token reset',
  '50001': 'Discord says herald cannot see the channel (not in the server, or no View Channel)',
  '50013': 'Discord says herald lacks Send Messages, Embed Links or Attach Files there',
  '220003':
    'a Discord webhook starts a thread only in a forum channel; add the schedule in the channel itself (without to:) for thread:yes',
};
/** The codes that are refusals here though not everywhere (discord-rest.ts's are the channel's and webhook's). */
const LANDING_REFUSALS = new Set(['220003']);

/**
 * A refusal's error with a sentence naming where (`<#id>`, as Discord shows a channel, or "the
 * webhook"): its message is what a schedule's history and its creator are told.
 */
export function placed(err: unknown, where: string): Error {
  const code = discordCodeOf(err);
  const refusal =
    err instanceof ServiceError && code !== undefined && LANDING_REFUSALS.has(code)
      ? { platform: 'discord' as const, code }
      : err instanceof ServiceError
        ? err.refusal
        : undefined;
  if (!(err instanceof ServiceError) || refusal === undefined)
    return err instanceof Error ? err : new Error(String(err));
  const means = REFUSAL_MEANS[refusal.code] ?? 'Discord refuses herald there';
  return new ServiceError({
    service: err.service,
    operation: err.operation,
    code: err.code,
    status: err.status,
    providerMessage: err.providerMessage,
    refusal,
    message: `herald cannot post to ${where}: ${means}`,
  });
}

export function notSent(operation: string, message: string): ServiceError {
  return new ServiceError({ service: 'webhook', operation, code: 'invalid_request', message });
}

/** A Discord message from a post, else the failure of a message meant for Slack. */
export function discordOnly(message: WebhookMessage, operation: string): DiscordWebhookMessage {
  if ('platform' in message)
    throw notSent(operation, `webhook.${operation} not sent: a Slack message cannot go to Discord`);
  return message;
}

/** The created message of an answer, else a `bad_response`: no proof the post was saved. */
export function createdOf(answer: { status: number; data: unknown }, operation: string): PostedMessage {
  const created = CreatedMessage.safeParse(answer.data);
  if (created.success) {
    const { id, channel_id: channelId } = created.data;
    return channelId === undefined ? { id } : { id, channelId };
  }
  // An empty answer is a 204: Discord created the message without saying its id.
  const empty = answer.data === undefined;
  throw new ServiceError({
    service: 'webhook',
    operation,
    code: 'bad_response',
    status: empty ? 204 : undefined,
    message: empty
      ? `webhook.${operation} not confirmed: the webhook answered without a message`
      : `webhook.${operation} not confirmed: the answer is not a Discord message`,
  });
}

/** A path segment as it goes on the wire: an id or a token never reaches into another segment. */
export const seg = (value: string) => encodeURIComponent(value);

/** `work`'s answer, or undefined when Discord says what it names is gone (`code`). */
export async function unlessGone<T>(work: Promise<T>, code: '10003' | '10008'): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (isGone(err, code)) return undefined;
    throw err;
  }
}
