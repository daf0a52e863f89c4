// Holidays and skips, on every store (memory, a node:sqlite file, the real Redis on 127.0.0.1:6379),
// with two replicas racing for each slot on a fake clock: a `skip:holidays:de` weekday schedule's
// Christmas Day slot is skipped and recorded once, as is the run `/schedule skip` set aside; neither
// posts, asks a service, or counts toward the three-failures notice; `/schedule list` shows the next
// run after the skips.
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import { createRunBook, recordChatRun } from '../../src/schedule/run-history.ts';
import type { ScheduleRun } from '../../src/schedule/schedules.ts';
import type { WebhookClient } from '../../src/services/webhook/client.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';
import { MANAGER, OPERATOR, ROLE_HOLDER, SILENT_LOG, replica, startWorld, type World } from './world.ts';

const { dir, runPrefix } = storeScratch('herald-holidays-');

let nowMs = 0;
const now = () => new Date(nowMs);
const at = (iso: string) => (nowMs = Date.parse(iso));

interface Backend {
  name: string;
  /** Two handles on one store: two replicas sharing it. */
  open(): Promise<[Store, Store]>;
}

const backends: Backend[] = [
  {
    name: 'memory',
    open: () => {
      const store = createMemoryStore({ now: () => nowMs });
      return Promise.resolve([store, store]);
    },
  },
  {
    name: 'sqlite',
    open: () => {
      const file = join(dir, randomUUID(), 'store.sqlite');
      const open = () => createSqliteStore(file, { now: () => nowMs });
      return Promise.resolve([open(), open()]);
    },
  },
  {
    name: 'redis',
    open: async () => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      const open = () => createRedisStore(REDIS_URL, { now: () => nowMs, keyPrefix });
      return [await open(), await open()];
    },
  },
];

/** A world on the first handle, and a replica on each handle. */
async function twoReplicas(backend: Backend) {
  const [a, b] = await backend.open();
  const world = await startWorld({ now, store: a, settings: { timezone: 'Europe/Berlin' } });
  const replicas = [
    replica(world, a, { now, owner: 'replica-a' }),
    replica(world, b, { now, owner: 'replica-b' }),
  ];
  const close = async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await world.close();
    if (b !== a) await b.close();
  };
  return { world, replicas, close };
}

/** Both replicas tick at once; the outcomes of the slots they ran. */
async function tickBoth(
  replicas: { tick(): Promise<{ status: string; slotId: string; skipped?: string }[]> }[],
) {
  return (await Promise.all(replicas.map((r) => r.tick()))).flat();
}

/** A schedule admin (SCHEDULE_ADMIN_USERS), allowed to manage schedules by role. */
const ADMIN: Actor = {
  platform: 'discord',
  id: '400000000000000009',
  displayName: 'Eve',
  roles: ROLE_HOLDER.roles,
};

const idOf = (text: string) => /^Schedule (\w+) added/.exec(text)![1]!;
const weatherRequests = (w: World) => w.upstream().filter((r) => r.path.includes('weather'));

describe.each(backends)('holidays and skips on a $name store', (backend) => {
  it('skips a skip:holidays:de weekday schedule’s Christmas Day slot once, and records it', async () => {
    at('2026-12-24T12:00:00Z');
    const { world, replicas, close } = await twoReplicas(backend);
    try {
      const added = await world.type(
        '/schedule add "every weekday at 07:30" skip:holidays:de /weather Oslo',
        MANAGER,
      );
      const id = idOf(added.text);
      expect(await world.store.getSchedule(id)).toMatchObject({ holidays: 'de', timezone: 'Europe/Berlin' });
      // Christmas Day (Friday), the weekend, then Monday the 28th.
      const nextRuns = added.embeds![0]!.fields!.find((f) => f.name === 'Next runs')!.value;
      expect(nextRuns.split('\n')[0]).toMatch(/^Mon, 28 Dec 2026, 07:30/);
      expect((await world.type('/schedule list')).embeds![0]!.fields![0]!.value).toMatch(
        /Next: Mon, 28 Dec 2026, 07:30/,
      );
      await tickBoth(replicas);
      const requestsBefore = weatherRequests(world).length;

      at('2026-12-25T06:30:10Z');
      const outcomes = await tickBoth(replicas);
      expect(outcomes).toEqual([
        expect.objectContaining({
          slotId: '2026-12-25T06:30:00.000Z',
          skipped: 'public holiday: Christmas Day',
        }),
      ]);
      expect(world.inbox.messages).toEqual([]);
      expect(weatherRequests(world)).toHaveLength(requestsBefore);
      const runs = await world.store.history(id);
      expect(runs).toEqual([
        expect.objectContaining({
          slotId: '2026-12-25T06:30:00.000Z',
          outcome: 'skipped',
          error: 'public holiday: Christmas Day',
        }),
      ]);
      const history = await world.type(`/schedule history ${id}`);
      expect(history.embeds![0]!.fields![0]!.value).toBe('skipped (public holiday: Christmas Day)');
      // A later tick, on either replica, settles nothing again.
      at('2026-12-25T06:31:10Z');
      expect(await tickBoth(replicas)).toEqual([]);
      expect(await world.store.history(id)).toHaveLength(1);

      // Boxing Day is a holiday too; Monday the 28th posts.
      at('2026-12-28T06:30:10Z');
      expect((await tickBoth(replicas)).map((o) => o.status)).toEqual(['posted']);
      expect(world.inbox.messages).toHaveLength(1);
      expect((await world.store.history(id)).map((r) => r.outcome)).toEqual(['posted', 'skipped']);
    } finally {
      await close();
    }
  });

  it('/schedule skip sets the next run aside for every replica, once; /schedule list shows the one after', async () => {
    at('2026-03-27T12:00:00Z');
    const { world, replicas, close } = await twoReplicas(backend);
    try {
      const id = idOf(
        (await world.type('/schedule add "every weekday at 07:30" /weather Oslo', MANAGER)).text,
      );
      await tickBoth(replicas);
      expect((await world.type(`/schedule skip ${id}`, MANAGER)).text).toBe(
        `Schedule ${id} skips its run at Mon, 30 Mar 2026, 07:30 CEST; next run Tue, 31 Mar 2026, 07:30 CEST. /schedule unskip ${id} takes that back.`,
      );
      expect((await world.type('/schedule list')).embeds![0]!.fields![0]!.value).toMatch(
        /Next: Tue, 31 Mar 2026/,
      );

      at('2026-03-30T05:30:10Z');
      expect(await tickBoth(replicas)).toEqual([
        expect.objectContaining({ slotId: '2026-03-30T05:30:00.000Z', skipped: '/schedule skip by Ada' }),
      ]);
      expect(world.inbox.messages).toEqual([]);
      const history = await world.type(`/schedule history ${id}`);
      expect(history.embeds![0]!.fields![0]!.value).toBe('skipped (/schedule skip by Ada)');

      // The skip is spent: the next run posts, and the list shows the one after it.
      at('2026-03-31T05:30:10Z');
      expect((await tickBoth(replicas)).map((o) => o.status)).toEqual(['posted']);
      expect(world.inbox.messages).toHaveLength(1);
      expect((await world.type('/schedule list')).embeds![0]!.fields![0]!.value).toMatch(
        /Next: Wed, 1 Apr 2026/,
      );
    } finally {
      await close();
    }
  });

  it('/schedule unskip takes the skip back: the run posts after all', async () => {
    at('2026-03-27T12:00:00Z');
    const { world, replicas, close } = await twoReplicas(backend);
    try {
      const id = idOf(
        (await world.type('/schedule add "every weekday at 07:30" /weather Oslo', MANAGER)).text,
      );
      await tickBoth(replicas);
      await world.type(`/schedule skip ${id}`, MANAGER);
      expect((await world.type(`/schedule unskip ${id}`, OPERATOR)).text).toBe(
        `Schedule ${id} runs at Mon, 30 Mar 2026, 07:30 CEST after all; /schedule skip ${id} skips it again.`,
      );
      expect((await world.type('/schedule list')).embeds![0]!.fields![0]!.value).toMatch(
        /Next: Mon, 30 Mar 2026/,
      );
      at('2026-03-30T05:30:10Z');
      expect((await tickBoth(replicas)).map((o) => o.status)).toEqual(['posted']);
      expect(world.inbox.messages).toHaveLength(1);
    } finally {
      await close();
    }
  });
});

describe('refusals of skip:, /schedule skip and unskip', () => {
  it('refuses a country or region the holiday calendar does not know, or any other skip:, in one sentence', async () => {
    at('2026-03-27T12:00:00Z');
    const world = await startWorld({ now });
    try {
      const add = (skip: string) =>
        world.type(`/schedule add "every weekday at 07:30" skip:${skip} /weather Oslo`);
      expect((await add('holidays:xx')).text).toBe(
        'There is no holiday calendar for "xx"; write a country’s two-letter code, with its region where holidays differ there: holidays:de, holidays:de-by.',
      );
      expect((await add('holidays:de-zz')).text).toMatch(
        /^Germany has no region "zz" in the holiday calendar \(its regions are de-bb, .*, de-th\); write holidays:de\.$/,
      );
      for (const skip of ['weekends', 'holidays:', 'holidays:germany', 'holidays:de-bayern', 'de']) {
        expect((await add(skip)).text).toBe(
          'skip must be holidays: and a country code, with its region where holidays differ: holidays:de or holidays:de-by.',
        );
      }
      expect(await world.store.listSchedules()).toEqual([]);
      // Upper case is the same code.
      await add('holidays:DE-BY');
      expect((await world.store.listSchedules())[0]).toMatchObject({ holidays: 'de-by' });
    } finally {
      await world.close();
    }
  });

  it('refuses a second skip, an unskip with nothing skipped, a paused schedule and someone else’s schedule', async () => {
    at('2026-03-27T12:00:00Z');
    const world = await startWorld({ now, settings: { adminUsers: [ADMIN.id] } });
    try {
      const id = idOf(
        (await world.type('/schedule add "every weekday at 07:30" /weather Oslo', MANAGER)).text,
      );
      expect((await world.type(`/schedule unskip ${id}`, MANAGER)).text).toBe(
        `Schedule ${id} skips no run; /schedule skip ${id} skips its next one.`,
      );
      await world.type(`/schedule skip ${id}`, MANAGER);
      expect((await world.type(`/schedule skip ${id}`, MANAGER)).text).toBe(
        `Schedule ${id} already skips its run at Mon, 30 Mar 2026, 07:30 UTC; /schedule unskip ${id} takes that back.`,
      );
      // Allowed to manage schedules, but neither its creator nor a schedule admin: as for pause.
      for (const verb of ['skip', 'unskip']) {
        expect((await world.type(`/schedule ${verb} ${id}`, ROLE_HOLDER)).text).toBe(
          `There is no schedule "${id}"; /schedule list shows them all.`,
        );
      }
      // A schedule admin may, as the operator may.
      expect((await world.type(`/schedule unskip ${id}`, ADMIN)).text).toMatch(/after all/);
      expect((await world.type(`/schedule skip ${id}`, ADMIN)).text).toMatch(/skips its run at/);
      // The audit keeps who skipped and who took it back, as for pause and resume.
      const audit = JSON.stringify(await world.type(`/schedule audit ${id}`));
      expect(audit).toMatch(/Eve .*skipped the next run of/);
      expect(audit).toMatch(/took back the skip of/);
      expect((await world.type('/schedule skip nosuch', MANAGER)).text).toBe(
        'There is no schedule "nosuch"; /schedule list shows them all.',
      );
      await world.type(`/schedule pause ${id}`, MANAGER);
      expect((await world.type(`/schedule unskip ${id}`, MANAGER)).text).toBe(
        `Schedule ${id} is paused, so it has no next run to skip or restore.`,
      );
      // Removing the schedule forgets its skip.
      await world.type(`/schedule remove ${id}`, MANAGER);
      expect(await world.store.getValue(`schedule-skip:${id}`)).toBeUndefined();
    } finally {
      await world.close();
    }
  });
});

describe('a skipped slot and the three-failures notice', () => {
  const run = (slot: string, outcome: ScheduleRun['outcome']): ScheduleRun => ({
    slotId: `2026-12-${slot}T06:30:00.000Z`,
    at: Date.parse(`2026-12-${slot}T06:31:00Z`),
    outcome,
    error: outcome === 'skipped' ? 'public holiday: Christmas Day' : 'The weather service is down.',
  });

  it('neither counts a skipped slot as failed nor lets it break the streak', async () => {
    at('2026-12-29T12:00:00Z');
    const store = createMemoryStore({ now: () => nowMs });
    const world = await startWorld({ now, store });
    try {
      const id = idOf(
        (await world.type('/schedule add "every weekday at 07:30" skip:holidays:de /weather Oslo')).text,
      );
      const record = (await store.getSchedule(id))!;
      const told: string[] = [];
      // The schedule's destination, which the streak's notice is posted through.
      const webhook = {
        post: (m: { content?: string }) => Promise.resolve(void told.push(m.content ?? '')),
      } as unknown as WebhookClient;
      const book = createRunBook({
        store,
        services: { webhook },
        destinations: { [record.destination]: webhook },
        toMessage: (reply) => ({ content: reply.text ?? '' }),
        log: SILENT_LOG,
        now,
        maxAttempts: 3,
        retryDelayMs: 30_000,
      });
      await recordChatRun(book, record, run('23', 'failed'));
      await recordChatRun(book, record, run('24', 'failed'));
      await recordChatRun(book, record, run('25', 'skipped'));
      expect(told).toEqual([]);
      await recordChatRun(book, record, run('28', 'failed'));
      expect(told).toHaveLength(1);
      expect(told[0]).toMatch(new RegExp(`^Schedule ${id} .* failed 3 times in a row`));
    } finally {
      await world.close();
    }
  });
});
