// Each Slack request runs once, on one replica. Slack retries a request it thinks was missed
// (X-Slack-Retry-Num, newly signed) and Socket Mode redelivers an envelope; both carry the same
// trigger_id, which is claimed before anything runs. A captured signed request sent again inside
// Bolt's 5-minute window has the same signature, which is claimed too (a timestamp more than a
// minute ahead is refused before, by endpoint.ts, since the window would otherwise start in the future).
// https://docs.slack.dev/authentication/verifying-requests-from-slack
import type { IncomingMessage } from 'node:http';
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { CommandLog } from '../../src/core/command.ts';
import { failOpen, INTERACTION_CLAIM_MS, type InteractionClaims } from '../../src/core/claims.ts';
import { SLACK_MAX_AHEAD_MS, SLACK_SIGNATURE_WINDOW_MS } from './endpoint.ts';

/** What customPropertiesExtractor keeps of each verified HTTP request. */
interface SignedRequest {
  slackSignature?: string;
  slackTimestamp?: string;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The signature headers of a request Bolt has verified, for the middleware below. */
export function signedRequestOf(req: IncomingMessage): SignedRequest {
  return {
    slackSignature: header(req, 'x-slack-signature'),
    slackTimestamp: header(req, 'x-slack-request-timestamp'),
  };
}

/** The trigger_id of a slash command or an interaction payload, when the body has one. */
function triggerIdOf(body: AnyMiddlewareArgs['body']): string | undefined {
  const id = (body as { trigger_id?: unknown }).trigger_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Global middleware: runs the listeners only for the first delivery of a request. */
export function runOnce(store: InteractionClaims, log: CommandLog): Middleware<AnyMiddlewareArgs> {
  const claims = failOpen(store, (err) => log.warn({ err }, 'slack.claim_failed'));
  return async (args) => {
    const { context, body, next } = args;
    const ack = 'ack' in args ? (args.ack as () => Promise<void>) : undefined;
    const signed = context as SignedRequest;
    if (signed.slackSignature !== undefined) {
      const key = `slack:request:${signed.slackTimestamp ?? ''}:${signed.slackSignature}`;
      if (!(await claims.claimOnce(key, SLACK_SIGNATURE_WINDOW_MS + SLACK_MAX_AHEAD_MS))) {
        log.warn({ retryNum: context.retryNum }, 'slack.replay_refused');
        await ack?.();
        return;
      }
    }
    const triggerId = triggerIdOf(body);
    if (
      triggerId !== undefined &&
      !(await claims.claimOnce(`slack:trigger:${triggerId}`, INTERACTION_CLAIM_MS))
    ) {
      // A retry or redelivery of what this or another replica already took: acked, nothing run.
      log.debug({ retryNum: context.retryNum, retryReason: context.retryReason }, 'slack.already_handled');
      await ack?.();
      return;
    }
    await next();
  };
}
