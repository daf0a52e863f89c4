// Posts into a Slack channel with the bot token through Slack's own Web API client, @slack/web-api's
// WebClient (https://docs.slack.dev/tools/node-slack-sdk/web-api): chat.postMessage
// (https://docs.slack.dev/reference/methods/chat.postMessage), the reply's files with filesUploadV2
// (Slack's external upload: files.getUploadURLExternal, the bytes POSTed to upload_url,
// files.completeUploadExternal), conversations.info at add time, chat.getPermalink for the history,
// auth.test for the scopes the token holds (its `x-oauth-scopes` header), and a DM to a schedule's
// creator (conversations.open, then chat.postMessage) where the app has im:write. Where a schedule's
// post lands (`Landing`): a status board edited with chat.update (a new post when Slack says
// message_not_found or cant_update_message: https://docs.slack.dev/reference/methods/chat.update),
// or replies under the first post's ts (`thread_ts`); a landing post's files go in its thread.
// The outbox decides every wait and retry: the client retries nothing and rejects a 429 at once
// with its Retry-After (`rejectRateLimitedCalls`), since its own default waits out 429s and
// retries for about half an hour, hidden from the outbox's per-destination order.
// Above the SDK, the rate budget shared by the replicas (`ClientDeps.rateBudget`,
// src/domain/rate-budget.ts): every chat.postMessage first takes its channel's turn at one a second
// (SLACK_POST_PACE), before Slack has to say so, and waits out the workspace's chat.postMessage
// pause; a 429 to chat.postMessage sets that pause for its Retry-After on every replica, since
// Slack's limits are "per API method per workspace/team per app" and its 429 does not say whether
// the channel's or the workspace's ran out; for a minute after one, this process sends its posts
// one at a time (LIMITED_MS). Without a budget nothing is paced here. Interaction answers go
// through Bolt in the adapter, never through this client, so they never wait for it.
import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import {
  SLACK_POST_PACE,
  slackChannelScope,
  slackMethodScope,
  type RateBudget,
} from '../../domain/rate-budget.ts';
import { ServiceError } from '../../errors.ts';
import { registerSecret } from '../../redact.ts';
import type { SlackFile } from '../../render/slack.ts';
import type { ClientDeps } from '../deps.ts';
import type {
  ChannelClient,
  LandingOptions,
  MessageRef,
  PostedMessage,
  PostProgress,
  SlackWebhookMessage,
  WebhookMessage,
} from './client.ts';
import type { PostOptions } from './rate-limit.ts';
import { slackChannelName, slackFailure } from './slack-refusals.ts';
import { fromSdkError, webClientOptions } from './slack-web-client.ts';

interface SlackChannelConfig {
  /** The Web API base (SLACK_API_URL), e.g. https://slack.com/api. */
  apiUrl: string;
  botToken: string;
}

type SlackChannelDeps = ClientDeps;

/** Who reads a channel: private or not, and whether a given user is in it. */
interface SlackAudience {
  isPrivate: boolean;
  isMember?: boolean;
}

/**
 * The Slack channel client, with the DM a refused schedule's creator is told by (im:write), and
 * who reads a channel (for /schedule's listing rules).
 */
type SlackChannelClient = ChannelClient &
  Required<Pick<ChannelClient, 'directMessage' | 'openDirect'>> & {
    audience(channelId: string, opts?: { userId?: string }): Promise<SlackAudience>;
  };

const SLACK_INVITE_SENTENCE =
  'invite herald to this channel (/invite @herald); it needs chat:write and files:write.';
const SLACK_SCOPE_SENTENCE =
  'herald cannot check this channel: add the channels:read and groups:read scopes to its Slack app and reinstall it, then invite it here (/invite @herald).';

/** How long a message's permalink is kept: it never changes while the message exists; bounded in count. */
const PERMALINK_TTL_MS = 24 * 60 * 60_000;
const PERMALINKS_KEPT = 2_000;

/** Runs one SDK call, its failure typed. */
async function attempt<T>(
  operation: string,
  channelId: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw fromSdkError(err, operation, channelId);
  }
}

/** Tells `opts.onRateLimit` what Slack's answer said of the channel's pace: a 429's Retry-After, else nothing. */
async function told<T>(opts: PostOptions, work: () => Promise<T>): Promise<T> {
  try {
    const done = await work();
    opts.onRateLimit?.({ waitMs: 0, isGlobal: false });
    return done;
  } catch (err) {
    if (err instanceof ServiceError && err.status !== undefined)
      opts.onRateLimit?.({
        waitMs: err.code === 'rate_limited' ? (err.retryAfterMs ?? 0) : 0,
        isGlobal: false,
      });
    throw err;
  }
}

/** What the client's calls share: the WebClient (made on first use), the budget's turns, the log. */
interface SlackApi {
  web(): Promise<WebClient>;
  budget: SlackBudget;
  log: ClientDeps['log'];
}

/** chat.postMessage calls as the shared budget lets them go. */
interface SlackBudget {
  /**
   * Runs `work` (one chat.postMessage into `channel`) in its turn: the channel's pace, after the
   * workspace's pause; one at a time in this process while the workspace is limited. A 429 it
   * gets pauses the workspace's posts on every replica for its Retry-After.
   */
  post<T>(channel: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T>;
}

/**
 * How long after a 429 this process sends its posts one at a time: Slack counts its limits by
 * the minute. Sent together, the posts waiting out a Retry-After would all reach Slack at its end,
 * every one past the first few answered 429 again; one at a time, each 429 stops the next post.
 */
const LIMITED_MS = 60_000;

/**
 * The budget's Slack scopes for the installation `botToken` is (one app in one workspace, as
 * Slack counts its limits); the keys name a digest of the token, never the token. Without a
 * budget, posts go as they come and the outbox waits out each 429 on its own.
 */
function slackBudget(
  budget: RateBudget | undefined,
  botToken: string,
  now: () => number,
  log: ClientDeps['log'],
): SlackBudget {
  if (!budget) return { post: (_channel, _signal, work) => work() };
  const workspace = createHash('sha256').update(botToken).digest('hex').slice(0, 16);
  const posts = slackMethodScope(workspace, 'chat.postMessage');
  let limitedUntil = -Infinity;
  let lane: Promise<unknown> = Promise.resolve();
  const send = async <T>(channel: string, signal: AbortSignal | undefined, work: () => Promise<T>) => {
    await budget.take(slackChannelScope(workspace, channel), signal, {
      pace: SLACK_POST_PACE,
      pausedBy: posts,
    });
    try {
      return await work();
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'rate_limited') {
        limitedUntil = now() + LIMITED_MS;
        await budget
          .pause(posts, err.retryAfterMs ?? 1_000)
          .catch((e: unknown) => log?.warn({ err: e }, 'slack.budget_failed'));
      }
      throw err;
    }
  };
  return {
    post(channel, signal, work) {
      if (now() >= limitedUntil) return send(channel, signal, work);
      const run = lane.then(() => send(channel, signal, work));
      lane = run.catch(() => undefined);
      return run;
    },
  };
}

/** chat.postMessage into `channel`, in its turn (the shared budget's), its failure typed. */
function paced<T>(api: SlackApi, channel: string, signal: AbortSignal | undefined, work: () => Promise<T>) {
  return api.budget.post(channel, signal, () => attempt('chat.postMessage', channel, work));
}

/** The scopes the token holds, as Slack's `x-oauth-scopes` header lists them on auth.test. */
async function scopesOf(api: SlackApi): Promise<Set<string>> {
  const client = await api.web();
  const answer = await attempt('auth.test', undefined, () => client.auth.test());
  return new Set(answer.response_metadata?.scopes ?? []);
}

/** The message itself, paced, its ts recorded before any file goes. */
async function postMessage(
  api: SlackApi,
  channelId: string,
  message: { text: string; blocks: unknown[] },
  record: ((id: string) => Promise<void>) | undefined,
  signal: AbortSignal | undefined,
  threadTs?: string,
): Promise<PostedMessage & { channelId: string }> {
  const client = await api.web();
  const answer = await paced(api, channelId, signal, () =>
    client.chat.postMessage({
      channel: channelId,
      text: message.text,
      blocks: message.blocks as never,
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      // A report's links must not pull other sites' previews into the channel.
      unfurl_links: false,
      unfurl_media: false,
    }),
  );
  if (answer.ts === undefined)
    throw new ServiceError({
      service: 'webhook',
      operation: 'chat.postMessage',
      code: 'bad_response',
      status: 200,
      message: 'slack.chat.postMessage not usable: no ts',
    });
  const posted = { id: answer.ts, channelId: answer.channel ?? channelId };
  await record?.(posted.id);
  return posted;
}

async function shareFiles(
  api: SlackApi,
  channelId: string,
  files: readonly SlackFile[],
  threadTs: string | undefined,
): Promise<void> {
  const client = await api.web();
  await attempt('files.uploadV2', channelId, () =>
    client.filesUploadV2({
      channel_id: channelId,
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      file_uploads: files.map((f) => ({
        file: Buffer.from(f.bytes),
        filename: f.filename,
        title: f.filename,
        ...(f.description === undefined ? {} : { alt_text: f.description }),
      })),
    }),
  );
}

/**
 * One post, in this order, so that its text is sent once however often it is retried:
 * 1. with files, the token's scopes read first: a missing files:write stops the post before
 *    anything shows;
 * 2. the message (chat.postMessage), its ts recorded on the outbox entry at once; a retry whose
 *    entry holds it (`progress.posted`) skips this step;
 * 3. the files uploaded and shared into the channel (filesUploadV2), just below the message,
 *    where an interactive answer's files go too.
 * Only an upload that got no answer can repeat the files, and the outbox logs that resend.
 */
async function postInto(
  api: SlackApi,
  channelId: string,
  message: WebhookMessage,
  opts: LandingOptions & { progress?: PostProgress },
): Promise<PostedMessage> {
  if (!('platform' in message) || message.platform !== 'slack')
    throw new ServiceError({
      service: 'webhook',
      operation: 'chat.postMessage',
      code: 'invalid_request',
      message: 'slack.chat.postMessage not sent: a Discord message cannot go to Slack',
    });
  const files = message.files ?? [];
  const { progress, lands } = opts;
  const earlier = progress?.posted;
  if (files.length > 0 && earlier === undefined && !(await scopesOf(api)).has('files:write'))
    throw slackFailure({
      operation: 'files.uploadV2',
      error: 'missing_scope',
      status: 200,
      where: slackChannelName(channelId),
      needed: 'files:write',
    });
  const at = lands?.at;
  const edited =
    lands?.how === 'edit' && at && earlier === undefined
      ? await told(opts, () => updateMessage(api, at.channelId ?? channelId, at.messageId, message))
      : undefined;
  const threadTs = lands?.how === 'thread' ? at?.threadId : undefined;
  const where = threadTs === undefined ? channelId : (at?.channelId ?? channelId);
  const record = files.length > 0 && progress ? (id: string) => progress.record(id) : undefined;
  const posted =
    edited ??
    (earlier === undefined
      ? await told(opts, () => postMessage(api, where, message, record, opts.signal, threadTs))
      : { id: earlier, channelId: where });
  // A landing post's files go in its thread, so the channel keeps one message per schedule.
  if (files.length > 0)
    await shareFiles(api, posted.channelId, files, lands ? (threadTs ?? posted.id) : undefined);
  if (!lands || edited || threadTs !== undefined) return posted;
  const landed = { messageId: posted.id, channelId: posted.channelId };
  return { ...posted, landed: lands.how === 'thread' ? { ...landed, threadId: posted.id } : landed };
}

/** chat.update of a status board; undefined when Slack says it is gone or cannot be edited. */
async function updateMessage(
  api: SlackApi,
  channelId: string,
  ts: string,
  message: SlackWebhookMessage,
): Promise<(PostedMessage & { channelId: string }) | undefined> {
  const client = await api.web();
  try {
    await client.chat.update({ channel: channelId, ts, text: message.text, blocks: message.blocks });
    return { id: ts, channelId };
  } catch (err) {
    const failure = fromSdkError(err, 'chat.update', channelId);
    if (failure.providerMessage === 'message_not_found' || failure.providerMessage === 'cant_update_message')
      return undefined;
    throw failure;
  }
}

/** Whether herald may post into the channel (conversations.info), as one sentence saying what to grant. */
async function checkChannel(api: SlackApi, channelId: string): Promise<string | undefined> {
  const client = await api.web();
  try {
    const answer = await client.conversations.info({ channel: channelId });
    const channel = answer.channel ?? {};
    if (channel.is_archived === true) return SLACK_INVITE_SENTENCE;
    return channel.is_member === true || channel.is_im === true ? undefined : SLACK_INVITE_SENTENCE;
  } catch (err) {
    const failure = fromSdkError(err, 'conversations.info', channelId);
    if (failure.providerMessage === 'channel_not_found') return SLACK_INVITE_SENTENCE;
    if (failure.providerMessage === 'missing_scope') return SLACK_SCOPE_SENTENCE;
    throw failure;
  }
}

/**
 * chat.getPermalink (https://docs.slack.dev/reference/methods/chat.getPermalink): no scope needed;
 * the address is Slack's own, never one built here. Kept a day, at most PERMALINKS_KEPT of them.
 */
function permalinks(api: SlackApi, now: () => number): (ref: MessageRef) => Promise<string | undefined> {
  const kept = new Map<string, { link: string | undefined; until: number }>();
  return async (ref) => {
    const channel = ref.channelId;
    if (channel === undefined) return undefined;
    const key = `${channel}/${ref.messageId}`;
    const known = kept.get(key);
    if (known && known.until > now()) return known.link;
    const client = await api.web();
    let link: string | undefined;
    try {
      link = (await client.chat.getPermalink({ channel, message_ts: ref.messageId })).permalink;
    } catch (err) {
      const failure = fromSdkError(err, 'chat.getPermalink', channel);
      // A deleted message has no address; any other refusal is an error, which is not kept.
      if (failure.providerMessage !== 'message_not_found') throw failure;
    }
    if (kept.size >= PERMALINKS_KEPT) kept.delete(kept.keys().next().value ?? '');
    kept.set(key, { link, until: now() + PERMALINK_TTL_MS });
    return link;
  };
}

/** Slack recommends pages of at most 200 members; 50 of them read a channel of 10,000. */
const MEMBERS_PAGE = 200;
const MEMBERS_PAGES = 50;

/**
 * Whether the channel is private (conversations.info's is_private, is_im, is_mpim) and, given a
 * user, whether they are in it (conversations.members, paged by cursor:
 * https://docs.slack.dev/reference/methods/conversations.members). In a DM with herald, whoever
 * types is in it.
 */
async function audienceOf(api: SlackApi, channelId: string, userId?: string): Promise<SlackAudience> {
  const client = await api.web();
  const info = await attempt('conversations.info', channelId, () =>
    client.conversations.info({ channel: channelId }),
  );
  const channel = info.channel ?? {};
  const isPrivate = channel.is_private === true || channel.is_im === true || channel.is_mpim === true;
  if (userId === undefined) return { isPrivate };
  if (channel.is_im === true) return { isPrivate, isMember: true };
  let cursor = '';
  for (let page = 0; page < MEMBERS_PAGES; page++) {
    const answer = await attempt('conversations.members', channelId, () =>
      client.conversations.members({
        channel: channelId,
        limit: MEMBERS_PAGE,
        ...(cursor ? { cursor } : {}),
      }),
    );
    if (answer.members?.includes(userId)) return { isPrivate, isMember: true };
    cursor = answer.response_metadata?.next_cursor ?? '';
    if (cursor === '') break;
  }
  return { isPrivate, isMember: false };
}

/**
 * A DM to `userId` where the app has im:write (https://docs.slack.dev/reference/methods/conversations.open):
 * conversations.open, then chat.postMessage into it. Without im:write it sends nothing and fails
 * with Slack's missing_scope, as Slack itself would.
 */
async function directMessage(api: SlackApi, userId: string, text: string): Promise<PostedMessage> {
  const dm = await openDirect(api, userId);
  const client = await api.web();
  const sent = await paced(api, dm, undefined, () => client.chat.postMessage({ channel: dm, text }));
  return { id: sent.ts ?? '', channelId: dm };
}

/** conversations.open with `userId`: the DM's id (D…), where the app has im:write. */
async function openDirect(api: SlackApi, userId: string): Promise<string> {
  const where = 'a direct message';
  if (!/^[UW][A-Z0-9]{1,31}$/.test(userId))
    throw slackFailure({ operation: 'conversations.open', error: 'user_not_found', status: 200, where });
  if (!(await scopesOf(api)).has('im:write'))
    throw slackFailure({
      operation: 'conversations.open',
      error: 'missing_scope',
      status: 200,
      where,
      needed: 'im:write',
    });
  const client = await api.web();
  const opened = await attempt('conversations.open', userId, () =>
    client.conversations.open({ users: userId }),
  );
  const dm = opened.channel?.id;
  if (dm === undefined)
    throw slackFailure({ operation: 'conversations.open', error: 'channel_not_found', status: 200, where });
  return dm;
}

export function createSlackChannelClient(
  config: SlackChannelConfig,
  deps: SlackChannelDeps = {},
): SlackChannelClient {
  registerSecret(config.botToken);
  const now = deps.now ?? Date.now;
  let made: Promise<WebClient> | undefined;
  const api: SlackApi = {
    // Loaded on first use, so a deployment that never posts to Slack never loads the SDK.
    web: () =>
      (made ??= import('@slack/web-api').then(
        ({ WebClient }) => new WebClient(config.botToken, webClientOptions(config.apiUrl, deps.log)),
      )),
    budget: slackBudget(deps.rateBudget, config.botToken, now, deps.log),
    log: deps.log,
  };
  return {
    post: (channelId, message, opts = {}) => postInto(api, channelId, message, opts),
    check: (channelId) => checkChannel(api, channelId),
    messageLink: permalinks(api, now),
    audience: (channelId, opts = {}) => audienceOf(api, channelId, opts.userId),
    directMessage: (userId, text) => directMessage(api, userId, text),
    openDirect: (userId) => openDirect(api, userId),
    close: () => Promise.resolve(),
  };
}
