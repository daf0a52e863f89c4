// /schedule on the platforms, through the real dispatcher and the real schedule commands: on
// Discord (the real discord.js client against a fake gateway and REST API) `to` and `tz` are
// autocompleted and the reply to `add` carries Run now / Remove buttons that work; on Slack (the
// real Bolt app in HTTP mode) the short form is read and the same buttons come back as Block Kit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAdapter } from '../../src/core/adapter.ts';
import {
  USER_ID,
  buttonClick,
  slashCommand,
  startFakeDiscord,
  type FakeDiscord,
} from '../adapters/discord/fake-discord.ts';
import {
  buttonBody,
  postSigned,
  slashBody,
  startSlackFake,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { startDiscordGateway } from '../adapters/discord/fake-config.ts';
import { startSlackHttp } from '../adapters/slack/fake-config.ts';
import { SILENT_LOG, startWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld({ allow: { users: [USER_ID, 'U0ALICE'], roles: [] } });
});
afterAll(() => world.close());

describe('Discord', () => {
  let fake: FakeDiscord;
  let adapter: ChatAdapter;
  let n = 0;
  const token = () => `schedule-interaction-${++n}-aW50ZXJhY3Rpb246`;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    adapter = await startDiscordGateway(fake, world.registry, world.dispatcher, SILENT_LOG);
  });
  afterAll(async () => {
    await adapter.stop();
    await fake.close();
  });

  async function send(payload: { token: string }, kind: string) {
    fake.dispatch('INTERACTION_CREATE', payload);
    return fake.waitFor((c) => c.token === payload.token && c.kind === kind, 8_000);
  }

  it('autocompletes `to` with the destinations and `tz` with IANA zones', async () => {
    const ask = async (option: string, value: string) => {
      const t = token();
      const base = slashCommand({
        name: 'schedule',
        subcommand: 'add',
        token: t,
        options: [
          { name: 'when', type: 3, value: 'hourly' },
          { name: option, type: 3, value, focused: true },
        ],
      });
      const autocompleteEvent = Object.assign(base, { type: 4 });
      const call = await send(autocompleteEvent, 'callback');
      return (call.json as { data: { choices: { value: string }[] } }).data.choices.map((c) => c.value);
    };
    expect(await ask('to', '')).toEqual(['default', 'ops']);
    expect(await ask('tz', 'new_y')).toEqual(['America/New_York']);
  });

  it('adds a schedule and answers with Run now, Remove and Preview buttons; Remove removes it', async () => {
    const t = token();
    const edit = await send(
      slashCommand({
        name: 'schedule',
        subcommand: 'add',
        token: t,
        options: [
          { name: 'when', type: 3, value: 'every weekday at 07:30' },
          { name: 'command', type: 3, value: '/weather Oslo units:imperial' },
          { name: 'to', type: 3, value: 'ops' },
          { name: 'tz', type: 3, value: 'Europe/Berlin' },
        ],
      }),
      'edit',
    );
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({
      destination: 'ops',
      timezone: 'Europe/Berlin',
      creator: { platform: 'discord', id: USER_ID },
    });
    const embeds = edit.json!.embeds as { title: string }[];
    expect(embeds[0]!.title).toBe(`Schedule ${record!.id} added`);
    const rows = edit.json!.components as { components: { custom_id: string; label: string }[] }[];
    const buttons = rows.flatMap((r) => r.components);
    expect(buttons.map((b) => b.label)).toEqual(['Run now', 'Remove', 'Preview']);

    const click = token();
    await send(buttonClick({ customId: buttons[1]!.custom_id, token: click }), 'edit');
    expect(await world.store.listSchedules()).toEqual([]);
  });
});

describe('Slack', () => {
  let fake: SlackFake;
  let url: string;
  let stop: () => Promise<void>;
  let n = 0;

  beforeAll(async () => {
    fake = await startSlackFake();
    ({ url, stop } = await startSlackHttp(fake, world.registry, world.dispatcher, SILENT_LOG));
  });
  afterAll(async () => {
    await stop();
    await fake.server.close();
  });

  it('reads the short form and answers with Run now, Remove and Preview buttons; a click is checked like a typed command', async () => {
    const id = `schedule-${++n}`;
    await postSigned(
      url,
      slashBody('/schedule', 'add "every monday at 09:00" /voices', fake.responseUrl(id)),
    );
    const [reply] = await waitFor(() => (fake.responses(id).length > 0 ? fake.responses(id) : undefined));
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({ command: '/voices', creator: { platform: 'slack', id: 'U0ALICE' } });
    expect(reply!.text).toBe(
      `Schedule ${record!.id} added: every Monday at 09:00 (UTC), /voices to default.`,
    );
    const blocks = reply!.blocks as {
      type: string;
      elements?: { action_id: string; value: string; text: { text: string } }[];
    }[];
    const buttons = blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
    expect(buttons.map((b) => b.text.text)).toEqual(['Run now', 'Remove', 'Preview']);

    const before = world.inbox.messages.length;
    const click = `schedule-click-${n}`;
    const b = buttons[0]!;
    await postSigned(
      url,
      buttonBody({ action_id: b.action_id, value: b.value, text: b.text.text }, fake.responseUrl(click)),
    );
    await waitFor(() => (fake.responses(click).length > 0 ? true : undefined));
    // The click comes from another user (U0BOB), who may not manage schedules: refused privately.
    const [answer] = fake.responses(click);
    expect(answer).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringMatching(
        /^You are not allowed to manage schedules: ask an admin to add you \(user id U0BOB\) to SCHEDULE_ALLOWED_USERS \(ref [0-9a-f]{8}\)\.$/,
      ),
    });
    expect(world.inbox.messages.length).toBe(before);
    await world.store.removeSchedule(record!.id);
  });
});
