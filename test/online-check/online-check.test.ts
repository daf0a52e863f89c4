// `npm start -- --check --online` against loopback fakes of Discord, Slack (test/online-check/
// fake-platforms.ts) and the providers (the sandbox's handlers, which refuse any other key): one
// line per item, the fix on each failure, exit 1 when one fails; offline --check unchanged.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { runOnlineCheck } from '../../src/online-check/index.ts';
import { SANDBOX_PREFIXES } from '../../src/sandbox/layout.ts';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { planServices } from '../../src/sandbox/resolve.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { REDIS_URL } from '../support/redis.ts';
import { runHerald } from '../support/spawn-herald.ts';
import {
  APP_ID,
  BOT_TOKEN,
  GUILD_ID,
  PUBLIC_KEY,
  SLACK_APP,
  SLACK_BOT,
  SLACK_HOOK,
  SLACK_HOOK_ARCHIVED,
  WEBHOOK,
  platformHandlers,
  type PlatformFakeState,
} from './fake-platforms.ts';

const SCOPES = ['commands', 'chat:write', 'files:write', 'channels:read', 'groups:read'];
const KEY = 'online-check-provider-key';
const state: PlatformFakeState = { slackScopes: [], seen: [] };
let fake: SandboxServer;

beforeAll(async () => {
  fake = await startFake([...platformHandlers(state), ...sandboxHandlers({ credential: KEY })]);
});
afterAll(() => fake.close());
beforeEach(() => {
  state.slackScopes = [...SCOPES];
  state.seen.length = 0;
});

/** Everything configured and right. */
function goodEnv(): Record<string, string> {
  return {
    SANDBOX: 'off',
    DISCORD_TOKEN: BOT_TOKEN,
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_GUILD_ID: GUILD_ID,
    DISCORD_API_URL: `${fake.url}/api`,
    SLACK_BOT_TOKEN: SLACK_BOT,
    SLACK_APP_TOKEN: SLACK_APP,
    SLACK_API_URL: `${fake.url}/api`,
    WEBHOOK_URL_OPS: `${fake.url}/api/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`,
    WEBHOOK_URL_TEAM: `${fake.url}/services/${SLACK_HOOK.team}/${SLACK_HOOK.id}/${SLACK_HOOK.token}`,
    WEATHER_API_KEY: KEY,
    WEATHER_BASE_URL: fake.url + SANDBOX_PREFIXES.weather,
    GEOCODING_API_KEY: KEY,
    GEOCODING_BASE_URL: fake.url + SANDBOX_PREFIXES.geocoding,
  };
}

async function check(env: Record<string, string>): Promise<{ code: number; lines: string[]; text: string }> {
  const config = loadConfig(env);
  let text = '';
  const code = await runOnlineCheck(config, planServices(config), {
    slackScopes: SCOPES,
    out: (t) => void (text += t),
  });
  return { code, text, lines: text.split('\n').filter((l) => /^(ok|FAIL|note) /.test(l)) };
}

const lineOf = (lines: string[], item: string) =>
  lines.find((l) => l.includes(` ${item}: `)) ?? `(no line for ${item})`;

describe('--check --online', () => {
  it('checks each token, scope, destination and provider key: one line each, exit 0', async () => {
    const { code, lines, text } = await check(goodEnv());
    expect(code, text).toBe(0);
    expect(lineOf(lines, 'discord token')).toBe('ok    discord token: the bot herald (523456789012345678)');
    expect(lineOf(lines, 'discord application')).toBe(`ok    discord application: herald (${APP_ID})`);
    expect(lineOf(lines, `discord guild ${GUILD_ID}`)).toBe(
      `ok    discord guild ${GUILD_ID}: herald is in Ops guild`,
    );
    expect(lineOf(lines, 'slack token')).toBe('ok    slack token: the bot herald in Herald Test');
    expect(lineOf(lines, 'slack scopes')).toBe(`ok    slack scopes: ${SCOPES.join(', ')}`);
    expect(lineOf(lines, 'slack app token')).toBe('ok    slack app token: Socket Mode opens');
    expect(lineOf(lines, 'destination ops')).toBe(
      `ok    destination ops: the Discord webhook Reports posts in channel 623456789012345678 of guild ${GUILD_ID}`,
    );
    expect(lineOf(lines, 'destination team')).toMatch(
      /^ok {4}destination team: the Slack incoming webhook exists/,
    );
    expect(lineOf(lines, 'service weather')).toMatch(
      /^ok {4}service weather: the credentials work \(http:\/\/127\.0\.0\.1:\d+\)$/,
    );
    expect(lineOf(lines, 'service geocoding')).toMatch(/^ok {4}service geocoding: the credentials work/);
    expect(lineOf(lines, 'service email')).toBe('note  service email: disabled: nothing to check');
    expect(text).toContain('Every item answered as herald needs.');
  });

  it('sends Discord what Discord requires (a DiscordBot User-Agent, no JSON type on a GET), and the Slack webhook nothing it would post', async () => {
    await check(goodEnv());
    const discordCalls = state.seen.filter((s) => s.path.startsWith('/api/v10/'));
    expect(discordCalls.map((s) => s.path).sort()).toEqual(
      [
        '/api/v10/applications/@me',
        `/api/v10/guilds/${GUILD_ID}`,
        '/api/v10/users/@me',
        `/api/v10/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`,
      ].sort(),
    );
    for (const call of discordCalls) expect(call.userAgent).toMatch(/^DiscordBot \(/);
  });

  it('names the fix for each refusal: a wrong token, a missing scope, a deleted webhook, an archived channel, a refused key', async () => {
    state.slackScopes = ['commands', 'chat:write'];
    const env = {
      ...goodEnv(),
      DISCORD_TOKEN: 'wrong-discord-token.online-check',
      SLACK_APP_TOKEN: 'xapp-1-revoked',
      WEBHOOK_URL_OPS: `${fake.url}/api/webhooks/999956789012345678/${WEBHOOK.token}`,
      WEBHOOK_URL_TEAM: `${fake.url}/services/${SLACK_HOOK_ARCHIVED.team}/${SLACK_HOOK_ARCHIVED.id}/${SLACK_HOOK_ARCHIVED.token}`,
      WEATHER_API_KEY: 'a-key-the-provider-refuses',
    };
    const { code, lines, text } = await check(env);
    expect(code, text).toBe(1);
    expect(lineOf(lines, 'discord token')).toBe(
      'FAIL  discord token: Discord answered 401: Unauthorized (HTTP 401, code 0): set DISCORD_TOKEN to the bot token (Developer Portal → your application → Bot → Reset Token)',
    );
    expect(lineOf(lines, 'slack scopes')).toBe(
      'FAIL  slack scopes: missing files:write, channels:read, groups:read: add them (OAuth & Permissions → Bot Token Scopes, or the manifest from npm run register -- --slack-manifest) and reinstall the app',
    );
    expect(lineOf(lines, 'slack app token')).toMatch(
      /^FAIL {2}slack app token: Slack answered invalid_auth: set SLACK_APP_TOKEN/,
    );
    expect(lineOf(lines, 'destination ops')).toBe(
      'FAIL  destination ops: Discord answered Unknown Webhook (HTTP 404, code 10015): the webhook is deleted or its token is wrong: create one (channel settings → Integrations → Webhooks) and set WEBHOOK_URL_OPS to its URL',
    );
    expect(lineOf(lines, 'destination team')).toBe(
      'FAIL  destination team: Slack answered 410 channel_is_archived: the webhook is revoked or its channel is gone; add a new incoming webhook to the app (Incoming Webhooks) and set WEBHOOK_URL_TEAM to its URL',
    );
    expect(lineOf(lines, 'service weather')).toBe(
      'FAIL  service weather: answered unauthorized (HTTP 401): the credentials were refused; set WEATHER_API_KEY to valid ones',
    );
    expect(text).toContain('6 item(s) need the fix named above.');
    // No credential in what it prints.
    for (const secret of [WEBHOOK.token, SLACK_HOOK_ARCHIVED.token, 'a-key-the-provider-refuses'])
      expect(text).not.toContain(secret);
  });

  it('refuses a Slack bot token and a Discord application or public key that do not belong together', async () => {
    const env = {
      ...goodEnv(),
      SLACK_BOT_TOKEN: 'xoxb-revoked',
      DISCORD_APPLICATION_ID: '999456789012345678',
    };
    const { lines } = await check(env);
    expect(lineOf(lines, 'slack token')).toMatch(
      /^FAIL {2}slack token: Slack answered invalid_auth: set SLACK_BOT_TOKEN/,
    );
    expect(lineOf(lines, 'discord application')).toBe(
      `FAIL  discord application: the token belongs to application ${APP_ID}, not DISCORD_APPLICATION_ID 999456789012345678: set DISCORD_APPLICATION_ID=${APP_ID}, or the token of application 999456789012345678`,
    );
    const http = {
      ...goodEnv(),
      DISCORD_MODE: 'http',
      DISCORD_PUBLIC_KEY: 'b'.repeat(64),
      DISCORD_INTERACTIONS_PATH: '/interactions',
      PORT: '0',
    };
    const httpLines = (await check(http)).lines;
    expect(lineOf(httpLines, 'discord application')).toBe(
      `FAIL  discord application: DISCORD_PUBLIC_KEY is not the application's public key, so no interaction would verify: set DISCORD_PUBLIC_KEY=${PUBLIC_KEY} (General Information → Public Key)`,
    );
  });

  it("reports the test Redis's settings: no persistence, a note", async () => {
    const { lines } = await check({ ...goodEnv(), REDIS_URL });
    expect(lineOf(lines, 'redis')).toMatch(
      /^(note {2}redis: Redis at .* keeps nothing on disk|ok {4}redis: )/,
    );
  });

  it('runs from the command line after the offline report, exit 1 on a failure; offline --check makes no request', async () => {
    const env = { ...goodEnv(), WEATHER_API_KEY: 'a-key-the-provider-refuses', LOG_LEVEL: 'silent' };
    const online = await runHerald(env, '', { args: ['--check', '--online'] });
    expect(online.code, online.stderr).toBe(1);
    expect(online.stdout).toMatch(/^The configuration is valid\.\n/);
    expect(online.stdout).toContain('\nOnline check:\n');
    expect(online.stdout).toContain('FAIL  service weather: answered unauthorized');
    state.seen.length = 0;
    const offline = await runHerald(env, '', { args: ['--check'] });
    expect(offline.code).toBe(0);
    expect(offline.stdout).not.toContain('Online check');
    expect(state.seen).toEqual([]);
  }, 30_000);
});
