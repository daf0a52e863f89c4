// Moving a store (src/store-move/): what an export carries and leaves behind, an import into each
// backend from each other, twice over, and every refusal: the memory store, a running herald (its
// heartbeat), a file from a newer herald, a malformed file, each in one sentence.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  parseStoreFile,
  serializeStoreFile,
  STORE_FILE_FORMAT,
  StoreMoveError,
  type StoreFile,
} from '../../src/store-move/export-file.ts';
import { startHeartbeat } from '../../src/store-move/heartbeat.ts';
import { exportStore, importStore } from '../../src/store-move/move.ts';
import { recordAudit } from '../../src/schedule/audit.ts';
import type { ScheduleRecord, ScheduleRun } from '../../src/schedule/schedules.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';

const { dir, runPrefix } = storeScratch('herald-store-move-');

let t = Date.parse('2026-11-27T09:00:00Z');
const now = () => t;

type Kind = 'sqlite' | 'redis';
const open: Record<Kind, () => Promise<Store>> = {
  sqlite: async () => createSqliteStore(join(dir, randomUUID(), 'herald.sqlite'), { now }),
  redis: () => createRedisStore(REDIS_URL, { now, keyPrefix: `${runPrefix}${randomUUID()}:` }),
};

const opened: Store[] = [];
async function store(kind: Kind): Promise<Store> {
  const s = await open[kind]();
  opened.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  vi.useRealTimers();
});
beforeEach(() => {
  t = Date.parse('2026-11-27T09:00:00Z');
});

const DAY = 86_400_000;
const ADA = { platform: 'discord' as const, id: '400000000000000001', displayName: 'Ada', roles: [] };

function briefing(id: string, extra: Partial<ScheduleRecord> = {}): ScheduleRecord {
  return {
    id,
    when: 'every weekday at 07:30',
    cron: '30 7 * * 1-5',
    words: 'every weekday (Monday to Friday) at 07:30',
    timezone: 'Europe/Berlin',
    destination: 'channel:discord:1200000000000000001',
    guildId: '1100000000000000001',
    home: { workspaceId: '1100000000000000001' },
    command: '/weather Berlin',
    creator: ADA,
    paused: false,
    createdAt: Date.parse('2026-11-02T10:00:00Z'),
    ...extra,
  };
}

/** A posted weekday slot at 07:30 Berlin (06:30 UTC in November), `daysAgo` before 27 November. */
const posted = (daysAgo: number, messageId: string): ScheduleRun => {
  const slot = Date.parse('2026-11-27T06:30:00Z') - daysAgo * DAY;
  return {
    slotId: new Date(slot).toISOString(),
    at: slot + 1_400,
    outcome: 'posted',
    messageId,
    channelId: '1200000000000000001',
    durationMs: 1_380,
  };
};

/**
 * A store as a team's would be after a while: a briefing with history, a paused one, a watch with
 * its memory, one never run; preferences, a destination's pause, a schedule's button; and what must
 * stay behind: a claimed slot and its outbox entry, an expiring button, the heartbeat, a claim.
 */
async function fill(s: Store): Promise<void> {
  await s.addSchedule(briefing('k7p2mx', { thread: 'yes' } as Partial<ScheduleRecord>), 50);
  await s.recordRuns('k7p2mx', [posted(3, '1300000000000000003'), posted(0, '1300000000000000004')]);
  await s.addSchedule(
    briefing('p4q8rs', { paused: true, createdAt: Date.parse('2026-11-03T10:00:00Z') }),
    50,
  );
  await s.recordRuns('p4q8rs', [
    { ...posted(2, '1300000000000000005'), outcome: 'failed', error: 'No city.' },
  ]);
  const watch = briefing('w2n6tz', {
    command: '/jobs what:"rust developer" where:Berlin',
    onlyNew: true,
    createdAt: Date.parse('2026-11-04T10:00:00Z'),
  });
  await s.addSchedule(watch, 50);
  await s.recordRuns('w2n6tz', [{ ...posted(1, '1300000000000000006'), outcome: 'no-change' }]);
  await s.addSchedule(briefing('n3v5xy', { createdAt: Date.parse('2026-11-26T20:00:00Z') }), 50);
  await recordAudit(s, briefing('p4q8rs'), { action: 'pause', actor: ADA, via: 'button', at: t - DAY });
  await s.setValue(
    'watch:w2n6tz',
    '{"v":2,"facts":{"seen":["7Fq0hVb9ZQ1X4Jx2nUu+0tV0Fw3w7y2mXxP0b7cUeY0="]}}',
  );
  await s.setValue(
    'settings:user:discord:400000000000000001',
    '{"timezone":"Europe/Berlin","units":"metric"}',
  );
  await s.setValue('delivery-pause:1200000000000000001', String(t + 60_000));
  await s.setValue(
    'component:k7p2mx:Qm9vdHN0cmFwIGJ1dHRvbiA',
    '{"command":"schedule run","input":{"id":"k7p2mx"}}',
  );
  await s.setValue('job:analytics-summary:since', '2026-11-01T00:00:00.000Z');
  // Not carried:
  await s.setValue('component:QWxsIGFib2FyZCB0aGUgYnV0', '{"command":"weather"}', { ttlMs: 30 * DAY });
  await s.setValue('heartbeat-of-something', 'x', { ttlMs: 30_000 });
  await s.claimOnce('discord:interaction:1300000000000000009', 15 * 60_000);
  await s.claimSlot('schedule-k7p2mx', '2026-11-27T06:30:00.000Z', 'web-1', 60_000);
  await s.markPosted('schedule-k7p2mx', '2026-11-27T06:30:00.000Z', 'web-1', [
    {
      id: 'schedule-k7p2mx|2026-11-27T06:30:00.000Z|0:channel',
      job: 'schedule-k7p2mx',
      slotId: '2026-11-27T06:30:00.000Z',
      kind: 'channel',
      payload: { content: 'x' },
    },
  ]);
}

/** What an export says of a store, without when and whence. */
const contentOf = ({ schedules, values }: StoreFile) => ({ schedules, values });

describe.each([
  ['sqlite', 'redis'],
  ['redis', 'sqlite'],
  ['sqlite', 'sqlite'],
  ['redis', 'redis'],
] as const)('from %s to %s', (from, to) => {
  it('carries the schedules, their history and every value kept for good, and nothing that expires', async () => {
    const source = await store(from);
    await fill(source);
    const exported = await exportStore(source, now);
    expect(exported.pendingPosts).toBe(1);
    expect(exported.file).toMatchObject({
      herald: 'store',
      format: STORE_FILE_FORMAT,
      from,
      exportedAt: '2026-11-27T09:00:00.000Z',
    });
    expect(exported.file.schedules.map((s) => s.record.id)).toEqual(['k7p2mx', 'p4q8rs', 'w2n6tz', 'n3v5xy']);
    expect(exported.file.schedules[0]!.record).toMatchObject({
      thread: 'yes',
      guildId: '1100000000000000001',
    });
    expect(exported.file.schedules[0]!.record).not.toHaveProperty('lastRun');
    expect(Object.keys(exported.file.values)).toEqual([
      'component:k7p2mx:Qm9vdHN0cmFwIGJ1dHRvbiA',
      'delivery-pause:1200000000000000001',
      'job:analytics-summary:since',
      'settings:user:discord:400000000000000001',
      'watch:w2n6tz',
    ]);

    const target = await store(to);
    const done = await importStore(target, parseStoreFile(serializeStoreFile(exported.file)), { now });
    expect(done).toEqual({ schedules: 4, existing: 0, runs: 4, values: 5 });
    const again = await exportStore(target, now);
    expect(contentOf(again.file)).toEqual(contentOf(exported.file));
    // The audit comes along (/schedule audit), and each schedule added is recorded as imported.
    const audit = again.file.audit!.map((e) => `${e.action} ${e.scheduleId} ${e.via} ${e.scope ?? ''}`);
    expect(audit).toEqual([
      'pause p4q8rs button discord:1100000000000000001',
      ...['k7p2mx', 'p4q8rs', 'w2n6tz', 'n3v5xy'].map(
        (id) => `import ${id} store discord:1100000000000000001`,
      ),
    ]);
    expect(await target.getSchedule('k7p2mx')).toEqual({
      ...briefing('k7p2mx', { thread: 'yes' } as Partial<ScheduleRecord>),
      lastRun: posted(0, '1300000000000000004'),
    });
    expect((await target.getSchedule('p4q8rs'))?.paused).toBe(true);
    expect(await target.getValue('watch:w2n6tz')).toBe(await source.getValue('watch:w2n6tz'));
    // Claims, slots, the outbox and what expires stayed behind.
    expect(await target.getSlot('schedule-k7p2mx', '2026-11-27T06:30:00.000Z')).toBeUndefined();
    expect(await target.listOutbox('pending')).toEqual([]);
    expect(await target.getValue('component:QWxsIGFib2FyZCB0aGUgYnV0')).toBeUndefined();
    expect(await target.claimOnce('discord:interaction:1300000000000000009', 60_000)).toBe(true);
  });

  it('imports twice into the same store: the second changes nothing', async () => {
    const source = await store(from);
    await fill(source);
    const file = (await exportStore(source, now)).file;
    const target = await store(to);
    await importStore(target, file, { now });
    const once = await exportStore(target, now);
    const twice = await importStore(target, file, { now });
    expect(twice).toMatchObject({ schedules: 4, existing: 4 });
    expect(contentOf((await exportStore(target, now)).file)).toEqual(contentOf(once.file));
    expect((await exportStore(target, now)).file.audit).toEqual(once.file.audit);
    expect((await target.dueSchedules(Number.MAX_SAFE_INTEGER, 10)).map((r) => r.id).sort()).toEqual([
      'k7p2mx',
      'n3v5xy',
      'w2n6tz',
    ]);
  });
});

describe('the next-fire index after an import', () => {
  it('goes on after the latest slot each history records, so no slot runs twice; without one, at creation', async () => {
    const source = await store('sqlite');
    await fill(source);
    const target = await store('redis');
    await importStore(target, (await exportStore(source, now)).file, { now });
    const due = async (at: string) => (await target.dueSchedules(Date.parse(at), 10)).map((r) => r.id);
    // Never run: due at once (from its creation, the runner's own rule). The watch last ran
    // (no change) on Thursday 26th: Friday 27th 07:30 Berlin is its next; the briefing posted on the
    // 27th has its next on Monday 30th; the paused one is in no index.
    expect(await due('2026-11-27T06:29:59Z')).toEqual(['n3v5xy']);
    expect(await due('2026-11-27T06:30:00Z')).toEqual(['n3v5xy', 'w2n6tz']);
    expect(await due('2026-11-30T06:29:59Z')).toEqual(['n3v5xy', 'w2n6tz']);
    expect(await due('2026-11-30T06:30:00Z')).toEqual(['n3v5xy', 'w2n6tz', 'k7p2mx']);
  });
});

describe('refusals, each in one sentence', () => {
  it('refuses the memory store, to export and to import', async () => {
    const memory = createMemoryStore();
    const sentence =
      'The store is in memory (STORE_URL=:memory:), which lives only inside a running herald, so there is nothing here to export or import into: point STORE_URL at a SQLite file or REDIS_URL at a Redis.';
    await expect(exportStore(memory)).rejects.toThrow(
      new StoreMoveError({ code: 'memory_store', message: sentence }),
    );
    const file = (await exportStore(await store('sqlite'))).file;
    await expect(importStore(memory, file)).rejects.toMatchObject({
      code: 'memory_store',
      message: sentence,
    });
    expect(await memory.listSchedules()).toEqual([]);
  });

  it.each(['sqlite', 'redis'] as const)(
    '%s: refuses while a running herald keeps its heartbeat fresh, unless forced; its stop takes it away',
    async (kind) => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const source = await store('sqlite');
      await fill(source);
      const file = (await exportStore(source, now)).file;
      const target = await store(kind);
      const running = startHeartbeat(target, { owner: 'web-1:41', now });
      t += 25_000;
      await expect(importStore(target, file, { now })).rejects.toMatchObject({
        code: 'running',
        message:
          'A herald is running on this store (web-1:41 wrote its heartbeat 25 s ago): stop it first (a herald that stops takes its heartbeat away, one that died leaves it for at most 30 s), or pass --force.',
      });
      // Rewritten every 10 s.
      await vi.advanceTimersByTimeAsync(10_000);
      await expect(importStore(target, file, { now })).rejects.toThrow(/wrote its heartbeat 0 s ago/);
      expect(await target.listSchedules()).toEqual([]);
      // A second replica's beat is left when the first stops.
      const other = startHeartbeat(target, { owner: 'web-2:77', now });
      await running.stop();
      await expect(importStore(target, file, { now })).rejects.toMatchObject({ code: 'running' });
      await other.stop();
      expect(await importStore(target, file, { now })).toMatchObject({ schedules: 4, existing: 0 });
      const again = startHeartbeat(target, { owner: 'web-1:42', now });
      expect(await importStore(target, file, { force: true, now })).toMatchObject({ existing: 4 });
      await again.stop();
    },
  );

  it('a heartbeat that is not renewed lapses: a herald that died does not block an import for good', async () => {
    const target = await store('sqlite');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    startHeartbeat(target, { owner: 'web-1:41', now });
    vi.useRealTimers();
    const file = (await exportStore(await store('sqlite'), now)).file;
    await expect(importStore(target, file, { now })).rejects.toMatchObject({ code: 'running' });
    t += 30_001;
    expect(await importStore(target, file, { now })).toMatchObject({ schedules: 0 });
  });

  const valid = async () => serializeStoreFile((await exportStore(await fillAndReturn(), now)).file);
  async function fillAndReturn() {
    const s = await store('sqlite');
    await fill(s);
    return s;
  }
  const refusal = (text: string) => {
    try {
      parseStoreFile(text);
    } catch (err) {
      expect(err).toBeInstanceOf(StoreMoveError);
      return { code: (err as StoreMoveError).code, message: (err as Error).message };
    }
    throw new Error('not refused');
  };

  it('refuses a file from a newer herald, before reading the rest of it', async () => {
    const newer = JSON.stringify({ herald: 'store', format: STORE_FILE_FORMAT + 1, anything: 'else' });
    expect(refusal(newer)).toEqual({
      code: 'newer_format',
      message: `The file is in store format ${STORE_FILE_FORMAT + 1}, written by a newer herald; this one reads format ${STORE_FILE_FORMAT}, so update herald before importing it.`,
    });
  });

  it('refuses a malformed file, naming its first problem', async () => {
    const text = await valid();
    const json = JSON.parse(text) as StoreFile;
    const edited = (edit: (f: StoreFile) => void) => {
      const copy = structuredClone(json);
      edit(copy);
      return JSON.stringify(copy);
    };
    expect(refusal(text.slice(0, 200))).toMatchObject({ code: 'malformed' });
    expect(refusal(text.slice(0, 200)).message).toMatch(
      /^The file is not a herald store export: it is not JSON \(.+\)\.$/,
    );
    expect(refusal('{"schedules":[]}').message).toBe(
      'The file is not a herald store export: it has no "herald": "store" at its top.',
    );
    expect(refusal(edited((f) => (f.schedules[1]!.record.cron = '61 7 * * *'))).message).toBe(
      'The file does not fit store format 1 at schedules[1].record.cron: not a cron expression herald reads.',
    );
    expect(refusal(edited((f) => (f.schedules[2]!.record.timezone = 'Mars/Olympus'))).message).toBe(
      'The file does not fit store format 1 at schedules[2].record.timezone: not an IANA time zone.',
    );
    expect(
      refusal(edited((f) => delete (f.schedules[0]!.history[1] as Partial<ScheduleRun>).at)).message,
    ).toBe(
      'The file does not fit store format 1 at schedules[0].history[1].at: Invalid input: expected number, received undefined.',
    );
    expect(refusal(edited((f) => (f.values['watch:w2n6tz'] = 3 as unknown as string))).message).toBe(
      'The file does not fit store format 1 at values.watch:w2n6tz: Invalid input: expected string, received number.',
    );
    expect(refusal(edited((f) => (f.schedules[0]!.record.id = '../etc'))).message).toBe(
      'The file does not fit store format 1 at schedules[0].record.id: not a schedule id.',
    );
  });

  it("reads a file that npm's banner precedes (npm run without --silent)", async () => {
    const text = await valid();
    const banner =
      '\n> herald@0.1.0 store\n> exec node --import ./src/node-check.mjs src/store-command.ts export\n\n';
    expect(parseStoreFile(banner + text)).toEqual(parseStoreFile(text));
    expect(refusal(`npm warn something\n${text}`)).toMatchObject({ code: 'malformed' });
  });
});
