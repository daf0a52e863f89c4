// The secret registry is one per process, and vitest runs many test files in one process
// (isolate: false): the suite's setup forgets every registration when a file ends, so no file
// sees another's secrets. Shown by running two files in one worker, with the setup and without.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CONFIG = 'test/support/leak/vitest.config.ts';

async function twoFiles(setup: 'on' | 'off'): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['vitest', 'run', '--config', CONFIG], {
      cwd: process.cwd(),
      env: { ...process.env, LEAK_SETUP: setup },
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe('the secret registry between test files', () => {
  it('leaks no registration from one file to the next', { timeout: 120_000 }, async () => {
    const [clean, leaky] = await Promise.all([twoFiles('on'), twoFiles('off')]);
    expect(clean.output).toContain('2 passed');
    expect(clean.code).toBe(0);
    // Without the setup the second file finds the first one's secret: the check can fail.
    expect(leaky.output).toContain('1 failed');
    expect(leaky.code).not.toBe(0);
  });
});
