// The bot's own Discord posts, with the bot token through the one Discord REST client
// (discord-rest.ts): a schedule's channel post, where it lands, and a DM to a user. What
// @discordjs/rest does not serve: Create Message carries a `nonce` with `enforce_nonce`, the same
// on every resend of one outbox entry, so a post resent after a crash within Discord's nonce window
// is not created twice (https://discord.com/developers/docs/resources/message#create-message);
// where a schedule's post lands (`Landing`, docs/SCHEDULING.md): Edit Message for a status board, a
// new post when Discord says 10008 Unknown Message, and Start Thread from Message on the first post
// (the thread's id is the message's; 160004, a retry's thread already started, is the same thread),
// then Create Message in the thread, a deleted one (10003) started again
// (https://discord.com/developers/docs/resources/channel#start-thread-from-message); a DM is Create
// DM, then Create Message. Shown by test/adapters/discord/contract.test.ts and
// test/adapters/discord/landing-contract.test.ts.
import { createHash } from 'node:crypto';
import type { RawFile } from '@discordjs/rest';
import { z } from 'zod';
import { discordMessageUrl } from '../../domain/discord.ts';
import type { CallOptions } from '../../http/client.ts';
import { ServiceError } from '../../errors.ts';
import type { DiscordWebhookMessage } from '../../render/discord.ts';
import type { ChannelClient, Landing, PostedMessage } from './client.ts';
import { checkDiscordChannel, discordAudience } from './discord-channel-access.ts';
import {
  createdOf,
  discordCodeOf,
  discordOnly,
  editPayload,
  placed,
  postPayload,
  rawFiles,
  threadName,
  unlessGone,
} from './discord-message.ts';
import { createDiscordRest, type DiscordRest, type DiscordRestDeps } from './discord-rest.ts';
import type { PostOptions } from './rate-limit.ts';

const DmChannel = z.object({ id: z.string() });

interface DiscordChannelConfig {
  /** The REST base without the version (DISCORD_API_URL), e.g. https://discord.com/api. */
  apiUrl: string;
  token: string;
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
 * Posts into Discord channels with the bot token; what add time checks and who reads a channel are
 * discord-channel-access.ts's.
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

    check: (channelId, opts = {}) => checkDiscordChannel(rest, channelId, opts),
    audience: (channelId, opts = {}) => discordAudience(rest, channelId, opts),

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
