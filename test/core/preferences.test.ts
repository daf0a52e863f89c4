// Preferences kept in every store (memory, SQLite, the real Redis on 127.0.0.1:6379) through the
// store's key/value part, and the one resolution of what applies: a typed command's (the user's,
// then the channel's, then the default) and a scheduled post's (the channel's, then the creator's).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import { createPreferenceBook, type PreferenceBook } from '../../src/core/preferences.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';

const { dir, runPrefix } = storeScratch('herald-prefs-');

const ADA: Actor = { platform: 'discord', id: '331245678901234567', displayName: 'Ada', roles: [] };
const BOB: Actor = { platform: 'discord', id: '33124567890123456', displayName: 'Bob', roles: [] };
const CHANNEL = { platform: 'discord', id: '1200000000000000001' } as const;

const backends: { name: string; open(): Promise<Store[]> }[] = [
  { name: 'memory', open: () => Promise.resolve([createMemoryStore()]) },
  {
    name: 'sqlite',
    open: () => {
      const file = join(dir, randomUUID(), 'store.sqlite');
      // Two handles on one file: what one process wrote, a restart reads.
      return Promise.resolve([createSqliteStore(file), createSqliteStore(file)]);
    },
  },
  {
    name: 'redis',
    open: () => {
      const keyPrefix = `${runPrefix}${randomUUID()}:`;
      return Promise.all([
        createRedisStore(REDIS_URL, { keyPrefix }),
        createRedisStore(REDIS_URL, { keyPrefix }),
      ]);
    },
  },
];

describe.each(backends)('preferences in the $name store', (backend) => {
  let stores: Store[] = [];
  let book: PreferenceBook;
  let other: PreferenceBook;

  beforeEach(async () => {
    stores = await backend.open();
    book = createPreferenceBook(stores[0]!, { timezone: 'UTC' });
    other = createPreferenceBook(stores.at(-1)!, { timezone: 'UTC' });
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
  });

  it('keeps what a user and a channel set, for every handle on the store', async () => {
    await book.write({ kind: 'user', actor: ADA }, { timezone: 'Europe/Berlin', home: 'Berlin,DE' });
    await book.write({ kind: 'channel', channel: CHANNEL }, { units: 'imperial', language: 'fr' });
    expect(await other.read({ kind: 'user', actor: ADA })).toEqual({
      timezone: 'Europe/Berlin',
      home: 'Berlin,DE',
    });
    expect(await other.read({ kind: 'channel', channel: CHANNEL })).toEqual({
      units: 'imperial',
      language: 'fr',
    });
    // Bob's id is the start of Ada's: still another person.
    expect(await other.read({ kind: 'user', actor: BOB })).toEqual({});
  });

  it('clears one value, and the whole record with its last one, leaving a longer id alone', async () => {
    await book.write({ kind: 'user', actor: BOB }, { units: 'standard' });
    await book.write({ kind: 'user', actor: ADA }, { timezone: 'Asia/Tokyo', units: 'imperial' });
    expect(await book.write({ kind: 'user', actor: ADA }, { units: undefined })).toEqual({
      timezone: 'Asia/Tokyo',
    });
    expect(await book.write({ kind: 'user', actor: BOB }, { units: undefined })).toEqual({});
    expect(await other.read({ kind: 'user', actor: BOB })).toEqual({});
    expect(await other.read({ kind: 'user', actor: ADA })).toEqual({ timezone: 'Asia/Tokyo' });
  });

  it('resolves a typed command: the user first, then the channel, then the default', async () => {
    expect(await other.forCommand(ADA, CHANNEL)).toEqual({
      ...{ timezone: 'UTC', units: 'metric', language: 'en-GB' },
      from: { timezone: 'default', units: 'default', language: 'default', home: 'default' },
    });
    await book.write(
      { kind: 'channel', channel: CHANNEL },
      { timezone: 'America/New_York', units: 'imperial' },
    );
    await book.write({ kind: 'user', actor: ADA }, { timezone: 'Europe/Berlin', home: 'Berlin' });
    expect(await other.forCommand(ADA, CHANNEL)).toEqual({
      ...{ timezone: 'Europe/Berlin', units: 'imperial', language: 'en-GB', home: 'Berlin' },
      from: { timezone: 'user', units: 'channel', language: 'default', home: 'user' },
    });
    // Outside the channel (the console, a DM), the channel's values do not apply.
    expect((await other.forCommand(ADA)).units).toBe('metric');
  });

  it("resolves a scheduled post: its tz:, else its channel's, else its creator's; the creator's home", async () => {
    await book.write(
      { kind: 'channel', channel: CHANNEL },
      { timezone: 'America/New_York', units: 'imperial' },
    );
    await book.write(
      { kind: 'user', actor: ADA },
      { timezone: 'Europe/Berlin', units: 'standard', home: 'Oslo' },
    );
    const post = { creator: ADA, destination: `channel:discord:${CHANNEL.id}`, timezone: 'Europe/Berlin' };
    const inChannel = await other.forSchedule(post);
    expect(inChannel).toMatchObject({ timezone: 'America/New_York', units: 'imperial', home: 'Oslo' });
    expect(inChannel.from).toMatchObject({ timezone: 'channel', units: 'channel', home: 'user' });
    const typed = await other.forSchedule({ ...post, timezone: 'Asia/Tokyo', isZoneTyped: true });
    expect(typed).toMatchObject({ timezone: 'Asia/Tokyo', from: { timezone: 'schedule' } });
    // A named webhook is no channel anyone set: the creator's values apply.
    const webhook = await other.forSchedule({ ...post, destination: 'ops' });
    expect(webhook).toMatchObject({ timezone: 'Europe/Berlin', units: 'standard' });
    // Nobody set a zone: the one the schedule fires in.
    const plain = await other.forSchedule({
      ...post,
      creator: BOB,
      destination: 'ops',
      timezone: 'Asia/Tokyo',
    });
    expect(plain).toMatchObject({ timezone: 'Asia/Tokyo', units: 'metric', from: { timezone: 'schedule' } });
  });

  it("resolves a to:me post: its tz:, then its creator's, before any setting of the DM channel", async () => {
    const dm = { platform: 'discord', id: '1300000000000000003' } as const;
    await book.write({ kind: 'channel', channel: dm }, { timezone: 'America/New_York', units: 'imperial' });
    await book.write({ kind: 'user', actor: ADA }, { timezone: 'Europe/Berlin' });
    const post = { creator: ADA, destination: `channel:discord:${dm.id}`, timezone: 'UTC', isDirect: true };
    const direct = await other.forSchedule(post);
    expect(direct).toMatchObject({ timezone: 'Europe/Berlin', units: 'imperial' });
    expect(direct.from).toMatchObject({ timezone: 'user', units: 'channel' });
    const typed = await other.forSchedule({ ...post, timezone: 'Asia/Tokyo', isZoneTyped: true });
    expect(typed).toMatchObject({ timezone: 'Asia/Tokyo', from: { timezone: 'schedule' } });
    // The same DM not marked as to:me reads the channel's first, as any channel post does.
    expect(await other.forSchedule({ ...post, isDirect: false })).toMatchObject({
      timezone: 'America/New_York',
    });
  });
});

describe('a value the store holds from elsewhere', () => {
  it('is dropped when it is no setting herald knows, and the default applies', async () => {
    const store = createMemoryStore();
    await store.setValue(
      `prefs:user:discord:${ADA.id}/`,
      JSON.stringify({ units: 'furlongs', language: 'tlh' }),
    );
    const book = createPreferenceBook(store, { timezone: 'Europe/London' });
    expect(await book.forCommand(ADA)).toMatchObject({
      units: 'metric',
      language: 'en-GB',
      timezone: 'Europe/London',
    });
  });
});
