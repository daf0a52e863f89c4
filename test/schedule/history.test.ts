// Runs you can see: /schedule history, the truthful last run in /schedule list (a post delivered
// later by the outbox is "posted"), a destination that answers 404 pauses its schedule, three
// failed slots in a row are told once through the schedule's own destination, and the metrics.
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScheduleRun } from '../../src/schedule/schedules.ts';
import { createScheduleRunner, type ScheduleRunner } from '../../src/schedule/runner.ts';
import { createMetrics } from '../../src/metrics.ts';
import { renderDiscordWebhook } from '../../src/render/discord.ts';
import { route, SANDBOX_PREFIXES } from '../../src/sandbox/layout.ts';
import { SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { MANAGER, OPS_WEBHOOK_ID, startWorld, withSchedulesOf, type World } from './world.ts';

let nowMs = 0;
const now = () => new Date(nowMs);
const at = (iso: string) => {
  nowMs = Date.parse(iso);
};

interface Logged {
  level: string;
  fields: Record<string, unknown>;
  msg: string;
}

describe('/schedule history and what a run records', () => {
  let world: World;
  let store: Store;
  let runner: ScheduleRunner;
  let logged: Logged[];
  let recorded: { schedule: string; run: ScheduleRun }[];
  beforeEach(async () => {
    at('2026-03-27T12:00:10Z');
    world = await startWorld({ now, settings: { minIntervalMinutes: 1 } });
    store = createMemoryStore({ now: () => nowMs });
    logged = [];
    recorded = [];
    runner = createScheduleRunner(runnerOptions());
  });
  const runnerOptions = (): Parameters<typeof createScheduleRunner>[0] => {
    const log = Object.fromEntries(
      ['debug', 'info', 'warn', 'error'].map((level) => [
        level,
        (fields: Record<string, unknown>, msg: string) => void logged.push({ level, fields, msg }),
      ]),
    ) as unknown as Parameters<typeof createScheduleRunner>[0]['log'];
    const ops = createWebhookClient({
      baseUrl: world.server.url + SANDBOX_PREFIXES.webhook,
      id: OPS_WEBHOOK_ID,
      token: SANDBOX_CREDENTIAL,
    });
    return {
      store: withSchedulesOf(world.store, store),
      services: world.services,
      destinations: { ops },
      commands: () => world.dispatcher,
      toMessage: (reply) => renderDiscordWebhook(reply, { username: 'herald' }),
      log,
      now,
      owner: 'only',
      catchupMinutes: 60,
      retryDelayMs: 30_000,
      delivery: { backoffMs: 1, retryBaseMs: 1_000, triesPerDrain: 1 },
      onRecord: (schedule, run) => void recorded.push({ schedule, run }),
    };
  };
  afterEach(() => world.close());

  const failWeather = () =>
    world.server.use(
      http.get(route('weather', '/weather'), () =>
        HttpResponse.json({ cod: 401, message: 'Invalid API key.' }, { status: 401 }),
      ),
    );

  it('shows each run with its slot, outcome, duration and the posted message', async () => {
    await world.type('/schedule add "every minute" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    for (const time of ['12:01:00', '12:02:00']) {
      at(`2026-03-27T${time}.300Z`);
      expect((await runner.tick()).map((x) => x.status)).toEqual(['posted']);
    }
    const [second, first] = world.inbox.messages.slice(-2).reverse();
    const reply = await world.type(`/schedule history ${record!.id}`);
    expect(reply.text).toBe(
      `Schedule ${record!.id}, /weather Oslo → default: the last 2 runs, newest first.`,
    );
    const lines = reply.embeds![0]!.fields!.map((f) => `${f.name}: ${f.value}`);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^slot Fri, 27 Mar 2026, 12:02 UTC · \\d+\\.\\d s: posted Fri, 27 Mar 2026, 12:02 UTC \\(message ${second!.id} in channel \\d+\\)$`,
      ),
    );
    expect(lines[1]).toContain(`message ${first!.id}`);
    expect(await world.type('/schedule history nosuch')).toMatchObject({
      text: 'There is no schedule "nosuch"; /schedule list shows them all.',
    });
  });

  it('a post the outbox delivers later turns the run from pending into posted', async () => {
    await world.type('/schedule add "every minute" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    let outage = true;
    world.server.use(
      http.post(route('webhook', '/:id/:token'), () =>
        outage ? HttpResponse.json({ message: 'upstream' }, { status: 503 }) : undefined,
      ),
    );
    at('2026-03-27T12:01:00.300Z');
    await runner.tick();
    let list = await world.type('/schedule list');
    expect(list.embeds![0]!.fields![0]!.value).toMatch(
      /^Last: pending since Fri, 27 Mar 2026, 12:01 UTC: Not delivered yet \(webhook\.post failed: upstream \(HTTP 503\)\); the outbox retries it\.$/m,
    );
    outage = false;
    at('2026-03-27T12:01:30.000Z');
    await runner.drainOutbox({ includeBackingOff: true });
    list = await world.type('/schedule list');
    const last = list.embeds![0]!.fields![0]!.value.split('\n').find((l) => l.startsWith('Last:'));
    expect(last).toMatch(/^Last: posted Fri, 27 Mar 2026, 12:0\d UTC \(message \d+ in channel \d+\)$/);
    expect(last).not.toMatch(/outbox|twice/);
    const runs = await world.store.history(record!.id);
    expect(runs.filter((r) => r.slotId === '2026-03-27T12:01:00.000Z')).toHaveLength(1);
  });

  it('a destination answering 404 (deleted webhook) pauses the schedule and says so', async () => {
    await world.type('/schedule add "every minute" to:ops /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    world.server.use(
      http.post(route('webhook', '/:id/:token'), () =>
        HttpResponse.json({ message: 'Unknown Webhook', code: 10015 }, { status: 404 }),
      ),
    );
    at('2026-03-27T12:01:00.300Z');
    await runner.tick();
    const after = await world.store.getSchedule(record!.id);
    expect(after?.paused).toBe(true);
    expect(after?.lastRun).toMatchObject({ outcome: 'failed', paused: true });
    // Discord's 10015 is a refusal: its own sentence says what happened, then what to do.
    const sentence = `herald cannot post to the webhook: Discord says the webhook was deleted or its token reset. So schedule ${record!.id} (/weather Oslo) is paused; once that is fixed, /schedule resume ${record!.id}.`;
    expect(after?.lastRun?.error).toBe(sentence);
    const list = await world.type('/schedule list');
    expect(list.embeds![0]!.fields![0]!.name).toContain('(paused)');
    expect(list.embeds![0]!.fields![0]!.value).toContain(sentence);
    expect(logged.some((l) => l.msg === 'schedule.paused_destination_gone' && l.fields.status === 404)).toBe(
      true,
    );
    // Paused: the next minute does not run.
    at('2026-03-27T12:02:00.300Z');
    expect(await runner.tick()).toEqual([]);
  });

  it('three failed slots in a row are told once, through the schedule’s destination', async () => {
    await world.type('/schedule add "every 5 minutes" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    failWeather();
    // Each slot: three attempts a minute apart (retryDelayMs 30 s), then failed for good.
    for (const slot of ['12:05', '12:10', '12:15', '12:20']) {
      for (const minute of [0, 1, 2]) {
        const [h, m] = slot.split(':').map(Number) as [number, number];
        at(`2026-03-27T${String(h).padStart(2, '0')}:${String(m + minute).padStart(2, '0')}:00.300Z`);
        await runner.tick();
      }
    }
    const notices = world.inbox.messages.filter((m) => m.content?.includes('failed 3 times in a row'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toMatch(
      new RegExp(
        `^Schedule ${record!.id} \\(/weather Oslo → default\\) failed 3 times in a row, last: .+\\.`,
      ),
    );
    const runs = await world.store.history(record!.id);
    expect(runs.map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(logged.filter((l) => l.level === 'error' && l.msg.includes('3 times in a row'))).toHaveLength(1);
  });

  it('logs at most 100 characters of the command line it tells about; the notice holds it whole', async () => {
    const line = `/weather ${'Llanfairpwllgwyngyll'.repeat(5)}`;
    await world.type(`/schedule add "every 5 minutes" ${line}`, MANAGER);
    failWeather();
    for (const slot of [5, 10, 15]) {
      for (const minute of [0, 1, 2]) {
        at(`2026-03-27T12:${String(slot + minute).padStart(2, '0')}:00.300Z`);
        await runner.tick();
      }
    }
    const notices = world.inbox.messages.filter((m) => m.content?.includes('failed 3 times in a row'));
    expect(notices.map((m) => m.content)).toEqual([expect.stringContaining(`(${line} → default)`)]);
    const [told] = logged.filter((l) => l.msg.includes('3 times in a row'));
    expect(told?.msg).toContain(`(${line.slice(0, 99)}… → default)`);
    expect(told?.msg).not.toContain(line);
  });

  it('a failed attempt that will be retried is pending with its next try', async () => {
    await world.type('/schedule add "every 5 minutes" /weather Oslo', MANAGER);
    failWeather();
    at('2026-03-27T12:05:00.300Z');
    await runner.tick();
    const history = await world.type(`/schedule history ${(await world.store.listSchedules())[0]!.id}`);
    const [field] = history.embeds![0]!.fields!;
    expect(`${field!.name}: ${field!.value}`).toMatch(
      /^slot Fri, 27 Mar 2026, 12:05 UTC · \d+\.\d s: pending since Fri, 27 Mar 2026, 12:05 UTC: .+\. Next try Fri, 27 Mar 2026, 12:05 UTC\.$/,
    );
  });

  it('counts runs by outcome, and keeps the last success time per built-in job, never per chat schedule', async () => {
    await world.type('/schedule add "every minute" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    const metrics = createMetrics({ defaultMetrics: false });
    at('2026-03-27T12:01:00.300Z');
    await runner.tick();
    for (const { schedule, run } of recorded) metrics.scheduleRun(schedule, run, 'chat');
    const text = await metrics.registry.metrics();
    expect(text).toContain('herald_schedule_runs_total{outcome="posted"} 1');
    // A chat schedule has no series of its own: its id is never a label.
    expect(text).not.toContain(record!.id);
    // A built-in job (a fixed list) keeps its last success time under its name.
    metrics.scheduleRun('analytics-summary', recorded[0]!.run, 'built-in');
    expect(await metrics.registry.metrics()).toContain(
      `herald_schedule_last_success_timestamp_seconds{schedule="analytics-summary"} ${Date.parse('2026-03-27T12:01:00.300Z') / 1000}`,
    );
  });

  it('keeps the metrics bounded: 150 add, run and remove cycles leave the series of one', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const wired = createScheduleRunner({
      ...runnerOptions(),
      onRun: (e) => metrics.job(e),
      onRecord: (schedule, run, from) => metrics.scheduleRun(schedule, run, from),
    });
    const seriesOf = async () =>
      (await metrics.registry.metrics()).split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const ids: string[] = [];
    let afterOne = 0;
    for (let cycle = 0; cycle < 150; cycle++) {
      await world.type('/schedule add "every minute" /weather Oslo', MANAGER);
      const [record] = await world.store.listSchedules();
      ids.push(record!.id);
      nowMs = Date.parse('2026-03-27T12:01:00.300Z') + cycle * 60_000;
      await wired.tick();
      await world.type(`/schedule remove ${record!.id}`, MANAGER);
      if (cycle === 0) afterOne = (await seriesOf()).length;
    }
    const series = await seriesOf();
    expect(series.length).toBe(afterOne);
    expect(series.length).toBeLessThan(40);
    expect(series.join('\n')).toContain('herald_schedule_runs_total{outcome="posted"} 150');
    for (const id of ids) expect(series.join('\n')).not.toContain(id);
  }, 120_000);
});
