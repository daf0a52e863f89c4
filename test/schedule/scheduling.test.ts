// jobs/schedule-engine.ts: the analytics summary configured by environment is one built-in schedule,
// listed by /schedule list and read-only there; destinations are `default` plus the named ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listReply } from '../../commands/schedule-list-format.ts';
import { createScheduling } from '../../jobs/schedule-engine.ts';
import { loadConfig } from '../../src/config/index.ts';
import { UserError } from '../../src/errors.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { SERVICE_KEYS, type ServiceKey } from '../../src/domain/services.ts';
import type { ServiceMode } from '../../src/sandbox/resolve.ts';
import { OPERATOR, SILENT_LOG, startWorld, type World } from './world.ts';
import { writeTimes } from '../../src/render/time.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const now = () => new Date('2026-03-27T12:00:00Z');

describe('createScheduling', () => {
  it('lists the analytics summary as a read-only built-in schedule with its last slot', async () => {
    const config = loadConfig({
      ANALYTICS_SUMMARY_CRON: '0 7 * * 1-5',
      ANALYTICS_SUMMARY_TZ: 'Europe/Berlin',
    });
    const store = createMemoryStore({ now: () => now().getTime() });
    // The summary posted its 07:00 Berlin slot today.
    await store.claimSlot('analytics-summary', '2026-03-27T06:00:00.000Z', 'x', 60_000);
    await store.markPosted('analytics-summary', '2026-03-27T06:00:00.000Z', 'x', []);
    const { service } = createScheduling({
      config,
      services: world.services,
      store,
      destinations: {},
      log: SILENT_LOG,
      now,
    });
    expect(service.settings.destinations).toEqual(['default']);
    const listing = await service.list({ actor: OPERATOR });
    expect(listing.builtIns).toEqual([
      {
        schedule: expect.objectContaining({
          name: 'analytics-summary',
          cron: '0 7 * * 1-5',
          timezone: 'Europe/Berlin',
          variables: 'ANALYTICS_SUMMARY_CRON and ANALYTICS_SUMMARY_TZ',
          destination: 'default',
          lastRun: { slotId: '2026-03-27T06:00:00.000Z', at: now().getTime(), outcome: 'posted' },
        }),
        nextRun: new Date('2026-03-30T05:00:00Z'),
      },
    ]);
    // The reader's zone (the operator's: SCHEDULE_TZ here) writes the time where no token renders.
    const field = listReply(listing, 50, 1, 'Europe/Berlin').embeds![0]!.fields![0]!;
    expect(field.name).toMatch(/^analytics-summary \(built in, read-only\)/);
    expect(writeTimes(field.value, 'plain')).toContain('Next: Mon, 30 Mar 2026, 07:00 CEST');
    for (const change of [
      () => service.remove('analytics-summary', OPERATOR),
      () => service.setPaused('analytics-summary', true, OPERATOR),
    ]) {
      await expect(change()).rejects.toThrow(UserError);
      await expect(change()).rejects.toThrow(
        'analytics-summary is built in (set by ANALYTICS_SUMMARY_CRON and ANALYTICS_SUMMARY_TZ); it cannot be changed from chat.',
      );
    }
  });
});

describe('the analytics summary with simulated analytics and a real webhook', () => {
  const modes = Object.fromEntries(
    SERVICE_KEYS.map((k) => [k, k === 'webhook' ? 'real' : 'simulated']),
  ) as Record<ServiceKey, ServiceMode>;
  const scheduling = (allow: boolean) =>
    createScheduling({
      config: loadConfig({ ANALYTICS_SUMMARY_CRON: '0 7 * * 1-5', ANALYTICS_SUMMARY_TZ: 'Europe/Berlin' }),
      services: world.services,
      store: createMemoryStore({ now: () => now().getTime() }),
      destinations: {},
      log: SILENT_LOG,
      now,
      simulated: { plan: { modes }, allow },
    });

  it("is disabled with the guard's sentence by default", () => {
    const [summary] = scheduling(false).builtIns;
    expect(summary!.disabledReason).toBe(
      'This schedule would post simulated analytics data to the real destination "default"; configure ANALYTICS_ACCESS_TOKEN and ANALYTICS_PROPERTY_ID, or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.',
    );
  });

  it('with SCHEDULE_ALLOW_SIMULATED, runs and posts with the simulated-data footer', async () => {
    const { builtIns, runner } = scheduling(true);
    expect(builtIns[0]!.disabledReason).toBeUndefined();
    const before = world.inbox.messages.length;
    expect((await runner.runManual('analytics-summary')).status).toBe('posted');
    const posted = world.inbox.messages.slice(before);
    expect(posted).toHaveLength(1);
    expect(JSON.stringify(posted[0])).toContain('Simulated data (built-in sandbox): analytics.');
  });
});
