// jobs/schedules.ts: the analytics summary configured by environment is one built-in schedule,
// listed by /schedule list and read-only there; destinations are `default` plus the named ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listReply } from '../../commands/schedule-format.ts';
import { createScheduling } from '../../jobs/schedules.ts';
import { loadConfig } from '../../src/config/index.ts';
import { UserError } from '../../src/errors.ts';
import { createMemoryScheduleStore, createMemoryStore } from '../../src/store/index.ts';
import { OPERATOR, SILENT_LOG, startWorld, type World } from './world.ts';

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
      schedules: createMemoryScheduleStore(),
      destinations: {},
      log: SILENT_LOG,
      now,
    });
    expect(service.settings.destinations).toEqual(['default']);
    const listing = await service.list();
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
    const field = listReply(listing, 50).embeds![0]!.fields![0]!;
    expect(field.name).toMatch(/^analytics-summary \(built in, read-only\)/);
    expect(field.value).toContain('Next: Mon, 30 Mar 2026, 07:00 CEST');
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
