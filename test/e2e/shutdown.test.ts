// SIGTERM with commands in flight: herald stops taking commands, lets the running ones answer,
// and exits 0; a second signal exits at once.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHerald, type HeraldProcess } from '../support/spawn-herald.ts';

function start(env: Record<string, string>): HeraldProcess {
  return startHerald({ SANDBOX: 'on', LOG_FORMAT: 'json', ...env });
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('graceful shutdown', () => {
  it('answers the commands in flight after SIGTERM, refuses nothing already running, and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-stop-'));
    const h = start({
      SANDBOX_LATENCY_MS: '1500',
      STORE_URL: join(dir, 's.sqlite'),
      AUDIO_DIR: join(dir, 'audio'),
    });
    await until(() => h.err().includes('adapter console'), 15_000);
    // stdin stays open: only the signal ends this run.
    h.child.stdin.write('/weather Oslo\n/forecast Lima\n');
    await until(() => h.err().includes('"command"') || h.err().includes('command.'), 1_000).catch(
      () => undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    h.child.kill('SIGTERM');
    const code = await h.exited;
    expect(code).toBe(0);
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
    await new Promise((r) => setTimeout(r, 200));
    const t = Date.now();
    h.child.kill('SIGTERM');
    expect(await h.exited).toBe(130);
    expect(Date.now() - t).toBeLessThan(1_000);
  });
});
