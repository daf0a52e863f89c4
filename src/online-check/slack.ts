// `--check --online`'s Slack calls, through Slack's own Web API client (@slack/web-api), kept in
// this one file:
// - auth.test (https://api.slack.com/methods/auth.test): the bot token works; its granted scopes
//   come back in the `x-oauth-scopes` header (https://api.slack.com/authentication/oauth-v2);
// - apps.connections.open (https://api.slack.com/methods/apps.connections.open): the app-level
//   token opens Socket Mode (it only hands out a URL; nothing connects to it);
// - an incoming webhook, posted an empty object: Slack answers 400 `no_text` or `invalid_payload`
//   when the webhook exists (nothing is posted), and `no_service` (404), `invalid_token` (403),
//   `action_prohibited` (403), `channel_not_found` (404) or `channel_is_archived` (410) when it
//   cannot post (https://api.slack.com/messaging/webhooks#handling_errors). A plain POST through the
//   HTTP core: the Web API client does not serve incoming webhooks.
import { WebClient, type Logger, LogLevel } from '@slack/web-api';
import type { SlackConfig } from '../config/sections.ts';
import { ServiceError } from '../errors.ts';
import { createServiceHttp } from '../services/deps.ts';
import type { CheckLine } from './lines.ts';

const SLACK_API_URL = 'https://slack.com/api';
const TIMEOUT_MS = 10_000;

const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

function clientFor(config: SlackConfig, token: string): WebClient {
  const base = (config.apiUrl ?? SLACK_API_URL).replace(/\/?$/, '/');
  return new WebClient(token, {
    slackApiUrl: base,
    logger: silent,
    retryConfig: { retries: 0 },
    timeout: TIMEOUT_MS,
  });
}

/** Slack's refusal, `invalid_auth`, or the reason no answer came. */
function refusalOf(err: unknown): string {
  const data = (err as { data?: { error?: unknown } }).data;
  if (typeof data?.error === 'string') return data.error;
  return err instanceof Error ? err.message : String(err);
}

/** The bot token and its scopes; in Socket Mode the app-level token; in HTTP mode, a note. */
export async function checkSlack(config: SlackConfig, needed: readonly string[]): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  try {
    const auth = await clientFor(config, config.botToken).auth.test();
    lines.push({
      status: 'ok',
      item: 'slack token',
      text: `the bot ${auth.user ?? auth.user_id} in ${auth.team ?? auth.team_id}`,
    });
    const granted = auth.response_metadata?.scopes;
    const missing = granted === undefined ? undefined : needed.filter((s) => !granted.includes(s));
    lines.push(
      missing === undefined
        ? {
            status: 'note',
            item: 'slack scopes',
            text: `Slack did not list the token's scopes; herald needs ${needed.join(', ')}`,
          }
        : missing.length === 0
          ? { status: 'ok', item: 'slack scopes', text: needed.join(', ') }
          : {
              status: 'fail',
              item: 'slack scopes',
              text: `missing ${missing.join(', ')}: add them (OAuth & Permissions → Bot Token Scopes, or the manifest from npm run register -- --slack-manifest) and reinstall the app`,
            },
    );
  } catch (err) {
    lines.push({
      status: 'fail',
      item: 'slack token',
      text: `Slack answered ${refusalOf(err)}: set SLACK_BOT_TOKEN to the Bot User OAuth Token (xoxb-…, OAuth & Permissions)`,
    });
  }
  lines.push(await checkSlackMode(config));
  return lines;
}

async function checkSlackMode(config: SlackConfig): Promise<CheckLine> {
  if (config.appToken === undefined)
    return {
      status: 'note',
      item: 'slack signing secret',
      text: "SLACK_SIGNING_SECRET cannot be checked from here: Slack's Request URL check (Event Subscriptions) does, against the running herald",
    };
  try {
    await clientFor(config, config.appToken).apps.connections.open();
    return { status: 'ok', item: 'slack app token', text: 'Socket Mode opens' };
  } catch (err) {
    return {
      status: 'fail',
      item: 'slack app token',
      text: `Slack answered ${refusalOf(err)}: set SLACK_APP_TOKEN to an app-level token (xapp-…) with connections:write (Basic Information → App-Level Tokens), and turn Socket Mode on`,
    };
  }
}

const EXISTS = new Set(['no_text', 'invalid_payload', 'missing_text_or_fallback_or_attachments']);

/** A Slack incoming webhook destination: it exists and may post, without posting. */
export async function checkSlackWebhook(
  name: string,
  variable: string,
  webhook: { baseUrl: string; id: string; token: string },
): Promise<CheckLine> {
  const item = `destination ${name}`;
  const http = createServiceHttp(
    {},
    {
      secrets: [webhook.token],
      service: 'webhook',
      baseUrl: `${webhook.baseUrl}/${webhook.id}/${webhook.token}`,
      readError: ({ text }) => ({ message: text.trim().slice(0, 100) }),
    },
  );
  try {
    await http.sendEmpty({ service: 'webhook', operation: 'check', method: 'POST', path: '', body: {} });
    return { status: 'ok', item, text: 'the Slack incoming webhook answers' };
  } catch (err) {
    const said = err instanceof ServiceError ? (err.providerMessage ?? err.code) : String(err);
    if (err instanceof ServiceError && err.status === 400 && EXISTS.has(said))
      return {
        status: 'ok',
        item,
        text: 'the Slack incoming webhook exists and may post (checked without posting)',
      };
    const status = err instanceof ServiceError && err.status !== undefined ? `${err.status} ` : '';
    return {
      status: 'fail',
      item,
      text: `Slack answered ${status}${said}: the webhook is revoked or its channel is gone; add a new incoming webhook to the app (Incoming Webhooks) and set ${variable} to its URL`,
    };
  } finally {
    await http.close();
  }
}
