// How herald ends. SIGTERM with commands in flight, sent to the command a deployment runs (the
// Procfile's, through npm and /bin/sh): herald stops taking commands, lets the running ones answer,
// and exits 0; a second signal exits at once. A reader that goes away ends it at once (EPIPE).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  inheritedEnv,
  ROOT,
  startHerald,
  type HeraldProcess,
  type StartOptions,
} from '../support/spawn-herald.ts';

function start(env: Record<string, string>, opts: StartOptions = {}): HeraldProcess {
  return startHerald({ SANDBOX: 'on', LOG_FORMAT: 'json', ...env }, opts);
}

/** The Procfile's web command: what a deployment runs. */
const DEPLOYED = /^web:\s*(.+)$/m.exec(readFileSync(join(ROOT, 'Procfile'), 'utf8'))![1]!;

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('graceful shutdown', () => {
  it('SIGTERM to the Procfile command reaches herald: the commands in flight answer, then exit 0', async () => {
    expect(DEPLOYED).toMatch(/^exec /);
    const dir = await mkdtemp(join(tmpdir(), 'herald-stop-'));
    const h = start(
      { SANDBOX_LATENCY_MS: '1500', STORE_URL: join(dir, 's.sqlite'), AUDIO_DIR: join(dir, 'audio') },
      { shell: DEPLOYED },
    );
    await until(() => h.err().includes('adapter console'), 15_000);
    // stdin stays open: only the signal ends this run.
    h.child.stdin.write('/weather Oslo\n/forecast Lima\n');
    await until(() => h.err().includes('"command"') || h.err().includes('command.'), 1_000).catch(
      () => undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    // The signal goes to the process the runner started, as a platform sends it, not to herald.
    h.child.kill('SIGTERM');
    const code = await h.exited;
    expect(code, h.err()).toBe(0);
    // Both commands were still running when the signal came, and answered after it.
    const stopping = h.err().indexOf('herald stopping');
    expect(stopping).toBeGreaterThan(0);
    expect(h.err().indexOf('"command":"weather"')).toBeGreaterThan(stopping);
    expect(h.err().indexOf('"command":"forecast"')).toBeGreaterThan(stopping);
    expect(h.out()).toContain('> /weather Oslo');
    expect(h.out()).toContain('Weather in Oslo');
    expect(h.out()).toContain('> /forecast Lima');
    expect(h.err()).toContain('herald stopped');
  });

  it('exits at once with 130 on a second signal', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-stop-'));
    const h = start({
      SANDBOX_LATENCY_MS: '5000',
      STORE_URL: join(dir, 's.sqlite'),
      AUDIO_DIR: join(dir, 'audio'),
    });
    await until(() => h.err().includes('adapter console'), 15_000);
    h.child.stdin.write('/weather Oslo\n');
    await new Promise((r) => setTimeout(r, 300));
    h.child.kill('SIGTERM');
    await until(() => h.err().includes('herald stopping'), 5_000);
    h.child.kill('SIGTERM');
    expect(await h.exited, h.err()).toBe(130);
    // At once: the command in flight (its upstream takes 5 s) never answered and the orderly stop
    // never finished; a drain before exiting would have logged both.
    expect(h.err()).not.toContain('"command":"weather"');
    expect(h.out()).not.toContain('Weather in Oslo');
    expect(h.err()).not.toContain('herald stopped');
  });
});

describe('npm run sandbox', () => {
  it('stops on SIGTERM sent to npm, exits 0 and frees its port', async () => {
    const h = start({ SANDBOX_PORT: '0' }, { shell: 'exec npm run --silent sandbox' });
    await until(() => /listening on http:\/\/127\.0\.0\.1:(\d+)/.test(h.out()), 15_000);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(h.out())![1]);
    h.child.kill('SIGTERM');
    expect(await h.exited, h.err()).toBe(0);
    const refused = await new Promise<string>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => (socket.destroy(), done('connected')));
      socket.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

describe('a reader that goes away', () => {
  it('`npm start --silent 2>&1 | head -1` returns, herald exiting 141 on EPIPE', async () => {
    // bash for PIPESTATUS: the exit code of npm (herald's), not head's. Standard input is a pipe
    // that stays open (with /dev/null and no token herald refuses to start, test/cli.test.ts).
    const child = spawn(
      'bash',
      ['-c', 'npm start --silent < <(sleep 20 2>/dev/null) 2>&1 | head -1; echo "exit=${PIPESTATUS[0]}"'],
      { cwd: ROOT, env: { ...inheritedEnv(), SANDBOX: 'on', LOG_FORMAT: 'json', STORE_URL: ':memory:' } },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const code = await new Promise<number | null>((done, fail) => {
      const timer = setTimeout(
        () => (child.kill('SIGKILL'), fail(new Error(`still running:\n${out}`))),
        15_000,
      );
      child.on('close', (c) => (clearTimeout(timer), done(c)));
    });
    expect(code).toBe(0);
    const [first, last] = out.trimEnd().split('\n');
    expect(JSON.parse(first!)).toMatchObject({ app: 'herald' });
    expect(last).toBe('exit=141');
  });

  it('a closed stdout ends herald with 141, even while its stdin stays open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-epipe-'));
    const h = start({ STORE_URL: join(dir, 's.sqlite'), AUDIO_DIR: join(dir, 'audio') });
    await until(() => h.err().includes('adapter console'), 15_000);
    h.child.stdout.destroy();
    h.child.stdin.write('/weather Oslo\n');
    expect(await h.exited).toBe(141);
  });
});
