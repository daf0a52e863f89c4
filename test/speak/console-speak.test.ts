// `/weather Oslo speak:yes` in a piped console session: the real bot (src/main.ts) and console
// adapter, with S3 and S5 served by the sandbox's handlers on loopback so the test sees what S5
// received. The operator has no /say budget; the budget itself is proven in speak-option.test.ts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { speechHandlers } from '../../src/sandbox/speech.ts';
import { weatherHandlers } from '../../src/sandbox/weather.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { runHerald } from '../support/spawn-herald.ts';
import { decodePng } from '../support/png.ts';

const KEY = 'herald-test-console-speak-key-77d1';

let server: SandboxServer;
let dir: string;

beforeAll(async () => {
  server = await startFake([...weatherHandlers({ credential: KEY }), ...speechHandlers({ credential: KEY })]);
  dir = await mkdtemp(join(tmpdir(), 'herald-speak-'));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function env(speechKey: string): Record<string, string> {
  return {
    SANDBOX: 'off',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'warn',
    AUDIO_DIR: join(dir, 'audio'),
    STORE_URL: ':memory:',
    WEATHER_BASE_URL: sandboxBaseUrl(server.url, 'weather'),
    WEATHER_API_KEY: KEY,
    SPEECH_BASE_URL: sandboxBaseUrl(server.url, 'speech'),
    SPEECH_API_KEY: speechKey,
  };
}

const synthesized = () =>
  server.requests
    .filter((r) => r.method === 'POST' && r.pathname.includes('/text-to-speech/'))
    .map((r) => (JSON.parse(r.body) as { text: string }).text);

describe('/weather Oslo speak:yes in the console', () => {
  it('saves the spoken weather as an mp3 and prints its path', async () => {
    const run = await runHerald(env(KEY), '/weather Oslo speak:yes\n', { dropServiceVars: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Oslo/);
    const match = /Saved weather\.mp3 \(audio\/mpeg, [^)]+\) to (\S+\.mp3)/.exec(run.stdout);
    expect(match, run.stdout).not.toBeNull();
    expect(match![1]!.startsWith(join(dir, 'audio'))).toBe(true);
    const bytes = await readFile(match![1]!);
    expect(bytes[0]).toBe(0xff);
    expect(bytes[1]! & 0xe0).toBe(0xe0);
    const spoken = synthesized();
    expect(spoken).toHaveLength(1);
    expect(spoken[0]).toMatch(/^Oslo, NO: .*degrees Celsius/);
  });

  it('with S5 refusing, still prints the weather and one sentence that the audio could not be made', async () => {
    const before = synthesized().length;
    const run = await runHerald(env('herald-revoked-speech-key-0000'), '/weather Oslo speak:yes\n', {
      dropServiceVars: true,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Oslo, NO/);
    expect(run.stdout).toMatch(/The audio could not be made: the speech service .+\./);
    expect(run.stdout).not.toMatch(/Saved .*\.mp3/);
    // S5 was asked (and answered 401): the reply did not wait on audio it could not get.
    expect(synthesized().slice(before)).toEqual([expect.stringMatching(/^Oslo, NO: /)]);
    expect(run.stdout + run.stderr).not.toContain('herald-revoked-speech-key');
  });

  it('saves the /forecast chart next to the audio and prints both paths', async () => {
    const run = await runHerald(env(KEY), '/forecast Oslo speak:yes\n', { dropServiceVars: true });
    expect(run.code, run.stderr).toBe(0);
    const png = /Saved forecast\.png \(image\/png, [^)]+\) to (\S+\.png)/.exec(run.stdout);
    const mp3 = /Saved forecast\.mp3 \(audio\/mpeg, [^)]+\) to (\S+\.mp3)/.exec(run.stdout);
    expect(png, run.stdout).not.toBeNull();
    expect(mp3, run.stdout).not.toBeNull();
    expect(png![1]!.startsWith(join(dir, 'audio'))).toBe(true);
    const img = decodePng(await readFile(png![1]!));
    expect([img.width, img.height]).toEqual([1000, 500]);
  });
});
