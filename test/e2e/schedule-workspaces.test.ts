// Whose schedules /schedule shows on Slack, end to end: the real Bolt app in HTTP mode, sent signed
// slash commands as Slack sends them. A schedule posting into a private conversation
// (conversations.info is_private) is listed only in that channel, to its creator and the admins,
// never to a member of another channel, nor in another workspace; and adding a schedule "here"
// needs the member to be in the channel (conversations.members, paged as Slack pages it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../adapters/slack/adapter.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import {
  BOT_TOKEN,
  postSigned,
  slashPayload,
  startSlackFake,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { startSlackHttp } from '../adapters/slack/fake-config.ts';
import { SILENT_LOG, startWorld, type World } from '../schedule/world.ts';

const PRIVATE = 'C0PRIVATE1';
const GENERAL = 'C0GENERAL';

interface Where {
  team: string;
  channel: string;
  user: string;
}
const ALICE: Where = { team: 'T0HERALD', channel: PRIVATE, user: 'U0ALICE' };
const BOB: Where = { team: 'T0HERALD', channel: PRIVATE, user: 'U0BOB' };
const ADMIN: Where = { team: 'T0HERALD', channel: PRIVATE, user: 'UALLOWED01' };

let fake: SlackFake;
let channels: ChannelClients;
let world: World;
let adapter: SlackAdapter;
let url: string;
let n = 0;

beforeAll(async () => {
  fake = await startSlackFake();
  fake.privateChannels.add(PRIVATE);
  channels = createChannelClients({ slack: { botToken: BOT_TOKEN, apiUrl: `${fake.server.url}/api` } });
  world = await startWorld({
    channels,
    allow: { users: ['U0ALICE', 'U0BOB', 'UALLOWED01'], roles: [] },
    settings: { adminUsers: ['UALLOWED01'] },
  });
  ({ adapter, url } = await startSlackHttp(fake, world.registry, world.dispatcher, SILENT_LOG));
});
afterAll(async () => {
  await adapter.stop();
  await closeChannelClients(channels);
  await world.close();
  await fake.server.close();
});

/** Types `/schedule <text>` where `where` says, signed as Slack signs it; resolves with the answer's text. */
async function schedule(where: Where, text: string): Promise<string> {
  const id = `e2e-workspaces-${++n}`;
  const payload = {
    ...slashPayload('/schedule', text, fake.responseUrl(id)),
    team_id: where.team,
    channel_id: where.channel,
    channel_name: where.channel === PRIVATE ? 'privategroup' : 'general',
    user_id: where.user,
    user_name: where.user.slice(2).toLowerCase(),
  };
  const sent = await postSigned(url, new URLSearchParams(payload).toString());
  expect(sent.status).toBe(200);
  const [answer] = await waitFor(
    () => (fake.responses(id).length > 0 ? fake.responses(id) : undefined),
    10_000,
  );
  // A failure's reference (8 hex digits) taken out.
  return JSON.stringify(answer).replace(/ \(ref [0-9a-f]{8}\)/g, '');
}
const unknown = (id: string) => `There is no schedule \\"${id}\\"; /schedule list shows them all.`;

describe("a private channel's schedules", () => {
  let id: string;

  beforeAll(async () => {
    expect(await schedule(ALICE, 'add "every day at 09:00" /weather Lillehammer')).toContain(
      'in this channel',
    );
    id = (await world.store.listSchedules()).find((r) => r.command === '/weather Lillehammer')!.id;
  });

  it('keeps the workspace and the private channel with the schedule', async () => {
    expect((await world.store.getSchedule(id))?.home).toEqual({
      workspaceId: 'T0HERALD',
      privateChannelId: PRIVATE,
    });
  });

  it('lists them in that channel to their creator and to an admin', async () => {
    expect(await schedule(ALICE, 'list')).toContain(id);
    expect(await schedule(ADMIN, 'list')).toContain(id);
  });

  it('shows them to no other member, and nowhere else', async () => {
    const listed = await schedule(BOB, 'list');
    expect(listed).not.toContain(id);
    expect(listed).not.toContain('Lillehammer');
    expect(await schedule(BOB, `history ${id}`)).toContain(unknown(id));
    expect(await schedule({ ...BOB, channel: GENERAL }, 'list')).not.toContain(id);
    expect(await schedule({ ...ALICE, channel: GENERAL }, 'list')).not.toContain(id);
    expect(await schedule({ ...ALICE, team: 'T0OTHERWS', channel: GENERAL }, `history ${id}`)).toContain(
      unknown(id),
    );
  });
});

describe('adding a schedule that posts here', () => {
  it('asks Slack who is in the channel, page by page, and adds it for a member', async () => {
    const before = fake.calls('conversations.members').length;
    expect(await schedule({ ...BOB, channel: GENERAL }, 'add "every day at 10:00" /weather Hamar')).toContain(
      'in this channel',
    );
    const pages = fake.calls('conversations.members').slice(before);
    // 300 others first, 200 a page: Bob is on the second page.
    expect(pages.map((q) => [q.get('channel'), q.get('limit'), q.get('cursor')])).toEqual([
      [GENERAL, '200', null],
      [GENERAL, '200', 'page:200'],
    ]);
  });

  it('refuses a user who is not in the channel, in one sentence, and stores nothing', async () => {
    fake.outsiders.add('U0BOB');
    try {
      const before = (await world.store.listSchedules()).length;
      const answer = await schedule({ ...BOB, channel: GENERAL }, 'add "every day at 11:00" /weather Gjøvik');
      expect(answer).toContain(
        'You are not a member of this channel, so herald will not post here for you; join it first, or add the schedule with to:&lt;destination&gt;.',
      );
      expect(await world.store.listSchedules()).toHaveLength(before);
    } finally {
      fake.outsiders.delete('U0BOB');
    }
  });
});
