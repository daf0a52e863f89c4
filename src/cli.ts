// The command line of `npm start -- [OPTION]` and the steps before anything starts: read `.env`,
// validate the whole configuration (every problem at once, as plain text, exit 2), and answer
// --help, --version and --check without starting the bot.
import { fstatSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readEnvironment, type Environment } from './config/file.ts';
import { configReport } from './config/startup-report.ts';
import { loadConfig, type Config } from './config/index.ts';
import { ownEntry } from './domain/lookup.ts';
import { ConfigError } from './errors.ts';
import { planServices } from './sandbox/resolve.ts';

const EXIT_CONFIG = 2;

const USAGE = `Usage: npm start [-- OPTION]

  (no option)  run herald: on Discord and/or Slack when their tokens are set, else in this terminal
               or on commands piped in (with neither, as in a container: exit 2 naming the tokens)
  --check      validate the configuration and print the start-up report, then exit
               (0 when valid; 2 with every problem listed)
  --check --online
               also ask Discord, Slack, each destination, each provider and Redis whether the
               tokens, scopes, webhooks, keys and settings work: one line each, with the fix
               (exit 1 when one fails)
  --version    print herald's version
  --help       print this text

Configuration: environment variables, or a .env file in the project root (the environment wins);
.env.example lists every variable.

Exit codes: 0 done; 1 a command failed (piped console), an item of --check --online failed, or
herald failed; 2 a configuration or usage error (or no platform and nothing to read); 3 a piped command was refused (unknown command, invalid input, not configured);
130 a second SIGINT/SIGTERM; 141 the output was closed (EPIPE).
`;

type Option = 'run' | 'check' | 'version' | 'help';
const OPTIONS: Record<string, Option> = {
  '--check': 'check',
  '--version': 'version',
  '-v': 'version',
  '--help': 'help',
  '-h': 'help',
};

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** What standard input is; without it, taken as input to read. */
  stdin?: () => StdinKind;
}

/** `nothing`: closed, or a device that is no terminal (`/dev/null`), as a container gives. */
type StdinKind = 'terminal' | 'input' | 'nothing';

/** Standard input as the console would read it: a terminal, something to read, or nothing. */
function stdinKind(isTTY: boolean = Boolean(process.stdin.isTTY)): StdinKind {
  if (isTTY) return 'terminal';
  try {
    return fstatSync(0).isCharacterDevice() ? 'nothing' : 'input';
  } catch {
    return 'nothing';
  }
}

const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: () => stdinKind(),
};

export const NOTHING_TO_SERVE =
  'herald cannot start: no chat platform is configured and standard input has nothing to read. ' +
  'Set DISCORD_TOKEN (with DISCORD_APPLICATION_ID) or SLACK_BOT_TOKEN (with SLACK_APP_TOKEN or ' +
  'SLACK_SIGNING_SECRET), or run herald in a terminal or with commands piped in.\n';

function version(): string {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

type Prepared =
  { kind: 'run' | 'check-online'; config: Config; environment: Environment } | { kind: 'exit'; code: number };

/** The option the command line asks for: one word, or `--check --online` (either order). */
function optionOf(argv: readonly string[]): Option | 'check-online' | undefined {
  if (argv.length === 0) return 'run';
  if (argv.length === 1) return ownEntry(OPTIONS, argv[0]);
  const words = [...argv].sort();
  return words.length === 2 && words[0] === '--check' && words[1] === '--online' ? 'check-online' : undefined;
}

/**
 * Everything before the bot starts. Returns the config to run with, or the exit code when the
 * command line or the configuration says not to run.
 */
export function prepare(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
  io: Io = processIo,
): Prepared {
  const option = optionOf(argv);
  if (option === undefined) {
    io.err(`herald: unknown option ${argv.join(' ')} (try --help)\n`);
    return { kind: 'exit', code: EXIT_CONFIG };
  }
  if (option === 'help') {
    io.out(`herald ${version()}: a chat bot for Discord, Slack and the console\n\n${USAGE}`);
    return { kind: 'exit', code: 0 };
  }
  if (option === 'version') {
    io.out(`herald ${version()}\n`);
    return { kind: 'exit', code: 0 };
  }
  let environment: Environment;
  let config: Config;
  try {
    environment = readEnvironment(env);
    config = loadConfig(environment.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`herald cannot start: ${err.message}\n`);
    return { kind: 'exit', code: EXIT_CONFIG };
  }
  if (option === 'check' || option === 'check-online') {
    const lines = configReport(config, planServices(config), environment).map((l) => l.text);
    io.out(`The configuration is valid.\n${lines.join('\n')}\n`);
    return option === 'check' ? { kind: 'exit', code: 0 } : { kind: 'check-online', config, environment };
  }
  // A container with no token would otherwise start the console on a closed input, end at once
  // with 0, and be restarted for ever without a word.
  if (!config.discord && !config.slack && io.stdin?.() === 'nothing') {
    io.err(NOTHING_TO_SERVE);
    return { kind: 'exit', code: EXIT_CONFIG };
  }
  return { kind: 'run', config, environment };
}
