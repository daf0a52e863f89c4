// `--check --online`'s Discord calls, through Discord's own REST client (@discordjs/rest: its
// User-Agent, content types and rate limits), kept in this one file:
// - Get Current User, GET /users/@me (https://discord.com/developers/docs/resources/user#get-current-user):
//   the token works;
// - Get Current Application, GET /applications/@me
//   (https://discord.com/developers/docs/resources/application#get-current-application): the token
//   is DISCORD_APPLICATION_ID's, and in HTTP mode its `verify_key` is DISCORD_PUBLIC_KEY;
// - Get Guild, GET /guilds/{id} (https://discord.com/developers/docs/resources/guild#get-guild): the
//   bot is in DISCORD_GUILD_ID's guild;
// - Get Webhook with Token, GET /webhooks/{id}/{token}, no bot token
//   (https://discord.com/developers/docs/resources/webhook#get-webhook-with-token): the webhook exists.
import { DiscordAPIError, REST } from '@discordjs/rest';
import { Routes, type APIApplication, type APIUser, type APIWebhook } from 'discord-api-types/v10';
import type { DiscordConfig } from '../config/sections.ts';
import { DISCORD_API_URL } from '../domain/discord.ts';
import type { CheckLine } from './lines.ts';

/** View Channel, Send Messages, Embed Links, Attach Files: what a scheduled post needs. */
const INVITE_PERMISSIONS = String((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15));
const TIMEOUT_MS = 10_000;

function inviteUrl(applicationId: string): string {
  return `https://discord.com/oauth2/authorize?client_id=${applicationId}&scope=bot+applications.commands&permissions=${INVITE_PERMISSIONS}`;
}

function restFor(apiUrl: string | undefined, token?: string): REST {
  const rest = new REST({ version: '10', api: apiUrl ?? DISCORD_API_URL, retries: 1, timeout: TIMEOUT_MS });
  return token === undefined ? rest : rest.setToken(token);
}

/** Discord's answer as a short clause: "Unknown Webhook (HTTP 404, code 10015)". */
function answered(err: unknown): string {
  if (err instanceof DiscordAPIError) return `${err.message} (HTTP ${err.status}, code ${err.code})`;
  return err instanceof Error ? err.message : String(err);
}

const statusOf = (err: unknown) => (err instanceof DiscordAPIError ? err.status : undefined);

/** The bot token, its application, the public key (HTTP mode) and the guild (DISCORD_GUILD_ID). */
export async function checkDiscordToken(config: DiscordConfig): Promise<CheckLine[]> {
  const rest = restFor(config.apiUrl, config.token);
  let user: APIUser;
  try {
    user = (await rest.get(Routes.user())) as APIUser;
  } catch (err) {
    const fix =
      statusOf(err) === 401
        ? 'set DISCORD_TOKEN to the bot token (Developer Portal → your application → Bot → Reset Token)'
        : 'check DISCORD_API_URL and the network, then run the check again';
    return [{ status: 'fail', item: 'discord token', text: `Discord answered ${answered(err)}: ${fix}` }];
  }
  const lines: CheckLine[] = [
    { status: 'ok', item: 'discord token', text: `the bot ${user.username} (${user.id})` },
  ];
  lines.push(await checkApplication(rest, config));
  if (config.guildId !== undefined) lines.push(await checkGuild(rest, config, config.guildId));
  return lines;
}

async function checkApplication(rest: REST, config: DiscordConfig): Promise<CheckLine> {
  const item = 'discord application';
  let app: APIApplication;
  try {
    app = (await rest.get(Routes.currentApplication())) as APIApplication;
  } catch (err) {
    return { status: 'fail', item, text: `Discord answered ${answered(err)}: run the check again` };
  }
  if (app.id !== config.applicationId)
    return {
      status: 'fail',
      item,
      text: `the token belongs to application ${app.id}, not DISCORD_APPLICATION_ID ${config.applicationId}: set DISCORD_APPLICATION_ID=${app.id}, or the token of application ${config.applicationId}`,
    };
  if (
    config.mode === 'http' &&
    config.publicKey !== undefined &&
    app.verify_key !== config.publicKey.toLowerCase()
  )
    return {
      status: 'fail',
      item,
      text: `DISCORD_PUBLIC_KEY is not the application's public key, so no interaction would verify: set DISCORD_PUBLIC_KEY=${app.verify_key} (General Information → Public Key)`,
    };
  const key = config.mode === 'http' ? ', its public key is DISCORD_PUBLIC_KEY' : '';
  return { status: 'ok', item, text: `${app.name} (${app.id})${key}` };
}

async function checkGuild(rest: REST, config: DiscordConfig, guildId: string): Promise<CheckLine> {
  const item = `discord guild ${guildId}`;
  try {
    const guild = (await rest.get(Routes.guild(guildId))) as { name: string };
    return { status: 'ok', item, text: `herald is in ${guild.name}` };
  } catch (err) {
    const isAbsent = statusOf(err) === 403 || statusOf(err) === 404;
    const fix = isAbsent
      ? `invite herald with the bot and applications.commands scopes: ${inviteUrl(config.applicationId)}`
      : 'run the check again';
    return { status: 'fail', item, text: `Discord answered ${answered(err)}: ${fix}` };
  }
}

/** A Discord webhook destination: it exists, and where it posts. */
export async function checkDiscordWebhook(
  name: string,
  variable: string,
  webhook: { baseUrl: string; id: string; token: string },
): Promise<CheckLine> {
  const item = `destination ${name}`;
  // A webhook URL's base is the API's (…/api or …/api/v10) and /webhooks: REST adds its own version.
  const api = webhook.baseUrl.replace(/\/webhooks$/, '').replace(/\/v\d+$/, '');
  try {
    const found = (await restFor(api).get(Routes.webhook(webhook.id, webhook.token), {
      auth: false,
    })) as APIWebhook;
    return {
      status: 'ok',
      item,
      text: `the Discord webhook ${found.name ?? found.id} posts in channel ${found.channel_id}${found.guild_id ? ` of guild ${found.guild_id}` : ''}`,
    };
  } catch (err) {
    const gone = statusOf(err) === 404 || statusOf(err) === 401;
    const fix = gone
      ? `the webhook is deleted or its token is wrong: create one (channel settings → Integrations → Webhooks) and set ${variable} to its URL`
      : 'run the check again';
    return { status: 'fail', item, text: `Discord answered ${answered(err)}: ${fix}` };
  }
}
