// ping: on /schedule add, typed as a schedule admin: the schedule's posts through a Discord webhook
// ping exactly the roles and users named, its preview shows them and pings no one, and nobody else
// may set it; a schedule without it still pings no one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANAGER, OPERATOR, ROLE_HOLDER, replica, startWorld, type World } from './world.ts';

const ROLE = '500000000000000009';
const USER = '400000000000000007';
let nowMs = Date.parse('2026-03-27T12:00:10Z');
const now = () => new Date(nowMs);

let world: World;
beforeEach(async () => {
  nowMs = Date.parse('2026-03-27T12:00:10Z');
  world = await startWorld({ now, settings: { adminUsers: [MANAGER.id] } });
});
afterEach(() => world.close());

describe('/schedule add ping:', () => {
  it('a schedule admin’s ping: is kept, and each post pings exactly those (webhook)', async () => {
    const added = await world.type(
      `/schedule add "every day at 12:05" /weather Oslo to:ops ping:"<@&${ROLE}> <@${USER}>"`,
      MANAGER,
    );
    expect(added.text).toMatch(/^Schedule \w+ added/);
    await world.type('/schedule add "every day at 12:05" /weather Bergen to:ops', MANAGER);
    const records = await world.store.listSchedules();
    expect(records.find((r) => r.command === '/weather Oslo')?.ping).toEqual([
      { platform: 'discord', kind: 'role', id: ROLE },
      { platform: 'discord', kind: 'user', id: USER },
    ]);
    nowMs = Date.parse('2026-03-27T12:05:00.300Z');
    await replica(world, world.store, { now, owner: 'only' }).tick();
    const oslo = world.inbox.messages.find((m) => JSON.stringify(m.embeds).includes('Oslo'));
    const bergen = world.inbox.messages.find((m) => JSON.stringify(m.embeds).includes('Bergen'));
    expect(oslo).toMatchObject({
      content: `<@&${ROLE}> <@${USER}>`,
      allowedMentions: { parse: [], roles: [ROLE], users: [USER] },
    });
    expect(bergen?.allowedMentions).toEqual({ parse: [] });
    expect(bergen?.content ?? '').not.toContain('<@');
  });

  it('is read after the command line too, and the preview shows the mentions without pinging', async () => {
    const preview = await world.type(
      `/schedule add "every day at 12:05" /weather Oslo to:ops ping:<@&${ROLE}> preview:yes`,
      OPERATOR,
    );
    expect(preview.mentions).toEqual([{ platform: 'discord', kind: 'role', id: ROLE }]);
    expect(preview.ephemeral).toBe(true);
    expect(await world.store.listSchedules()).toEqual([]);
  });

  it('refuses ping: from anyone but a schedule admin or the operator, and what is not a mention', async () => {
    const refused = await world.type(
      `/schedule add "every day at 12:05" /weather Oslo ping:<@&${ROLE}>`,
      ROLE_HOLDER,
    );
    expect(refused.text).toBe(
      `Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES, user id ${ROLE_HOLDER.id}) or the operator may set ping:, so that no schedule pings people unasked.`,
    );
    const bad = await world.type('/schedule add "every day at 12:05" /weather Oslo ping:@everyone', MANAGER);
    expect(bad.text).toContain('ping: takes roles or users as mentions');
    expect(await world.store.listSchedules()).toEqual([]);
  });
});
