// /schedule audit: every add, pause, resume, skip, unskip and remove is recorded with who did it, from which
// surface and when, on every backend; only schedule admins and the operator read it, scoped to the
// workspace they type in as lists are.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { parseLine } from '../../src/core/args.ts';
import type { Surface } from '../../src/core/command.ts';
import type { Reply } from '../../src/core/reply.ts';
import { AUDIT_SHOWN, readAudit, recordAudit } from '../../src/schedule/audit.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL, deleteKeys, testKeyPrefix } from '../support/redis.ts';
import { MANAGER, OPERATOR, startWorld, type World } from './world.ts';

const prefix = testKeyPrefix();
const dir = mkdtempSync(join(tmpdir(), 'herald-audit-'));
const opened: Store[] = [];
const NOW = new Date('2026-12-01T09:15:00Z');
const ADMIN: Actor = { platform: 'discord', id: '400000000000000099', displayName: 'Eve', roles: [] };

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
  await deleteKeys(prefix);
});

const backends: [string, () => Promise<Store>][] = [
  ['memory', () => Promise.resolve(createMemoryStore())],
  ['sqlite', () => Promise.resolve(createSqliteStore(join(dir, `${Math.random()}.sqlite`)))],
  ['redis', () => createRedisStore(REDIS_URL, { keyPrefix: prefix })],
];

async function open(make: () => Promise<Store>): Promise<Store> {
  const store = await make();
  opened.push(store);
  return store;
}

function scheduleIn(id: string, workspaceId?: string): ScheduleRecord {
  return {
    id,
    when: 'every day at 07:30',
    cron: '30 7 * * *',
    words: 'every day at 07:30',
    timezone: 'UTC',
    destination: workspaceId ? 'channel:discord:700000000000000001' : 'ops',
    ...(workspaceId ? { home: { workspaceId } } : {}),
    command: '/weather Oslo',
    creator: MANAGER,
    paused: false,
    createdAt: NOW.getTime(),
  };
}

const inGuild = (guildId: string): ChatChannel => ({
  platform: 'discord',
  id: '700000000000000009',
  guildId,
});

describe.each(backends)('the audit on the %s store', (_name, make) => {
  it('keeps the latest entries of each log, newest first, and each log apart', async () => {
    const store = await open(make);
    const key = `audit-test:${Math.random()}`;
    for (let i = 1; i <= 5; i++) await store.appendLog(key, `e${i}`, 3);
    await store.appendLog(`${key}:other`, 'x', 3);
    expect(await store.readLog(key, 10)).toEqual(['e5', 'e4', 'e3']);
    expect(await store.readLog(key, 2)).toEqual(['e5', 'e4']);
    expect(await store.readLog(`${key}:other`, 10)).toEqual(['x']);
    expect(await store.readLog(`${key}:none`, 10)).toEqual([]);
  });

  it('shows an admin the changes of the workspace they type in and of the deployment, the operator all', async () => {
    const store = await open(make);
    const at = NOW.getTime();
    const change = (action: 'add' | 'pause', n: number) => ({
      action,
      actor: MANAGER,
      via: 'typed' as const,
      at: at + n,
    });
    await recordAudit(store, scheduleIn('g1sch1', 'G1'), change('add', 1));
    await recordAudit(store, scheduleIn('g2sch1', 'G2'), change('add', 2));
    await recordAudit(store, scheduleIn('envsc1'), change('pause', 3));
    const admins = { adminUsers: [ADMIN.id] };
    const seen = await readAudit(store, admins, { actor: ADMIN, channel: inGuild('G1') });
    expect(seen.map((e) => e.scheduleId).filter((id) => id !== 'g2sch1')).toEqual(['envsc1', 'g1sch1']);
    expect(seen.map((e) => e.scheduleId)).not.toContain('g2sch1');
    const all = await readAudit(store, admins, { actor: OPERATOR });
    expect(all.slice(0, 3).map((e) => e.scheduleId)).toEqual(['envsc1', 'g2sch1', 'g1sch1']);
    expect(all[0]).toMatchObject({
      action: 'pause',
      by: { id: MANAGER.id, displayName: 'Ada' },
      via: 'typed',
    });
  });
});

describe('/schedule audit', () => {
  let world: World | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  /** Runs a console line as `actor` typed it, or pressed it as a button (`surface`). */
  async function invoke(w: World, line: string, actor: Actor, surface?: Surface): Promise<Reply> {
    const parsed = parseLine(line)!;
    let reply: Reply | undefined;
    await w.dispatcher.onInvocation({
      command: parsed.name,
      rawInput: parsed.text,
      actor,
      channelId: 'test',
      ...(surface ? { surface } : {}),
      signal: new AbortController().signal,
      respond: (r) => {
        reply = r;
        return Promise.resolve();
      },
    });
    return reply!;
  }

  it('records who added, paused, resumed and removed a schedule, and how', async () => {
    world = await startWorld({ now: () => NOW, allow: { users: [MANAGER.id], roles: [] } });
    const added = await world.type('/schedule add "every day at 09:00" /weather Oslo', MANAGER);
    const id = /^Schedule (\w+) added/.exec(added.text)![1]!;
    await invoke(world, `/schedule pause ${id}`, MANAGER, 'button');
    await world.type(`/schedule resume ${id}`, MANAGER);
    await world.type(`/schedule remove ${id}`);
    const reply = await world.type('/schedule audit');
    expect(reply.text).toBe('The last 4 changes to the schedules you may see, newest first.');
    expect(reply.ephemeral).toBe(true);
    expect(reply.embeds![0]!.description!.split('\n')).toEqual([
      `Tue, 1 Dec 2026, 09:15 UTC · operator removed ${id} (the console)`,
      `Tue, 1 Dec 2026, 09:15 UTC · Ada resumed ${id} (typed)`,
      `Tue, 1 Dec 2026, 09:15 UTC · Ada paused ${id} (a button)`,
      `Tue, 1 Dec 2026, 09:15 UTC · Ada added ${id} (typed)`,
    ]);
    const one = await world.type(`/schedule audit ${id.toUpperCase()}`);
    expect(one.text).toBe(`The last 4 changes to schedule ${id}, newest first.`);
    expect((await world.type('/schedule audit zzzzzz')).text).toBe(
      'No changes are recorded for schedule zzzzzz.',
    );
  });

  it('records a skip and an unskip of the next run', async () => {
    world = await startWorld({ now: () => NOW, allow: { users: [MANAGER.id], roles: [] } });
    const added = await world.type('/schedule add "every day at 09:00" /weather Oslo', MANAGER);
    const id = /^Schedule (\w+) added/.exec(added.text)![1]!;
    await world.type(`/schedule skip ${id}`, MANAGER);
    await world.type(`/schedule unskip ${id}`);
    const reply = await world.type(`/schedule audit ${id}`);
    expect(reply.embeds![0]!.description!.split('\n').map((l) => l.replace(/^.* · /, ''))).toEqual([
      `operator took back the skip of ${id} (the console)`,
      `Ada skipped the next run of ${id} (typed)`,
      `Ada added ${id} (typed)`,
    ]);
  });

  it('refuses anyone but a schedule admin or the operator, in one sentence', async () => {
    world = await startWorld({ now: () => NOW, allow: { users: [MANAGER.id], roles: [] } });
    const reply = await world.type('/schedule audit', MANAGER);
    expect(reply.text).toBe(
      'Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES) or the operator may read the audit.',
    );
    expect(reply.ephemeral).toBe(true);
  });

  it(`shows the latest ${AUDIT_SHOWN} of a long audit`, async () => {
    world = await startWorld({ now: () => NOW, settings: { adminUsers: [ADMIN.id] } });
    const record = scheduleIn('longau');
    for (let i = 0; i < AUDIT_SHOWN + 10; i++)
      await recordAudit(world.store, record, {
        action: i % 2 ? 'pause' : 'resume',
        actor: MANAGER,
        via: 'typed',
        at: NOW.getTime() + i,
      });
    const reply = await invoke(world, '/schedule audit longau', ADMIN);
    expect(reply.text).toBe(`The last ${AUDIT_SHOWN} changes to schedule longau, newest first.`);
    expect(reply.embeds![0]!.description!.split('\n')).toHaveLength(AUDIT_SHOWN);
  });
});
