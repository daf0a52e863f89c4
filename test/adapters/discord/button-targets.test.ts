// Long button targets live in the shared store: a button rendered by one replica is pressed on
// another (or after a restart), on a node:sqlite file shared by two handles and on Redis. A target
// expires after COMPONENT_TTL_MS, unless it belongs to a schedule, which keeps it until removed.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDiscordAdapter } from '../../../adapters/discord/adapter.ts';
import { english } from '../../../src/i18n/translate.ts';

const EXPIRED_BUTTON_MESSAGE = english('common:expiredButton');
import { createButtonTargets } from '../../../adapters/discord/custom-id.ts';
import type { AdapterHandlers, ChatAdapter } from '../../../src/core/adapter.ts';
import { COMPONENT_TTL_MS, forgetComponents } from '../../../src/core/component-state.ts';
import { defineCommand } from '../../../src/core/command.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { createSqliteStore } from '../../../src/store/sqlite-store.ts';
import { createRedisStore } from '../../../src/store/redis-store.ts';
import type { Store } from '../../../src/store/store.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../../support/redis.ts';
import { directContext, recordingLog, type LogLine } from '../../support/command-doubles.ts';
import { storeScratch } from '../../support/scratch.ts';
import {
  buttonClick,
  slashCommand,
  startFakeDiscord,
  type FakeDiscord,
  type OptionValue,
} from './fake-discord.ts';
import { fakeDiscordConfig } from './fake-config.ts';
import { generateKeys, post, signedHeaders, startHttpReplica } from './http-support.ts';

const { dir } = storeScratch('herald-buttons-');
const SCHEDULE_ID = 'k7p2mx';
const LONG = 'remote rust developer in Oslo or Bergen, full time, '.repeat(3);

const ran: Record<string, unknown>[] = [];
const registry = createRegistry([
  defineCommand({
    name: 'jobs',
    description: 'Search job listings',
    options: z.object({ what: z.string().describe('What'), page: z.number().default(1).describe('Page') }),
    needs: [],
    handler: (input) => {
      ran.push(input);
      return Promise.resolve({
        text: `Page ${input.page} of ${input.what}`,
        actions: [{ label: 'Next ▶', command: 'jobs', input: { what: input.what, page: input.page + 1 } }],
      });
    },
  }),
  defineCommand({
    name: 'schedule run',
    description: 'Run a schedule now',
    options: z.object({ id: z.string().describe('Id'), note: z.string().default('').describe('Note') }),
    needs: [],
    handler: (input) => {
      ran.push(input);
      return Promise.resolve({
        text: `Ran ${input.id}`,
        actions: [{ label: 'Run again', command: 'schedule run', input: { id: input.id, note: LONG } }],
      });
    },
  }),
]);

const handlers: AdapterHandlers = {
  async onInvocation(inv) {
    const command = registry.get(inv.command)!;
    inv.beginWork?.();
    await inv.respond(await command.handler(command.options.parse(inv.rawInput), directContext(inv, 't')));
  },
  onAutocomplete: () => Promise.resolve([]),
};

let fake: FakeDiscord;
let running: ChatAdapter | undefined;
const opened: Store[] = [];
const redisPrefix = testKeyPrefix();
let tokens = 0;
const newToken = () => `button-token-${(tokens += 1)}-aW50ZXJhY3Rpb246`;

beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  ran.length = 0;
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await deleteKeys(redisPrefix);
  await fake?.close();
});

/** One replica on its own handle of the shared store; the one running until the next starts. */
async function replica(store: Store, logs: LogLine[] = []): Promise<void> {
  await running?.stop();
  const owners = {
    of: (t: { input: Record<string, unknown> }) => (typeof t.input.id === 'string' ? t.input.id : undefined),
    exists: async (id: string) => (await store.getSchedule(id)) !== undefined,
  };
  running = createDiscordAdapter({
    config: fakeDiscordConfig(fake),
    webhook: fake.webhook,
    log: recordingLog(logs),
    claims: store,
    buttonTargets: createButtonTargets(store, owners),
  });
  await running.start(registry, handlers);
}

/** Runs `/name` with options and hands back the custom_id of the button on its answer. */
async function buttonOf(
  name: string,
  subcommand: string | undefined,
  options: OptionValue[],
): Promise<string> {
  const token = newToken();
  fake.dispatch(
    'INTERACTION_CREATE',
    slashCommand({ name, ...(subcommand ? { subcommand } : {}), token, options }),
  );
  const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
  const rows = edit.json?.components as { components: { custom_id: string }[] }[];
  return rows[0]!.components[0]!.custom_id;
}

/** Presses the button; resolves with what answered it: the run's edit, or the "expired" notice. */
async function press(customId: string): Promise<string> {
  const token = newToken();
  fake.dispatch('INTERACTION_CREATE', buttonClick({ customId, token }));
  const call = await fake.waitFor(
    (c) => c.token === token && (c.kind === 'edit' || (c.kind === 'callback' && c.json?.type === 4)),
  );
  const data = (call.kind === 'edit' ? call.json : call.json?.data) as { content: string };
  return data.content;
}

const schedule = (createdAt: number) => ({
  id: SCHEDULE_ID,
  when: 'every day at 08:00',
  cron: '0 8 * * *',
  words: 'every day at 08:00',
  timezone: 'UTC',
  destination: 'default',
  command: '/jobs what:rust',
  creator: { platform: 'discord' as const, id: 'U1', displayName: 'Ada', roles: [] },
  paused: false,
  onlyNew: false,
  createdAt,
});

describe('long buttons on a node:sqlite file shared by two replicas', () => {
  let t = 1_763_800_000_000;
  const file = join(dir, randomUUID(), 'store.sqlite');
  const open = () => {
    const store = createSqliteStore(file, { now: () => t });
    opened.push(store);
    return store;
  };

  it('a button rendered by one replica runs on the other, and after a restart', async () => {
    await replica(open());
    const id = await buttonOf('jobs', undefined, [{ name: 'what', type: 3, value: LONG }]);
    expect(id).toMatch(/^h1#[A-Za-z0-9_-]{24}$/);
    await replica(open());
    expect(await press(id)).toContain('Page 2 of');
    expect(ran.at(-1)).toEqual({ what: LONG, page: 2 });
    await replica(open());
    expect(await press(id)).toContain('Page 2 of');
  });

  it(`answers "expired" once the target's ${COMPONENT_TTL_MS / 86_400_000} days have passed`, async () => {
    const logs: LogLine[] = [];
    await replica(open(), logs);
    const id = await buttonOf('jobs', undefined, [{ name: 'what', type: 3, value: `${LONG} (2)` }]);
    t += COMPONENT_TTL_MS - 1;
    await replica(open(), logs);
    expect(await press(id)).toContain('Page 2 of');
    t += 1;
    expect(await press(id)).toBe(EXPIRED_BUTTON_MESSAGE);
    expect(logs.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  });

  it("keeps a schedule's button past the ttl while the schedule exists, and not after its removal", async () => {
    const store = open();
    await store.addSchedule(schedule(t), 10);
    await replica(store);
    const id = await buttonOf('schedule', 'run', [{ name: 'id', type: 3, value: SCHEDULE_ID }]);
    expect(id).toMatch(new RegExp(`^h1#[A-Za-z0-9_-]{24}\\.${SCHEDULE_ID}$`));
    t += 2 * COMPONENT_TTL_MS;
    const other = open();
    await replica(other);
    expect(await press(id)).toBe(`Ran ${SCHEDULE_ID}`);
    expect(ran.at(-1)).toEqual({ id: SCHEDULE_ID, note: LONG });
    // What the schedule service does as it removes a schedule (service.ts).
    await other.removeSchedule(SCHEDULE_ID);
    await forgetComponents(other, SCHEDULE_ID);
    expect(await press(id)).toBe(EXPIRED_BUTTON_MESSAGE);
  });
});

describe('long buttons on Redis shared by two replicas', () => {
  const open = async () => {
    const store = await createRedisStore(REDIS_URL, { keyPrefix: redisPrefix });
    opened.push(store);
    return store;
  };

  it('a button rendered by one replica runs on the other', async () => {
    await replica(await open());
    const id = await buttonOf('jobs', undefined, [{ name: 'what', type: 3, value: `${LONG} (redis)` }]);
    await replica(await open());
    expect(await press(id)).toContain('Page 2 of');
  });

  it("keeps a schedule's button without expiry until the schedule is removed", async () => {
    const store = await open();
    await store.addSchedule(schedule(Date.now()), 10);
    await replica(store);
    const id = await buttonOf('schedule', 'run', [{ name: 'id', type: 3, value: SCHEDULE_ID }]);
    const other = await open();
    await replica(other);
    expect(await press(id)).toBe(`Ran ${SCHEDULE_ID}`);
    await other.removeSchedule(SCHEDULE_ID);
    await forgetComponents(other, SCHEDULE_ID);
    expect(await press(id)).toBe(EXPIRED_BUTTON_MESSAGE);
  });
});

describe('long buttons in HTTP mode, two replicas on one node:sqlite file', () => {
  it('a button rendered by one replica is answered by the other', async () => {
    const keys = generateKeys();
    const file = join(dir, randomUUID(), 'store.sqlite');
    const stores = [0, 1].map(() => createSqliteStore(file));
    opened.push(...stores);
    const replicas = await Promise.all(
      stores.map((store) =>
        startHttpReplica({
          keys,
          apiUrl: fake.apiUrl,
          webhook: fake.webhook,
          log: recordingLog([]),
          claims: store,
          registry,
          handlers: () => handlers,
          buttonTargets: createButtonTargets(store),
        }),
      ),
    );
    try {
      const token = newToken();
      const options = [{ name: 'what', type: 3, value: `${LONG} (http)` }];
      const command = JSON.stringify(slashCommand({ name: 'jobs', token, options }));
      await post(replicas[0]!.url, command, signedHeaders(keys, command));
      const edit = await fake.waitFor((c) => c.token === token && c.kind === 'edit');
      const rows = edit.json?.components as { components: { custom_id: string }[] }[];
      const customId = rows[0]!.components[0]!.custom_id;
      expect(customId).toMatch(/^h1#/);
      const click = newToken();
      const body = JSON.stringify(buttonClick({ customId, token: click }));
      const answer = await post(replicas[1]!.url, body, signedHeaders(keys, body));
      expect(answer.json).toMatchObject({ type: 6 });
      const update = await fake.waitFor((c) => c.token === click && c.kind === 'edit');
      expect(update.json?.content).toContain('Page 2 of');
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });
});
