// What Slack's error strings mean to herald, one table for the Web API and for incoming webhooks.
// The Web API answers HTTP 200 with `ok: false` and an error string
// (https://docs.slack.dev/apis/web-api/#responses; chat.postMessage's list:
// https://docs.slack.dev/reference/methods/chat.postMessage#errors); an incoming webhook answers a
// status with the error string as its body
// (https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks#handling-errors).
// A refusal is Slack's word that the destination refuses herald for good, whatever the status:
// the schedule pauses and its creator is told (src/schedule/run-history.ts). What @slack/web-api
// does not serve: which of its error strings are for good (test/schedule/refusals.test.ts,
// test/services/slack-web-api.test.ts, test/services/slack-webhook.test.ts).
import { ServiceError, type PlatformRefusal, type ServiceErrorCode } from '../../errors.ts';
import { ownEntry } from '../../domain/lookup.ts';

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
  // Incoming webhooks' own strings.
  no_service: 'not_found',
  no_team: 'not_found',
  channel_is_archived: 'not_found',
  invalid_token: 'unauthorized',
  action_prohibited: 'forbidden',
  posting_to_general_channel_denied: 'forbidden',
  invalid_payload: 'invalid_request',
  invalid_blocks: 'invalid_request',
  invalid_blocks_format: 'invalid_request',
  user_not_found: 'invalid_request',
  rollup_error: 'upstream',
};

/**
 * The strings that pause a schedule: the bot removed from the channel, the channel archived or
 * deleted, the token revoked or its workspace gone, a scope missing; for an incoming webhook, the
 * webhook removed, its channel archived or gone, its token invalid, or the workspace prohibiting it
 * (in general, or in #general by its posting setting).
 */
const REFUSALS = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'invalid_auth',
  'token_revoked',
  'account_inactive',
  'missing_scope',
  'channel_is_archived',
  'no_service',
  'invalid_token',
  'action_prohibited',
  'posting_to_general_channel_denied',
]);

/** What herald calls a channel in a sentence: Slack shows `<#C…>` as the channel's name. */
export function slackChannelName(channelId: string | undefined): string {
  return channelId !== undefined && /^[A-Z0-9]{1,32}$/.test(channelId)
    ? `<#${channelId}>`
    : 'the Slack channel';
}

/** `needed` as Slack sends it (`files:write`, or a comma list), or nothing usable. */
function scopeOf(needed: unknown): string | undefined {
  return typeof needed === 'string' && /^[a-z:._,]{1,100}$/.test(needed) ? needed : undefined;
}

/** What an answer's status alone says, for a string Slack did not document. */
function codeOfStatus(status: number): ServiceErrorCode {
  if (status >= 500) return 'upstream';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  return 'invalid_request';
}

/** One sentence a user can act on, naming the channel as they know it. */
function slackRefusalSentence(error: string | undefined, where: string, scope?: string): string | undefined {
  switch (error) {
    case 'not_in_channel':
      return `herald is not a member of ${where}; invite it there (/invite @herald).`;
    case 'channel_not_found':
      return `Slack says ${where} no longer exists, or herald cannot see it; invite herald to the channel or choose another.`;
    case 'is_archived':
    case 'channel_is_archived':
      return `${where} is archived in Slack; unarchive it or choose another channel.`;
    case 'invalid_auth':
    case 'token_revoked':
    case 'invalid_token':
      return `Slack no longer accepts herald's token for ${where} (the app was removed or its token revoked); reinstall the app and update its token.`;
    case 'account_inactive':
      return `herald's Slack app is deactivated in this workspace, so it cannot post in ${where}; reinstall the app.`;
    case 'missing_scope':
      return `herald's Slack app lacks ${scope === undefined ? 'a scope' : `the ${scope} scope`} to post in ${where}; add it to the app and reinstall it.`;
    case 'no_service':
      return `The Slack incoming webhook for ${where} was removed or disabled; create a new one and update its address.`;
    case 'action_prohibited':
      return `The Slack workspace prohibits the incoming webhook from posting in ${where}; ask a workspace admin.`;
    case 'posting_to_general_channel_denied':
      return `Only admins may post in ${where}: the workspace setting "People who can post in #general" refuses herald; change the setting or choose another channel.`;
    default:
      return undefined;
  }
}

/**
 * The typed error of Slack's `error` string at `operation`: a refusal where it is one, with the
 * sentence naming `where`; `status` is what Slack answered with (200 for the Web API).
 */
export function slackFailure(opts: {
  operation: string;
  error: string | undefined;
  status: number;
  where: string;
  needed?: unknown;
  retryAfterMs?: number;
}): ServiceError {
  const { operation, error, status, where } = opts;
  const scope = error === 'missing_scope' ? scopeOf(opts.needed) : undefined;
  const refusal: PlatformRefusal | undefined =
    error !== undefined && REFUSALS.has(error)
      ? { platform: 'slack', code: error, ...(scope === undefined ? {} : { scope }) }
      : undefined;
  const code = ownEntry(SLACK_ERRORS, error) ?? codeOfStatus(status);
  const sentence = slackRefusalSentence(error, where, scope);
  return new ServiceError({
    service: 'webhook',
    operation,
    code,
    status,
    providerMessage: error,
    refusal,
    ...(opts.retryAfterMs === undefined ? {} : { retryAfterMs: opts.retryAfterMs }),
    message: sentence ?? `Slack refused ${operation} in ${where}: ${error ?? `HTTP ${status}`}`,
  });
}

/** Slack's error string, when `text` is one (an incoming webhook's body). */
export function slackErrorString(text: string): string | undefined {
  return /^\s*([a-z_]{1,64})\s*$/.exec(text)?.[1];
}
