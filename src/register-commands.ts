// `npm run register`: publishes herald's configured slash commands to Discord (adapters/discord/register.ts)
// and prints what it published and what it left out. Config errors exit 2, a refused publish 1.
// `--endpoint https://…` also sets the application's interactions endpoint URL (HTTP mode).
import { buildCommands } from '../commands/index.ts';
import {
  commandsToRegister,
  registerCommands,
  setInteractionsEndpoint,
} from '../adapters/discord/register.ts';
import { readEnvironment } from './config-file.ts';
import { loadConfig, type Config } from './config.ts';
import type { Command } from './core/command.ts';
import { DEFAULT_SPEECH_MODEL_ID } from './domain/speech.ts';
import { ConfigError } from './errors.ts';
import { createLogger } from './log.ts';

/** The value of `--endpoint URL` or `--endpoint=URL`; null when the flag has no value. */
export function endpointArgument(argv: readonly string[]): string | null | undefined {
  for (const [i, arg] of argv.entries()) {
    if (arg === '--endpoint') return argv[i + 1] ?? null;
    if (arg.startsWith('--endpoint=')) return arg.slice('--endpoint='.length) || null;
  }
  return undefined;
}

async function main(argv: readonly string[]): Promise<number> {
  const endpoint = endpointArgument(argv);
  if (endpoint === null) {
    process.stderr.write('--endpoint needs the https:// URL Discord should send interactions to.\n');
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig(readEnvironment().env);
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
    speechModelId: config.services.speech?.modelId ?? DEFAULT_SPEECH_MODEL_ID,
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
    if (endpoint !== undefined) {
      await setInteractionsEndpoint({ config: config.discord, url: endpoint, log });
      process.stdout.write(`Interactions endpoint set to ${endpoint}\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
