// Publishes herald's slash commands to Discord with ONE bulk overwrite, to
// DISCORD_GUILD_ID's guild when set (instant, for development) or globally. Which commands: the
// registry it is given (src/app.ts's offered commands, the bot's own).
// https://discord.com/developers/docs/interactions/application-commands#bulk-overwrite-global-application-commands
import { REST } from '@discordjs/rest';
import { ApplicationCommandType, Routes } from 'discord-api-types/v10';
import type { DiscordConfig } from '../../src/config/index.ts';
import type { CommandRegistry } from '../../src/core/adapter.ts';
import type { CommandLog } from '../../src/core/command.ts';
import { AdapterError } from '../../src/errors.ts';
import { DISCORD_API_URL } from '../../src/domain/discord.ts';
import { redactText } from '../../src/redact.ts';
import { buildDiscordCommands, isUserInstallable } from './commands.ts';

interface RegisterResult {
  scope: 'guild' | 'global';
  /** As a user finds them: `/weather`, or a message command's menu name (`Read aloud`). */
  names: string[];
  /** Of those, the ones a user may install into their own account (in a global registration). */
  userInstallable: string[];
  guildOnly: string[];
}

/** How a user finds a command: a slash command by `/name`, a message command by its menu name. */
function shownName(json: { type?: number; name: string }): string {
  return json.type === ApplicationCommandType.Message ? json.name : `/${json.name}`;
}

export async function registerCommands(opts: {
  config: DiscordConfig;
  registry: CommandRegistry;
  log: CommandLog;
}): Promise<RegisterResult> {
  const { config, log } = opts;
  const scope = config.guildId === undefined ? 'global' : 'guild';
  const body = buildDiscordCommands(opts.registry, { isGlobal: scope === 'global' });
  // Which would reach user installs: Discord reads install types on global commands only.
  const reach = buildDiscordCommands(opts.registry, { isGlobal: true });
  const rest = restFor(config);
  const route =
    config.guildId === undefined
      ? Routes.applicationCommands(config.applicationId)
      : Routes.applicationGuildCommands(config.applicationId, config.guildId);
  try {
    const saved = (await rest.put(route, { body })) as { name: string; type?: number }[];
    const names = saved.map(shownName);
    const userInstallable = reach.filter(isUserInstallable).map(shownName);
    const guildOnly = reach.filter((c) => !isUserInstallable(c)).map(shownName);
    log.info({ scope, guildId: config.guildId, count: names.length, names }, 'discord.commands_registered');
    return { scope, names, userInstallable, guildOnly };
  } catch (err) {
    throw registerFailure(err, config);
  }
}

/**
 * Sets the application's Interactions Endpoint URL (Edit Current Application), the same field as
 * the Developer Portal's. Discord checks the URL as it saves it (a PING and a badly signed
 * request), so herald must already be answering there in HTTP mode.
 * https://discord.com/developers/docs/resources/application#edit-current-application
 */
export async function setInteractionsEndpoint(opts: {
  config: DiscordConfig;
  url: string;
  log: CommandLog;
}): Promise<void> {
  const { config, url, log } = opts;
  if (!isHttpsUrl(url)) {
    throw new AdapterError({
      platform: 'discord',
      code: 'send_failed',
      message: `The interactions endpoint must be an https:// URL, not ${JSON.stringify(url.slice(0, 100))}`,
    });
  }
  const rest = restFor(config);
  try {
    await rest.patch(Routes.currentApplication(), { body: { interactions_endpoint_url: url } });
    log.info({ url }, 'discord.interactions_endpoint_set');
  } catch (err) {
    throw registerFailure(err, config, 'the interactions endpoint URL', 'the endpoint was not set');
  }
}

/** discord.js's REST client with the bot token, at the configured API URL when there is one. */
function restFor(config: DiscordConfig): REST {
  return new REST(config.apiUrl === undefined ? {} : { api: config.apiUrl }).setToken(config.token);
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** The error codes of a connection that never carried an answer (Node's and undici's). */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** The network error code of `err` or of one of its causes, if it is one. */
function networkCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE[code] !== undefined) return code;
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return 'ETIMEDOUT';
  }
  return undefined;
}

/** One sentence for the operator: Discord unreachable, Discord failing, or Discord refusing `subject`. */
function registerFailure(
  err: unknown,
  config: DiscordConfig,
  subject = 'the command set',
  outcome = 'nothing was registered',
): AdapterError {
  const source = err instanceof Error ? err : new Error(String(err));
  const message = redactText(source.message, [config.token]);
  const cause = new Error(message);
  const network = networkCode(err);
  if (network !== undefined) {
    const origin = new URL(config.apiUrl ?? DISCORD_API_URL).origin;
    return new AdapterError({
      platform: 'discord',
      code: 'connect_failed',
      message: `Could not reach Discord at ${origin}: ${UNREACHABLE[network]} (${network}); ${outcome}.`,
      cause,
    });
  }
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 500) {
    return new AdapterError({
      platform: 'discord',
      code: 'send_failed',
      message: `Discord failed to take ${subject} (HTTP ${status}); try again later: ${message}`,
      cause,
    });
  }
  return new AdapterError({
    platform: 'discord',
    code: 'send_failed',
    message: `Discord rejected ${subject}: ${message}`,
    cause,
  });
}
