// The analytics-summary job through the scheduler with a fixed clock, fake services (plain
// objects typed by the client interfaces) and a memory store.
import { afterEach, describe, expect, it } from 'vitest';
import { createAnalyticsSummaryJob, type AnalyticsSummarySettings } from '../../jobs/analytics-summary.ts';
import { createJobSchedules } from '../../jobs/index.ts';
import { createScheduling } from '../../jobs/schedule-engine.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { ScheduleRunner } from '../../src/schedule/runner.ts';
import { validateSchedules } from '../../src/schedule/when.ts';
import type { Services } from '../../src/core/services.ts';
import { ServiceError } from '../../src/errors.ts';
import type { AnalyticsClient, Report } from '../../src/services/analytics/client.ts';
import type { EmailClient, SendEmailInput } from '../../src/services/email/client.ts';
import type { WebhookClient, WebhookMessage } from '../../src/services/webhook/client.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { expectWithinDiscordLimits } from './discord-limits.ts';
import { METRICS, YESTERDAY_BY_COUNTRY_REQUESTS, fakeAnalytics } from './fixtures.ts';
import { builtInRunner, captureLog, fakeClock, waitFor } from './harness.ts';

const SLOT = new Date('2025-11-22T08:00:00Z');

function fakes(opts: { empty?: boolean; failWith?: Error } = {}) {
  const posts: WebhookMessage[] = [];
  const emails: SendEmailInput[] = [];
  const fake = fakeAnalytics({ empty: opts.empty ?? false });
  const reports = fake.inputs;
  const analytics: AnalyticsClient = {
    runReport: (input) =>
      opts.failWith ? (reports.push(input), Promise.reject(opts.failWith)) : fake.runReport(input),
    close: () => Promise.resolve(),
  };
  const webhook: WebhookClient = {
    post: (m) => {
      posts.push(m);
      return Promise.resolve({ id: String(1349081729583431690n + BigInt(posts.length)) });
    },
    close: () => Promise.resolve(),
  };
  const email: EmailClient = {
    send: (input) => {
      emails.push(input);
      return Promise.resolve({ id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' });
    },
    get: () => Promise.resolve(undefined),
    close: () => Promise.resolve(),
  };
  return { reports, posts, emails, services: { analytics, webhook, email } satisfies Services };
}

const SETTINGS: AnalyticsSummarySettings = {
  range: 'yesterday',
  metrics: METRICS,
  dimension: 'country',
  timezone: 'UTC',
  emailTo: [],
  username: 'herald reports',
};

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

function run(services: Services, settings: Partial<AnalyticsSummarySettings> = {}) {
  const clock = fakeClock('2025-11-22T08:00:02Z');
  const store = createMemoryStore({ now: clock.nowMs });
  const captured = captureLog();
  const job = createAnalyticsSummaryJob({ ...SETTINGS, ...settings });
  const scheduler: ScheduleRunner = builtInRunner({
    builtIns: [{ job, cron: '0 8 * * *', timezone: 'UTC', variables: { cron: 'C', timezone: 'T' } }],
    services,
    store,
    log: captured.log,
    now: clock.now,
    catchupMinutes: 360,
  });
  running.push(scheduler);
  return { scheduler, store, ...captured, slot: () => scheduler.runSlot('analytics-summary', SLOT) };
}

describe('analytics-summary job', () => {
  it('asks S2 twice: the summary (daily rows of both periods, their TOTAL rows) in one call, the top rows in the other', async () => {
    const f = fakes();
    await run(f.services).slot();
    expect(f.reports).toEqual(YESTERDAY_BY_COUNTRY_REQUESTS);
  });

  it('reports the days a slot was due for when it runs two days late', async () => {
    const f = fakes();
    const { scheduler } = run(f.services);
    // The slot of 20 Nov 08:00 caught up on 22 Nov: "yesterday" of that slot is 19 Nov.
    await scheduler.runSlot('analytics-summary', new Date('2025-11-20T08:00:00Z'), 'catch-up');
    expect(f.reports[0]!.dateRanges).toEqual([
      { startDate: '3daysAgo', endDate: '3daysAgo', name: 'current' },
      { startDate: '4daysAgo', endDate: '4daysAgo', name: 'previous' },
      { startDate: '9daysAgo', endDate: '3daysAgo', name: 'trend' },
      { startDate: '16daysAgo', endDate: '10daysAgo', name: 'trend_previous' },
    ]);
    expect(f.posts[0]!.embeds![0]!.description).toBe('**19 Nov 2025** compared with 18 Nov 2025');
  });

  it('posts one embed through the webhook under the username override, within Discord limits', async () => {
    const f = fakes();
    const outcome = await run(f.services).slot();
    expect(outcome.status).toBe('posted');
    expect(f.posts).toHaveLength(1);
    const [post] = f.posts;
    expect(post!.username).toBe('herald reports');
    expect(post!.embeds).toHaveLength(1);
    expect(post!.embeds![0]).toMatchObject({
      title: 'Analytics summary: yesterday',
      timestamp: '2025-11-22T08:00:02.000Z',
      image: { url: 'attachment://analytics-summary.png' },
    });
    expect(post!.embeds![0]!.fields![0]).toEqual({
      name: 'Sessions',
      value: '**1,234**\n↑ 12.2% (was 1,100)\n`▂▂▃▁▄▇█`',
      inline: true,
    });
    expect(post!.files!.map((f) => ['name' in f ? f.name : f.filename, f.contentType])).toEqual([
      ['analytics-summary.png', 'image/png'],
    ]);
    expectWithinDiscordLimits(post!);
    expect(f.emails).toHaveLength(0);
  });

  it('emails each recipient alone (nobody sees the others), keyed by slot and recipient so a resend is not a second email', async () => {
    const f = fakes();
    const { slot, store } = run(f.services, {
      emailTo: ['team@example.com', 'ops@example.com', ' Team@Example.com '],
    });
    await slot();
    const email = {
      subject: 'Analytics summary: yesterday (21 Nov 2025)',
      html: expect.stringContaining('<!DOCTYPE html>') as string,
      idempotencyKey: expect.stringMatching(
        /^herald\/analytics-summary\/2025-11-22T08:00:00\.000Z\/[0-9a-f]{16}$/,
      ) as string,
    };
    expect(f.emails).toEqual([
      { to: ['team@example.com'], ...email },
      { to: ['ops@example.com'], ...email },
    ]);
    expect(f.emails[0]!.idempotencyKey).not.toBe(f.emails[1]!.idempotencyKey);
    expect(f.emails.map((e) => e.idempotencyKey).join()).not.toContain('@');
    expect(await store.listOutbox('delivered')).toHaveLength(3);
    expect(await slot()).toMatchObject({ status: 'skipped', reason: 'already-posted' });
    expect(f.emails).toHaveLength(2);
  });

  it('posts without the email, and warns, when recipients are set but email is not configured', async () => {
    const f = fakes();
    const { slot, lines } = run(
      { analytics: f.services.analytics, webhook: f.services.webhook },
      { emailTo: ['team@example.com'] },
    );
    expect((await slot()).status).toBe('posted');
    expect(f.posts).toHaveLength(1);
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      'ANALYTICS_SUMMARY_EMAIL_TO is set but the email service is not configured',
    ]);
  });

  it('posts a "no data" report when S2 has no rows, instead of failing', async () => {
    const f = fakes({ empty: true });
    expect((await run(f.services).slot()).status).toBe('posted');
    expect(f.posts[0]!.embeds![0]).toMatchObject({
      title: 'Analytics summary: yesterday',
      description: expect.stringMatching(/^No data for yesterday \(21 Nov 2025\)\./) as string,
      color: 0xf59e0b,
    });
  });

  it('fails the run, posts nothing and keeps the slot open when S2 fails', async () => {
    const f = fakes({
      failWith: new ServiceError({
        service: 'analytics',
        operation: 'runReport',
        code: 'upstream',
        status: 503,
      }),
    });
    const { slot, find, store } = run(f.services);
    expect((await slot()).status).toBe('failed');
    expect(f.posts).toHaveLength(0);
    expect(find('job.failed')).toEqual([expect.objectContaining({ level: 40, job: 'analytics-summary' })]);
    expect((await store.getSlot('analytics-summary', SLOT.toISOString()))?.status).toBe('failed');
  });

  it('reports the last 7 days against the 7 before when configured so', async () => {
    const f = fakes();
    await run(f.services, { range: '7d', timezone: 'Europe/Berlin' }).slot();
    expect(f.reports[0]!.dateRanges).toEqual([
      { startDate: '7daysAgo', endDate: 'yesterday', name: 'current' },
      { startDate: '14daysAgo', endDate: '8daysAgo', name: 'previous' },
    ]);
    expect(f.posts[0]!.embeds![0]!.description).toBe('**15–21 Nov 2025** compared with 8–14 Nov 2025');
  });
});

/** The one engine as main.ts puts it together, with the built-in schedules of `config`. */
function scheduling(
  config: ReturnType<typeof loadConfig>,
  services: Services,
  store: Store,
  log: ReturnType<typeof captureLog>['log'],
  now?: () => Date,
) {
  const jobs = createScheduling({
    config,
    services,
    store,
    destinations: {},
    log,
    ...(now ? { now } : {}),
  });
  running.push(jobs);
  return jobs;
}

describe('jobs/index', () => {
  it('validates every configured default schedule', () => {
    const schedules = createJobSchedules(loadConfig({}), {});
    expect(schedules.map((s) => [s.job.name, s.cron, s.timezone])).toEqual([
      ['analytics-summary', '0 8 * * *', 'UTC'],
    ]);
    expect(() => validateSchedules(schedules)).not.toThrow();
  });

  it('validates the schedule set through the environment, naming the variable when it is wrong', () => {
    // loadConfig refuses it first (test/config/config.test.ts); the scheduler still checks what it is given.
    const config = loadConfig({});
    const schedules = createJobSchedules(
      { ...config, analyticsSummary: { ...config.analyticsSummary, cron: '0 25 * * *' } },
      {},
    );
    expect(() => validateSchedules(schedules)).toThrow(
      /ANALYTICS_SUMMARY_CRON: invalid cron expression "0 25 \* \* \*"/,
    );
  });

  it('disables a job whose services are missing, saying which variables to set', () => {
    const [summary] = createJobSchedules(loadConfig({}), { webhook: fakes().services.webhook });
    expect(summary!.disabledReason).toBe(
      'not configured: set ANALYTICS_ACCESS_TOKEN and ANALYTICS_PROPERTY_ID',
    );
  });

  it('starts the built-in schedules in the one runner for main.ts and stops them again', async () => {
    const f = fakes();
    const { log, find } = captureLog();
    const config = loadConfig({
      ANALYTICS_SUMMARY_CRON: '30 7 * * 1-5',
      ANALYTICS_SUMMARY_TZ: 'Europe/Berlin',
    });
    const jobs = scheduling(config, f.services, createMemoryStore(), log);
    await jobs.start();
    expect(find('job.scheduled')).toEqual([
      expect.objectContaining({
        job: 'analytics-summary',
        cron: '30 7 * * 1-5',
        timezone: 'Europe/Berlin',
        nextRunAt: expect.any(String) as string,
      }),
    ]);
    await jobs.stop();
  });

  it('refuses to start with a bad built-in schedule, naming the variable', async () => {
    const config = loadConfig({});
    const bad = { ...config, analyticsSummary: { ...config.analyticsSummary, timezone: 'Mars/Olympus' } };
    const jobs = scheduling(bad, fakes().services, createMemoryStore(), captureLog().log);
    await expect(jobs.start()).rejects.toThrow(/ANALYTICS_SUMMARY_TZ: unknown time zone "Mars\/Olympus"/);
  });

  it('does not hold up the bot while a catch-up run is slow, and stops it at shutdown', async () => {
    const clock = fakeClock('2025-11-22T08:30:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    await store.setValue('job:analytics-summary:since', '2025-11-01T00:00:00.000Z');
    let calls = 0;
    const f = fakes();
    const stuck: Services = {
      ...f.services,
      analytics: {
        runReport: () => {
          calls++;
          return new Promise<Report>(() => undefined);
        },
        close: () => Promise.resolve(),
      },
    };
    const { log, find } = captureLog();
    const jobs = scheduling(loadConfig({}), stuck, store, log, clock.now);
    let isStarted = false;
    const starting = jobs.start().then(() => {
      isStarted = true;
    });
    // One runReport for the summary, one for the top countries; S2 never answers them, so start()
    // has resolved by now only if it does not wait for the catch-up run.
    await waitFor(() => calls === 2, 2_000, 'the catch-up run to ask S2');
    expect(isStarted).toBe(true);
    await starting;
    expect(find('job.started')).toEqual([
      expect.objectContaining({ slotId: '2025-11-22T08:00:00.000Z', reason: 'catch-up' }),
    ]);
    expect(calls).toBe(2);
    await jobs.stop();
    expect(find('job.failed')).toHaveLength(1);
    expect(f.posts).toHaveLength(0);
  });
});
