// A Slack incoming webhook as a destination (https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks):
// POST the message as JSON to https://hooks.slack.com/services/T…/B…/SECRET; success is 200 with
// the text `ok`, failures are a status with a short error string as the body:
// 400 invalid_payload / invalid_blocks / user_not_found, 403 action_prohibited / invalid_token,
// 404 channel_not_found / no_service / no_team, 410 channel_is_archived, 429 with Retry-After,
// 500 rollup_error. The secret path segment is the credential: registered for redaction.
import { type ProviderErrorReader, bodyExcerpt } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { createServiceHttp, type ClientDeps } from '../deps.ts';
import type { WebhookClient, WebhookConfig } from './client.ts';
import { watchRateLimit } from './rate-limit.ts';
import { ownEntry } from '../../domain/lookup.ts';

/** Slack's error strings whose meaning the HTTP status alone does not carry. */
const SLACK_ERRORS: Readonly<Record<string, ServiceErrorCode>> = {
  // The webhook was removed, or its channel or workspace is gone: no retry brings it back.
  no_service: 'not_found',
  no_team: 'not_found',
  channel_not_found: 'not_found',
  channel_is_archived: 'not_found',
  invalid_token: 'unauthorized',
  action_prohibited: 'forbidden',
  invalid_payload: 'invalid_request',
  invalid_blocks: 'invalid_request',
  invalid_blocks_format: 'invalid_request',
  user_not_found: 'invalid_request',
};

/** Reads Slack's plain-text error body (`channel_not_found`); Retry-After is read by the HTTP core. */
export const readSlackWebhookError: ProviderErrorReader = ({ text }) => {
  const error = /^\s*([a-z_]+)\s*$/.exec(text)?.[1];
  return {
    message: error ?? bodyExcerpt(text),
    code: ownEntry(SLACK_ERRORS, error),
  };
};

function failure(code: ServiceErrorCode, message: string): ServiceError {
  return new ServiceError({ service: 'webhook', operation: 'post', code, message });
}

/**
 * The Slack incoming webhook at `baseUrl` (up to and including `services/T…`), `id` (B…) and
 * `token` (the secret). Posts only Slack messages; an incoming webhook names no message, so the
 * posted message's id is empty.
 */
export function createSlackWebhookClient(config: WebhookConfig, deps: ClientDeps = {}): WebhookClient {
  const http = createServiceHttp(deps, {
    secrets: [config.token],
    service: 'webhook',
    baseUrl: config.baseUrl,
    readError: readSlackWebhookError,
  });
  return {
    async post(message, opts) {
      if (!('platform' in message) || message.platform !== 'slack')
        throw failure(
          'invalid_request',
          'webhook.post not sent: a Discord message cannot go to a Slack webhook',
        );
      const answer = await http.sendBytes(
        {
          service: 'webhook',
          operation: 'post',
          method: 'POST',
          path: path`/${config.id}/${config.token}`,
          // unfurl off: a link in a report must not pull another site's preview into the channel.
          body: { text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false },
        },
        watchRateLimit(opts, deps.now ?? Date.now),
      );
      const text = answer.bytes.toString('utf8').trim();
      // Slack's answer to a post it took is the two letters `ok`; anything else is no proof.
      if (text !== 'ok')
        throw failure('bad_response', 'webhook.post not confirmed: the Slack webhook did not answer ok');
      return { id: '' };
    },
    close: () => http.close(),
  };
}
