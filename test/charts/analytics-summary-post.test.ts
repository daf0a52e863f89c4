// `npm run job -- analytics-summary` against loopback fakes (the S2 simulator, a fake Discord
// webhook, the S5 simulator): one multipart webhook message carrying the chart, shown as the
// embed's image, and with ANALYTICS_SUMMARY_SPEAK the spoken briefing as an mp3, within Discord's
// limits. A failing S5, or one whose mp3 carries its key, leaves the post whole with one sentence.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHART_HEIGHT, CHART_THEME, CHART_WIDTH } from '../../src/charts/spec.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { analyticsHandlers } from '../../src/sandbox/analytics.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { speechHandlers } from '../../src/sandbox/speech.ts';
import { createWebhookInbox, webhookHandlers } from '../../src/sandbox/webhook.ts';
import { expectWithinDiscordLimits } from '../jobs/discord-limits.ts';
import { countColour, decodePng } from '../support/png.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { ROOT } from '../support/spawn-herald.ts';

const S2_TOKEN = 'herald-test-s2-token-charts-1f0c';
const S5_KEY = 'herald-test-s5-key-charts-8a2b';
const WEBHOOK_ID = '1349081729583431690';
const WEBHOOK_TOKEN = 'herald-test-webhook-token-charts-44d0';

const dir = mkdtempSync(join(tmpdir(), 'herald-summary-post-'));
const inbox = createWebhookInbox();
let server: SandboxServer;

beforeAll(async () => {
  server = await startFake([
    ...analyticsHandlers({ credential: S2_TOKEN }),
    ...webhookHandlers({ credential: WEBHOOK_TOKEN, webhookId: WEBHOOK_ID, inbox }),
    ...speechHandlers({ credential: S5_KEY }),
  ]);
});
afterEach(() => {
  server.resetHandlers();
  server.requests.length = 0;
  inbox.clear();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    HERALD_ENV_FILE: '',
    SANDBOX: 'off',
    LOG_FORMAT: 'json',
    STORE_URL: join(dir, `${Math.random().toString(36).slice(2)}.sqlite`),
    ANALYTICS_BASE_URL: sandboxBaseUrl(server.url, 'analytics'),
    ANALYTICS_ACCESS_TOKEN: S2_TOKEN,
    ANALYTICS_PROPERTY_ID: '123456789',
    ANALYTICS_SUMMARY_RANGE: '7d',
    WEBHOOK_BASE_URL: sandboxBaseUrl(server.url, 'webhook'),
    WEBHOOK_ID,
    WEBHOOK_TOKEN,
    SPEECH_BASE_URL: sandboxBaseUrl(server.url, 'speech'),
    SPEECH_API_KEY: S5_KEY,
    ...extra,
  };
}

function runJob(environment: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'job', '--', 'analytics-summary'], {
      cwd: ROOT,
      env: environment,
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`npm run job timed out: ${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

function onlyPost() {
  const posts = server.requests.filter((r) => r.pathname.startsWith('/webhook/'));
  expect(posts).toHaveLength(1);
  expect(posts[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  expect(inbox.messages).toHaveLength(1);
  const message = inbox.messages[0]!;
  expectWithinDiscordLimits(message.body);
  expect(message.files.length).toBeLessThanOrEqual(DISCORD_LIMITS.files);
  const bytes = message.files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
  expect(bytes).toBeLessThanOrEqual(DISCORD_LIMITS.fileBytes);
  return message;
}

function expectChart(message: ReturnType<typeof onlyPost>) {
  const png = message.files.find((f) => f.filename === 'analytics-summary.png');
  expect(png?.contentType).toBe('image/png');
  expect((message.embeds[0] as { image?: { url: string } }).image).toEqual({
    url: 'attachment://analytics-summary.png',
  });
  const img = decodePng(png!.bytes);
  expect([img.width, img.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
  expect(countColour(img, CHART_THEME.series[0]!)).toBeGreaterThan(500);
  expect(countColour(img, CHART_THEME.series[1]!)).toBeGreaterThan(300);
}

const synthesized = () =>
  server.requests
    .filter((r) => r.method === 'POST' && r.pathname.includes('/text-to-speech/'))
    .map((r) => (JSON.parse(r.body) as { text: string }).text);

describe('npm run job -- analytics-summary with charts and speech', () => {
  it('posts one multipart message with the chart as the embed image, and no audio by default', async () => {
    const result = await runJob(env({}));
    expect(result.code, result.stderr).toBe(0);
    const message = onlyPost();
    expect(message.files.map((f) => f.filename)).toEqual(['analytics-summary.png']);
    expectChart(message);
    expect(synthesized()).toEqual([]);
  });

  it('with ANALYTICS_SUMMARY_SPEAK=true, adds the briefing read aloud as an mp3 to the same message', async () => {
    const result = await runJob(env({ ANALYTICS_SUMMARY_SPEAK: 'true' }));
    expect(result.code, result.stderr).toBe(0);
    const message = onlyPost();
    expect(message.files.map((f) => f.filename)).toEqual(['analytics-summary.png', 'analytics-summary.mp3']);
    expectChart(message);
    const mp3 = message.files[1]!;
    expect(mp3.contentType).toBe('audio/mpeg');
    expect(mp3.bytes[0]).toBe(0xff);
    const spoken = synthesized();
    expect(spoken).toHaveLength(1);
    expect(spoken[0]).toMatch(/^Analytics summary for last 7 days/);
    expect(spoken[0]).not.toMatch(/[▲▼%]/);
  });

  it('with S5 refusing, still posts the summary and the chart, saying the audio could not be made', async () => {
    const result = await runJob(
      env({ ANALYTICS_SUMMARY_SPEAK: 'true', SPEECH_API_KEY: 'herald-revoked-key-0000' }),
    );
    expect(result.code, result.stderr).toBe(0);
    const message = onlyPost();
    expect(message.files.map((f) => f.filename)).toEqual(['analytics-summary.png']);
    expectChart(message);
    const last = message.embeds.at(-1) as { description?: string };
    expect(last.description).toMatch(/^The audio could not be made: the speech service .+\.$/);
    expect(result.stderr).not.toContain('herald-revoked-key-0000');
  });

  it('with an S5 mp3 carrying its key base64-encoded, posts the summary and the chart without the audio, logged', async () => {
    const frame = Buffer.from([0xff, 0xfb, 0x90, 0x64, ...new Array<number>(413).fill(0)]);
    server.use(
      http.post(route('speech', '/text-to-speech/:voiceId'), ({ request }) => {
        const key = Buffer.from(`id3:${request.headers.get('xi-api-key') ?? ''}`).toString('base64');
        return new HttpResponse(Buffer.concat([frame, Buffer.from(`TXXX${key}`), frame]), {
          headers: { 'content-type': 'audio/mpeg' },
        });
      }),
    );
    const result = await runJob(env({ ANALYTICS_SUMMARY_SPEAK: 'true' }));
    expect(result.code, result.stderr).toBe(0);
    expect(synthesized()).toHaveLength(1);
    const message = onlyPost();
    expect(message.files.map((f) => f.filename)).toEqual(['analytics-summary.png']);
    expectChart(message);
    const last = message.embeds.at(-1) as { description?: string };
    expect(last.description).toMatch(/^The audio could not be made: the speech service .+\.$/);
    expect(result.stderr).toContain('http.answer_holds_secret');
  });
});
