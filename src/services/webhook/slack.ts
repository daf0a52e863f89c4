// A Slack incoming webhook as a destination (https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks):
// POST the message as JSON to https://hooks.slack.com/services/T…/B…/SECRET; success is 200 with
// the text `ok`, failures are a status with a short error string as the body (the page's "Handling
// errors"): 400 invalid_payload / user_not_found, 403 action_prohibited / invalid_token /
// posting_to_general_channel_denied, 404 channel_not_found / no_service / no_team,
// 410 channel_is_archived, 429 with Retry-After, 500 rollup_error. What each means, and which pause
// the schedule, is slack-refusals.ts's table, shared with the Web API. A plain POST on the HTTP
// core: @slack/webhook would add nothing but a second HTTP stack. The secret path segment is the
// credential: registered for redaction. Tests: test/services/slack-webhook.test.ts.
import { type ProviderErrorReader, bodyExcerpt } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError, type ServiceErrorCode } from '../../errors.ts';
import { createServiceHttp, type ClientDeps } from '../deps.ts';
import type { WebhookClient, WebhookConfig } from './client.ts';
import { watchRateLimit } from './rate-limit.ts';
import { slackErrorString, slackFailure } from './slack-refusals.ts';

/** Where an incoming webhook posts, as the user knows it: the channel chosen when it was made. */
const WEBHOOK_CHANNEL = "the Slack incoming webhook's channel";

/** Reads Slack's plain-text error body (`channel_not_found`); Retry-After is read by the HTTP core. */
export const readSlackWebhookError: ProviderErrorReader = ({ text }) => {
  const error = slackErrorString(text);
  return { message: error ?? bodyExcerpt(text) };
};

/**
 * The HTTP core's failure with Slack's meaning: a refusal pauses the schedule, a documented string
 * gets its sentence; a 429 or a 5xx stays as it is (retried by the outbox).
 */
function withSlackMeaning(err: unknown): unknown {
  if (!(err instanceof ServiceError) || err.status === undefined || err.status === 429 || err.status >= 500)
    return err;
  const error = err.providerMessage === undefined ? undefined : slackErrorString(err.providerMessage);
  return slackFailure({ operation: 'post', error, status: err.status, where: WEBHOOK_CHANNEL });
}

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
      const answer = await http
        .sendBytes(
          {
            service: 'webhook',
            operation: 'post',
            method: 'POST',
            path: path`/${config.id}/${config.token}`,
            // unfurl off: a link in a report must not pull another site's preview into the channel.
            body: { text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false },
          },
          watchRateLimit(opts, deps.now ?? Date.now),
        )
        .catch((err: unknown) => {
          throw withSlackMeaning(err);
        });
      const text = answer.bytes.toString('utf8').trim();
      // Slack's answer to a post it took is the two letters `ok`; anything else is no proof.
      if (text !== 'ok')
        throw failure('bad_response', 'webhook.post not confirmed: the Slack webhook did not answer ok');
      return { id: '' };
    },
    close: () => http.close(),
  };
}
