// The whole bot end to end: `src/main.ts` with no platform token and SANDBOX=on, fed a piped
// console session, answering from the built-in simulator over loopback.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHerald, type Run } from '../support/spawn-herald.ts';
import { SEVEN_PROBLEMS_ENV } from '../support/config-problems.ts';

const SESSION = '/weather Oslo\n/jobs what:"rust developer" where:Berlin country:de page:2\n/say "Hello"\n';

describe('a piped console session end to end', () => {
  let dir: string;
  let run: Run;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-e2e-'));
    run = await runHerald(
      {
        SANDBOX: 'on',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        AUDIO_DIR: join(dir, 'audio'),
        STORE_URL: join(dir, 'herald.sqlite'),
      },
      SESSION,
    );
  }, 30_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 at end of input', () => {
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(0);
  });

  it('prints one reply block per command line, in input order, and nothing else on stdout', () => {
    const blocks = run.stdout.trimEnd().split(/\n\n(?=> \/)/);
    expect(blocks.map((b) => b.split('\n')[0])).toEqual([
      '> /weather Oslo',
      '> /jobs what:"rust developer" where:Berlin country:de page:2',
      '> /say "Hello"',
    ]);
    for (const block of blocks) {
      const reply = block.split('\n').slice(1).join('\n');
      expect(reply.trim()).not.toBe('');
      expect(reply).not.toMatch(/Something went wrong|not configured|took too long|There is no command/);
      expect(reply).not.toMatch(/"level":/);
    }
    expect(blocks[0]).toMatch(/Oslo/);
  });

  it('writes the /say audio to AUDIO_DIR as an MP3 and prints its path', async () => {
    const match = /Saved .+? to (\S+\.mp3)/.exec(run.stdout);
    expect(match, run.stdout).not.toBeNull();
    const path = match![1]!;
    expect(path.startsWith(join(dir, 'audio'))).toBe(true);
    const bytes = await readFile(path);
    expect(bytes.length).toBeGreaterThan(4);
    // MPEG audio frame sync: eleven set bits.
    expect(bytes[0]).toBe(0xff);
    expect(bytes[1]! & 0xe0).toBe(0xe0);
  });

  it('logs JSON to stderr: the start-up facts and one finished line per command', () => {
    const lines = run.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; command?: string; outcome?: string });
    const messages = lines.map((l) => l.msg);
    expect(messages).toContain('service weather: simulated by the built-in sandbox');
    expect(messages.some((m) => m.startsWith('sandbox answering on http://127.0.0.1:'))).toBe(true);
    expect(messages).toContain(
      'The built-in sandbox answers for every service: replies are simulated data, not real.',
    );
    const finished = lines.filter((l) => l.msg === 'command.finished');
    expect(finished.map((l) => l.command).sort()).toEqual(['jobs', 'say', 'weather']);
    expect(finished.every((l) => l.outcome === 'ok')).toBe(true);
  });
});

describe('start-up with a bad configuration', () => {
  it('lists all seven problems in one run, as plain text, before anything starts, and exits 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-badconf-'));
    const store = join(dir, 'herald.sqlite');
    const run = await runHerald({ ...SEVEN_PROBLEMS_ENV, STORE_URL: store }, '');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('herald cannot start: Invalid configuration:');
    expect(
      lines
        .slice(1)
        .map((l) => /^ {2}- (\w+): /.exec(l)?.[1])
        .sort(),
    ).toEqual([
      'ANALYTICS_SUMMARY_CRON',
      'ANALYTICS_SUMMARY_TZ',
      'DISCORD_APPLICATION_ID',
      'EMAIL_FROM',
      'LOG_LEVEL',
      'SANDBOX',
      'WEATHER_BASE_URL',
    ]);
    // Nothing started: no log line, no sandbox, no store file.
    expect(run.stderr).not.toMatch(/^\{/m);
    await expect(readFile(store)).rejects.toThrow(/ENOENT/);
    await rm(dir, { recursive: true, force: true });
  });
});
