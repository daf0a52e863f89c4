// Publishes herald's slash commands to Discord with ONE bulk overwrite, to
// DISCORD_GUILD_ID's guild when set (instant, for development) or globally. Commands whose services
// are not configured are left out, so Discord never offers a command that cannot run.
// https://discord.com/developers/docs/interactions/application-commands#bulk-overwrite-global-application-commands
import { REST, Routes } from 'discord.js';
import type { Config, DiscordConfig } from '../../src/config.ts';
import type { Command, CommandLog } from '../../src/core/command.ts';
import { AdapterError } from '../../src/errors.ts';
import { redactText } from '../../src/redact.ts';
import { buildDiscordCommands } from './commands.ts';

export interface RegisterResult {
  scope: 'guild' | 'global';
  names: string[];
}

/** The commands Discord should offer: those whose every needed service is configured or simulated. */
export function commandsToRegister(
  commands: readonly Command[],
  config: Pick<Config, 'sandbox' | 'services'>,
): Command[] {
  return commands.filter((c) =>
    c.needs.every((key) => config.sandbox === 'on' || config.services[key] !== undefined),
  );
}

export async function registerCommands(opts: {
  config: DiscordConfig;
  commands: readonly Command[];
  log: CommandLog;
}): Promise<RegisterResult> {
  const { config, log } = opts;
  const body = buildDiscordCommands(opts.commands);
  const rest = new REST(config.apiUrl === undefined ? {} : { api: config.apiUrl }).setToken(config.token);
  const scope = config.guildId === undefined ? 'global' : 'guild';
  const route =
    config.guildId === undefined
      ? Routes.applicationCommands(config.applicationId)
      : Routes.applicationGuildCommands(config.applicationId, config.guildId);
  try {
    const saved = (await rest.put(route, { body })) as { name: string }[];
    const names = saved.map((c) => c.name);
    log.info({ scope, guildId: config.guildId, count: names.length, names }, 'discord.commands_registered');
    return { scope, names };
  } catch (err) {
    const source = err instanceof Error ? err : new Error(String(err));
    const message = redactText(source.message, [config.token]);
    throw new AdapterError({
      platform: 'discord',
      code: 'send_failed',
      message: `Discord rejected the command set: ${message}`,
      cause: new Error(message),
    });
  }
}
