// The built-in schedules (the jobs set by environment) in the one engine, the /schedule runner:
// slot by scheduled time, one claim, the retry rule, catch-up and missed slots, the outbox at
// start and on every tick, the concurrency bound, and the one rule for time shared with /schedule.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import type { JobSchedule } from '../../src/schedule/job.ts';
import { validateSchedules } from '../../src/schedule/when.ts';
import {
  createScheduleRunner,
  MISSED_SENTENCE,
  type ScheduleRunner,
  type ScheduleRunnerOptions,
} from '../../src/schedule/runner.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
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
import { enqueue } from '../support/enqueue.ts';

let fake: WebhookFake;
const started: ScheduleRunner[] = [];

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

type Options = Partial<Omit<ScheduleRunnerOptions, 'builtIns'>> & { builtIns?: JobSchedule[] };

function scheduler(clock: FakeClock, store: Store, opts: Options = {}) {
  const captured = captureLog();
  const s = createScheduleRunner({
    builtIns: [hourly()],
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
        message: 'invalid cron expression "61 8 * * *": Invalid value for minute: 61',
      },
      {
        variable: 'OTHER_TZ',
        message: 'unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin)',
      },
    ]);
  });

  it('accepts five-field expressions in IANA zones and refuses a seconds field, as /schedule does', () => {
    expect(() => validateSchedules([hourly(reportJob(), '30 7 * * 1-5', 'Europe/Berlin')])).not.toThrow();
    expect(() => validateSchedules([hourly(reportJob(), '0 */15 * * * *', 'Asia/Kolkata')])).toThrow(
      'REPORT_CRON: "0 */15 * * * *" has a seconds field; write five fields: minute hour day month weekday',
    );
  });
});

describe('a built-in schedule in the one engine', () => {
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
      builtIns: [hourly(job)],
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
      expect.objectContaining({
        id: 'report|2025-11-22T08:00:00.000Z|0:webhook',
        delivery: expect.objectContaining({ kind: 'webhook' }) as unknown,
        outcome: 'delivered',
        receipt: expect.stringMatching(/^\d+$/) as string,
      }),
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
    const { scheduler: s, find } = scheduler(clock, store, { builtIns: [hourly(job)] });
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
      builtIns: [hourly(job)],
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
      builtIns: [hourly(job)],
    });
    const first = s.runSlot('report', new Date('2025-11-22T08:00:00Z'));
    await waitFor(() => release !== undefined, 2_000, 'the first run to start');
    const second = await s.runSlot('report', new Date('2025-11-22T08:00:00Z'), 'catch-up');
    release!();
    expect(second).toMatchObject({ status: 'skipped', reason: 'running' });
    expect((await first).status).toBe('posted');
    expect(postedContents(fake.inbox)).toEqual(['once']);
  });

  it('logs the next run time of each job at start, and why a disabled job does not run', async () => {
    const clock = fakeClock('2025-11-22T08:00:00Z');
    const disabled = {
      ...hourly(reportJob(), '0 8 * * *'),
      disabledReason: 'not configured: set WEBHOOK_URL',
    };
    disabled.job = { ...disabled.job, name: 'quiet' };
    const { scheduler: s, find } = scheduler(clock, createMemoryStore({ now: clock.nowMs }), {
      builtIns: [hourly(reportJob(), '0 8 * * *', 'Europe/Berlin'), disabled],
    });
    await s.start();
    const [scheduled] = find('job.scheduled');
    expect(scheduled).toMatchObject({ job: 'report', cron: '0 8 * * *', timezone: 'Europe/Berlin' });
    const next = new Date(scheduled!.nextRunAt as string);
    // 08:00 in Berlin is 07:00 UTC in winter: the next one is within a day, on the hour.
    expect(next.getTime() - clock.ms).toBeLessThanOrEqual(24 * 3_600_000);
    expect(next.toISOString()).toBe('2025-11-23T07:00:00.000Z');
    expect(next.getUTCMinutes()).toBe(0);
    expect(find('job.disabled')).toEqual([
      expect.objectContaining({ job: 'quiet', reason: 'not configured: set WEBHOOK_URL' }),
    ]);
    expect(fake.inbox.messages).toHaveLength(0);
  });
});

describe('catch-up and missed slots', () => {
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
    // Restarting again repeats nothing.
    const again = scheduler(clock, store);
    await again.scheduler.start();
    expect(fake.inbox.messages).toHaveLength(1);
  });

  it('records a slot older than the window as missed, once across replicas, and counts it', async () => {
    const clock = fakeClock('2025-11-21T09:00:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const daily = hourly(reportJob(), '0 8 * * *');
    await scheduler(clock, store, { builtIns: [daily] }).scheduler.start();
    clock.set('2025-11-22T15:00:00Z'); // the 08:00 slot is 7 hours old; the window is 6
    const counted: { job: string; outcome: string }[] = [];
    const onRun: Options['onRun'] = (e) => void counted.push({ job: e.job, outcome: e.outcome });
    const a = scheduler(clock, store, { builtIns: [daily], owner: 'a', onRun });
    const b = scheduler(clock, store, { builtIns: [daily], owner: 'b', onRun });
    await Promise.all([a.scheduler.start(), b.scheduler.start()]);
    expect(fake.inbox.messages).toHaveLength(0);
    expect([...a.find('job.missed'), ...b.find('job.missed')]).toEqual([
      expect.objectContaining({
        job: 'report',
        slotId: '2025-11-22T08:00:00.000Z',
        ageMinutes: 420,
        reason: 'older than the catch-up window (JOB_CATCHUP_MINUTES)',
      }),
    ]);
    expect(counted).toEqual([{ job: 'report', outcome: 'missed' }]);
    expect(await store.getSlot('report', '2025-11-22T08:00:00.000Z')).toMatchObject({
      status: 'failed',
      error: MISSED_SENTENCE,
    });
    await a.scheduler.tick();
    expect(a.find('job.missed')).toHaveLength(a.find('job.missed').length);
    expect(counted).toHaveLength(1);
  });

  it('records a missed slot of a chat schedule in its run history', async () => {
    const clock = fakeClock('2025-11-22T15:00:00Z');
    const schedules = createMemoryStore({ now: clock.nowMs });
    await schedules.addSchedule(
      chatRecord('k7p2mx', '0 8 * * *', 'UTC', Date.parse('2025-11-20T00:00:00Z')),
      50,
    );
    const { scheduler: s } = scheduler(clock, schedules, {
      builtIns: [],
      ...chatCommands(),
    });
    await s.tick();
    expect((await schedules.getSchedule('k7p2mx'))?.lastRun).toEqual({
      slotId: '2025-11-22T08:00:00.000Z',
      at: clock.ms,
      outcome: 'missed',
      error: MISSED_SENTENCE,
    });
  });

  it('does not run slots from before the very first start', async () => {
    const clock = fakeClock('2025-11-22T08:20:00Z');
    const { scheduler: s, find } = scheduler(clock, createMemoryStore({ now: clock.nowMs }));
    await s.start();
    expect(fake.inbox.messages).toHaveLength(0);
    expect(find('job.missed')).toHaveLength(0);
  });

  it('retries the outbox at start, even an entry still waiting out its backoff', async () => {
    const clock = fakeClock('2025-11-22T07:30:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    await enqueue(store, {
      id: 'report|2025-11-22T07:00:00.000Z|0:webhook',
      job: 'report',
      slotId: '2025-11-22T07:00:00.000Z',
      kind: 'webhook',
      payload: { kind: 'webhook', message: { content: 'left over from before the restart' } },
    });
    const [entry] = await store.claimDueOutbox('dead-process', 1, 1);
    await store.updateHeld([entry!.id], 'dead-process', {
      retryAt: clock.ms + 3_600_000,
      error: 'webhook.post failed: upstream (HTTP 502)',
    });
    const { scheduler: s, find } = scheduler(clock, store);
    await s.start();
    expect(postedContents(fake.inbox)).toEqual(['left over from before the restart']);
    expect(find('outbox.delivered')).toEqual([
      expect.objectContaining({ job: 'report', kind: 'webhook', attempts: 2 }),
    ]);
  });
});

describe('one retry rule, one bound', () => {
  it('retries a failed built-in slot within its slot, then records it as failed, as for /schedule', async () => {
    const clock = fakeClock('2025-11-22T08:00:01Z');
    const store = createMemoryStore({ now: clock.nowMs });
    let calls = 0;
    const job = reportJob(() => {
      calls++;
      return Promise.reject(new Error('S2 answered nonsense'));
    });
    const { scheduler: s } = scheduler(clock, store, { builtIns: [hourly(job)], retryDelayMs: 60_000 });
    await store.setValue('job:report:since', '2025-11-01T00:00:00.000Z');
    for (let minute = 0; minute < 6; minute++) {
      await s.tick();
      clock.advance(60_000);
    }
    expect(calls).toBe(3);
    expect(await store.getSlot('report', '2025-11-22T08:00:00.000Z')).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: 'S2 answered nonsense',
    });
  });

  it('runs due slots concurrently, never more than SCHEDULE_CONCURRENCY at once', async () => {
    const clock = fakeClock('2025-11-22T08:00:01Z');
    const store = createMemoryStore({ now: clock.nowMs });
    let running = 0;
    let most = 0;
    const builtIns = Array.from({ length: 10 }, (_, i) =>
      hourly({
        ...reportJob(async (ctx) => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 20));
          running--;
          ctx.deliver({ kind: 'webhook', message: { content: `report ${i}` } });
        }),
        name: `report-${i}`,
      }),
    );
    for (const b of builtIns) await store.setValue(`job:${b.job.name}:since`, '2025-11-01T00:00:00.000Z');
    const { scheduler: s } = scheduler(clock, store, { builtIns, concurrency: 3 });
    const outcomes = await s.tick();
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 10 }, () => 'posted'));
    expect(most).toBe(3);
    expect(fake.inbox.messages).toHaveLength(10);
  });
});

describe('resilience', () => {
  it('retries the outbox on every tick while running, not only at start', async () => {
    const clock = fakeClock('2025-11-22T07:30:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const { scheduler: s } = scheduler(clock, store);
    await s.start();
    await enqueue(store, {
      id: 'late',
      job: 'report',
      slotId: 'x',
      kind: 'webhook',
      payload: { kind: 'webhook', message: { content: 'handed over after start' } },
    });
    await s.tick();
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

/** A chat schedule's record as /schedule add stores it. */
function chatRecord(id: string, cron: string, timezone: string, createdAt: number): ScheduleRecord {
  return {
    id,
    when: cron,
    cron,
    words: cron,
    timezone,
    destination: 'default',
    command: '/say hello',
    creator: { platform: 'discord', id: '80351110224678912', displayName: 'Ana', roles: [] },
    paused: false,
    createdAt,
  };
}

/** Commands for chat schedules: every line answers with its own text. */
function chatCommands(): Pick<ScheduleRunnerOptions, 'commands' | 'toMessage'> {
  return {
    commands: () => ({ run: (line) => Promise.resolve({ text: line }) }),
    toMessage: (reply) => ({ content: 'text' in reply ? String(reply.text) : 'reply' }),
  };
}

describe('one rule for time: built-in and chat schedules agree', () => {
  const cases = [
    // Spring forward: 02:00-03:00 does not exist; every time in it runs once at 03:00.
    { tz: 'Europe/Berlin', cron: '30 2 * * *', ticks: ['2026-03-29T01:00:30Z', '2026-03-29T01:30:30Z'] },
    { tz: 'America/New_York', cron: '30 2 * * *', ticks: ['2026-03-08T07:00:30Z', '2026-03-08T07:30:30Z'] },
    // Fall back: 01:00-02:00 (New York) and 02:00-03:00 (Berlin) happen twice; one run.
    { tz: 'Europe/Berlin', cron: '30 2 * * *', ticks: ['2026-10-25T00:30:30Z', '2026-10-25T01:30:30Z'] },
    { tz: 'America/New_York', cron: '30 1 * * *', ticks: ['2026-11-01T05:30:30Z', '2026-11-01T06:30:30Z'] },
  ];
  it.each(cases)('$cron in $tz around $ticks.0', async ({ tz, cron, ticks }) => {
    const clock = fakeClock(ticks[0]!);
    const store = createMemoryStore({ now: clock.nowMs });
    await store.addSchedule(chatRecord('k7p2mx', cron, tz, Date.parse('2026-01-01T00:00:00Z')), 50);
    await store.setValue('job:report:since', '2026-01-01T00:00:00.000Z');
    const { scheduler: s } = scheduler(clock, store, {
      builtIns: [hourly(reportJob(), cron, tz)],
      ...chatCommands(),
    });
    const slots: Record<string, string[]> = {};
    for (const at of ticks) {
      clock.set(at);
      for (const o of await s.tick()) (slots[o.job] ??= []).push(o.slotId);
    }
    expect(slots.report).toHaveLength(1);
    expect(slots['schedule-k7p2mx']).toEqual(slots.report);
  });
});

describe('a watch runs one slot at a time', () => {
  it('two /schedule run of one watch at once, on one replica or two, run it once', async () => {
    const clock = fakeClock('2025-11-22T07:30:00Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const watch = { ...chatRecord('w4tchx', '0 8 * * *', 'UTC', clock.ms), onlyNew: true };
    await store.addSchedule(watch, 50);
    let calls = 0;
    let release: (() => void) | undefined;
    const commands = () => ({
      run: async (line: string) => {
        calls++;
        await new Promise<void>((r) => (release = r));
        return { text: line };
      },
    });
    const opts = { builtIns: [], ...chatCommands(), commands };
    const a = scheduler(clock, store, { ...opts, owner: 'a' }).scheduler;
    const b = scheduler(clock, store, { ...opts, owner: 'b' }).scheduler;
    const first = a.runNow(watch);
    await waitFor(() => release !== undefined, 2_000, 'the first run to start');
    const [sameReplica, otherReplica] = await Promise.all([a.runNow(watch), b.runNow(watch)]);
    expect(sameReplica).toEqual({ outcome: 'skipped', error: 'it is running already' });
    expect(otherReplica).toEqual({ outcome: 'skipped', error: 'it is running already' });
    release!();
    await first;
    expect(calls).toBe(1);
    // Once it is done, the next run may go.
    release = undefined;
    clock.advance(1_000);
    const next = b.runNow(watch);
    await waitFor(() => release !== undefined, 2_000, 'the next run to start');
    release!();
    await next;
    expect(calls).toBe(2);
  });
});

describe('head-of-line blocking', () => {
  it('a destination that hangs costs only its own posts: the healthy schedules post on time', async () => {
    const clock = fakeClock('2025-11-22T08:00:01Z');
    const store = createMemoryStore({ now: clock.nowMs });
    const waiting: (() => void)[] = [];
    let answered = 0;
    const inFlightWhenSent: number[] = [];
    const hanging = {
      post: () => {
        inFlightWhenSent.push(waiting.length - answered + 1);
        return new Promise<{ id: string }>((resolve) =>
          waiting.push(() => {
            answered++;
            resolve({ id: '1575644545423507458' });
          }),
        );
      },
      close: () => Promise.resolve(),
    };
    const toOps = (i: number) =>
      hourly({
        ...reportJob((ctx) => {
          ctx.deliver({ kind: 'webhook', destination: 'ops', message: { content: `ops ${i}` } });
          return Promise.resolve();
        }),
        name: `ops-${i}`,
      });
    const healthy = hourly({ ...reportJob(), name: 'healthy' });
    const builtIns = [toOps(1), toOps(2), toOps(3), healthy];
    for (const b of builtIns) await store.setValue(`job:${b.job.name}:since`, '2025-11-01T00:00:00.000Z');
    const { scheduler: s } = scheduler(clock, store, { builtIns, destinations: { ops: hanging } });
    const ticking = s.tick();
    await waitFor(() => fake.inbox.messages.length === 1, 2_000, 'the healthy post');
    expect(postedContents(fake.inbox)).toEqual(['report for 2025-11-22T08:00:00.000Z']);
    // The slots to the hanging destination wait their turn: one post in flight there at a time.
    for (let n = 1; n <= 3; n++) {
      await waitFor(() => waiting.length === n, 2_000, `post ${n} to ops`);
      waiting[n - 1]!();
    }
    expect((await ticking).map((o) => o.status)).toEqual(['posted', 'posted', 'posted', 'posted']);
    expect(inFlightWhenSent).toEqual([1, 1, 1]);
  });
});
