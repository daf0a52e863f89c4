// The console as a person and a script meet it: the whole bot (`src/main.ts`, SANDBOX=on) under a
// real pseudo-terminal (tab completion, history file, logs and the prompt, Ctrl-C and Ctrl-D), and
// with piped input (exit/quit, escapes in the echo line, the exit code), each in its own directory.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inheritedEnv, ROOT } from '../support/spawn-herald.ts';
import { screenOf, startInPty, type PtyHerald } from './pty.ts';

let dir: string;
let running: PtyHerald | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-console-'));
});
afterEach(async () => {
  running?.kill();
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { SANDBOX: 'on', STORE_URL: join(dir, 'herald.sqlite'), AUDIO_DIR: join(dir, 'audio'), ...extra };
}

function open(extra: Record<string, string> = {}): PtyHerald {
  running = startInPty(dir, env(extra));
  return running;
}

/** A prompt line holding `text` as typed (screen lines are compared without trailing spaces). */
const promptLine = (text: string): RegExp =>
  new RegExp(`^herald>${text === '' ? '' : ` ${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`}$`, 'm');

describe('the interactive console under a pseudo-terminal', () => {
  it('completes command names with or without the slash, option names and enum values', async () => {
    const t = open();
    await t.until(promptLine(''));
    t.type('wea');
    await t.until(promptLine('wea'));
    t.type('\t');
    await t.until(promptLine('weather'));

    t.type('\u0015/wea'); // Ctrl-U clears the line
    await t.until(promptLine('/wea'));
    t.type('\t');
    await t.until(promptLine('/weather'));

    t.type(' London un');
    await t.until(promptLine('/weather London un'));
    t.type('\t');
    await t.until(promptLine('/weather London units:'));
    t.type('\t'); // a second Tab lists the values
    const listed = await t.until(/units:metric\s+units:imperial\s+units:standard/);
    expect(listed.filter((line) => line.includes('units:metric'))).toEqual([
      expect.stringMatching(/^units:metric\s+units:imperial\s+units:standard$/),
    ]);

    t.type('im');
    await t.until(promptLine('/weather London units:im'));
    t.type('\t');
    await t.until(promptLine('/weather London units:imperial'));
    t.type('\r');
    await t.until(/°F/);
    t.type('exit\r');
    expect(await t.exited).toBe(0);
  }, 30_000);

  it('refuses an option typed with no value in one sentence naming it, and asks nothing upstream', async () => {
    const t = open({ LOG_LEVEL: 'debug' });
    await t.until(promptLine(''));
    t.type('/weather London units:\r');
    const screen = await t.until(/The option units has no value[\s\S]*\nherald>$/);
    const text = screen.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain(
      'The option units has no value; write it as units:metric with no space after the colon, or leave it out.',
    );
    // Refused before the weather service was asked: no upstream call was logged.
    expect(screen.filter((line) => line.includes('http.call'))).toEqual([]);
    t.type('/say hi voice:\r');
    await t.until(/The option voice has no value[\s\S]*\nherald>$/);
    // The same line with its value does reach the service, and the log shows that call.
    t.type('/weather London units:metric\r');
    await t.until(/http\.call[\s\S]*Weather in London[\s\S]*\nherald>$/);
    t.type('exit\r');
    expect(await t.exited).toBe(0);
  }, 30_000);

  it('keeps the history in .herald_history between sessions, bounded to 1000 lines', async () => {
    const file = join(dir, '.herald_history');
    const first = open();
    await first.until(promptLine(''));
    first.type('/help weather\r');
    await first.until(/\/weather \[city\]/);
    first.type('exit\r');
    expect(await first.exited).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('/help weather\nexit\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const older = Array.from({ length: 1200 }, (_, i) => `/help ${i + 1}`);
    await writeFile(file, [...older, '/help weather', 'exit'].join('\n'));
    const second = open();
    await second.until(promptLine(''));
    second.type('\u001b[A'); // Up
    await second.until(promptLine('exit'));
    second.type('\u001b[A');
    await second.until(promptLine('/help weather'));
    second.type('\r');
    await second.until(/\/weather \[city\][\s\S]*\nherald>$/);
    second.type('quit\r');
    expect(await second.exited).toBe(0);
    const saved = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(saved).toHaveLength(1000);
    // Read: the newest 1000 (/help 203 on); the repeated /help weather moved to the end, quit added.
    expect(saved.slice(0, 1)).toEqual(['/help 204']);
    expect(saved.slice(-3)).toEqual(['exit', '/help weather', 'quit']);
  }, 30_000);

  it('prints log lines above the prompt, never over it, when LOG_LEVEL is set', async () => {
    // /help answers at once and redraws the prompt; /weather then logs while the prompt is shown.
    const t = open({ LOG_LEVEL: 'debug', SANDBOX_LATENCY_MS: '300' });
    await t.until(promptLine(''));
    t.type('/help\r/weather Oslo\r');
    const screen = await t.until(
      /^(?=[\s\S]*Weather in Oslo)(?=[\s\S]*command\.finished\n\s+command: "weather")/,
    );
    expect(screen.filter((line) => /^herald>.*\[\d\d:\d\d:\d\d\.\d{3}\]/.test(line))).toEqual([]);
    expect(screen.filter((line) => /^\[\d\d:\d\d:\d\d\.\d{3}\] DEBUG/.test(line)).length).toBeGreaterThan(0);
    // The prompt is drawn again below the last log line.
    await t.until(/Weather in Oslo[\s\S]*\nherald>$/);
    t.type('exit\r');
    expect(await t.exited).toBe(0);
  }, 30_000);

  it.each([
    ['Ctrl-D', '\u0004'],
    ['Ctrl-C', '\u0003'],
  ])(
    '%s ends the session with the cursor below the herald> line',
    async (_name, key) => {
      const t = open();
      await t.until(promptLine(''));
      t.type(key);
      expect(await t.exited).toBe(0);
      const screen = t.screen();
      expect(screen.at(-2)).toBe('herald>');
      expect(screen.at(-1)).toBe('');
    },
    30_000,
  );
});

/** herald with piped stdin and stdout, in the test's directory. */
function runPiped(input: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'src/main.ts')], {
    cwd: dir,
    env: { ...inheritedEnv({ dropServiceVars: true }), ...env() },
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.resume();
  child.stdin.end(input);
  return new Promise((done) => child.on('close', (code) => done({ code, stdout })));
}

describe('the console with piped input', () => {
  it('stops at exit, shows control characters as escapes, exits 3 after a refusal, writes no history', async () => {
    const run = await runPiped(
      '/weather London\n/nope \u001b]0;pwned\u0007\u001b[2J \u202eOslo\nexit\n/weather Paris\n',
    );
    const blocks = run.stdout.trimEnd().split(/\n\n(?=> )/);
    expect(blocks.map((b) => b.split('\n')[0])).toEqual([
      '> /weather London',
      '> /nope \\x1b]0;pwned\\x07\\x1b[2J \\u202eOslo',
    ]);
    // eslint-disable-next-line no-control-regex
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Bidi_Control}/u);
    expect(screenOf(run.stdout).join('\n')).toContain('London');
    expect(run.code).toBe(3);
    await expect(stat(join(dir, '.herald_history'))).rejects.toThrow(/ENOENT/);
  }, 30_000);

  it('exits 1 when a command failed with a service error, and 0 when all answered', async () => {
    expect((await runPiped('/weather London\n/weather "sandbox:error"\n/nope\n')).code).toBe(1);
    expect((await runPiped('/weather London\nquit\n/nope\n')).code).toBe(0);
  }, 30_000);
});
