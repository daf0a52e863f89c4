import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import {
  createScheduler,
  validateSchedules,
  type Scheduler,
  type SchedulerOptions,
} from '../../src/core/scheduler.ts';
import { createTask } from 'node-cron';
import { fireTimesBetween } from '../../src/core/catch-up.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import {
  FAST_DELIVERY,
  captureLog,
  fakeClock,
  hourly,
  postedContents,
  reportJob,
  startWebhookFake,
  waitFor,
  type FakeClock,
  type WebhookFake,
} from '../jobs/harness.ts';

let fake: WebhookFake;
const started: Scheduler[] = [];

beforeAll(async () => {
  fake = await startWebhookFake();
});
afterAll(() => fake.close());
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
  fake.inbox.clear();
  fake.server.resetHandlers();
  fake.server.requests.length = 0;
});

function scheduler(clock: FakeClock, store: Store, opts: Partial<SchedulerOptions> = {}) {
  const captured = captureLog();
  const s = createScheduler({
    schedules: [hourly()],
    services: { webhook: fake.client() },
    store,
    log: captured.log,
    now: clock.now,
    catchupMinutes: 360,
    delivery: FAST_DELIVERY,
    ...opts,
  });
  started.push(s);
  return { scheduler: s, ...captured };
}

describe('validateSchedules', () => {
  it('names the variable of every bad cron expression and unknown time zone at once', () => {
    let error: unknown;
    try {
      validateSchedules([
        {
          ...hourly(reportJob(), '61 8 * * *'),
          variables: { cron: 'ANALYTICS_SUMMARY_CRON', timezone: 'ANALYTICS_SUMMARY_TZ' },
        },
        {
          ...hourly(reportJob(), '0 8 * * *', 'Mars/Olympus'),
          variables: { cron: 'OTHER_CRON', timezone: 'OTHER_TZ' },
        },
      ]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      {
        variable: 'ANALYTICS_SUMMARY_CRON',
        message: 'invalid cron expression "61 8 * * *": 61 is a invalid expression for minute',
      },
      {
        variable: 'OTHER_TZ',
        message: 'unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin)',
      },
    ]);
  });

  it('accepts five- and six-field expressions in IANA zones', () => {
    expect(() =>
      validateSchedules([
        hourly(reportJob(), '30 7 * * 1-5', 'Europe/Berlin'),
        hourly(reportJob(), '0 */15 * * * *', 'Asia/Kolkata'),
      ]),
    ).not.toThrow();
  });
});

describe('createScheduler', () => {
  it('runs a slot once, naming it by its scheduled time rather than the clock', async () => {
    const clock = fakeClock('2025-11-22T08:04:59.000Z');
    const seen: { id: string; scheduledAt: string; now: string }[] = [];
    const job = reportJob((ctx) => {
      seen.push({
        id: ctx.slot.id,
        scheduledAt: ctx.slot.scheduledAt.toISOString(),
        now: ctx.now().toISOString(),
      });
      ctx.deliver({ kind: 'webhook', message: { content: `report for ${ctx.slot.id}` } });
      return Promise.resolve();
    });
    const { scheduler: s, find } = scheduler(clock, createMemoryStore({ now: clock.nowMs }), {
      schedules: [hourly(job)],
    });
    const first = await s.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    const again = await s.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    expect(seen).toEqual([
      {
        id: '2025-11-22T08:00:00.000Z',
        scheduledAt: '2025-11-22T08:00:00.000Z',
        now: '2025-11-22T08:04:59.000Z',
      },
    ]);
    expect(first).toMatchObject({ status: 'posted', slotId: '2025-11-22T08:00:00.000Z' });
    expect(first.deliveries).toEqual([
      {
        id: 'report|2025-11-22T08:00:00.000Z|0:webhook',
        kind: 'webhook',
        outcome: 'delivered',
        receipt: expect.stringMatching(/^\d+$/),
      },
    ]);
    expect(again).toMatchObject({ status: 'skipped', reason: 'already-posted' });
    expect(postedContents(fake.inbox)).toEqual(['report for 2025-11-22T08:00:00.000Z']);
    expect(find('job.started')).toEqual([
      expect.objectContaining({ job: 'report', slotId: '2025-11-22T08:00:00.000Z', reason: 'scheduled' }),
    ]);
    const [finished] = find('job.finished');
    expect(finished).toMatchObject({ job: 'report', delivered: 1, pending: 0, givenUp: 0 });
    expect(finished!.durationMs).toEqual(expect.any(Number));
  });

  it('keeps the claim after posting, so a replica lagging behind finds the slot already posted', async () => {
    const clock = fakeClock('2025-11-22T08:00:01Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const a = scheduler(clock, store, { owner: 'replica-a' }).scheduler;
    const b = scheduler(clock, store, { owner: 'replica-b' }).scheduler;
    await a.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    clock.advance(60 * 60_000);
    expect(await store.getSlot('report', '2025-11-22T08:00:00.000Z')).toMatchObject({
      status: 'posted',
      owner: 'replica-a',
    });
    expect(await b.runSlot('report', new Date('2025-11-22T08:00:00Z'))).toMatchObject({
      status: 'skipped',
      reason: 'already-posted',
    });
    expect(fake.inbox.messages).toHaveLength(1);
  });

  it('logs a failed job with its duration, never throws, and lets the slot run again', async () => {
    const clock = fakeClock('2025-11-22T08:00:01Z');
    let calls = 0;
    const job = reportJob((ctx) => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('S2 answered nonsense'));
      ctx.deliver({ kind: 'webhook', message: { content: 'second try' } });
      return Promise.resolve();
    });
    const store = createMemoryStore({ now: clock.nowMs });
    const { scheduler: s, find } = scheduler(clock, store, { schedules: [hourly(job)] });
    const failed = await s.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    expect(failed.status).toBe('failed');
    const [line] = find('job.failed');
    expect(line).toMatchObject({ level: 50, job: 'report', slotId: '2025-11-22T08:00:00.000Z' });
    expect(line!.durationMs).toEqual(expect.any(Number));
    expect(await store.getSlot('report', '2025-11-22T08:00:00.000Z')).toMatchObject({
      status: 'failed',
      error: 'S2 answered nonsense',
    });
    expect((await s.runSlot('report', new Date('2025-11-22T08:00:00Z'))).status).toBe('posted');
    expect(postedContents(fake.inbox)).toEqual(['second try']);
  });

  it('fails a run that outlives its time limit instead of hanging', async () => {
    const clock = fakeClock('2025-11-22T08:00:01Z');
    const job = reportJob(() => new Promise(() => undefined));
    const { scheduler: s, find } = scheduler(clock, createMemoryStore({ now: clock.nowMs }), {
      schedules: [hourly(job)],
      jobTimeoutMs: 50,
    });
    const outcome = await s.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    expect(outcome.status).toBe('failed');
    expect(String(outcome.error)).toContain('report did not finish within 50 ms');
    expect(find('job.failed')).toHaveLength(1);
  });

  it('runs a slot once even when its fire and a catch-up ask for it at the same moment', async () => {
    const clock = fakeClock('2025-11-22T08:00:00Z');
    let release: (() => void) | undefined;
    const job = reportJob(async (ctx) => {
      await new Promise<void>((r) => (release = r));
      ctx.deliver({ kind: 'webhook', message: { content: 'once' } });
    });
    const { scheduler: s } = scheduler(clock, createMemoryStore({ now: clock.nowMs }), {
      schedules: [hourly(job)],
    });
    const first = s.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    await waitFor(() => release !== undefined, 2_000, 'the first run to start');
    const second = await s.runSlot('report', new Date('2025-11-22T08:00:00Z'), 'catch-up');
    release!();
    expect(second).toMatchObject({ status: 'skipped', reason: 'running' });
    expect((await first).status).toBe('posted');
    expect(postedContents(fake.inbox)).toEqual(['once']);
  });

  it('refuses to start with a bad schedule, naming the variable', async () => {
    const clock = fakeClock('2025-11-22T08:00:00Z');
    const { scheduler: s } = scheduler(clock, createMemoryStore({ now: clock.nowMs }), {
      schedules: [hourly(reportJob(), 'every morning')],
    });
    await expect(s.start()).rejects.toThrow(/REPORT_CRON: invalid cron expression "every morning"/);
  });

  it('logs the next run time of each job at start, and why a disabled job does not run', async () => {
    const clock = fakeClock('2025-11-22T08:00:00Z');
    const disabled = {
      ...hourly(reportJob(), '0 8 * * *'),
      disabledReason: 'not configured: set WEBHOOK_URL',
    };
    disabled.job = { ...disabled.job, name: 'quiet' };
    const { scheduler: s, find } = scheduler(clock, createMemoryStore({ now: clock.nowMs }), {
      schedules: [hourly(reportJob(), '0 8 * * *', 'Europe/Berlin'), disabled],
    });
    await s.start();
    const [scheduled] = find('job.scheduled');
    expect(scheduled).toMatchObject({ job: 'report', cron: '0 8 * * *', timezone: 'Europe/Berlin' });
    const next = new Date(scheduled!.nextRunAt as string);
    // 08:00 in Berlin is 07:00 UTC in winter: the next one is within a day, on the hour.
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect(next.getUTCMinutes()).toBe(0);
    expect(s.nextRun('report')?.toISOString()).toBe(next.toISOString());
    expect(find('job.disabled')).toEqual([
      expect.objectContaining({ job: 'quiet', reason: 'not configured: set WEBHOOK_URL' }),
    ]);
    expect(s.nextRun('quiet')).toBeUndefined();
  });
});

describe('catch-up at start', () => {
  it('runs the latest slot missed while down when it is younger than the window, once', async () => {
    const clock = fakeClock('2025-11-22T05:30:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const before = scheduler(clock, store).scheduler;
    await before.start();
    await before.stop();
    clock.set('2025-11-22T08:20:00Z'); // down through 06:00, 07:00 and 08:00
    const after = scheduler(clock, store);
    await after.scheduler.start();
    expect(postedContents(fake.inbox)).toEqual(['report for 2025-11-22T08:00:00.000Z']);
    expect(after.find('job.started')).toEqual([expect.objectContaining({ reason: 'catch-up' })]);
    expect(after.find('job.missed').map((l) => [l.slotId, l.reason])).toEqual([
      ['2025-11-22T06:00:00.000Z', 'a later slot supersedes it'],
      ['2025-11-22T07:00:00.000Z', 'a later slot supersedes it'],
    ]);
    // Restarting again repeats nothing.
    const again = scheduler(clock, store);
    await again.scheduler.start();
    expect(fake.inbox.messages).toHaveLength(1);
    expect(again.find('job.missed')).toHaveLength(2);
  });

  it('only logs a missed slot that is older than the window', async () => {
    const clock = fakeClock('2025-11-21T09:00:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const daily = hourly(reportJob(), '0 8 * * *');
    await scheduler(clock, store, { schedules: [daily] }).scheduler.start();
    clock.set('2025-11-22T15:00:00Z'); // the 08:00 slot is 7 hours old; the window is 6
    const after = scheduler(clock, store, { schedules: [daily] });
    await after.scheduler.start();
    expect(fake.inbox.messages).toHaveLength(0);
    expect(after.find('job.missed')).toEqual([
      expect.objectContaining({
        job: 'report',
        slotId: '2025-11-22T08:00:00.000Z',
        ageMinutes: 420,
        reason: 'older than the catch-up window (JOB_CATCHUP_MINUTES)',
      }),
    ]);
  });

  it('does not run slots from before the very first start', async () => {
    const clock = fakeClock('2025-11-22T08:20:00Z');
    const { scheduler: s, find } = scheduler(clock, createMemoryStore({ now: clock.nowMs }));
    await s.start();
    expect(fake.inbox.messages).toHaveLength(0);
    expect(find('job.missed')).toHaveLength(0);
  });

  it('retries the outbox at start, even an entry still waiting out its backoff', async () => {
    const clock = fakeClock('2025-11-22T08:00:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    await store.addToOutbox({
      id: 'report|2025-11-22T07:00:00.000Z|0:webhook',
      job: 'report',
      slotId: '2025-11-22T07:00:00.000Z',
      kind: 'webhook',
      payload: { kind: 'webhook', message: { content: 'left over from before the restart' } },
    });
    const [entry] = await store.claimDueOutbox('dead-process', 1, 1);
    await store.rescheduleOutbox(
      entry!.id,
      'dead-process',
      clock.ms + 3_600_000,
      'webhook.post failed: upstream (HTTP 502)',
    );
    const { scheduler: s, find } = scheduler(clock, store);
    await s.start();
    expect(postedContents(fake.inbox)).toEqual(['left over from before the restart']);
    expect(find('outbox.delivered')).toEqual([
      expect.objectContaining({ job: 'report', kind: 'webhook', attempts: 2 }),
    ]);
  });
});

describe('resilience', () => {
  it('retries the outbox on every tick while running, not only at start', async () => {
    const clock = fakeClock('2025-11-22T08:00:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const { scheduler: s } = scheduler(clock, store, { outboxIntervalMs: 30 });
    await s.start();
    await store.addToOutbox({
      id: 'late',
      job: 'report',
      slotId: 'x',
      kind: 'webhook',
      payload: { kind: 'webhook', message: { content: 'handed over after start' } },
    });
    await waitFor(() => fake.inbox.messages.length === 1, 2_000, 'the tick to deliver');
    expect(postedContents(fake.inbox)).toEqual(['handed over after start']);
  });

  it('logs job.failed instead of throwing when the store itself fails', async () => {
    const clock = fakeClock('2025-11-22T08:00:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const broken: Store = {
      ...store,
      claimSlot: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
    };
    const { scheduler: s, find } = scheduler(clock, broken);
    const outcome = await s.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    expect(outcome.status).toBe('failed');
    expect(find('job.failed')).toEqual([expect.objectContaining({ level: 50, job: 'report' })]);
    expect(fake.inbox.messages).toHaveLength(0);
  });
});

describe('missed slots from the previous fire times', () => {
  const match = (cron: string, tz: string) => {
    const probe = createTask(cron, () => undefined, { timezone: tz });
    return { match: (at: Date) => probe.match(at), done: () => probe.destroy() };
  };

  it('lists the fire times in (from, to], oldest first, to the second for six-field expressions', async () => {
    const m = match('*/20 * * * * *', 'UTC');
    const { slots, more } = fireTimesBetween(
      '*/20 * * * * *',
      'UTC',
      { from: Date.parse('2025-11-22T08:00:00Z'), to: Date.parse('2025-11-22T08:01:00Z'), max: 50 },
      m.match,
    );
    await m.done();
    expect(slots.map((d) => d.toISOString())).toEqual([
      '2025-11-22T08:00:20.000Z',
      '2025-11-22T08:00:40.000Z',
      '2025-11-22T08:01:00.000Z',
    ]);
    expect(more).toBe(false);
  });

  it('keeps the latest `max` of an every-second schedule over a week, and says older ones exist', async () => {
    const m = match('* * * * * *', 'UTC');
    const to = Date.parse('2025-11-22T08:00:00Z');
    const { slots, more } = fireTimesBetween(
      '* * * * * *',
      'UTC',
      { from: to - 7 * 24 * 3_600_000, to, max: 50 },
      m.match,
    );
    await m.done();
    expect(slots).toHaveLength(50);
    expect(slots.at(-1)!.toISOString()).toBe('2025-11-22T08:00:00.000Z');
    expect(slots[0]!.toISOString()).toBe('2025-11-22T07:59:11.000Z');
    expect(more).toBe(true);
  });

  it('agrees with node-cron across a daylight-saving gap and on day-of-month AND day-of-week', async () => {
    const gap = match('30 2 * * *', 'Europe/Berlin');
    const { slots } = fireTimesBetween(
      '30 2 * * *',
      'Europe/Berlin',
      { from: Date.parse('2025-03-29T00:00:00Z'), to: Date.parse('2025-03-31T12:00:00Z'), max: 50 },
      gap.match,
    );
    await gap.done();
    // 30 March has no 02:30 in Berlin: node-cron does not fire, so there is no slot to catch up.
    expect(slots.map((d) => d.toISOString())).toEqual([
      '2025-03-29T01:30:00.000Z',
      '2025-03-31T00:30:00.000Z',
    ]);
    const both = match('0 9 13 * 5', 'UTC');
    const fridays13 = fireTimesBetween(
      '0 9 13 * 5',
      'UTC',
      { from: Date.parse('2025-01-01T00:00:00Z'), to: Date.parse('2025-12-31T00:00:00Z'), max: 50 },
      both.match,
    );
    await both.done();
    expect(fridays13.slots.map((d) => d.toISOString())).toEqual(['2025-06-13T09:00:00.000Z']);
  });
});

describe('node-cron wiring', () => {
  it('fires on schedule and claims each slot once per fire, one of three replicas posting it', async () => {
    const inner = createMemoryStore();
    const claims = new Map<string, number>();
    const store: Store = {
      ...inner,
      claimSlot(job, slotId, owner, leaseMs) {
        claims.set(`${owner}|${slotId}`, (claims.get(`${owner}|${slotId}`) ?? 0) + 1);
        return inner.claimSlot(job, slotId, owner, leaseMs);
      },
    };
    const everySecond = hourly(reportJob(), '* * * * * *');
    const replicas = ['a', 'b', 'c'].map(
      (owner) =>
        scheduler(
          { ms: 0, now: () => new Date(), nowMs: Date.now, set: () => undefined, advance: () => undefined },
          store,
          {
            owner,
            schedules: [everySecond],
          },
        ).scheduler,
    );
    await Promise.all(replicas.map((r) => r.start()));
    await waitFor(() => fake.inbox.messages.length >= 2, 5_000, 'two fires');
    await Promise.all(replicas.map((r) => r.stop()));
    const contents = postedContents(fake.inbox);
    expect(new Set(contents).size).toBe(contents.length);
    expect(claims.size).toBeGreaterThanOrEqual(2);
    expect([...claims.values()].every((n) => n === 1)).toBe(true);
    for (const c of contents) expect(c).toMatch(/^report for \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
  });
});
