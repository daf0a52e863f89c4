// Posts into a Slack channel with the bot token: chat.postMessage
// (https://docs.slack.dev/reference/methods/chat.postMessage), form-encoded as Slack's own client
// sends it, `text` the notification fallback and `blocks` from the one Slack renderer. Slack answers
// HTTP 200 with `ok: false` and an error string for most failures (not_in_channel,
// channel_not_found, is_archived, missing_scope, invalid_auth, msg_too_long…) and HTTP 429 with
// Retry-After when rate limited. Add time asks conversations.info whether the bot is a member.
import { type CallOptions, type HttpRequest } from '../../http/client.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { createServiceHttp, type ClientDeps } from '../deps.ts';
import type { ChannelClient } from './client.ts';
import { watchRateLimit } from './rate-limit.ts';
import { z } from 'zod';

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

const Answer = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  channel: z.unknown().optional(),
  ts: z.string().optional(),
});

const ChannelInfo = z.object({
  is_member: z.boolean().optional(),
  is_im: z.boolean().optional(),
  is_archived: z.boolean().optional(),
});

function refused(operation: string, error: string | undefined): ServiceError {
  const code = (error === undefined ? undefined : SLACK_ERRORS[error]) ?? 'invalid_request';
  // Slack answered (HTTP 200): the post was not made, so a resend cannot double it.
  return new ServiceError({
    service: 'webhook',
    operation,
    code,
    status: 200,
    providerMessage: error,
    message: `slack.${operation} failed: ${error ?? 'no error given'}`,
  });
}

export function createSlackChannelClient(config: SlackChannelConfig, deps: ClientDeps = {}): ChannelClient {
  const http = createServiceHttp(deps, {
    secrets: [config.botToken],
    service: 'webhook',
    baseUrl: config.apiUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${config.botToken}` },
  });
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
  return {
    async post(channelId, message, opts) {
      if (!('platform' in message)) throw refused('chat.postMessage', 'a Discord message cannot go to Slack');
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
        watchRateLimit(opts, deps.now ?? Date.now),
      );
      if (!answer.ok || answer.ts === undefined) throw refused('chat.postMessage', answer.error);
      return { id: answer.ts, channelId: typeof answer.channel === 'string' ? answer.channel : channelId };
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
        throw refused('conversations.info', answer.error);
      }
      const info = ChannelInfo.safeParse(answer.channel);
      const channel = info.success ? info.data : {};
      if (channel.is_archived === true) return SLACK_INVITE_SENTENCE;
      return channel.is_member === true || channel.is_im === true ? undefined : SLACK_INVITE_SENTENCE;
    },

    close: () => http.close(),
  };
}
