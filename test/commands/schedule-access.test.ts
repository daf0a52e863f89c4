// Who may manage whose schedules: being allowed to manage schedules (SCHEDULE_ALLOWED_USERS) is
// not a licence to run, pause or remove another user's; a manual run is run as the person who asks
// (their command access, their /say budget), the creator's rights serve the scheduled slots only.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import { createScheduleService } from '../../src/schedule/service.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { MANAGER, OPERATOR, replica, startWorld, type World } from '../schedule/world.ts';

/** Allowed to manage schedules, but not to use /host (MANAGER is, in the world's settings). */
const OTHER: Actor = { platform: 'slack', id: 'UALLOWED01', displayName: 'Dee', roles: [] };
/** A schedule admin by role. */
const ADMIN: Actor = {
  platform: 'discord',
  id: '400000000000000077',
  displayName: 'Eve',
  roles: ['600000000000000001'],
};
const NOW = new Date('2026-03-27T12:00:00Z');

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function worldWithHostSchedule(settings: { adminUsers?: string[]; adminRoles?: string[] } = {}) {
  world = await startWorld({
    now: () => NOW,
    allow: { users: [MANAGER.id, OTHER.id], roles: [] },
    settings,
  });
  const added = await world.type('/schedule add "every day at 09:00" /host 8.8.8.8', MANAGER);
  const id = /^Schedule (\w+) added/.exec(added.text)![1]!;
  return { w: world, id };
}

const hostLookups = (w: World) => w.upstream().filter((r) => r.path.startsWith('/hostscan'));

describe("managing another user's schedule", () => {
  it('refuses run, pause, resume and remove by another allowed user, each in one sentence, with no lookup', async () => {
    const { w, id } = await worldWithHostSchedule();
    for (const verb of ['run', 'pause', 'resume', 'remove']) {
      // It posts to a destination set by environment: not theirs to see, so its id reads as unknown.
      const reply = await w.type(`/schedule ${verb} ${id}`, OTHER);
      expect(reply.text).toBe(`There is no schedule "${id}"; /schedule list shows them all.`);
      expect(reply.ephemeral).toBe(true);
    }
    expect(await w.store.getSchedule(id)).toMatchObject({ paused: false });
    expect(hostLookups(w)).toEqual([]);
  });

  it('lets the creator, the operator and a schedule admin (by user or by role) manage it', async () => {
    const { w, id } = await worldWithHostSchedule({ adminUsers: [OTHER.id], adminRoles: [ADMIN.roles[0]!] });
    expect((await w.type(`/schedule pause ${id}`, MANAGER)).text).toMatch(/paused/i);
    expect((await w.type(`/schedule resume ${id}`, OTHER)).text).not.toMatch(/was added by/);
    expect((await w.service.setPaused(id, true, ADMIN)).record.paused).toBe(true);
    expect((await w.service.setPaused(id, false, OPERATOR)).record.paused).toBe(false);
    await w.service.remove(id, ADMIN);
    expect(await w.store.getSchedule(id)).toBeUndefined();
  });

  it('hands a manual run the person who asked, not the creator', async () => {
    const { w, id } = await worldWithHostSchedule({ adminUsers: [OTHER.id] });
    const runNow = vi.fn(async () => ({ outcome: 'posted' as const }));
    const service = createScheduleService({
      store: w.store,
      settings: w.settings,
      commands: () => w.dispatcher,
      runNow,
      now: () => NOW,
    });
    await service.run(id, OTHER);
    expect(runNow).toHaveBeenCalledWith(expect.objectContaining({ id }), OTHER);
  });
});

describe('a manual run is run as the person who asks', () => {
  it("checks the asker's command access: no Shodan lookup for someone not allowed /host", async () => {
    const { w, id } = await worldWithHostSchedule();
    const runner = replica(w, createMemoryStore({ now: () => NOW.getTime() }), {
      now: () => NOW,
      owner: 'r1',
    });
    const record = (await w.store.getSchedule(id))!;
    const asOther = await runner.runNow(record, OTHER);
    expect(asOther).toMatchObject({ outcome: 'failed' });
    expect(asOther.error).toMatch(/^You are not allowed to use \/host/);
    expect(hostLookups(w)).toEqual([]);
    // The creator's own rights still serve the schedule (its slots, and its creator asking).
    expect(await runner.runNow(record, MANAGER)).toMatchObject({ outcome: 'posted' });
    expect(hostLookups(w)).toHaveLength(1);
  });
});
