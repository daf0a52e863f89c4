// /schedule list's buttons on Discord end to end, across replicas: two HTTP-mode replicas sharing
// Redis (the interaction claims and the button targets, src/core/component-state.ts) on the real
// dispatcher and schedule service. The list, answered privately by one replica, carries Run now,
// Pause and Remove on each schedule within Discord's 5 rows of 5 (the fake refuses more); a press
// signed to the other replica pauses the schedule; anyone who may not manage it gets one sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createButtonTargets } from '../../adapters/discord/custom-id.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import type { Store } from '../../src/store/store.ts';
import {
  BOT_TOKEN,
  USER_ID,
  buttonClick,
  slashCommand,
  startFakeDiscord,
  type FakeDiscord,
} from '../adapters/discord/fake-discord.ts';
import {
  generateKeys,
  post,
  signedHeaders,
  startHttpReplica,
  type HttpReplica,
} from '../adapters/discord/http-support.ts';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../support/redis.ts';
import { SILENT_LOG, startWorld, type World } from '../schedule/world.ts';

const keys = generateKeys();
const prefix = testKeyPrefix();
let fake: FakeDiscord;
let channels: ChannelClients;
let world: World;
let stores: Store[] = [];
let replicas: HttpReplica[] = [];
let n = 0;

beforeAll(async () => {
  fake = await startFakeDiscord();
  channels = createChannelClients({ discord: { token: BOT_TOKEN, apiUrl: fake.apiUrl } });
  world = await startWorld({ channels, allow: { users: [USER_ID], roles: [] } });
  stores = await Promise.all([0, 1].map(() => createRedisStore(REDIS_URL, { keyPrefix: prefix })));
  replicas = await Promise.all(
    stores.map((store) =>
      startHttpReplica({
        keys,
        apiUrl: fake.apiUrl,
        webhook: fake.webhook,
        log: SILENT_LOG,
        claims: store,
        buttonTargets: createButtonTargets(store),
        registry: world.registry,
        handlers: () => world.dispatcher,
      }),
    ),
  );
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await Promise.all(stores.map((s) => s.close()));
  await deleteKeys(prefix);
  await closeChannelClients(channels);
  await world.close();
  await fake.close();
});

const token = () => `list-${++n}-aW50ZXJhY3Rpb246`;

async function signed(replica: HttpReplica, packet: unknown) {
  const body = JSON.stringify(packet);
  return post(replica.url, body, signedHeaders(keys, body), 10_000);
}

describe('/schedule list’s buttons on two Discord HTTP replicas sharing Redis', () => {
  it('a Pause pressed on the other replica pauses the schedule', async () => {
    const ada = { platform: 'discord' as const, id: USER_ID, displayName: 'Ada', roles: [] };
    await world.type('/schedule add "every weekday at 07:30" /weather Oslo', ada);
    await world.type('/schedule add hourly /weather Bergen', ada);
    const [first] = await world.store.listSchedules();

    const listToken = token();
    const listed = await signed(
      replicas[0]!,
      slashCommand({ name: 'schedule', subcommand: 'list', token: listToken }),
    );
    expect(listed.json).toEqual({ type: 5, data: { flags: 64 } });
    const edit = await fake.waitFor((c) => c.token === listToken && c.kind === 'edit', 10_000);
    const rows = edit.json?.components as { components: { label: string; custom_id: string }[] }[];
    const buttons = rows.flatMap((r) => r.components);
    expect(rows.length).toBeLessThanOrEqual(5);
    expect(buttons.map((b) => b.label)).toEqual(
      expect.arrayContaining([`Run ${first!.id} now`, `Pause ${first!.id}`, `Remove ${first!.id}`]),
    );
    const pause = buttons.find((b) => b.label === `Pause ${first!.id}`)!;

    const pressToken = token();
    const pressed = await signed(
      replicas[1]!,
      buttonClick({ customId: pause.custom_id, token: pressToken, messageFlags: 64 }),
    );
    expect(pressed.json).toEqual({ type: 6 });
    const answer = await fake.waitFor((c) => c.token === pressToken && c.kind === 'edit', 10_000);
    expect(answer.json?.content).toBe(
      `Schedule ${first!.id} is paused; /schedule resume ${first!.id} starts it again.`,
    );
    expect((await world.store.getSchedule(first!.id))?.paused).toBe(true);
  });

  it('anyone who may not manage schedules is refused in one sentence', async () => {
    const [first] = await world.store.listSchedules();
    const click = buttonClick({
      customId: `h1:${JSON.stringify(['schedule remove', { id: first!.id }])}`,
      token: token(),
      messageFlags: 64,
    });
    const stranger = { ...click.member, user: { ...click.member.user, id: '80351110224678999' } };
    const refused = await signed(replicas[1]!, { ...click, member: stranger });
    expect(refused.json).toMatchObject({ type: 4, data: { flags: 64 } });
    expect((refused.json as { data: { content: string } }).data.content).toMatch(/SCHEDULE_ALLOWED_USERS/);
    expect(await world.store.getSchedule(first!.id)).toBeDefined();
  });
});
