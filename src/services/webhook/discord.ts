// herald's Discord posting clients, each on the one Discord REST client (discord-rest.ts):
// - a webhook destination (S7, docs/SERVICES.md): Execute Webhook with `wait=true`, so only an answer
//   carrying the created message counts as posted, and Get Webhook with Token for a message link
//   (https://discord.com/developers/docs/resources/webhook#execute-webhook);
// - the bot's own channel posts: Create Message with a `nonce` and `enforce_nonce`, so a post resent
//   after a crash is not created twice, the add-time check (Get Channel), and a DM to a user
//   (Create DM, then Create Message) (https://discord.com/developers/docs/resources/message#create-message);
// - where a schedule's post lands (`Landing`, docs/SCHEDULING.md): Edit Message / Edit Webhook
//   Message for a status board, a new post when Discord says 10008 Unknown Message (deleted);
//   Start Thread from Message on the first post (the thread's id is the message's), then Create
//   Message in the thread; a webhook replies with `thread_id` and starts a thread only in a forum
//   channel (`thread_name`) (https://discord.com/developers/docs/resources/message#edit-message,
//   https://discord.com/developers/docs/resources/channel#start-thread-from-message,
//   https://discord.com/developers/docs/resources/webhook#edit-webhook-message);
// (an interaction's webhook is discord-interaction.ts's).
// Files go as multipart (`payload_json` and `files[n]`, the SDK's `files`); mentions are always
// suppressed. A webhook's token is registered for redaction; an interaction's lives 15 minutes and
// is blanked by redact.ts's `/webhooks/<id>/<token>` rule.
import { createHash } from 'node:crypto';
import type { RawFile } from '@discordjs/rest';
import { z } from 'zod';
import { discordMessageUrl } from '../../domain/discord.ts';
import type { CallOptions } from '../../http/client.ts';
import { ServiceError } from '../../errors.ts';
import { registerSecret } from '../../redact.ts';
import type { DiscordFile, DiscordWebhookMessage } from '../../render/discord.ts';
import type {
  ChannelClient,
  Landing,
  LandingOptions,
  PostedMessage,
  WebhookClient,
  WebhookConfig,
  WebhookMessage,
} from './client.ts';
import { createDiscordRest, type DiscordRest, type DiscordRestDeps } from './discord-rest.ts';
import type { PostOptions } from './rate-limit.ts';

/** The message Discord created: a snowflake id, and more that herald keeps but does not need. */
const CreatedMessage = z.object({
  id: z.string().regex(/^\d{1,20}$/, 'a message id is a snowflake'),
  channel_id: z.string().optional(),
});

/** Get Webhook with Token: the webhook object, of which herald reads the guild. */
const WebhookObject = z.object({ id: z.string(), guild_id: z.string().nullable().optional() });

const DmChannel = z.object({ id: z.string() });
/** A channel's type and overwrites (https://discord.com/developers/docs/resources/channel#channel-object). */
const ChannelAudienceAnswer = z.object({
  type: z.number().int(),
  guild_id: z.string().optional(),
  permission_overwrites: z
    .array(z.object({ id: z.string(), type: z.number().int(), deny: z.string() }))
    .optional(),
});
const VIEW_CHANNEL = 1n << 10n;
/** DM, group DM and private thread: private whatever the overwrites say. */
const PRIVATE_TYPES = new Set([1, 3, 12]);

/**
 * Private when @everyone may not view it: the overwrite of the role whose id is the guild's (what
 * Discord's "Private Channel" switch sets, a category's overwrites being copied to its channels)
 * denies View Channel; or a DM, group DM or private thread.
 */
export function isPrivateDiscordChannel(channel: z.output<typeof ChannelAudienceAnswer>): boolean {
  if (PRIVATE_TYPES.has(channel.type)) return true;
  const everyone = channel.permission_overwrites?.find((o) => o.id === channel.guild_id && o.type === 0);
  return (
    everyone !== undefined &&
    /^\d{1,30}$/.test(everyone.deny) &&
    (BigInt(everyone.deny) & VIEW_CHANNEL) !== 0n
  );
}

/** A `files[n]` part as the JSON payload names it: `id` is n. */
interface PayloadAttachment {
  id: number;
  filename: string;
  description?: string;
}

/** How long a webhook's guild is kept: a webhook never changes guild; a day bounds a deleted one's. */
const WEBHOOK_GUILD_TTL_MS = 24 * 60 * 60_000;

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
function postPayload(message: DiscordWebhookMessage): Record<string, unknown> {
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
function editPayload(message: DiscordWebhookMessage): Record<string, unknown> {
  const { username: _name, ...post } = postPayload(message);
  return {
    ...post,
    content: message.content ?? '',
    embeds: message.embeds ?? [],
    attachments: attachmentsOf(message.files ?? []),
  };
}

/** Discord's JSON code of a failure: discord-rest.ts writes it after Discord's message, "Unknown Message (10008)". */
function discordCodeOf(err: unknown): string | undefined {
  return err instanceof ServiceError ? /\((\d+)\)/.exec(err.providerMessage ?? '')?.[1] : undefined;
}

/** The message (10008) or the thread (10003) a landing names is gone: the post starts afresh. */
const isGone = (err: unknown, code: '10003' | '10008') => discordCodeOf(err) === code;

/** A thread's name as Discord takes it: 1-100 characters. */
const threadName = (lands: Landing) => lands.title.slice(0, 100) || 'herald';

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
function placed(err: unknown, where: string): Error {
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

function notSent(operation: string, message: string): ServiceError {
  return new ServiceError({ service: 'webhook', operation, code: 'invalid_request', message });
}

/** A Discord message from a post, else the failure of a message meant for Slack. */
function discordOnly(message: WebhookMessage, operation: string): DiscordWebhookMessage {
  if ('platform' in message)
    throw notSent(operation, `webhook.${operation} not sent: a Slack message cannot go to Discord`);
  return message;
}

/** The created message of an answer, else a `bad_response`: no proof the post was saved. */
function createdOf(answer: { status: number; data: unknown }, operation: string): PostedMessage {
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
const seg = (value: string) => encodeURIComponent(value);

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

/** `work`'s answer, or undefined when Discord says what it names is gone (`code`). */
async function unlessGone<T>(work: Promise<T>, code: '10003' | '10008'): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (isGone(err, code)) return undefined;
    throw err;
  }
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

interface DiscordChannelConfig {
  /** The REST base without the version (DISCORD_API_URL), e.g. https://discord.com/api. */
  apiUrl: string;
  token: string;
}

/** What herald needs in a channel, by Discord's permission bits. */
const NEEDED: readonly (readonly [bigint, string])[] = [
  [1n << 10n, 'View Channel'],
  [1n << 11n, 'Send Messages'],
  [1n << 14n, 'Embed Links'],
  [1n << 15n, 'Attach Files'],
];
const ADMINISTRATOR = 1n << 3n;

const DISCORD_GRANT_SENTENCE =
  'herald needs View Channel, Send Messages, Embed Links and Attach Files in this channel; grant them to its role, or add the schedule with to:<destination>.';

/** The permissions of NEEDED that `bitfield` lacks; none when it is not a bitfield. */
function missingDiscordPermissions(bitfield: string): string[] {
  if (!/^\d{1,30}$/.test(bitfield)) return [];
  const bits = BigInt(bitfield);
  if ((bits & ADMINISTRATOR) !== 0n) return [];
  return NEEDED.filter(([bit]) => (bits & bit) === 0n).map(([, name]) => name);
}

/**
 * A Create Message `nonce` from the post's idempotency key (the outbox entry): the same on every
 * resend, at most 25 characters as Discord allows.
 */
export function discordNonce(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 25);
}

/** Create Message in `channelId`; a refusal's sentence names the channel. */
async function createMessage(
  rest: DiscordRest,
  channelId: string,
  body: Record<string, unknown>,
  files: RawFile[] | undefined,
  opts: PostOptions,
): Promise<PostedMessage & { channelId: string }> {
  const answer = await rest
    .send({
      operation: 'post',
      method: 'POST',
      route: (routes) => routes.channelMessages(channelId),
      body,
      files,
      signal: opts.signal,
      onRateLimit: opts.onRateLimit,
    })
    .catch((err: unknown) => Promise.reject(placed(err, `<#${channelId}>`)));
  const created = createdOf(answer, 'post');
  return { id: created.id, channelId: created.channelId ?? channelId };
}

type ChannelPostOptions = Parameters<ChannelClient['post']>[2] & object;

/** Create Message in `channelId`, with the post's nonce when it has an idempotency key. */
function createPost(
  rest: DiscordRest,
  channelId: string,
  discord: DiscordWebhookMessage,
  opts: ChannelPostOptions,
) {
  const key = opts.idempotencyKey;
  const body = {
    ...postPayload(discord),
    // Discord keeps a nonce a few minutes: a resend within them returns the first message.
    ...(key === undefined ? {} : { nonce: discordNonce(key), enforce_nonce: true }),
  };
  return createMessage(rest, channelId, body, rawFiles(discord.files), opts);
}

/** Edit Message: a message the bot posted. */
async function editMessage(
  rest: DiscordRest,
  channelId: string,
  messageId: string,
  discord: DiscordWebhookMessage,
  opts: PostOptions,
): Promise<PostedMessage> {
  const answer = await rest
    .send({
      operation: 'edit',
      method: 'PATCH',
      route: (routes) => routes.channelMessage(channelId, messageId),
      body: editPayload(discord),
      files: rawFiles(discord.files),
      signal: opts.signal,
      onRateLimit: opts.onRateLimit,
    })
    .catch((err: unknown) => Promise.reject(placed(err, `<#${channelId}>`)));
  return { ...createdOf(answer, 'edit'), channelId };
}

/** Start Thread from Message; one started already (160004, a retry's) is the same thread. */
async function startThread(
  rest: DiscordRest,
  posted: PostedMessage & { channelId: string },
  lands: Landing,
  opts: PostOptions,
) {
  await rest
    .send({
      operation: 'thread',
      method: 'POST',
      route: (routes) => routes.threads(posted.channelId, posted.id),
      body: { name: threadName(lands) },
      signal: opts.signal,
      onRateLimit: opts.onRateLimit,
    })
    .catch((err: unknown) =>
      discordCodeOf(err) === '160004' ? undefined : Promise.reject(placed(err, `<#${posted.channelId}>`)),
    );
}

/**
 * A channel post where it lands: a new message; or the board edited (a new one when it is gone); or
 * a reply in the thread (the first post, its id recorded before its thread starts, so a retry
 * starts the thread on it and does not post it again; a deleted thread, 10003, starts again).
 */
async function postInto(
  rest: DiscordRest,
  channelId: string,
  discord: DiscordWebhookMessage,
  opts: ChannelPostOptions,
): Promise<PostedMessage> {
  const { lands, progress } = opts;
  const at = lands?.at;
  if (lands?.how === 'edit') {
    const edited =
      at &&
      (await unlessGone(editMessage(rest, at.channelId ?? channelId, at.messageId, discord, opts), '10008'));
    if (edited) return edited;
    const posted = await createPost(rest, channelId, discord, opts);
    return { ...posted, landed: { messageId: posted.id, channelId: posted.channelId } };
  }
  if (lands?.how !== 'thread') return createPost(rest, channelId, discord, opts);
  const reply =
    at?.threadId === undefined
      ? undefined
      : await unlessGone(createPost(rest, at.threadId, discord, opts), '10003');
  if (reply) return reply;
  const first = progress?.posted
    ? { id: progress.posted, channelId }
    : await createPost(rest, channelId, discord, opts);
  if (!progress?.posted) await progress?.record(first.id);
  await startThread(rest, first, lands, opts);
  return { ...first, landed: { messageId: first.id, channelId: first.channelId, threadId: first.id } };
}

/** Create DM with `userId`, then Create Message in it. */
async function sendDirect(
  rest: DiscordRest,
  userId: string,
  text: string,
  opts: CallOptions,
): Promise<PostedMessage> {
  const dm = await openDm(rest, userId, opts);
  return createMessage(rest, dm, { content: text, allowed_mentions: { parse: [] } }, undefined, opts);
}

/** Create DM: the DM channel's id (Discord answers the same channel every time). */
async function openDm(rest: DiscordRest, userId: string, opts: CallOptions): Promise<string> {
  const dm = await rest.send({
    operation: 'dm',
    method: 'POST',
    route: (routes) => routes.userChannels(),
    body: { recipient_id: userId },
    signal: opts.signal,
  });
  const channel = DmChannel.safeParse(dm.data);
  if (!channel.success)
    throw new ServiceError({
      service: 'webhook',
      operation: 'dm',
      code: 'bad_response',
      message: 'webhook.dm: the answer is not a DM channel',
    });
  return channel.data.id;
}

/** The bot's channel client, with the DM it can send (a schedule's creator is told there). */
type DiscordChannelClient = ChannelClient & Required<Pick<ChannelClient, 'directMessage' | 'openDirect'>>;

/**
 * Posts into Discord channels with the bot token. Sending needs View Channel and Send Messages;
 * embeds need Embed Links and files Attach Files, else Discord drops them silently, so add time
 * checks all four (the interaction's app_permissions) and that the bot can reach the channel at all
 * (Get Channel: a bot not in the guild gets 50001 however the interaction came).
 */
export function createDiscordChannelClient(
  config: DiscordChannelConfig,
  deps: DiscordRestDeps = {},
): DiscordChannelClient {
  const rest = createDiscordRest(
    { api: config.apiUrl, versioned: true, caller: { kind: 'bot', token: config.token } },
    deps,
  );
  return {
    post: (channelId, message, opts = {}) => postInto(rest, channelId, discordOnly(message, 'post'), opts),

    async check(channelId, opts = {}) {
      const missing = opts.appPermissions === undefined ? [] : missingDiscordPermissions(opts.appPermissions);
      if (missing.length > 0) return DISCORD_GRANT_SENTENCE;
      try {
        await rest.send({
          operation: 'check',
          method: 'GET',
          route: (routes) => routes.channel(channelId),
          signal: opts.signal,
        });
        return undefined;
      } catch (err) {
        // 50001 Missing Access (403) or 10003 Unknown Channel (404): the bot cannot see the channel.
        if (err instanceof ServiceError && (err.code === 'forbidden' || err.code === 'not_found'))
          return DISCORD_GRANT_SENTENCE;
        throw err;
      }
    },

    async audience(channelId, opts = {}) {
      const answer = await rest.send({
        operation: 'audience',
        method: 'GET',
        route: (routes) => routes.channel(channelId),
        signal: opts.signal,
      });
      const channel = ChannelAudienceAnswer.safeParse(answer.data);
      if (!channel.success)
        throw new ServiceError({ service: 'webhook', operation: 'audience', code: 'bad_response' });
      // Whether the member may post there is the interaction's member.permissions, not a call.
      return { isPrivate: isPrivateDiscordChannel(channel.data) };
    },

    // A DM has no guild, and a schedule added before guilds were kept has none: no link then.
    messageLink: (ref) =>
      Promise.resolve(
        ref.guildId === undefined || ref.channelId === undefined
          ? undefined
          : discordMessageUrl(ref.guildId, ref.channelId, ref.messageId),
      ),

    directMessage: (userId, text, opts = {}) => sendDirect(rest, userId, text, opts),
    openDirect: (userId, opts = {}) => openDm(rest, userId, opts),

    close: () => rest.close(),
  };
}
