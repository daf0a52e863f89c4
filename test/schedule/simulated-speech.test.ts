// The simulated-data guard counts every service a post uses, its attachments' included: a
// scheduled `/weather Oslo speak:yes` posts S5's audio, so with the speech service simulated it is
// refused (at add time and at every run) or, with SCHEDULE_ALLOW_SIMULATED, marked, though the
// weather itself is real. The analytics summary's spoken briefing: test/jobs/run-job.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { SERVICE_KEYS, type ServiceKey } from '../../src/domain/services.ts';
import type { ServiceMode } from '../../src/sandbox/resolve.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { MANAGER, OPS_WEBHOOK_ID, replica, startWorld, type World } from './world.ts';

/** Weather and the webhooks real, as the guard sees them; speech (and every other) simulated. */
const PLAN = {
  modes: Object.fromEntries(
    SERVICE_KEYS.map((k) => [k, k === 'weather' || k === 'webhook' ? 'real' : 'simulated']),
  ) as Record<ServiceKey, ServiceMode>,
};
const SPEECH_REFUSAL =
  'This schedule would post simulated speech data to the real destination "ops"; configure SPEECH_API_KEY, or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.';
const now = () => new Date('2026-03-27T12:00:10Z');

let world: World;
afterEach(() => world.close());
const start = async (allow: boolean) => {
  world = await startWorld({ now, simulated: { plan: PLAN, allow } });
};
const runner = (allow: boolean) =>
  replica(world, createMemoryStore({ now: () => now().getTime() }), {
    now,
    owner: 'r1',
    simulated: { plan: PLAN, allow },
  });

describe('the simulated-data guard on an attachment (speak:yes)', () => {
  it('refuses at add time a real weather report read aloud by the simulated speech service', async () => {
    await start(false);
    const reply = await world.type('/schedule add to:ops daily /weather Oslo speak:yes', MANAGER);
    expect(reply.text).toBe(SPEECH_REFUSAL);
    expect(await world.store.listSchedules()).toEqual([]);
    expect(world.upstream()).toEqual([]);
    // Without speak:yes, the same report uses real services only.
    const plain = await world.type('/schedule add to:ops daily /weather Oslo', MANAGER);
    expect(plain.ephemeral, plain.text).toBeFalsy();
  });

  it('refuses at run time, posting nothing, when the schedule was added while allowed', async () => {
    await start(true);
    await world.type('/schedule add to:ops daily /weather Oslo speak:yes', MANAGER);
    const [record] = await world.store.listSchedules();
    expect(await runner(false).runNow(record!)).toEqual({ outcome: 'failed', error: SPEECH_REFUSAL });
    expect(world.inbox.messages).toHaveLength(0);
    expect(world.upstream()).toEqual([]);
  });

  it('with SCHEDULE_ALLOW_SIMULATED=true, posts the report and its audio marked as simulated speech', async () => {
    await start(true);
    await world.type('/schedule add to:ops daily /weather Oslo speak:yes', MANAGER);
    const [record] = await world.store.listSchedules();
    expect((await runner(true).runNow(record!)).outcome).toBe('posted');
    expect(world.inbox.messages.map((m) => m.webhookId)).toEqual([OPS_WEBHOOK_ID]);
    const posted = JSON.stringify(world.inbox.messages[0]);
    expect(posted).toContain('Simulated data (built-in sandbox): speech.');
    expect(posted).toContain('weather.mp3');
  });
});
