// End to end: `npm run job -- analytics-summary` as a child process, with the analytics, webhook
// and email variables pointed at loopback fakes that behave like S2, S7 and S1.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { analyticsHandlers } from '../../src/sandbox/analytics.ts';
import { emailHandlers } from '../../src/sandbox/email.ts';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { createWebhookInbox, webhookHandlers } from '../../src/sandbox/webhook.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { CHILD_ENV, ROOT } from '../support/spawn-herald.ts';
import { expectWithinDiscordLimits } from './discord-limits.ts';
import { METRICS } from './fixtures.ts';
import { WEBHOOK_ID, WEBHOOK_TOKEN } from './harness.ts';
import { hostileS2Handlers, PROPERTY_ID, S2_TOKEN, s2Handlers } from './s2-fake.ts';

const EMAIL_TOKEN = 'test-email-access-token-5b8f0e';
const dir = mkdtempSync(join(tmpdir(), 'herald-run-job-'));
const inbox = createWebhookInbox();
let server: SandboxServer;

beforeAll(async () => {
  server = await startFake([
    ...s2Handlers(),
    ...webhookHandlers({ credential: WEBHOOK_TOKEN, webhookId: WEBHOOK_ID, inbox }),
    ...emailHandlers({ credential: EMAIL_TOKEN }),
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

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    SANDBOX: 'off',
    LOG_FORMAT: 'json',
    STORE_URL: join(dir, `${Math.random().toString(36).slice(2)}.sqlite`),
    ANALYTICS_BASE_URL: sandboxBaseUrl(server.url, 'analytics'),
    ANALYTICS_ACCESS_TOKEN: S2_TOKEN,
    ANALYTICS_PROPERTY_ID: PROPERTY_ID,
    WEBHOOK_BASE_URL: sandboxBaseUrl(server.url, 'webhook'),
    WEBHOOK_ID,
    WEBHOOK_TOKEN,
    WEBHOOK_USERNAME: 'herald reports',
    ...extra,
  };
}

/** The job runner as `npm run job` starts it; npm itself (0.2 s of CPU a start) only where asked. */
function runJob(args: string[], environment: Record<string, string>, { throughNpm = false } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const [file, argv] = throughNpm
      ? ['npm', ['run', '--silent', 'job', '--', ...args]]
      : [process.execPath, ['src/run-job.ts', ...args]];
    const child = spawn(file, argv, { cwd: ROOT, env: { ...environment, ...CHILD_ENV } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`npm run job timed out: ${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const requestsTo = (prefix: string) => server.requests.filter((r) => r.pathname.startsWith(prefix));

describe('npm run job -- analytics-summary', () => {
  it('makes the runReport calls of the summary and one webhook post within Discord limits, then exits 0', async () => {
    const result = await runJob(['analytics-summary'], env());
    expect(result.stderr).not.toContain(WEBHOOK_TOKEN);
    expect(result.stderr).not.toContain(S2_TOKEN);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^analytics-summary: delivered webhook \(slot manual:\d{4}-/);
    // The report it posted, readably: the embed as a console card, and the id Discord confirmed.
    expect(result.stdout).toContain(`── webhook post, delivered (id ${inbox.messages[0]!.id})`);
    expect(result.stdout).toContain('│ Analytics summary: yesterday');
    expect(result.stdout).toMatch(/│ Sessions\n│ {3}[\d,]+\n/);
    expect(result.stdout).not.toContain('Simulated');

    // One runReport for the summary (daily values and each period's totals), one for the top countries.
    const reports = requestsTo('/analytics/');
    expect(reports).toHaveLength(2);
    for (const req of reports) {
      expect(req.method).toBe('POST');
      expect(req.pathname).toBe(`/analytics/v1beta/properties/${PROPERTY_ID}:runReport`);
      expect(req.headers.authorization).toBe(`Bearer ${S2_TOKEN}`);
      expect(req.headers['content-type']).toContain('application/json');
    }
    const bodies = reports.map((req) => JSON.parse(req.body) as Record<string, unknown>);
    const metrics = METRICS.map((name) => ({ name }));
    expect(
      bodies.map((b) => ({
        dimensions: b.dimensions,
        metrics: b.metrics,
        dateRanges: b.dateRanges,
        ...(b.metricAggregations ? { metricAggregations: b.metricAggregations } : {}),
      })),
    ).toEqual(
      expect.arrayContaining([
        {
          dimensions: [{ name: 'date' }],
          metrics,
          dateRanges: [
            { startDate: 'yesterday', endDate: 'yesterday', name: 'current' },
            { startDate: '2daysAgo', endDate: '2daysAgo', name: 'previous' },
            { startDate: '7daysAgo', endDate: 'yesterday', name: 'trend' },
            { startDate: '14daysAgo', endDate: '8daysAgo', name: 'trend_previous' },
          ],
          metricAggregations: ['TOTAL'],
        },
        {
          dimensions: [{ name: 'country' }],
          metrics,
          dateRanges: [{ startDate: 'yesterday', endDate: 'yesterday' }],
        },
      ]),
    );

    expect(requestsTo('/webhook/')).toHaveLength(1);
    expect(inbox.messages).toHaveLength(1);
    const [post] = inbox.messages;
    expect(post!.username).toBe('herald reports');
    expect(post!.allowedMentions).toEqual({ parse: [] });
    expect(post!.embeds).toHaveLength(1);
    expect(post!.embeds[0]).toMatchObject({
      title: 'Analytics summary: yesterday',
      color: 0x3b82f6,
      image: { url: 'attachment://analytics-summary.png' },
    });
    expect(post!.embeds[0]!.fields).toContainEqual({
      name: 'Sessions',
      // The fixture's days are fixed, so today's trend has none of them: a flat sparkline.
      value: '**1,234**\n↑ 12.2% (was 1,100)\n`▁▁▁▁▁▁▁`',
      inline: true,
    });
    expect(post!.files.map((f) => f.filename)).toEqual(['analytics-summary.png']);
    expectWithinDiscordLimits(post!.body);
    expect(requestsTo('/email/')).toHaveLength(0);
  });

  it('with ANALYTICS_SUMMARY_EMAIL_TO set, also emails each recipient alone, with an idempotency key per slot and recipient', async () => {
    const result = await runJob(
      ['analytics-summary'],
      env({
        ANALYTICS_SUMMARY_EMAIL_TO: 'team@example.com,ops@example.com',
        EMAIL_BASE_URL: sandboxBaseUrl(server.url, 'email'),
        EMAIL_ACCESS_TOKEN: EMAIL_TOKEN,
        EMAIL_FROM: 'herald <reports@example.com>',
      }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^analytics-summary: delivered webhook and 2 emails \(slot manual:/);
    expect(result.stdout).toContain('to 1 recipient, delivered (id ');
    const sends = requestsTo('/email/').filter((r) => r.method === 'POST');
    expect(sends).toHaveLength(2);
    const keys = sends.map((send) => send.headers['idempotency-key']);
    for (const key of keys)
      expect(key).toMatch(/^herald\/analytics-summary\/manual:\d{4}-\d\d-\d\dT.*\/[0-9a-f]{16}$/);
    expect(new Set(keys).size).toBe(2);
    const bodies = sends.map((send) => JSON.parse(send.body) as Record<string, unknown>);
    expect(bodies.map((b) => b.to)).toEqual([['team@example.com'], ['ops@example.com']]);
    for (const [i, body] of bodies.entries()) {
      expect(sends[i]!.pathname).toBe('/email/emails');
      expect(sends[i]!.headers.authorization).toBe(`Bearer ${EMAIL_TOKEN}`);
      expect(body).toMatchObject({
        from: 'herald <reports@example.com>',
        subject: expect.stringMatching(/^Analytics summary: yesterday \(/) as string,
      });
      expect(body).not.toHaveProperty('cc');
      expect(body.html).toEqual(expect.stringContaining('<table '));
    }
    expect(inbox.messages).toHaveLength(1);
  });

  it('exits 1 with a clear message, and no token in it, when the webhook refuses the post', async () => {
    const result = await runJob(
      ['analytics-summary'],
      env({ WEBHOOK_TOKEN: 'revoked-webhook-token-0f3a77' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'analytics-summary ran but not every post was delivered: the webhook post was refused and given up',
    );
    expect(result.stderr).not.toContain('revoked-webhook-token-0f3a77');
    expect(inbox.messages).toHaveLength(0);
  });

  it('exits 1 naming the failure when S2 refuses the credentials', async () => {
    const result = await runJob(
      ['analytics-summary'],
      env({ ANALYTICS_ACCESS_TOKEN: 'ya29.expired-token-000000' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'analytics-summary failed: analytics.runReport failed: unauthorized (HTTP 401)',
    );
    expect(inbox.messages).toHaveLength(0);
  });

  it('posts the summary without its chart, every figure "not available", when GA4 answers "1e999" for each metric', async () => {
    server.use(...hostileS2Handlers('1e999'));
    const result = await runJob(['analytics-summary'], env());
    expect(result.code, result.stderr.slice(-2_000)).toBe(0);
    expect(requestsTo('/analytics/')).toHaveLength(2);
    expect(inbox.messages).toHaveLength(1);
    const [post] = inbox.messages;
    expect(post!.files).toEqual([]);
    const fields = post!.embeds[0]!['fields'] as { value: string }[];
    expect(fields[0]!.value).toMatch(/^\*\*not available\*\*\nnot available \(was not available\)/);
    expect(JSON.stringify(post)).not.toMatch(/Infinity|NaN|e\+?999|,000,000,000,000,000/);
    expect(result.stderr).toContain('the chart could not be drawn; the reply goes out without it');
  });

  it('lists the known jobs for an unknown name', async () => {
    const result = await runJob(['weekly-digest'], env(), { throughNpm: true });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'unknown job or schedule "weekly-digest"; known jobs: analytics-summary (/schedule list shows the schedules)',
    );
    expect(server.requests).toHaveLength(0);
  });

  it("says which variables to set when the job's services are not configured", async () => {
    const result = await runJob(
      ['analytics-summary'],
      env({ ANALYTICS_ACCESS_TOKEN: '', ANALYTICS_PROPERTY_ID: '' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'analytics-summary cannot run: not configured: set ANALYTICS_ACCESS_TOKEN and ANALYTICS_PROPERTY_ID',
    );
  });

  it('posts a report built from the built-in S2 simulator, within every Discord limit', async () => {
    const simulator = await startFake([
      ...analyticsHandlers({ credential: S2_TOKEN }),
      ...webhookHandlers({ credential: WEBHOOK_TOKEN, webhookId: WEBHOOK_ID, inbox }),
    ]);
    try {
      const result = await runJob(
        ['analytics-summary'],
        env({
          ANALYTICS_BASE_URL: sandboxBaseUrl(simulator.url, 'analytics'),
          WEBHOOK_BASE_URL: sandboxBaseUrl(simulator.url, 'webhook'),
          ANALYTICS_SUMMARY_RANGE: '28d',
          ANALYTICS_SUMMARY_DIMENSION: 'pagePath',
          ANALYTICS_SUMMARY_METRICS: 'sessions,totalUsers,engagementRate,averageSessionDuration,totalRevenue',
        }),
      );
      expect(result.code, result.stderr).toBe(0);
      expect(simulator.requests.filter((r) => r.pathname.includes(':runReport'))).toHaveLength(2);
      const [post] = inbox.messages;
      expect(post!.embeds[0]).toMatchObject({ title: 'Analytics summary: last 28 days' });
      const fields = post!.embeds[0]!.fields as { name: string; value: string }[];
      expect(fields.map((f) => f.name)).toEqual([
        'Sessions',
        'Users',
        'Engagement rate',
        'Avg. session duration',
        'Revenue',
        'Top pages by sessions',
      ]);
      // A 28-day sparkline has one character per day.
      expect(/`([▁▂▃▄▅▆▇█]+)`/.exec(fields[0]!.value)?.[1]).toHaveLength(28);
      expectWithinDiscordLimits(post!.body);
    } finally {
      await simulator.close();
    }
  });

  it('runs on the built-in sandbox when nothing is configured, and prints the report it posted', async () => {
    const result = await runJob(['analytics-summary'], {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      STORE_URL: ':memory:',
      LOG_LEVEL: 'warn',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^analytics-summary: delivered webhook \(slot manual:/);
    expect(result.stdout).toMatch(/── webhook post, delivered \(id \d+\)/);
    expect(result.stdout).toContain('│ Analytics summary: yesterday');
    expect(result.stdout).toContain('│ Top countries by sessions');
    expect(result.stdout).toContain('Simulated by the built-in sandbox: email, analytics');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses to post simulated data to a real webhook', async () => {
    const result = await runJob(
      ['analytics-summary'],
      env({ SANDBOX: 'auto', ANALYTICS_ACCESS_TOKEN: '', ANALYTICS_PROPERTY_ID: '' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'analytics-summary cannot run: This schedule would post simulated analytics data to the real destination "default"; configure ANALYTICS_ACCESS_TOKEN and ANALYTICS_PROPERTY_ID',
    );
    expect(inbox.messages).toHaveLength(0);
  });

  it('refuses a spoken summary when the speech service is simulated: the audio is posted data too', async () => {
    const before = inbox.messages.length;
    const result = await runJob(
      ['analytics-summary'],
      env({ SANDBOX: 'auto', ANALYTICS_SUMMARY_SPEAK: 'true' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'analytics-summary cannot run: This schedule would post simulated speech data to the real destination "default"; configure SPEECH_API_KEY, or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.',
    );
    expect(inbox.messages).toHaveLength(before);
  });

  it('with SCHEDULE_ALLOW_SIMULATED=true, posts the spoken summary marked as simulated speech', async () => {
    const before = inbox.messages.length;
    const result = await runJob(
      ['analytics-summary'],
      env({ SANDBOX: 'auto', ANALYTICS_SUMMARY_SPEAK: 'true', SCHEDULE_ALLOW_SIMULATED: 'true' }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(inbox.messages).toHaveLength(before + 1);
    expect(JSON.stringify(inbox.messages.at(-1))).toContain('Simulated data (built-in sandbox): speech.');
  });

  it('runs when analytics and the webhook are real, though the other services are simulated', async () => {
    const before = inbox.messages.length;
    const result = await runJob(['analytics-summary'], env({ SANDBOX: 'auto' }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^analytics-summary: delivered webhook \(slot manual:/);
    expect(inbox.messages).toHaveLength(before + 1);
  });

  it('runs against the whole built-in simulator with SANDBOX=on', async () => {
    const result = await runJob(['analytics-summary'], {
      PATH: process.env.PATH ?? '',
      SANDBOX: 'on',
      STORE_URL: ':memory:',
      LOG_LEVEL: 'warn',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^analytics-summary: delivered webhook/);
    expect(server.requests).toHaveLength(0);
  });
});
