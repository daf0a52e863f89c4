// Posts into a Slack channel with the bot token: chat.postMessage
// (https://docs.slack.dev/reference/methods/chat.postMessage), form-encoded as Slack's own client
// sends it, `text` the notification fallback and `blocks` from the one Slack renderer, and the
// reply's files through Slack's external upload (https://docs.slack.dev/messaging/working-with-files):
// files.getUploadURLExternal (filename, length → upload_url, file_id), the bytes POSTed to upload_url
// (HTTP 200, else a failure), files.completeUploadExternal (files [{id, title}], channel_id) to share
// them. Slack answers HTTP 200 with `ok: false` and an error string for most failures
// (not_in_channel, channel_not_found, is_archived, missing_scope with the `needed` scope,
// invalid_auth, msg_too_long…) and HTTP 429 with Retry-After when rate limited. Add time asks
// conversations.info whether the bot is a member.
// Interactive answers upload through Bolt's filesUploadV2, Slack's own code for the same three
// steps; a scheduled post cannot, since only src/http opens sockets (timeouts, size bound,
// redaction, breaker) and an adapter may not import it. Both take their files from the one renderer.
import { type CallOptions, type HttpClient, type HttpRequest } from '../../http/client.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import type { SlackFile } from '../../render/slack.ts';
import { isLoopbackHost } from '../../domain/loopback.ts';
import { createServiceHttp, type ClientDeps } from '../deps.ts';
import type { ChannelClient } from './client.ts';
import { watchRateLimit } from './rate-limit.ts';
import { z } from 'zod';
import { ownEntry } from '../../domain/lookup.ts';

export interface SlackChannelConfig {
  /** The Web API base (SLACK_API_URL), e.g. https://slack.com/api. */
  apiUrl: string;
  botToken: string;
}

export const SLACK_INVITE_SENTENCE =
  'invite herald to this channel (/invite @herald); it needs chat:write and files:write.';
const SLACK_SCOPE_SENTENCE =
  'herald cannot check this channel: add the channels:read and groups:read scopes to its Slack app and reinstall it, then invite it here (/invite @herald).';

/** Slack's error strings, by what a retry can do about them. */
const SLACK_ERRORS: Readonly<Record<string, ServiceErrorCode>> = {
  not_in_channel: 'forbidden',
  restricted_action: 'forbidden',
  missing_scope: 'forbidden',
  not_allowed_token_type: 'forbidden',
  ekm_access_denied: 'forbidden',
  file_uploads_disabled: 'forbidden',
  file_uploads_except_images_disabled: 'forbidden',
  file_type_not_allowed: 'forbidden',
  channel_not_found: 'not_found',
  is_archived: 'not_found',
  invalid_auth: 'unauthorized',
  not_authed: 'unauthorized',
  account_inactive: 'unauthorized',
  token_revoked: 'unauthorized',
  token_expired: 'unauthorized',
  ratelimited: 'rate_limited',
  internal_error: 'upstream',
  fatal_error: 'upstream',
  service_unavailable: 'upstream',
  request_timeout: 'upstream',
};

/** Every method's answer, the fields this client reads (chat.postMessage, the upload steps, conversations.info). */
const Answer = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  needed: z.string().optional(),
  channel: z.unknown().optional(),
  ts: z.string().optional(),
  upload_url: z.string().optional(),
  file_id: z.string().optional(),
});
type Answer = z.output<typeof Answer>;

const PermalinkAnswer = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  permalink: z.string().optional(),
});

/** How long a message's permalink is kept: it never changes while the message exists. */
const PERMALINK_TTL_MS = 24 * 60 * 60_000;

const ChannelInfo = z.object({
  is_member: z.boolean().optional(),
  is_im: z.boolean().optional(),
  is_mpim: z.boolean().optional(),
  is_private: z.boolean().optional(),
  is_archived: z.boolean().optional(),
});

/** conversations.members (https://docs.slack.dev/reference/methods/conversations.members): user ids, paged. */
const MembersAnswer = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  needed: z.string().optional(),
  members: z.array(z.string()).optional(),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});
/** Slack recommends pages of at most 200; 50 of them read a channel of 10,000 members. */
const MEMBERS_PAGE = 200;
const MEMBERS_PAGES = 50;

/** What the refusal tells whoever reads the schedule's history: what to fix, where herald knows it. */
function refusalText(operation: string, error: string | undefined, needed: string | undefined): string {
  if (error === 'missing_scope') {
    const scope =
      needed !== undefined && /^[a-z:._,]{1,100}$/.test(needed) ? `the ${needed} scope` : 'a scope';
    return `Slack refused ${operation}: herald's Slack app lacks ${scope}; add it and reinstall the app`;
  }
  if (error === 'not_in_channel')
    return `Slack refused ${operation}: herald is not in the channel; invite it`;
  return `slack.${operation} failed: ${error ?? 'no error given'}`;
}

function refused(operation: string, answer: Pick<Answer, 'error' | 'needed'>): ServiceError {
  const code = ownEntry(SLACK_ERRORS, answer.error) ?? 'invalid_request';
  // Slack answered (HTTP 200): the step was not taken, so a resend cannot double it.
  return new ServiceError({
    service: 'webhook',
    operation,
    code,
    status: 200,
    providerMessage: answer.error,
    message: refusalText(operation, answer.error, answer.needed),
  });
}

function unreadable(operation: string, what: string): ServiceError {
  return new ServiceError({
    service: 'webhook',
    operation,
    code: 'bad_response',
    status: 200,
    message: `slack.${operation} not usable: ${what}`,
  });
}

/** Where Slack said to send a file's bytes: https, or plain http on loopback only (a local fake). */
function uploadTarget(raw: string): { origin: string; path: string } {
  const url = URL.parse(raw);
  const isAllowed = url?.protocol === 'https:' || (url?.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!url || !isAllowed) throw unreadable('files.getUploadURLExternal', 'the upload_url is not https');
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

export function createSlackChannelClient(config: SlackChannelConfig, deps: ClientDeps = {}): ChannelClient {
  const http = createServiceHttp(deps, {
    secrets: [config.botToken],
    service: 'webhook',
    baseUrl: config.apiUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${config.botToken}` },
  });
  // The upload URL is its own credential: no bot token goes to it. One client per upload host.
  const uploadHosts = new Map<string, HttpClient>();
  const uploadHost = (origin: string): HttpClient => {
    const known = uploadHosts.get(origin);
    if (known) return known;
    const made = createServiceHttp(deps, { secrets: [], service: 'webhook', baseUrl: origin });
    uploadHosts.set(origin, made);
    return made;
  };
  const call = async (method: string, form: Record<string, string>, opts?: CallOptions) => {
    const req: HttpRequest = {
      service: 'webhook',
      operation: method,
      method: 'POST',
      path: `/${method}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new TextEncoder().encode(new URLSearchParams(form).toString()),
    };
    return http.send(req, Answer, opts);
  };

  /** Steps 1 and 2 of an upload: nothing shows in Slack until the file is completed. */
  async function upload(file: SlackFile, opts: CallOptions): Promise<{ id: string; title: string }> {
    const ticket = await call(
      'files.getUploadURLExternal',
      {
        filename: file.filename,
        length: String(file.bytes.length),
        ...(file.description === undefined ? {} : { alt_txt: file.description }),
      },
      opts,
    );
    if (!ticket.ok) throw refused('files.getUploadURLExternal', ticket);
    if (ticket.upload_url === undefined || ticket.file_id === undefined)
      throw unreadable('files.getUploadURLExternal', 'no upload_url or file_id');
    const target = uploadTarget(ticket.upload_url);
    // Slack's own path and query, used as given: the address is Slack's, nothing of herald's goes in it.
    await uploadHost(target.origin).sendEmpty(
      {
        service: 'webhook',
        operation: 'files.upload_url',
        method: 'POST',
        path: target.path,
        headers: { 'content-type': file.contentType },
        body: file.bytes,
      },
      opts,
    );
    return { id: ticket.file_id, title: file.filename };
  }

  return {
    // One post, in this order, so that its text is sent once however often it is retried:
    // 1. every file's bytes uploaded: invisible (Slack discards an upload never completed), so a
    //    retry repeats it harmlessly, and a missing files:write stops the post before anything shows;
    // 2. the message (chat.postMessage), its ts recorded on the outbox entry at once; a retry whose
    //    entry holds it (`progress.posted`) skips this step;
    // 3. the files completed into the channel in one files.completeUploadExternal, just below the
    //    message, where an interactive answer's files go too (in its thread they would hide).
    // Only a completion that got no answer can repeat the files, and the outbox logs that resend.
    async post(channelId, message, opts = {}) {
      if (!('platform' in message))
        throw refused('chat.postMessage', { error: 'a Discord message cannot go to Slack' });
      const { progress, ...postOpts } = opts;
      const callOpts: CallOptions = postOpts.signal ? { signal: postOpts.signal } : {};
      const files = [];
      for (const file of message.files ?? []) files.push(await upload(file, callOpts));
      let posted = progress?.posted === undefined ? undefined : { id: progress.posted, channelId };
      if (posted === undefined) {
        const answer = await call(
          'chat.postMessage',
          {
            channel: channelId,
            text: message.text,
            blocks: JSON.stringify(message.blocks),
            // A report's links must not pull other sites' previews into the channel.
            unfurl_links: 'false',
            unfurl_media: 'false',
          },
          watchRateLimit(postOpts, deps.now ?? Date.now),
        );
        if (!answer.ok || answer.ts === undefined) throw refused('chat.postMessage', answer);
        posted = {
          id: answer.ts,
          channelId: typeof answer.channel === 'string' ? answer.channel : channelId,
        };
        if (files.length > 0) await progress?.record(posted.id);
      }
      if (files.length > 0) {
        const done = await call(
          'files.completeUploadExternal',
          { files: JSON.stringify(files), channel_id: posted.channelId },
          callOpts,
        );
        if (!done.ok) throw refused('files.completeUploadExternal', done);
      }
      return posted;
    },

    async check(channelId, opts = {}) {
      const answer = await call(
        'conversations.info',
        { channel: channelId },
        opts.signal ? { signal: opts.signal } : {},
      );
      if (!answer.ok) {
        if (answer.error === 'channel_not_found') return SLACK_INVITE_SENTENCE;
        if (answer.error === 'missing_scope') return SLACK_SCOPE_SENTENCE;
        throw refused('conversations.info', answer);
      }
      const info = ChannelInfo.safeParse(answer.channel);
      const channel = info.success ? info.data : {};
      if (channel.is_archived === true) return SLACK_INVITE_SENTENCE;
      return channel.is_member === true || channel.is_im === true ? undefined : SLACK_INVITE_SENTENCE;
    },

    // conversations.info's is_private, is_im and is_mpim; membership from conversations.members
    // (channels:read and groups:read, which the check needs already): Slack's documented way to
    // read who is in a conversation. In a DM with herald, whoever types is in it.
    async audience(channelId, opts = {}) {
      const callOpts: CallOptions = opts.signal ? { signal: opts.signal } : {};
      const answer = await call('conversations.info', { channel: channelId }, callOpts);
      if (!answer.ok) throw refused('conversations.info', answer);
      const info = ChannelInfo.safeParse(answer.channel);
      const channel = info.success ? info.data : {};
      const isPrivate = channel.is_private === true || channel.is_im === true || channel.is_mpim === true;
      if (opts.userId === undefined) return { isPrivate };
      if (channel.is_im === true) return { isPrivate, isMember: true };
      let cursor = '';
      for (let page = 0; page < MEMBERS_PAGES; page++) {
        const form = { channel: channelId, limit: String(MEMBERS_PAGE), ...(cursor ? { cursor } : {}) };
        const members = await http.send(
          {
            service: 'webhook',
            operation: 'conversations.members',
            method: 'POST',
            path: '/conversations.members',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new TextEncoder().encode(new URLSearchParams(form).toString()),
          },
          MembersAnswer,
          callOpts,
        );
        if (!members.ok) throw refused('conversations.members', members);
        if (members.members?.includes(opts.userId)) return { isPrivate, isMember: true };
        cursor = members.response_metadata?.next_cursor ?? '';
        if (cursor === '') break;
      }
      return { isPrivate, isMember: false };
    },

    // chat.getPermalink (https://docs.slack.dev/reference/methods/chat.getPermalink): no scope
    // needed, GET its documented method, so the HTTP core keeps each answer; the address is
    // Slack's own, never one built here.
    messageLink(ref, opts) {
      return http.send(
        {
          service: 'webhook',
          operation: 'chat.getPermalink',
          method: 'GET',
          path: '/chat.getPermalink',
          query: { channel: ref.channelId, message_ts: ref.messageId },
          cacheTtlMs: PERMALINK_TTL_MS,
        },
        PermalinkAnswer,
        opts,
        (answer) => {
          if (answer.ok && answer.permalink !== undefined) return answer.permalink;
          // A deleted message has no address; any other refusal is an error, which is not kept.
          if (answer.error === 'message_not_found') return undefined;
          throw refused('chat.getPermalink', answer);
        },
      );
    },
    async close() {
      await Promise.all([http.close(), ...[...uploadHosts.values()].map((c) => c.close())]);
    },
  };
}
