// Start-up: spawns `src/main.ts` with piped stdin, no configuration and SANDBOX=on, and times
// process start to "console ready": the `adapter console: reading standard input` log line on
// stderr, which main.ts writes as it starts the console adapter. Idle RSS is read from
// /proc/<pid>/status after the process has sat idle for a moment.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { percentile } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The project's Node 24 (the `node` devDependency), without npx's own start-up in front of it. */
export const LOCAL_NODE = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));

/** The V8 flags of `npm start` (package.json's start script), so the bench runs the bot with them. */
export const START_FLAGS: readonly string[] = startFlags();

function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const flags = /\bnode((?: --\S+)*) src\/start\.mjs/.exec(pkg.scripts.start)?.[1];
  if (flags === undefined) throw new Error(`bench: cannot read the flags of "${pkg.scripts.start}"`);
  return flags.split(' ').filter((flag) => flag !== '');
}
const READY = /adapter console: reading standard input/;

export interface StartupRun {
  readyMs: number;
  /** VmRSS after `idleMs` of idling; undefined when the process is not herald itself (npx). */
  idleRssMb: number | undefined;
  /** The file-backed part of it (RssFile): mostly the node binary's own pages, shared. */
  idleFileMb: number | undefined;
}

export interface StartupResult {
  how: string;
  runs: number;
  readyMs: { min: number; median: number; max: number };
  idleRssMb: number | undefined;
  idleFileMb: number | undefined;
  /** Why the process did not reach "console ready", when it did not. */
  error?: string;
}

type IdleMemory = Pick<StartupRun, 'idleRssMb' | 'idleFileMb'>;

async function rssMb(pid: number): Promise<IdleMemory> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const mb = (field: string) => {
      const kb = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1];
      return kb === undefined ? undefined : Number(kb) / 1024;
    };
    return { idleRssMb: mb('VmRSS'), idleFileMb: mb('RssFile') };
  } catch {
    return { idleRssMb: undefined, idleFileMb: undefined };
  }
}

export interface StartOptions {
  idleMs: number;
  timeoutMs: number;
  readsRss: boolean;
  /** Added to the environment (e.g. NODE_COMPILE_CACHE); still no herald configuration. */
  env?: Record<string, string>;
}

/** One start: resolves once ready, idle-measured and stopped (end of input), or rejects on timeout. */
export function startOnce(command: string, args: readonly string[], opts: StartOptions): Promise<StartupRun> {
  // No configuration at all: what a shell needs to find programs, and SANDBOX=on. NODE_OPTIONS is
  // passed on when set, for profiling a start (NODE_OPTIONS=--cpu-prof).
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? ROOT,
    SANDBOX: 'on',
    ...opts.env,
  };
  if (process.env.NODE_OPTIONS) env.NODE_OPTIONS = process.env.NODE_OPTIONS;
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['pipe', 'ignore', 'pipe'] });
  return new Promise<StartupRun>((resolve, reject) => {
    let stderr = '';
    let readyMs: number | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready within ${opts.timeoutMs} ms; stderr: ${stderr.slice(-500)}`));
    }, opts.timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (readyMs !== undefined || !READY.test(stderr)) return;
      readyMs = performance.now() - started;
      const ready = readyMs;
      setTimeout(() => {
        const measured =
          opts.readsRss && child.pid !== undefined
            ? rssMb(child.pid)
            : Promise.resolve<IdleMemory>({ idleRssMb: undefined, idleFileMb: undefined });
        void measured.then(({ idleRssMb, idleFileMb }) => {
          child.once('exit', () => {
            clearTimeout(timer);
            resolve({ readyMs: ready, idleRssMb, idleFileMb });
          });
          child.stdin.end(); // end of input: the console adapter finishes and herald exits
        });
      }, opts.idleMs);
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code) => {
      if (readyMs !== undefined) return;
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready; stderr: ${stderr.slice(-500)}`));
    });
  });
}

export async function measureStartup(
  how: string,
  command: string,
  args: readonly string[],
  opts: StartOptions & { runs: number },
): Promise<StartupResult> {
  const runs: StartupRun[] = [];
  try {
    // One unmeasured start first: the disk cache then holds the modules, as for any restart.
    await startOnce(command, args, { ...opts, idleMs: 0 });
    for (let i = 0; i < opts.runs; i++) runs.push(await startOnce(command, args, opts));
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const none = { min: Number.NaN, median: Number.NaN, max: Number.NaN };
    return { how, runs: runs.length, readyMs: none, idleRssMb: undefined, idleFileMb: undefined, error };
  }
  const ready = runs.map((r) => r.readyMs);
  const rss = runs.flatMap((r) => (r.idleRssMb === undefined ? [] : [r.idleRssMb]));
  const file = runs.flatMap((r) => (r.idleFileMb === undefined ? [] : [r.idleFileMb]));
  return {
    how,
    runs: runs.length,
    readyMs: { min: Math.min(...ready), median: percentile(ready, 50), max: Math.max(...ready) },
    idleRssMb: rss.length === 0 ? undefined : percentile(rss, 50),
    idleFileMb: file.length === 0 ? undefined : percentile(file, 50),
  };
}
