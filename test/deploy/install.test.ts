// The image's steps without Docker (none can be built here): deploy/Dockerfile's build stage is
// replayed in an empty folder (its COPY lines, then its RUN, deploy/install.sh: `npm ci
// --omit=dev`), and its runtime stage's ENV and CMD start herald there. So the production install
// holds everything `npm start` needs, node is the process the image starts (SIGTERM reaches it),
// the HEALTHCHECK script answers, and on a Node older than 24 every entry prints one line and
// exits 1 instead of a SyntaxError.
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerStages, envOf, type Instruction } from '../support/dockerfile.ts';
import { ROOT, inheritedEnv } from '../support/spawn-herald.ts';

const dockerfile = dockerStages(await readFile(join(ROOT, 'deploy/Dockerfile'), 'utf8'));
const [buildStage, runStage] = dockerfile as [Instruction[], Instruction[]];
const cmd = JSON.parse(runStage.find((i) => i.op === 'CMD')!.args) as string[];

/** The Node 24 that runs the suite, first on PATH: what the image's node:24-slim provides. */
const NODE24_PATH = [dirname(process.execPath), ...(process.env.PATH ?? '').split(delimiter)].join(delimiter);

/** A node older than the one package.json's engines ask for, outside any node_modules, if the machine has one. */
function findOldNode(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin', '/bin'];
  for (const dir of dirs) {
    const node = join(dir, 'node');
    if (dir.includes('node_modules') || !existsSync(node)) continue;
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (Number(/^v(\d+)/.exec(version)?.[1] ?? 99) < 24) return node;
  }
  return undefined;
}
const oldNode = findOldNode();

let app: string;

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'herald-image-'));
  for (const { op, args } of buildStage) {
    if (op === 'COPY') {
      const parts = args.split(/\s+/).filter((p) => !p.startsWith('--'));
      const dest = join(app, parts.pop()!);
      for (const source of parts) {
        const from = join(ROOT, source);
        const isDir = (await stat(from)).isDirectory();
        await mkdir(dest, { recursive: true });
        await cp(from, isDir ? dest : join(dest, basename(source)), { recursive: true });
      }
    } else if (op === 'RUN') {
      const run = spawnSync('/bin/sh', ['-c', args], {
        cwd: app,
        encoding: 'utf8',
        // npm's cache first: the machine may be offline; the image's build fetches.
        env: { ...process.env, PATH: NODE24_PATH, npm_config_prefer_offline: 'true' },
      });
      if (run.status !== 0) throw new Error(`RUN ${args} failed: ${run.stderr}`);
    }
  }
}, 300_000);

afterAll(async () => {
  await rm(app, { recursive: true, force: true });
});

/** The runtime stage's environment, with a free port and the store in the folder instead of /app. */
function imageEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...inheritedEnv({ dropServiceVars: true }),
    ...envOf(runStage),
    PORT: '0',
    STORE_URL: join(app, 'data', 'herald.sqlite'),
    PATH: NODE24_PATH,
    LOG_FORMAT: 'json',
    ...extra,
  };
}

/** A port nothing listens on now, for the one herald opens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function run(command: string, args: string[], env: Record<string, string>, input?: string) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(command, args, { cwd: app, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

describe('the image, replayed without Docker', () => {
  it('installs only the production dependencies, the development ones left out', () => {
    expect(existsSync(join(app, 'node_modules', 'discord.js'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'node'))).toBe(false);
  });

  it('installs no test or build tool, although msw (which the simulator needs) names typescript and vite as optional peers', () => {
    expect(existsSync(join(app, 'node_modules', 'msw'))).toBe(true);
    for (const tool of ['typescript', 'vite', 'rolldown', 'eslint', 'prettier', 'fast-check'])
      expect(existsSync(join(app, 'node_modules', tool)), tool).toBe(false);
  });

  it('starts with its CMD and answers a command: the sandbox it runs with needs no development dependency', async () => {
    const result = await run(join(app, cmd[0]!), cmd.slice(1), imageEnv(), '/weather city:Berlin\n');
    expect(result.err).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find package/);
    expect(result.out).toContain('Humidity');
    expect(result.code).toBe(0);
  }, 60_000);

  it('runs node as the process the image starts, whose HEALTHCHECK passes, and SIGTERM stops it in order', async () => {
    const port = String(await freePort());
    const child = spawn(join(app, cmd[0]!), cmd.slice(1), { cwd: app, env: imageEnv({ PORT: port }) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const probe = JSON.parse(
      runStage.find((i) => i.op === 'HEALTHCHECK')!.args.replace(/^.*CMD\s+/, ''),
    ) as string[];
    try {
      // The image's own probe, until herald is up.
      await expect
        .poll(async () => (await run(probe[0]!, probe.slice(1), imageEnv({ PORT: port }))).code, {
          timeout: 30_000,
          interval: 250,
        })
        .toBe(0);
      // start.sh exec'd node: the process Docker signals is node itself, not a shell or npm.
      const cmdline = await readFile(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(cmdline.split('\0')).toContain('src/start.mjs');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('herald stopped');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('fails the HEALTHCHECK when nothing answers', async () => {
    const probe = JSON.parse(
      runStage.find((i) => i.op === 'HEALTHCHECK')!.args.replace(/^.*CMD\s+/, ''),
    ) as string[];
    expect((await run(probe[0]!, probe.slice(1), imageEnv({ PORT: '1' }))).code).toBe(1);
  });
});

describe.skipIf(oldNode === undefined)(`on a Node older than 24 (${oldNode})`, () => {
  const ONE_LINE =
    /^herald needs Node\.js 24 or newer, but this is Node\.js \d+\.\d+\.\d+: install Node\.js 24 \(https:\/\/nodejs\.org\/en\/download, or `nvm install 24`\) and run it again\.\n$/;
  const oldEnv = () =>
    imageEnv({ PATH: [dirname(oldNode!), ...NODE24_PATH.split(delimiter).slice(1)].join(delimiter) });

  it('the image command prints the one line and exits 1, no SyntaxError', async () => {
    const result = await run(join(app, cmd[0]!), cmd.slice(1), oldEnv());
    expect(result.err).toMatch(ONE_LINE);
    expect(result.out).toBe('');
    expect(result.code).toBe(1);
  });

  it('`npm start`, `npm run job` and `npm run register` print it too and exit 1', async () => {
    for (const args of [['start'], ['run', 'job', '--', 'analytics-summary'], ['run', 'register']]) {
      const result = await run('npm', args, oldEnv());
      expect(result.err, args.join(' ')).toContain('herald needs Node.js 24 or newer');
      expect(result.err, args.join(' ')).not.toMatch(/SyntaxError|ERR_UNKNOWN_FILE_EXTENSION/);
      expect(result.code, args.join(' ')).toBe(1);
    }
  }, 60_000);
});

describe('.npmrc', () => {
  it('does not hide npm warnings, so an install on an older Node shows the engine warning', async () => {
    const npmrc = await readFile(join(ROOT, '.npmrc'), 'utf8');
    expect(npmrc).not.toMatch(/^\s*loglevel\s*=\s*(error|silent)/m);
    expect(npmrc).not.toMatch(/^\s*engine-strict/m);
  });
});
