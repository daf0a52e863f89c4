// Loopback fakes of what `--check --online` asks Discord and Slack, as msw handlers served beside
// the sandbox's providers. Each rule names the page it follows; anything else is refused.
import { http, HttpResponse, type RequestHandler } from 'msw';

export const BOT_TOKEN = 'test-discord-bot-token.online-check';
export const APP_ID = '223456789012345678';
export const PUBLIC_KEY = 'a'.repeat(64);
export const GUILD_ID = '323456789012345678';
export const WEBHOOK = { id: '423456789012345678', token: 'online-check-webhook-token_abcdef' };
export const SLACK_BOT = 'xoxb-online-check-bot';
export const SLACK_APP = 'xapp-1-online-check-app';
export const SLACK_HOOK = { team: 'T0CHECK01', id: 'B0CHECK01', token: 'onlinecheckhooktoken01' };
export const SLACK_HOOK_ARCHIVED = { team: 'T0CHECK01', id: 'B0CHECK02', token: 'archivedhooktoken02' };

export interface PlatformFakeState {
  /** The scopes auth.test reports in `x-oauth-scopes`. */
  slackScopes: string[];
  /** Every request's method, path and User-Agent, for the tests' own checks. */
  seen: { method: string; path: string; userAgent: string }[];
}

/** https://discord.com/developers/docs/topics/opcodes-and-status-codes#json: `{ message, code }`. */
const discordError = (status: number, code: number, message: string) =>
  HttpResponse.json({ message, code }, { status });

/**
 * Every Discord request: a `DiscordBot ($url, $versionNumber)` User-Agent
 * (https://discord.com/developers/docs/reference#user-agent; the answer to a breach is not
 * documented, so the fake says 400), and no JSON content type on a request without a body (Discord
 * answers 400, 50109 "The request body contains invalid JSON"), then the route's own rules.
 */
function discord(
  state: PlatformFakeState,
  answer: (request: Request, params: Record<string, string>) => Response,
) {
  return ({
    request,
    params,
  }: {
    request: Request;
    params: Record<string, string | readonly string[] | undefined>;
  }) => {
    const userAgent = request.headers.get('user-agent') ?? '';
    state.seen.push({ method: request.method, path: new URL(request.url).pathname, userAgent });
    if (!/^DiscordBot \(\S+, \S+\)/.test(userAgent)) return discordError(400, 0, 'Bad User-Agent');
    if (request.method === 'GET' && request.headers.get('content-type')?.includes('json'))
      return discordError(400, 50109, 'The request body contains invalid JSON.');
    return answer(request, params as Record<string, string>);
  };
}

/** https://discord.com/developers/docs/reference#authentication: `Authorization: Bot <token>`, else 401. */
const isBot = (request: Request) => request.headers.get('authorization') === `Bot ${BOT_TOKEN}`;
const unauthorized = () => discordError(401, 0, '401: Unauthorized');

function discordHandlers(state: PlatformFakeState): RequestHandler[] {
  return [
    // https://discord.com/developers/docs/resources/user#get-current-user
    http.get(
      '*/api/v10/users/@me',
      discord(state, (request) =>
        isBot(request)
          ? HttpResponse.json({
              id: '523456789012345678',
              username: 'herald',
              discriminator: '0',
              global_name: null,
              avatar: null,
              bot: true,
              flags: 0,
            })
          : unauthorized(),
      ),
    ),
    // https://discord.com/developers/docs/resources/application#get-current-application
    http.get(
      '*/api/v10/applications/@me',
      discord(state, (request) =>
        isBot(request)
          ? HttpResponse.json({
              id: APP_ID,
              name: 'herald',
              icon: null,
              description: '',
              verify_key: PUBLIC_KEY,
              bot_public: true,
              bot_require_code_grant: false,
              flags: 0,
              team: null,
            })
          : unauthorized(),
      ),
    ),
    // https://discord.com/developers/docs/resources/guild#get-guild: a guild the bot is not in is 403 Missing Access (50001).
    http.get(
      '*/api/v10/guilds/:guild',
      discord(state, (request, { guild }) => {
        if (!isBot(request)) return unauthorized();
        return guild === GUILD_ID
          ? HttpResponse.json({ id: GUILD_ID, name: 'Ops guild', owner_id: '1', roles: [], features: [] })
          : discordError(403, 50001, 'Missing Access');
      }),
    ),
    // https://discord.com/developers/docs/resources/webhook#get-webhook-with-token: no Authorization;
    // 404 Unknown Webhook (10015), 401 Invalid Webhook Token (50027).
    http.get(
      '*/api/v10/webhooks/:id/:token',
      discord(state, (request, { id, token }) => {
        if (request.headers.has('authorization'))
          return discordError(400, 0, 'a webhook token needs no Authorization');
        if (id !== WEBHOOK.id) return discordError(404, 10015, 'Unknown Webhook');
        if (token !== WEBHOOK.token) return discordError(401, 50027, 'Invalid Webhook Token');
        return HttpResponse.json({
          type: 1,
          id,
          name: 'Reports',
          avatar: null,
          channel_id: '623456789012345678',
          guild_id: GUILD_ID,
          application_id: null,
          token,
        });
      }),
    ),
  ];
}

/** https://api.slack.com/web#responses: HTTP 200 with `ok: false` and the error's name. */
const slackRefusal = (error: string) => HttpResponse.json({ ok: false, error });

function slackHandlers(state: PlatformFakeState): RequestHandler[] {
  const seen = (request: Request) =>
    state.seen.push({
      method: request.method,
      path: new URL(request.url).pathname,
      userAgent: request.headers.get('user-agent') ?? '',
    });
  return [
    // https://api.slack.com/methods/auth.test; the scopes in `x-oauth-scopes` (https://api.slack.com/authentication/oauth-v2)
    http.post('*/api/auth.test', ({ request }) => {
      seen(request);
      if (request.headers.get('authorization') !== `Bearer ${SLACK_BOT}`) return slackRefusal('invalid_auth');
      return HttpResponse.json(
        {
          ok: true,
          url: 'https://herald-test.slack.com/',
          team: 'Herald Test',
          user: 'herald',
          team_id: 'T0CHECK01',
          user_id: 'U0CHECK01',
          bot_id: 'B0BOT0001',
          is_enterprise_install: false,
        },
        { headers: { 'x-oauth-scopes': state.slackScopes.join(','), 'x-accepted-oauth-scopes': '' } },
      );
    }),
    // https://api.slack.com/methods/apps.connections.open: an app-level token only.
    http.post('*/api/apps.connections.open', ({ request }) => {
      seen(request);
      const auth = request.headers.get('authorization');
      if (auth === `Bearer ${SLACK_BOT}`) return slackRefusal('not_allowed_token_type');
      if (auth !== `Bearer ${SLACK_APP}`) return slackRefusal('invalid_auth');
      return HttpResponse.json({ ok: true, url: 'wss://wss-primary.slack.com/link/?ticket=t' });
    }),
    // https://api.slack.com/messaging/webhooks#handling_errors: text/plain answers.
    http.post('*/services/:team/:id/:token', async ({ request, params }) => {
      seen(request);
      const body = (await request.json().catch(() => undefined)) as { text?: unknown } | undefined;
      if (params.id === SLACK_HOOK_ARCHIVED.id)
        return new HttpResponse('channel_is_archived', { status: 410 });
      if (params.id !== SLACK_HOOK.id || params.token !== SLACK_HOOK.token)
        return new HttpResponse('no_service', { status: 404 });
      if (body === undefined) return new HttpResponse('invalid_payload', { status: 400 });
      if (typeof body.text !== 'string' && !('blocks' in body))
        return new HttpResponse('no_text', { status: 400 });
      return new HttpResponse('ok');
    }),
  ];
}

export function platformHandlers(state: PlatformFakeState): RequestHandler[] {
  return [...discordHandlers(state), ...slackHandlers(state)];
}
