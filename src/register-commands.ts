// `npm run register`: publishes the commands the bot offers (src/app.ts, the same composition as
// `npm start`, /schedule included) to Discord (adapters/discord/register.ts) and prints what it
// published and what it left out. `npm run register -- --slack-manifest [--request-url URL]`
// prints the Slack app manifest with the same commands instead (adapters/slack/manifest.ts).
// Usage and config errors exit 2, a refused publish 1.
import { parseArgs } from 'node:util';
import { registerCommands } from '../adapters/discord/register.ts';
import { slackManifest } from '../adapters/slack/manifest.ts';
import { buildApp, registrationParts } from './app.ts';
import { readEnvironment } from './config-file.ts';
import { loadConfig, type Config } from './config.ts';
import { createRegistry } from './core/registry.ts';
import { ConfigError } from './errors.ts';
import { createLogger } from './log.ts';

const USAGE = 'usage: npm run register [-- --slack-manifest [--request-url https://<host>/slack/events]]';

function readArgs(argv: readonly string[]): { slackManifest: boolean; requestUrl: string | undefined } {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'slack-manifest': { type: 'boolean' }, 'request-url': { type: 'string' } },
    strict: true,
  });
  const requestUrl = values['request-url'];
  if (requestUrl !== undefined && !values['slack-manifest'])
    throw new Error('--request-url goes with --slack-manifest');
  if (requestUrl !== undefined && !URL.canParse(requestUrl)) throw new Error(`--request-url: not a URL`);
  return { slackManifest: values['slack-manifest'] ?? false, requestUrl };
}

async function main(argv: readonly string[]): Promise<number> {
  let args: ReturnType<typeof readArgs>;
  try {
    args = readArgs(argv);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
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
  const log = createLogger({ level: config.log.level, format: config.log.format });
  const app = buildApp(config, 'register', registrationParts(log));
  const offered = createRegistry(app.offered);
  if (args.slackManifest) {
    const manifest = slackManifest(
      offered,
      args.requestUrl === undefined ? {} : { requestUrl: args.requestUrl },
    );
    process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
    return 0;
  }
  if (!config.discord) {
    process.stderr.write('Set DISCORD_TOKEN and DISCORD_APPLICATION_ID to register the slash commands.\n');
    return 2;
  }
  try {
    const result = await registerCommands({ config: config.discord, registry: offered, log });
    const where = result.scope === 'guild' ? `guild ${config.discord.guildId}` : 'every guild (global)';
    process.stdout.write(
      `Registered ${result.names.length} commands in ${where}: ${result.names.map((n) => `/${n}`).join(' ')}\n`,
    );
    const skipped = app.registry.commands.filter((c) => !app.offered.includes(c)).map((c) => `/${c.name}`);
    if (skipped.length > 0) process.stdout.write(`Left out (service not configured): ${skipped.join(' ')}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
