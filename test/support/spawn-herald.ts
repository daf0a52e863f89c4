// The whole bot as a child process: `src/main.ts` under the Node 24 that runs vitest, with the
// parent's own platform, sandbox, logging and storage variables filtered out of its environment.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Always dropped: they would pick the platform, the sandbox, the log output or the store. */
const RUN_VARS = /^(DISCORD_|SLACK_|SANDBOX|LOG_|AUDIO_DIR|STORE_URL|REDIS_URL|HEALTH_PORT|PORT$)/;
/** Dropped on request: each service's base URL and credentials. */
const SERVICE_VARS = /^(EMAIL_|ANALYTICS_|WEATHER_|GEOCODING_|SPEECH_|HOSTSCAN_|WEBHOOK_|JOBS_)/;

export interface SpawnOptions {
  /** Also drop the parent's service variables, so nothing of its own configuration reaches the child. */
  dropServiceVars?: boolean;
}

/**
 * Set in every child a test starts: no `.env` file (a developer's own `.env` in the project root
 * never reaches a test), and Node's compile cache, which `npm start` turns on too (src/start.mjs):
 * each of the suite's many herald children then skips most of the compiling (about 0.2 s of CPU a
 * start, measured).
 */
export const CHILD_ENV: Readonly<Record<string, string>> = {
  HERALD_ENV_FILE: '',
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'herald-test-compile-cache'),
};

/** The parent's environment without the variables a test must set itself, with CHILD_ENV. */
export function inheritedEnv({ dropServiceVars = false }: SpawnOptions = {}): Record<string, string> {
  const kept = Object.entries(process.env).filter(
    ([key]) => !RUN_VARS.test(key) && !(dropServiceVars && SERVICE_VARS.test(key)),
  ) as [string, string][];
  return { ...Object.fromEntries(kept), ...CHILD_ENV };
}

export interface HeraldProcess {
  child: ChildProcessWithoutNullStreams;
  out(): string;
  err(): string;
  /** The exit code, once the child has exited and closed its streams. */
  exited: Promise<number | null>;
}

export interface StartOptions extends SpawnOptions {
  /** Arguments after `src/main.ts`. */
  args?: readonly string[];
  /** A shell command to run instead (as a Procfile runner would: `sh -c`), in the project root. */
  shell?: string;
}

/** Starts herald (with `args`, or through `shell`) with `env` over the inherited environment; stdin stays open. */
export function startHerald(env: Record<string, string>, opts: StartOptions = {}): HeraldProcess {
  // process.execPath is the project's Node 24 that runs vitest (`npx node` would add npm's own
  // warnings to stderr, which must hold JSON log lines only).
  const [file, args] =
    opts.shell === undefined
      ? [process.execPath, ['src/main.ts', ...(opts.args ?? [])]]
      : ['/bin/sh', ['-c', opts.shell]];
  const child = spawn(file, args, { cwd: ROOT, env: { ...inheritedEnv(opts), ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, out: () => stdout, err: () => stderr, exited };
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs herald on `stdin` to its exit; fails (and kills it) if it has not exited within `timeoutMs`. */
export function runHerald(
  env: Record<string, string>,
  stdin: string,
  { timeoutMs = 25_000, ...opts }: StartOptions & { timeoutMs?: number } = {},
): Promise<Run> {
  const { child, out, err } = startHerald(env, opts);
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`herald did not exit within ${timeoutMs} ms\nstdout:\n${out()}\nstderr:\n${err()}`));
    }, timeoutMs);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout: out(), stderr: err() });
    });
    child.stdin.end(stdin);
  });
}
