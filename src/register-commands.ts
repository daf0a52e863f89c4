// `npm run register`: publishes the commands the bot offers (src/app.ts, the same composition as
// `npm start`, /schedule included) to Discord (adapters/discord/register.ts) and prints what it
// published and what it left out; `--endpoint https://…` also sets the application's interactions
// endpoint URL (HTTP mode). `npm run register -- --slack-manifest [--request-url URL]` prints the
// Slack app manifest with the same commands instead (adapters/slack/manifest.ts).
// Usage and config errors exit 2, a refused publish 1.
import { parseArgs } from 'node:util';
import { registerCommands, setInteractionsEndpoint } from '../adapters/discord/register.ts';
import { slackManifest } from '../adapters/slack/manifest.ts';
import { buildApp, registrationParts } from './app.ts';
import { readEnvironment } from './config/file.ts';
import { loadConfig, type Config } from './config/index.ts';
import { createRegistry } from './core/registry.ts';
import { ConfigError } from './errors.ts';
import { createLogger } from './log.ts';

const USAGE =
  'usage: npm run register [-- --endpoint https://<host>/interactions] | [-- --slack-manifest [--request-url https://<host>/slack/events]]';

export interface RegisterArgs {
  slackManifest: boolean;
  requestUrl: string | undefined;
  /** The https:// URL Discord should send interactions to (HTTP mode). */
  endpoint: string | undefined;
}

export function readArgs(argv: readonly string[]): RegisterArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'slack-manifest': { type: 'boolean' },
      'request-url': { type: 'string' },
      endpoint: { type: 'string' },
    },
    strict: true,
  });
  const requestUrl = values['request-url'];
  const { endpoint } = values;
  if (requestUrl !== undefined && !values['slack-manifest'])
    throw new Error('--request-url goes with --slack-manifest');
  if (requestUrl !== undefined && !URL.canParse(requestUrl)) throw new Error(`--request-url: not a URL`);
  if (endpoint !== undefined && values['slack-manifest'])
    throw new Error('--endpoint is for Discord; --slack-manifest takes --request-url');
  if (endpoint !== undefined && !URL.canParse(endpoint))
    throw new Error('--endpoint needs the https:// URL Discord should send interactions to');
  return { slackManifest: values['slack-manifest'] ?? false, requestUrl, endpoint };
}

async function main(argv: readonly string[]): Promise<number> {
  let args: RegisterArgs;
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
    if (args.endpoint !== undefined) {
      await setInteractionsEndpoint({ config: config.discord, url: args.endpoint, log });
      process.stdout.write(`Interactions endpoint set to ${args.endpoint}\n`);
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
