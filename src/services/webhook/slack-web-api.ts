// The bot's own Slack posts through Slack's own Web API client, @slack/web-api's WebClient
// (https://docs.slack.dev/tools/node-slack-sdk/web-api): a schedule's channel post, where it lands,
// its permalink, and a DM to a schedule's creator. What the SDK does not serve: a post made in parts
// sent once however often it is retried: chat.postMessage
// (https://docs.slack.dev/reference/methods/chat.postMessage), its ts recorded on the outbox entry,
// then its files with filesUploadV2 (Slack's external upload: files.getUploadURLExternal, the bytes
// POSTed to upload_url, files.completeUploadExternal), a missing files:write (auth.test's
// `x-oauth-scopes`) stopping the post before anything shows; where a schedule's post lands
// (`Landing`): a status board edited with chat.update, a new post when Slack says message_not_found
// or cant_update_message (https://docs.slack.dev/reference/methods/chat.update), or replies under
// the first post's ts (`thread_ts`), a landing post's files in its thread; chat.getPermalink kept a
// day; a DM (conversations.open, then chat.postMessage) only where the app has im:write. The pace
// and the shared pause are slack-budget.ts's; the add-time check and who reads a channel,
// slack-channel-access.ts's. Shown by test/services/slack-web-api.test.ts,
// test/schedule/lands.test.ts and test/schedule/message-links.test.ts.
import type { WebClient } from '@slack/web-api';
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
import { slackBudget, told, type SlackBudget } from './slack-budget.ts';
import { checkSlackChannel, slackAudience, type SlackAudience } from './slack-channel-access.ts';
import { slackChannelName, slackFailure } from './slack-refusals.ts';
import { attempt, fromSdkError, webClientOptions } from './slack-web-client.ts';

interface SlackChannelConfig {
  /** The Web API base (SLACK_API_URL), e.g. https://slack.com/api. */
  apiUrl: string;
  botToken: string;
}

type SlackChannelDeps = ClientDeps;

/**
 * The Slack channel client, with the DM a refused schedule's creator is told by (im:write), and
 * who reads a channel (for /schedule's listing rules).
 */
type SlackChannelClient = ChannelClient &
  Required<Pick<ChannelClient, 'directMessage' | 'openDirect'>> & {
    audience(channelId: string, opts?: { userId?: string }): Promise<SlackAudience>;
  };

/** How long a message's permalink is kept: it never changes while the message exists; bounded in count. */
const PERMALINK_TTL_MS = 24 * 60 * 60_000;
const PERMALINKS_KEPT = 2_000;

/** What the client's calls share: the WebClient (made on first use), the budget's turns, the log. */
interface SlackApi {
  web(): Promise<WebClient>;
  budget: SlackBudget;
  log: ClientDeps['log'];
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
    check: async (channelId) => checkSlackChannel(await api.web(), channelId),
    messageLink: permalinks(api, now),
    audience: async (channelId, opts = {}) => slackAudience(await api.web(), channelId, opts.userId),
    directMessage: (userId, text) => directMessage(api, userId, text),
    openDirect: (userId) => openDirect(api, userId),
    close: () => Promise.resolve(),
  };
}
