// One scheduled slot of a chat schedule posting to a webhook, from the tick to its history, on the
// one store (SQLite in memory): its store round trips for its own state are counted (claim; posted
// with its outbox entry; delivered; history with the next fire time), and what the tick, the
// destination's shared pause, the slot's /schedule skip, lease renewals and Discord's budget cost is
// counted apart, by name.
// The functions that run for the slot are traced (V8's precise coverage, through node:inspector)
// and listed by file: the path crosses at most 10 scheduling, store and outbox files.
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScheduleRunner } from '../../src/schedule/runner.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import type { WebhookClient } from '../../src/services/webhook/client.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { ROOT } from '../support/spawn-herald.ts';
import { MANAGER, SILENT_LOG } from './world.ts';

let nowMs = Date.parse('2026-03-27T12:00:10Z');
const now = () => new Date(nowMs);

const record: ScheduleRecord = {
  id: 'k7p2mx',
  when: 'every day at 08:00',
  cron: '0 8 * * *',
  words: 'every day at 08:00',
  timezone: 'UTC',
  destination: 'default',
  command: '/weather Oslo',
  creator: MANAGER,
  paused: false,
  createdAt: Date.parse('2026-03-26T12:00:00Z'),
};

/** `store` with each call named in `calls` (a key/value read with its key): one call, one round trip. */
function counted(store: Store, calls: string[]): Store {
  return new Proxy(store, {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(
          key === 'getValue' || key === 'setValue' ? `${String(key)} ${String(args[0])}` : String(key),
        );
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

/** Discord's execute webhook as a client that answers at once with the message's id. */
const webhook = {
  post: () => Promise.resolve({ id: '1300000000000000042', channelId: '1187421520894746711' }),
} as unknown as WebhookClient;

async function world() {
  const store = createMemoryStore({ now: () => nowMs });
  await store.addSchedule(record, 50);
  const calls: string[] = [];
  const runner = createScheduleRunner({
    store: counted(store, calls),
    services: { webhook },
    commands: () => ({ run: (line) => Promise.resolve({ text: `${line}: 4 °C, clear` }) }),
    toMessage: (reply) => ({ content: reply.text ?? '' }),
    log: SILENT_LOG,
    now,
    owner: 'replica-a',
    catchupMinutes: 60,
  });
  // The first tick looks at the new schedule once and moves it on to its next fire time.
  nowMs = Date.parse('2026-03-27T07:59:50Z');
  await runner.tick();
  nowMs = Date.parse('2026-03-27T08:00:10Z');
  calls.length = 0;
  return { store, calls, runner };
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('one webhook slot of a chat schedule', () => {
  it('costs 4 store round trips for its own state; the tick, the pause and skip reads, renewals and the budget apart', async () => {
    const { store, calls, runner } = await world();
    stop = () => runner.stop();
    const [outcome] = await runner.tick();
    expect(outcome).toMatchObject({ status: 'posted', slotId: '2026-03-27T08:00:00.000Z' });
    // What the tick does whatever is due: the outbox's due posts and the due schedules.
    const tick = ['claimDueOutbox', 'dueSchedules'];
    // The destination's rate-limit pause, shared by the replicas (destination-pause.ts).
    const pause = ['getValue delivery-pause:webhook:default'];
    // Whether /schedule skip set this slot aside, read after the claim (slot-run.ts).
    const skip = ['getValue schedule-skip:k7p2mx'];
    // Lease renewals (delivery-options.ts) come every third of the 5-minute lease: none in this slot.
    const renewals: string[] = calls.filter((c) => c === 'updateHeld');
    // Discord's budget (src/store/rate-budget.ts) is its own store, not this one: none here.
    const apart = [...tick, ...pause, ...skip, ...renewals];
    const own = calls.filter((c) => !apart.includes(c));
    expect(own).toEqual(['claimSlot', 'markPosted', 'markDelivered', 'recordRuns']);
    expect(calls.filter((c) => tick.includes(c)).sort()).toEqual(tick);
    expect(calls.filter((c) => pause.includes(c))).toEqual(pause);
    expect(calls.filter((c) => skip.includes(c))).toEqual(skip);
    expect(renewals).toEqual([]);
    // The history has the post, and the index the next fire time.
    expect((await store.history(record.id)).map((r) => [r.slotId, r.outcome, r.messageId])).toEqual([
      ['2026-03-27T08:00:00.000Z', 'posted', '1300000000000000042'],
    ]);
    expect(await store.dueSchedules(Date.parse('2026-03-28T07:59:59Z'), 10)).toEqual([]);
    expect(await store.dueSchedules(Date.parse('2026-03-28T08:00:00Z'), 10)).toHaveLength(1);
  });

  it('runs functions of at most 10 scheduling, store and outbox files, top to bottom', async () => {
    const { runner } = await world();
    stop = () => runner.stop();
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const [outcome] = await runner.tick();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    expect(outcome?.status).toBe('posted');
    const files = new Set<string>();
    for (const script of result) {
      if (!script.url.startsWith('file://')) continue;
      const file = relative(ROOT, fileURLToPath(script.url.split('?')[0]!));
      if (!/^src\/(schedule|store)\//.test(file)) continue;
      if (script.functions.some((f) => f.functionName !== '' && f.ranges[0]!.count > 0)) files.add(file);
    }
    expect([...files].sort()).toEqual([
      'src/schedule/delivery-options.ts',
      'src/schedule/delivery.ts',
      'src/schedule/destination-pause.ts',
      'src/schedule/run-history.ts',
      'src/schedule/runner.ts',
      'src/schedule/schedules.ts',
      'src/schedule/slot-run.ts',
      'src/schedule/when.ts',
      'src/store/sqlite-store.ts',
    ]);
  });
});
