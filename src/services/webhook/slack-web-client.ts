// How herald sets up Slack's WebClient (@slack/web-api) and reads its failures: Slack's address, no
// retries of its own and 429s rejected at once with their Retry-After (the outbox decides every wait
// and retry), its log into herald's, and each of its error codes
// (https://docs.slack.dev/tools/node-slack-sdk/web-api#handle-errors) as herald's typed error.
import type { Logger, WebClientOptions } from '@slack/web-api';
import { ServiceError } from '../../errors.ts';
import { redactText } from '../../redact.ts';
import type { ClientDeps } from '../deps.ts';
import { slackChannelName, slackFailure } from './slack-refusals.ts';

/** One call's whole time: Slack answers within seconds; a stuck one is the outbox's to retry. */
const CALL_TIMEOUT_MS = 20_000;
/** The WebClient's failures as it types them (`code` from its ErrorCode). */
interface SdkFailure {
  code?: unknown;
  data?: { error?: unknown; needed?: unknown };
  retryAfter?: unknown;
  statusCode?: unknown;
  original?: unknown;
}

/** The WebClient's failure at `operation` in `channelId` as herald's typed error. */
export function fromSdkError(err: unknown, operation: string, channelId?: string): ServiceError {
  const where = slackChannelName(channelId);
  const e = (err ?? {}) as SdkFailure;
  switch (e.code) {
    case 'slack_webapi_platform_error':
      return slackFailure({
        operation,
        error: typeof e.data?.error === 'string' ? e.data.error : undefined,
        status: 200,
        where,
        needed: e.data?.needed,
      });
    case 'slack_webapi_rate_limited_error': {
      const seconds = typeof e.retryAfter === 'number' && e.retryAfter >= 0 ? e.retryAfter : 1;
      return new ServiceError({
        service: 'webhook',
        operation,
        code: 'rate_limited',
        status: 429,
        retryAfterMs: seconds * 1000,
        message: `Slack asked herald to wait ${seconds} s before ${operation} in ${where}`,
      });
    }
    case 'slack_webapi_http_error': {
      const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
      return slackFailure({ operation, error: undefined, status, where });
    }
    case 'slack_webapi_file_upload_invalid_args_error':
    case 'slack_webapi_file_upload_read_file_data_error':
      // herald's own arguments, refused before any request: no retry makes them better.
      return new ServiceError({
        service: 'webhook',
        operation,
        code: 'invalid_request',
        message: `slack.${operation} not sent: ${err instanceof Error ? err.message : 'invalid file'}`,
      });
    default: {
      // No answer (a cut connection, the timeout): the post may have been made.
      const cause = e.code === 'slack_webapi_request_error' ? e.original : err;
      const isTimeout = cause instanceof Error && /timeout|aborted/i.test(`${cause.name} ${cause.message}`);
      return new ServiceError({
        service: 'webhook',
        operation,
        code: isTimeout ? 'timeout' : 'network',
        message: `slack.${operation} got no answer: ${redactText(cause instanceof Error ? cause.message : String(cause))}`,
      });
    }
  }
}

/** Runs one SDK call, its failure typed. */
export async function attempt<T>(
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

/** The WebClient's log, at warn and above, into herald's (redacted, as every line is). */
function sdkLogger(log: ClientDeps['log']): Logger {
  const line = (args: unknown[]) => redactText(args.map(String).join(' '));
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...args) => log?.warn({ component: 'slack-web-api' }, line(args)),
    error: (...args) => log?.warn({ component: 'slack-web-api' }, line(args)),
    setLevel: () => undefined,
    getLevel: () => 'warn' as never,
    setName: () => undefined,
  };
}

/** The options herald gives the WebClient: Slack's address, no retries of its own, 429s rejected. */
export function webClientOptions(apiUrl: string, log: ClientDeps['log']): WebClientOptions {
  return {
    slackApiUrl: `${apiUrl.replace(/\/+$/, '')}/`,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: CALL_TIMEOUT_MS,
    logger: sdkLogger(log),
    // A method name is never an address: every call goes to slackApiUrl.
    allowAbsoluteUrls: false,
  };
}
