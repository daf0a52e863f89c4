// The whole bot against a speech provider whose mp3 carries the key it was sent: the answer is
// refused as a bad answer and logged, and no audio is saved or shown.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { runHerald, type Run } from '../support/spawn-herald.ts';

const KEY = 'e2e-speech-key-9c41d7';
const FRAME = Buffer.from([0xff, 0xfb, 0x90, 0x64, ...new Array<number>(413).fill(0)]);

describe('herald against a speech provider that echoes its key inside the mp3, end to end', () => {
  let server: SandboxServer;
  let dir: string;
  let run: Run;

  beforeAll(async () => {
    server = await startFake([
      http.post(route('speech', '/text-to-speech/:voiceId'), ({ request }) => {
        const echoed = request.headers.get('xi-api-key') ?? '';
        return new HttpResponse(Buffer.concat([FRAME, Buffer.from(`TXXX${echoed}`), FRAME]), {
          headers: { 'content-type': 'audio/mpeg' },
        });
      }),
    ]);
    dir = await mkdtemp(join(tmpdir(), 'herald-audio-secret-'));
    run = await runHerald(
      {
        SPEECH_BASE_URL: sandboxBaseUrl(server.url, 'speech'),
        SPEECH_API_KEY: KEY,
        SPEECH_VOICE_ID: '21m00Tcm4TlvDq8ikWAM',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        AUDIO_DIR: join(dir, 'audio'),
        STORE_URL: join(dir, 'herald.sqlite'),
      },
      '/say "Deploy finished"\n',
      { dropServiceVars: true, timeoutMs: 60_000 },
    );
  }, 90_000);

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses the answer in one sentence, logs it, and saves no audio', async () => {
    expect(run.code, run.stderr.slice(-2_000)).toBe(1);
    expect(server.requests.filter((r) => r.method === 'POST')).not.toHaveLength(0);
    expect(run.stdout).not.toMatch(/Saved .*\.mp3/);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(run.stderr).toContain('http.answer_holds_secret');
    const saved = await readdir(join(dir, 'audio')).catch(() => [] as string[]);
    expect(saved.filter((f) => f.endsWith('.mp3'))).toEqual([]);
  });
});
