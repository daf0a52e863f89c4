// `npm run register`: publishes the commands the bot offers (src/app.ts, the same composition as
// `npm start`, /schedule included) to Discord (adapters/discord/register.ts) and prints what it
// published and what it left out; `--endpoint https://…` also sets the application's interactions
// endpoint URL (HTTP mode). `npm run register -- --slack-manifest [--request-url URL]` prints the
// Slack app manifest with the same commands instead (adapters/slack/manifest.ts), to standard output
// or, with `--out FILE`, to a file (npm's own banner goes to standard output under `npm run`).
// Usage and config errors exit 2, a refused publish 1.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { registerCommands, setInteractionsEndpoint } from '../adapters/discord/register.ts';
import { slackManifest } from '../adapters/slack/manifest.ts';
import { openApp } from './app.ts';
import { readEnvironment } from './config/file.ts';
import { loadConfig, type Config } from './config/index.ts';
import { createRegistry } from './core/registry.ts';
import { ConfigError } from './errors.ts';
import { createLogger } from './log.ts';

const USAGE = `Usage: npm run register [-- OPTION]

  (no option)               publish the slash commands to Discord (DISCORD_TOKEN, DISCORD_APPLICATION_ID;
                            DISCORD_GUILD_ID for one guild, at once)
  --endpoint URL            also set the application's interactions endpoint (Discord's HTTP mode)
  --slack-manifest          write the Slack app manifest (JSON) with the same commands instead
  --request-url URL         with --slack-manifest: Slack's HTTP mode, events and commands sent to URL
  --out FILE                with --slack-manifest: write the manifest to FILE (npm prints its own
                            banner on standard output, so \`> file\` needs \`npm run --silent register\`)
  --help                    print this text

Example: npm run register -- --slack-manifest --out manifest.json
Exit codes: 0 done; 1 Discord refused; 2 a usage or configuration error.
`;

interface RegisterArgs {
  help: boolean;
  slackManifest: boolean;
  /** Where --slack-manifest writes, instead of standard output. */
  out: string | undefined;
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
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help)
    return { help: true, slackManifest: false, out: undefined, requestUrl: undefined, endpoint: undefined };
  const requestUrl = values['request-url'];
  const { endpoint } = values;
  if (requestUrl !== undefined && !values['slack-manifest'])
    throw new Error('--request-url goes with --slack-manifest');
  if (requestUrl !== undefined && !URL.canParse(requestUrl)) throw new Error(`--request-url: not a URL`);
  if (endpoint !== undefined && values['slack-manifest'])
    throw new Error('--endpoint is for Discord; --slack-manifest takes --request-url');
  if (endpoint !== undefined && !URL.canParse(endpoint))
    throw new Error('--endpoint needs the https:// URL Discord should send interactions to');
  const { out } = values;
  if (out !== undefined && !values['slack-manifest']) throw new Error('--out goes with --slack-manifest');
  if (out?.trim() === '') throw new Error('--out needs the file to write the manifest to');
  return { help: false, slackManifest: values['slack-manifest'] ?? false, out, requestUrl, endpoint };
}

/** Which commands went where: user-installable (guilds, DMs, group DMs) or guild-only. */
function installsReport(result: Awaited<ReturnType<typeof registerCommands>>): string {
  const lines = [
    `User-installable (guilds, DMs with herald, group DMs): ${result.userInstallable.join(' ') || 'none'}`,
    `Guild-only: ${result.guildOnly.join(' ') || 'none'}`,
  ];
  // Discord reads install types on global commands only; a guild registration is for trying out.
  if (result.scope === 'guild')
    lines.push('User installs take a global registration: run it again without DISCORD_GUILD_ID.');
  return `${lines.join('\n')}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  let args: RegisterArgs;
  try {
    args = readArgs(argv);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)} (try --help)\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
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
  const { app } = await openApp(config, 'register', { services: {}, log });
  const offered = createRegistry(app.offered);
  if (args.slackManifest) {
    const manifest = slackManifest(
      offered,
      args.requestUrl === undefined ? {} : { requestUrl: args.requestUrl },
    );
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    if (args.out === undefined) {
      process.stdout.write(text);
      return 0;
    }
    // npm runs a script in the project root; a relative path means where the command was typed.
    const path = resolve(process.env.INIT_CWD ?? process.cwd(), args.out);
    try {
      writeFileSync(path, text);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      process.stderr.write(`cannot write ${path}${code ? ` (${code})` : ''}\n`);
      return 1;
    }
    process.stderr.write(`Slack app manifest written to ${path}\n`);
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
      `Registered ${result.names.length} commands in ${where}: ${result.names.join(' ')}\n`,
    );
    process.stdout.write(installsReport(result));
    const skipped = app.registry.commands
      .filter((c) => !app.offered.includes(c))
      .map((c) => c.onMessage ?? `/${c.name}`);
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
