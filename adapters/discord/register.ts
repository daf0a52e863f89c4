// `npm run register`: publishes herald's slash commands to Discord with ONE bulk overwrite, to
// DISCORD_GUILD_ID's guild when set (instant, for development) or globally. Commands whose services
// are not configured are left out, so Discord never offers a command that cannot run.
// https://discord.com/developers/docs/interactions/application-commands#bulk-overwrite-global-application-commands
import { REST, Routes } from 'discord.js';
import type { Config, DiscordConfig } from '../../src/config.ts';
import type { Command, CommandLog } from '../../src/core/command.ts';
import { AdapterError } from '../../src/errors.ts';
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
    const message =
      config.token === '' ? source.message : source.message.replaceAll(config.token, '[REDACTED]');
    throw new AdapterError({
      platform: 'discord',
      code: 'send_failed',
      message: `Discord rejected the command set: ${message}`,
      cause: new Error(message),
    });
  }
}

async function main(): Promise<number> {
  const { loadConfig } = await import('../../src/config.ts');
  const { createLogger } = await import('../../src/log.ts');
  const { buildCommands } = await import('../../commands/index.ts');
  const { ConfigError } = await import('../../src/errors.ts');
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (!config.discord) {
    process.stderr.write('Set DISCORD_TOKEN and DISCORD_APPLICATION_ID to register the slash commands.\n');
    return 2;
  }
  const log = createLogger({ level: config.log.level, format: config.log.format });
  const all = buildCommands({
    access: config.access,
    limits: config.limits,
    speechModelId: config.services.speech?.modelId ?? 'eleven_multilingual_v2',
    jobsCountry: config.services.jobSearch?.country ?? 'gb',
  });
  const commands = commandsToRegister(all, config);
  try {
    const result = await registerCommands({ config: config.discord, commands, log });
    const where = result.scope === 'guild' ? `guild ${config.discord.guildId}` : 'every guild (global)';
    process.stdout.write(
      `Registered ${result.names.length} commands in ${where}: ${result.names.map((n) => `/${n}`).join(' ')}\n`,
    );
    const skipped = all.filter((c: Command) => !commands.includes(c)).map((c: Command) => `/${c.name}`);
    if (skipped.length > 0) process.stdout.write(`Left out (service not configured): ${skipped.join(' ')}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await main();
}
