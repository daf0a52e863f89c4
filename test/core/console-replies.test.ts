// The dispatcher's behaviour as a person at the console meets it: herald itself (src/main.ts),
// piped, answering from the sandbox or from a loopback fake upstream.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { readFixture } from '../support/service-harness.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { runHerald, type Run } from '../support/spawn-herald.ts';

/** Reply blocks by the line that asked: "> /weather …" to the reply under it. */
function blocksOf(stdout: string): Map<string, string> {
  const blocks = stdout.trimEnd().split(/\n\n(?=> )/);
  return new Map(blocks.map((b) => [b.split('\n')[0]!.slice(2), b.split('\n').slice(1).join('\n')]));
}

describe('the console, piped', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-replies-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('on the sandbox', () => {
    let run: Run;
    const lines = [
      '/weather London units:',
      '/say hi voice:',
      '/jobs rust page:',
      '/weather Oslo units:IMPERIAL',
      '/help',
      '/help jobs',
    ];
    beforeAll(async () => {
      run = await runHerald(
        { SANDBOX: 'on', LOG_LEVEL: 'silent', STORE_URL: join(dir, 'sandbox.sqlite'), HERALD_ENV_FILE: '' },
        `${lines.join('\n')}\n`,
      );
    }, 30_000);

    it('refuses an option written without a value, in one sentence naming it', () => {
      const replies = blocksOf(run.stdout);
      expect(replies.get('/weather London units:')).toBe(
        'The option units has no value; write it as units:metric with no space after the colon, or leave it out.',
      );
      expect(replies.get('/say hi voice:')).toMatch(/^The option voice has no value; write it as voice:/);
      expect(replies.get('/jobs rust page:')).toMatch(/^The option page has no value; write it as page:1 /);
    });

    it('reads an enum value in any case', () => {
      const reply = blocksOf(run.stdout).get('/weather Oslo units:IMPERIAL')!;
      expect(reply).toMatch(/°F/);
      expect(reply).not.toMatch(/must be one of/);
    });

    it('shows the operator, who has no per-user limit, none', () => {
      const help = blocksOf(run.stdout).get('/help')!;
      expect(help).toContain('/help <command> explains one');
      expect(help).not.toMatch(/a minute/);
    });

    it('says "2 characters" for an exact length, not "2–2"', () => {
      const help = blocksOf(run.stdout).get('/help jobs')!;
      expect(help).toContain('text, 2 characters');
      expect(help).not.toContain('2–2');
    });
  });

  describe('against an upstream that echoes its key', () => {
    const KEY = 'owm-key-7f3a9c1e5b2d4868';
    let fake: SandboxServer;
    let run: Run;
    beforeAll(async () => {
      const current = readFixture('weather', 'current-zocca.json');
      fake = await startFake([
        http.get(route('weather', '/weather'), ({ request }) => {
          const appid = new URL(request.url).searchParams.get('appid') ?? '';
          return HttpResponse.json({ ...current, name: `Zocca ${appid}` });
        }),
      ]);
      run = await runHerald(
        {
          SANDBOX: 'auto',
          WEATHER_BASE_URL: sandboxBaseUrl(fake.url, 'weather'),
          WEATHER_API_KEY: KEY,
          LOG_LEVEL: 'silent',
          STORE_URL: join(dir, 'echo.sqlite'),
          HERALD_ENV_FILE: '',
        },
        '/weather Zocca\n',
        { dropServiceVars: true },
      );
    }, 30_000);
    afterAll(async () => {
      await fake.close();
    });

    it('shows the configured key redacted, as the logs do', () => {
      expect(fake.requests).toHaveLength(1);
      const reply = blocksOf(run.stdout).get('/weather Zocca')!;
      expect(reply).toContain('Zocca [REDACTED]');
      expect(run.stdout).not.toContain(KEY);
      expect(run.stdout).not.toContain(KEY.slice(0, 12));
    });
  });
});
