// Every npm script as a new team runs it: `--help` answers on each (start, register, job, sandbox),
// and the Slack manifest reaches a file as clean JSON, with `--out` or `npm run --silent`, although
// `npm run` prints its own banner on standard output.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inheritedEnv, ROOT } from '../support/spawn-herald.ts';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-scripts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `npm` as typed in a shell: npm's own settings from a parent `npm test` are not passed on. */
async function npm(args: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(inheritedEnv({ dropServiceVars: true })).filter(([k]) => !/^npm_/i.test(k)),
  );
  try {
    const { stdout, stderr } = await run('npm', args, { cwd, env: { ...env, LOG_LEVEL: 'silent' } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('--help on every script', () => {
  for (const [script, heading] of [
    ['start', 'Usage: npm start'],
    ['register', 'Usage: npm run register'],
    ['job', 'Usage: npm run job'],
    ['sandbox', 'Usage: npm run sandbox'],
    ['store', 'Usage: npm run --silent store'],
  ] as const)
    it(`npm run ${script} -- --help prints the usage and exits 0`, async () => {
      const result = await npm(['run', '--silent', script, '--', '--help']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(heading);
      expect(result.stdout).toMatch(/--help/);
    }, 30_000);

  it('refuses an unknown option of register and sandbox, pointing at --help, exit 2', async () => {
    for (const script of ['register', 'sandbox']) {
      const result = await npm(['run', '--silent', script, '--', '--frobnicate']);
      expect(result.code, script).toBe(2);
      expect(result.stderr, script).toMatch(/--frobnicate.*\(try --help\)/);
    }
  }, 30_000);
});

describe('the Slack manifest into a file', () => {
  it('npm run register -- --slack-manifest --out manifest.json writes clean JSON where the command was typed', async () => {
    const result = await npm(
      ['--prefix', ROOT, 'run', 'register', '--', '--slack-manifest', '--out', 'manifest.json'],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
      features: { slash_commands: unknown[] };
    };
    expect(manifest.features.slash_commands.length).toBeGreaterThan(5);
    expect(result.stderr).toContain(`Slack app manifest written to ${join(dir, 'manifest.json')}`);
  }, 30_000);

  it('npm run --silent register -- --slack-manifest prints JSON alone; without --silent npm adds its banner', async () => {
    const silent = await npm(['run', '--silent', 'register', '--', '--slack-manifest']);
    expect(silent.code).toBe(0);
    expect(() => JSON.parse(silent.stdout) as unknown).not.toThrow();
    const loud = await npm(['run', 'register', '--', '--slack-manifest']);
    expect(loud.stdout).toMatch(/^\s*> herald@/);
  }, 30_000);

  it('refuses --out without --slack-manifest, and reports a file it cannot write', async () => {
    expect((await npm(['run', '--silent', 'register', '--', '--out', 'x.json'])).stderr).toMatch(
      /--out goes with --slack-manifest/,
    );
    const unwritable = await npm([
      'run',
      '--silent',
      'register',
      '--',
      '--slack-manifest',
      '--out',
      join(dir, 'no', 'such', 'dir.json'),
    ]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toBe(`cannot write ${join(dir, 'no', 'such', 'dir.json')} (ENOENT)\n`);
  }, 30_000);
});
