// A Discord webhook as a destination (S7, docs/SERVICES.md), on the one Discord REST client
// (discord-rest.ts). What @discordjs/rest does not serve: Execute Webhook counts as posted only with
// `wait=true` and the created message in its answer (without it Discord answers 204, and the SDK
// hands back whatever came: https://discord.com/developers/docs/resources/webhook#execute-webhook);
// the webhook's guild for a message link, from Get Webhook with Token, kept a day; where a
// schedule's post lands (`Landing`, docs/SCHEDULING.md): Edit Webhook Message for a status board, a
// new post when Discord says 10008 Unknown Message, replies with `thread_id`, and a thread started
// only in a forum channel (`thread_name`; elsewhere 220003)
// (https://discord.com/developers/docs/resources/webhook#edit-webhook-message). The webhook's token is
// registered for redaction. Shown by test/services/webhook.test.ts,
// test/adapters/discord/landing-contract.test.ts and test/schedule/message-links.test.ts.
import { z } from 'zod';
import { discordMessageUrl } from '../../domain/discord.ts';
import { registerSecret } from '../../redact.ts';
import type { DiscordWebhookMessage } from '../../render/discord.ts';
import type { LandingOptions, PostedMessage, WebhookClient, WebhookConfig } from './client.ts';
import {
  createdOf,
  discordOnly,
  editPayload,
  notSent,
  placed,
  postPayload,
  rawFiles,
  seg,
  threadName,
  unlessGone,
} from './discord-message.ts';
import { createDiscordRest, type DiscordRest, type DiscordRestDeps } from './discord-rest.ts';
import type { PostOptions } from './rate-limit.ts';

/** Get Webhook with Token: the webhook object, of which herald reads the guild. */
const WebhookObject = z.object({ id: z.string(), guild_id: z.string().nullable().optional() });

/** How long a webhook's guild is kept: a webhook never changes guild; a day bounds a deleted one's. */
const WEBHOOK_GUILD_TTL_MS = 24 * 60 * 60_000;

/**
 * Where a webhook is posted: a base ending in /webhooks (as every webhook address has it) gives the
 * SDK its base and Discord's webhook route, so its buckets are the webhook's; any other base is
 * posted to as it was given.
 */
function webhookPlace(config: WebhookConfig): { api: string; route: `/${string}` } {
  const base = config.baseUrl.replace(/\/+$/, '');
  const tail = `/${seg(config.id)}/${seg(config.token)}` as const;
  return base.endsWith('/webhooks')
    ? { api: base.slice(0, -'/webhooks'.length), route: `/webhooks${tail}` }
    : { api: base, route: tail };
}

const isUsable = (segment: string) => segment.trim() !== '' && !/^\.+$/.test(segment);

/** A webhook's route and the REST client it is sent on. */
interface WebhookRoute {
  rest: DiscordRest;
  route: `/${string}`;
}

/**
 * Execute Webhook with `wait=true`; `thread`: the thread it replies in (`thread_id`) or starts
 * (`thread_name`, in a forum channel only).
 */
async function execute(
  hook: WebhookRoute,
  discord: DiscordWebhookMessage,
  opts: PostOptions,
  thread?: { id: string } | { name: string },
): Promise<PostedMessage> {
  const query = new URLSearchParams({ wait: 'true' });
  if (thread && 'id' in thread) query.set('thread_id', thread.id);
  const body =
    thread && 'name' in thread ? { ...postPayload(discord), thread_name: thread.name } : postPayload(discord);
  const answer = await hook.rest
    .send({
      operation: 'post',
      method: 'POST',
      route: hook.route,
      query,
      body,
      files: rawFiles(discord.files),
      signal: opts.signal,
      onRateLimit: opts.onRateLimit,
    })
    .catch((err: unknown) => Promise.reject(placed(err, 'the webhook')));
  return createdOf(answer, 'post');
}

/** Edit Webhook Message: a message this webhook posted. */
async function editHooked(
  hook: WebhookRoute,
  discord: DiscordWebhookMessage,
  messageId: string,
  opts: PostOptions,
): Promise<PostedMessage> {
  const answer = await hook.rest
    .send({
      operation: 'edit',
      method: 'PATCH',
      route: `${hook.route}/messages/${seg(messageId)}`,
      body: editPayload(discord),
      files: rawFiles(discord.files),
      signal: opts.signal,
      onRateLimit: opts.onRateLimit,
    })
    .catch((err: unknown) => Promise.reject(placed(err, 'the webhook')));
  return createdOf(answer, 'edit');
}

/**
 * A webhook post where it lands: a new message; or the board edited (a new one when it is gone,
 * 10008); or a reply in the thread, its first post starting the thread with thread_name (the
 * message's channel is then the thread); a deleted thread (10003) is started again.
 */
async function postHooked(
  hook: WebhookRoute,
  discord: DiscordWebhookMessage,
  opts: LandingOptions,
): Promise<PostedMessage> {
  const { lands } = opts;
  const at = lands?.at;
  if (lands?.how === 'edit') {
    const edited = at && (await unlessGone(editHooked(hook, discord, at.messageId, opts), '10008'));
    if (edited) return edited;
    const posted = await execute(hook, discord, opts);
    return { ...posted, landed: { messageId: posted.id, channelId: posted.channelId } };
  }
  if (lands?.how !== 'thread') return execute(hook, discord, opts);
  const reply =
    at?.threadId === undefined
      ? undefined
      : await unlessGone(execute(hook, discord, opts, { id: at.threadId }), '10003');
  if (reply) return reply;
  const first = await execute(hook, discord, opts, { name: threadName(lands) });
  return { ...first, landed: { messageId: first.id, channelId: first.channelId, threadId: first.channelId } };
}

/** A Discord webhook destination (S7). */
export function createWebhookClient(config: WebhookConfig, deps: DiscordRestDeps = {}): WebhookClient {
  registerSecret(config.token);
  const place = webhookPlace(config);
  const rest = createDiscordRest({ api: place.api, versioned: false, caller: { kind: 'webhook' } }, deps);
  const now = deps.now ?? Date.now;
  const guilds = new Map<string, { guildId: string | undefined; until: number }>();
  const route = () => place.route;
  return {
    async post(message, opts = {}) {
      if (!isUsable(config.id) || !isUsable(config.token))
        throw notSent('post', 'webhook.post not sent: the webhook id or token is empty');
      return postHooked({ rest, route: route() }, discordOnly(message, 'post'), opts);
    },

    // A message object names no guild; the webhook object does, and it never changes: one GET a day.
    async messageLink(ref, opts) {
      if (ref.channelId === undefined || !isUsable(config.id) || !isUsable(config.token)) return undefined;
      let known = guilds.get(config.id);
      if (!known || known.until <= now()) {
        const answer = await rest.send({
          operation: 'get',
          method: 'GET',
          route: route(),
          signal: opts?.signal,
        });
        const webhook = WebhookObject.safeParse(answer.data);
        if (!webhook.success) return undefined;
        known = { guildId: webhook.data.guild_id ?? undefined, until: now() + WEBHOOK_GUILD_TTL_MS };
        guilds.set(config.id, known);
      }
      return known.guildId === undefined
        ? undefined
        : discordMessageUrl(known.guildId, ref.channelId, ref.messageId);
    },

    close: () => rest.close(),
  };
}
