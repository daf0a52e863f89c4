// The steps before herald starts: `.env` (read from the project root, the environment winning),
// the options --help, --version and --check, and the plain-text refusal of a bad configuration.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTHING_TO_SERVE, prepare, type Io } from '../src/cli.ts';
import { DEFAULT_ENV_FILE, readEnvironment } from '../src/config/file.ts';
import { ConfigError } from '../src/errors.ts';
import { ROOT, runHerald, startHerald } from './support/spawn-herald.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function captured(): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (text: string) => void (io.stdout += text),
    err: (text: string) => void (io.stderr += text),
  };
  return io;
}

describe('.env', () => {
  it('is the file in the project root by default', () => {
    expect(DEFAULT_ENV_FILE).toBe(join(ROOT, '.env'));
  });

  it('adds the variables of the file, and the environment wins over it', async () => {
    const file = join(dir, 'wins.env');
    await writeFile(
      file,
      '# a comment\nWEATHER_API_KEY=from-file-key-1\nSANDBOX=off\nexport LOG_LEVEL=debug\nJOBS_COUNTRY="de"\n',
    );
    const read = readEnvironment({ HERALD_ENV_FILE: file, SANDBOX: 'on' });
    expect(read.file).toBe(file);
    expect(read.env.WEATHER_API_KEY).toBe('from-file-key-1');
    expect(read.env.SANDBOX).toBe('on');
    expect(read.env.JOBS_COUNTRY).toBe('de');
    expect(read.fromFile).toBe(3);
  });

  it('is optional at its default place, but a file named in HERALD_ENV_FILE must exist', () => {
    expect(readEnvironment({ HERALD_ENV_FILE: '' })).toEqual({
      env: { HERALD_ENV_FILE: '' },
      file: undefined,
      fromFile: 0,
    });
    const missing = join(dir, 'absent.env');
    expect(() => readEnvironment({ HERALD_ENV_FILE: missing })).toThrow(ConfigError);
    expect(() => readEnvironment({ HERALD_ENV_FILE: missing })).toThrow(/HERALD_ENV_FILE: cannot read/);
  });
});

describe('the command line', () => {
  it('--version prints the package version and exits 0 without reading the configuration', () => {
    const io = captured();
    expect(prepare(['--version'], { SANDBOX: 'never' }, io)).toEqual({ kind: 'exit', code: 0 });
    expect(io.stdout).toMatch(/^herald \d+\.\d+\.\d+\n$/);
    expect(io.stderr).toBe('');
  });

  it('--help prints the usage, every option and the exit codes', () => {
    const io = captured();
    expect(prepare(['--help'], {}, io)).toEqual({ kind: 'exit', code: 0 });
    for (const text of ['Usage: npm start', '--check', '--version', '--help', '.env', '141'])
      expect(io.stdout).toContain(text);
  });

  it('refuses an unknown option in one sentence, exit 2', () => {
    const io = captured();
    expect(prepare(['--frobnicate'], {}, io)).toEqual({ kind: 'exit', code: 2 });
    expect(io.stderr).toBe('herald: unknown option --frobnicate (try --help)\n');
    expect(io.stdout).toBe('');
  });

  it('refuses a word named like an inherited member as any unknown option, without starting', () => {
    for (const word of ['constructor', 'toString', '__proto__']) {
      const io = captured();
      expect(prepare([word], { SANDBOX: 'never' }, io)).toEqual({ kind: 'exit', code: 2 });
      expect(io.stderr).toBe(`herald: unknown option ${word} (try --help)\n`);
    }
  });

  it('--check prints the start-up report, the .env file it read included, and exits 0', async () => {
    const file = join(dir, 'check.env');
    await writeFile(file, 'WEATHER_API_KEY=k-weather-123\nSANDBOX=off\nHEALTH_PORT=9464\n');
    const io = captured();
    expect(prepare(['--check'], { HERALD_ENV_FILE: file }, io)).toEqual({ kind: 'exit', code: 0 });
    const lines = io.stdout.split('\n');
    expect(lines[0]).toBe('The configuration is valid.');
    expect(lines).toContain(
      `configuration: the environment and ${file} (3 variables read from it; the environment wins)`,
    );
    expect(lines).toContain('service weather: real');
    expect(lines).toContain('service geocoding: disabled (set GEOCODING_API_KEY)');
    expect(lines).toContain('health endpoints: http://127.0.0.1:9464/healthz, /readyz, /metrics');
    expect(lines).toContain('chat: the console (no DISCORD_TOKEN or SLACK_BOT_TOKEN)');
    expect(io.stdout).not.toContain('k-weather-123');
  });

  it('--check with a bad configuration lists every problem as plain text and exits 2', () => {
    const io = captured();
    const env = {
      HERALD_ENV_FILE: '',
      SANDBOX: 'maybe',
      LOG_LEVEL: 'loud',
      ANALYTICS_SUMMARY_CRON: 'not a cron',
    };
    expect(prepare(['--check'], env, io)).toEqual({ kind: 'exit', code: 2 });
    expect(io.stdout).toBe('');
    const lines = io.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('herald cannot start: Invalid configuration:');
    expect(lines.slice(1).map((l) => /^ {2}- (\w+): /.exec(l)?.[1])).toEqual([
      'SANDBOX',
      'LOG_LEVEL',
      'ANALYTICS_SUMMARY_CRON',
    ]);
  });

  it('with no option returns the config to run on, built from the file and the environment', async () => {
    const file = join(dir, 'run.env');
    await writeFile(file, 'SANDBOX=off\nCOMMAND_TIMEOUT_MS=1234\n');
    const io = captured();
    const prepared = prepare([], { HERALD_ENV_FILE: file, SANDBOX: 'on' }, io);
    expect(prepared.kind).toBe('run');
    if (prepared.kind !== 'run') return;
    expect(prepared.config.sandbox).toBe('on');
    expect(prepared.config.commandTimeoutMs).toBe(1234);
    expect(prepared.environment.file).toBe(file);
    expect(io.stdout + io.stderr).toBe('');
  });

  it('with no platform token and nothing on standard input, refuses in one sentence naming the variables, exit 2', () => {
    const io = Object.assign(captured(), { stdin: () => 'nothing' as const });
    expect(prepare([], { HERALD_ENV_FILE: '', SANDBOX: 'on' }, io)).toEqual({ kind: 'exit', code: 2 });
    expect(io.stderr).toBe(NOTHING_TO_SERVE);
    expect(io.stderr.trimEnd().split('\n')).toHaveLength(1);
    for (const name of ['DISCORD_TOKEN', 'SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET'])
      expect(io.stderr).toContain(name);
  });

  it('runs on piped input or a terminal without a token, and on a platform token whatever stdin is', () => {
    for (const kind of ['input', 'terminal'] as const)
      expect(
        prepare([], { HERALD_ENV_FILE: '', SANDBOX: 'on' }, { ...captured(), stdin: () => kind }).kind,
      ).toBe('run');
    const slack = { SLACK_BOT_TOKEN: 'xoxb-test-bot', SLACK_APP_TOKEN: 'xapp-test-app' };
    expect(
      prepare([], { HERALD_ENV_FILE: '', ...slack }, { ...captured(), stdin: () => 'nothing' }).kind,
    ).toBe('run');
  });
});

describe('herald in a container with no token', () => {
  const node = JSON.stringify(process.execPath);
  for (const [what, redirect] of [
    ['/dev/null', '</dev/null'],
    ['a closed standard input', '<&-'],
  ] as const)
    it(`exits 2 with the sentence when standard input is ${what}`, async () => {
      const herald = startHerald({ SANDBOX: 'on' }, { shell: `exec ${node} src/main.ts ${redirect}` });
      expect(await herald.exited).toBe(2);
      expect(herald.err()).toBe(NOTHING_TO_SERVE);
    });

  it('still reads commands piped in, and an empty pipe still ends with 0', async () => {
    const run = await runHerald({ SANDBOX: 'on' }, '/help\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('/weather');
    expect((await runHerald({ SANDBOX: 'on' }, '')).code).toBe(0);
  });
});
