// /schedule on Slack end to end: the manifest `npm run register -- --slack-manifest` prints (from
// src/app.ts's offered commands) lists /schedule; the real Bolt app in HTTP mode (createSlackAdapter),
// sent signed slash commands as Slack sends them, takes `/schedule add` in a channel with no `to:`;
// the runner, its clock moved over two slot boundaries, posts each slot once into that channel with
// chat.postMessage; `/schedule history` then links each run's message with Slack's permalink. When
// Slack then refuses the channel (archived), the slot pauses the schedule, and the creator's next
// command, through Bolt, carries the sentence saying so. Added with thread:yes, its next slot
// replies under the first post's ts; with mode:edit it updates the first post (chat.update); with
// to:me it posts into the creator's DM (conversations.open); with a schedule admin's ping: its
// posts' first block is exactly that user group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackManifest } from '../../adapters/slack/manifest.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import type { ScheduleRunner } from '../../src/schedule/runner.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import {
  BOT_TOKEN,
  SIGNING_SECRET,
  permalinkOf,
  postSigned,
  slashBody,
  startSlackFake,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { startSlackHttp } from '../adapters/slack/fake-config.ts';
import { offeredRegistry, replica, SILENT_LOG, startWorld, type World } from '../schedule/world.ts';
import { postInTwoSlots } from './schedule-slots.ts';

const clock = { at: new Date('2026-03-27T12:00:00Z') };
const now = () => clock.at;
/** The channel slashBody types in, and the user who types (allowed to manage schedules). */
const CHANNEL = 'C0GENERAL';
const USER = 'U0ALICE';

let fake: SlackFake;
let channels: ChannelClients;
let world: World;
let runner: ScheduleRunner;
let url: string;
let stop: () => Promise<void>;
let n = 0;

beforeAll(async () => {
  // The fake counts its rate windows on the test clock, as Slack would over real slots.
  fake = await startSlackFake({ now: () => clock.at.getTime() });
  channels = createChannelClients({ slack: { botToken: BOT_TOKEN, apiUrl: `${fake.server.url}/api` } });
  world = await startWorld({
    now,
    channels,
    allow: { users: [USER], roles: [] },
    settings: { adminUsers: [USER] },
    notices: { take: (actor) => runner.notices.take(actor) },
  });
  runner = replica(world, createMemoryStore({ now: () => clock.at.getTime() }), {
    now,
    owner: 'replica-a',
    channels,
  });
  ({ url, stop } = await startSlackHttp(fake, world.registry, world.dispatcher, SILENT_LOG));
});
afterAll(async () => {
  await runner.stop();
  await stop();
  await closeChannelClients(channels);
  await world.close();
  await fake.server.close();
});

/** Types `/schedule <text>` in the channel, signed as Slack signs it; resolves with the answer. */
async function schedule(text: string): Promise<Record<string, unknown>> {
  const id = `e2e-schedule-${++n}`;
  const sent = await postSigned(url, slashBody('/schedule', text, fake.responseUrl(id)));
  expect(sent.status).toBe(200);
  const [answer] = await waitFor(
    () => (fake.responses(id).length > 0 ? fake.responses(id) : undefined),
    10_000,
  );
  return answer!;
}

describe('/schedule on Slack, end to end', () => {
  it('is in the manifest npm run register -- --slack-manifest prints', () => {
    const { registry } = offeredRegistry({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
    });
    const manifest = slackManifest(registry, { requestUrl: 'https://herald.example.com/slack/events' });
    const command = manifest.features.slash_commands.find((c) => c.command === '/schedule');
    expect(command).toMatchObject({ url: 'https://herald.example.com/slack/events', should_escape: false });
    expect(command?.description).toMatch(/add.*history/);
    expect(manifest.oauth_config.scopes.bot).toEqual(expect.arrayContaining(['chat:write', 'channels:read']));
  });

  it('added in a channel with no to:, posts once per slot there with chat.postMessage; history links each run', async () => {
    const added = await schedule('add "hourly" /weather Oslo');
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({
      destination: `channel:slack:${CHANNEL}`,
      creator: { platform: 'slack', id: USER },
    });
    expect(record?.guildId).toBeUndefined();
    expect(added.text).toBe(
      `Schedule ${record!.id} added: every hour, on the hour (UTC), /weather Oslo in this channel.`,
    );
    expect(fake.calls('conversations.info').at(-1)?.get('channel')).toBe(CHANNEL);

    const posts = () => fake.server.requests.filter((r) => r.pathname === '/api/chat.postMessage');
    const perSlot = await postInTwoSlots(runner, clock, posts);
    for (const request of perSlot.flat()) {
      expect(request.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
      const form = new URLSearchParams(request.body);
      expect(form.get('channel')).toBe(CHANNEL);
      expect(form.get('blocks')).toContain('Oslo');
    }
    const [first, second] = fake.posted.get(CHANNEL)!.slice(-2);

    const history = await schedule(`history ${record!.id}`);
    const fields = (history.blocks as { type: string; fields?: { text: string }[] }[])
      .filter((b) => b.type === 'section' && b.fields)
      .flatMap((b) => b.fields!.map((f) => f.text));
    // Each field: the slot in bold, then the outcome and the message's permalink as a link.
    // Each time is Slack's date token, each reader's own time; its fallback read here.
    const fallbacks = (text: string) =>
      text.replace(/<!date\^\d+\^\{date_short_pretty\} \{time\}\|([^>]*)>/g, '$1');
    expect(fields.some((f) => f.includes('<!date^'))).toBe(true);
    fields.splice(0, fields.length, ...fields.map(fallbacks));
    expect(fields.map((f) => f.split('\n')[1])).toEqual([
      `posted Fri, 27 Mar 2026, 14:00 UTC <${permalinkOf(CHANNEL, second!)}|view message>`,
      `posted Fri, 27 Mar 2026, 13:00 UTC <${permalinkOf(CHANNEL, first!)}|view message>`,
    ]);
    expect(fields[0]).toMatch(/^\*slot Fri, 27 Mar 2026, 14:00 UTC · \d+\.\d s\*\n/);
    expect(fields[1]).toMatch(/^\*slot Fri, 27 Mar 2026, 13:00 UTC · \d+\.\d s\*\n/);
    const asked = fake
      .calls('chat.getPermalink')
      .slice(-2)
      .map((q) => q.get('message_ts'));
    expect(asked.sort()).toEqual([first, second].sort());
  });

  it("a channel archived in Slack pauses the schedule, and the creator's next command says so", async () => {
    const [record] = await world.store.listSchedules();
    fake.archived.add(CHANNEL);
    try {
      const before = fake.calls('chat.postMessage').length;
      clock.at = new Date(clock.at.getTime() + 60 * 60_000);
      await runner.tick();
      await runner.tick();
      expect(fake.calls('chat.postMessage').length - before).toBe(1);
      const stored = await world.store.getSchedule(record!.id);
      expect(stored?.paused).toBe(true);
      expect(stored?.lastRun?.error).toContain('#general is archived in Slack');
      const answer = await schedule('list');
      expect(String(answer.text)).toContain('#general is archived in Slack');
      expect(String(answer.text)).toContain(`/schedule resume ${record!.id}`);
      // Told once: the next command carries nothing more.
      expect(String((await schedule('list')).text)).not.toContain('is archived in Slack; unarchive it');
    } finally {
      fake.archived.delete(CHANNEL);
    }
  });

  it('thread:yes typed before the command: the first slot posts, the next replies under its ts', async () => {
    for (const r of await world.store.listSchedules()) await world.store.removeSchedule(r.id);
    await schedule('add "hourly" thread:yes /weather Oslo');
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({ lands: 'thread', command: '/weather Oslo' });
    const before = fake.posted.get(CHANNEL)?.length ?? 0;
    for (const slot of ['13:00', '14:00']) {
      clock.at = new Date(`2026-03-28T${slot}:05Z`);
      expect((await runner.tick()).map((o) => o.status)).toEqual(['posted']);
    }
    const parents = fake.posted.get(CHANNEL)!.slice(before);
    expect(parents).toHaveLength(1);
    expect(fake.replies.get(parents[0]!)).toHaveLength(1);
    expect(fake.calls('chat.postMessage').at(-1)?.get('thread_ts')).toBe(parents[0]);
  });

  /** Adds one schedule (the earlier ones removed) and runs its two slots of a day of its own. */
  async function addAndRun(line: string, day: string): Promise<void> {
    for (const r of await world.store.listSchedules()) await world.store.removeSchedule(r.id);
    expect(JSON.stringify(await schedule(line))).toMatch(/Schedule \w+ added/);
    for (const slot of ['13:00', '14:00']) {
      clock.at = new Date(`${day}T${slot}:05Z`);
      expect((await runner.tick()).map((o) => o.status)).toEqual(['posted']);
    }
  }

  it('mode:edit typed after the command: the first slot posts, the next updates it in place (chat.update)', async () => {
    const before = fake.posted.get(CHANNEL)?.length ?? 0;
    await addAndRun('add "hourly" /weather Oslo mode:edit', '2026-03-29');
    const boards = fake.posted.get(CHANNEL)!.slice(before);
    expect(boards).toHaveLength(1);
    expect(fake.edits.get(boards[0]!)).toBe(1);
    expect(fake.calls('chat.update').at(-1)?.get('ts')).toBe(boards[0]);
  });

  it("to:me: each slot posts into the creator's DM (conversations.open, im:write), not the channel", async () => {
    fake.scopes.add('im:write');
    try {
      const before = fake.posted.get(CHANNEL)?.length ?? 0;
      await addAndRun('add "hourly" to:me /weather Oslo', '2026-03-30');
      const [record] = await world.store.listSchedules();
      const dm = `D${USER.slice(1)}`;
      expect(record).toMatchObject({ destination: `channel:slack:${dm}`, isDirect: true });
      expect(fake.posted.get(dm)).toHaveLength(2);
      expect(fake.posted.get(CHANNEL)?.length ?? 0).toBe(before);
    } finally {
      fake.scopes.delete('im:write');
    }
  });

  it("a schedule admin's ping: each post's first block is exactly the user group, and nothing else mentions", async () => {
    const before = fake.calls('chat.postMessage').length;
    const posted = fake.posted.get(CHANNEL)?.length ?? 0;
    await addAndRun('add "hourly" ping:<!subteam^S0ONCALL1|oncall> /weather Oslo', '2026-03-31');
    expect(fake.posted.get(CHANNEL)!.length - posted).toBe(2);
    const sent = fake.calls('chat.postMessage').slice(before);
    expect(sent).toHaveLength(2);
    for (const post of sent) {
      const blocks = JSON.parse(post.get('blocks') ?? '[]') as { text?: { text: string } }[];
      expect(blocks[0]?.text?.text).toBe('<!subteam^S0ONCALL1>');
      expect(JSON.stringify(blocks.slice(1))).not.toMatch(/<@|<!(subteam|here|channel|everyone)/);
    }
  });
});
