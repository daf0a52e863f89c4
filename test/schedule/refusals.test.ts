// A platform's refusal means what it says: a delivery whose failure carries one (Slack's
// `not_in_channel` at HTTP 200, an incoming webhook's `channel_is_archived` at 410, Discord's 10003)
// pauses the schedule, on a scheduled slot and on /schedule run, and its creator is told: by DM
// where herald can send one (Slack with im:write), else with the reply to their next command; a
// schedule added on the console (a webhook-only set-up) says it in /schedule list and the log. The
// refusing destination is never sent the notice.
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import {
  closeChannelClients,
  createChannelClients,
  slackWebhookMessage,
  type ChannelClients,
} from '../../src/destinations.ts';
import { ServiceError } from '../../src/errors.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import type { ChannelClient, WebhookClient } from '../../src/services/webhook/client.ts';
import { createSlackWebhookClient } from '../../src/services/webhook/slack.ts';
import { BOT_TOKEN, startSlackFake, type SlackFake } from '../adapters/slack/fakes.ts';
import { startFake } from '../support/sandbox-server.ts';
import type { SandboxServer } from '../support/sandbox-server.ts';
import { channelBench, OPERATOR, startWorld, type ChannelBench, type World } from './world.ts';

const ADA: Actor = { platform: 'slack', id: 'U0ADA', displayName: 'ada', roles: [] };
const BOB: Actor = { platform: 'slack', id: 'U0BOB', displayName: 'bob', roles: [], isOperator: true };

let world: World;
let slack: SlackFake;
let hooks: SandboxServer;
let channels: ChannelClients;
let hookAnswer: { status: number; body: string } = { status: 200, body: 'ok' };
beforeAll(async () => {
  [world, slack, hooks] = await Promise.all([
    startWorld(),
    startSlackFake(),
    startFake([
      http.post('*/services/T0HERALD/:id/:secret', () => new HttpResponse(hookAnswer.body, hookAnswer)),
    ]),
  ]);
  channels = createChannelClients({ slack: { botToken: BOT_TOKEN, apiUrl: `${slack.server.url}/api` } });
});
afterAll(async () => {
  await closeChannelClients(channels);
  await Promise.all([world.close(), slack.server.close(), hooks.close()]);
});

let benches: ChannelBench[] = [];
afterEach(async () => {
  await Promise.all(benches.map((b) => b.runner.stop()));
  benches = [];
  slack.token.state = 'ok';
  slack.scopes.delete('im:write');
  hookAnswer = { status: 200, body: 'ok' };
});

interface LogLine {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

function bench(clients: ChannelClients = channels, destinations?: Record<string, WebhookClient>) {
  const lines: LogLine[] = [];
  const write = (level: string) => (fields: object, msg: string) =>
    void lines.push({ level, msg, fields: fields as Record<string, unknown> });
  const log = { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
  const made = channelBench(world, clients, {
    log,
    ...(destinations ? { destinations, toMessage: (reply) => slackWebhookMessage(reply) } : {}),
  });
  benches.push(made);
  return { ...made, lines };
}

/** Adds `/weather Oslo` daily at 12:05 in `channel` as `creator`, then makes Slack refuse it with `refuse`. */
async function addThenRefuse(b: ChannelBench, channel: ChatChannel, refuse: () => void, creator = ADA) {
  const { record } = await b.service.add(
    { when: 'every day at 12:05', command: '/weather Oslo', channel },
    creator,
  );
  refuse();
  return record;
}

async function runScheduledSlot(b: ChannelBench) {
  b.clock.at = new Date('2026-03-27T12:05:10Z');
  return [...(await b.runner.tick()), ...(await b.runner.tick())];
}

const dmPosts = () => slack.calls('chat.postMessage').filter((c) => c.get('channel')?.startsWith('D'));

/** Each refusal Slack documents, and how the fake is made to answer it. */
const SLACK_REFUSALS: [string, (channel: string) => void, ChannelClients | undefined][] = [
  ['not_in_channel', (c) => slack.notMember.add(c), undefined],
  ['channel_not_found', (c) => slack.deleted.add(c), undefined],
  ['is_archived', (c) => slack.archived.add(c), undefined],
  ['token_revoked', () => (slack.token.state = 'revoked'), undefined],
  ['account_inactive', () => (slack.token.state = 'inactive'), undefined],
];

describe('Slack channel: each refusal pauses the schedule and tells its creator', () => {
  it.each(SLACK_REFUSALS.map(([code, refuse], i) => [code, refuse, `C0REFUSE${i}`] as const))(
    '%s: paused, the channel named as the user knows it, the creator told with their next command',
    async (code, refuse, channelId) => {
      const b = bench();
      const record = await addThenRefuse(b, { platform: 'slack', id: channelId }, () => refuse(channelId));
      const before = slack.calls('chat.postMessage').length;
      const outcomes = await runScheduledSlot(b);
      expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['given_up']);
      const stored = await b.schedules.getSchedule(record.id);
      expect(stored?.paused).toBe(true);
      expect(stored?.lastRun).toMatchObject({ outcome: 'failed', paused: true });
      const error = stored!.lastRun!.error!;
      expect(error).toContain(`<#${channelId}>`);
      expect(error).toContain(`/schedule resume ${record.id}`);
      expect(error).not.toMatch(/webhook service|check the input|channel:slack/);
      // One post tried, and no notice sent to the channel that refuses.
      expect(slack.calls('chat.postMessage').length - before).toBe(1);
      expect(
        b.lines.some((l) => l.msg === 'schedule.paused_destination_gone' && l.fields.refusal === code),
      ).toBe(true);
      // No im:write: the notice waits for Ada's next command, once.
      expect(await b.runner.notices.take(ADA)).toBe(error);
      expect(await b.runner.notices.take(ADA)).toBeUndefined();
      // Paused: the next slot does not post.
      b.clock.at = new Date('2026-03-28T12:05:10Z');
      expect(await b.runner.tick()).toEqual([]);
    },
  );

  it('invalid_auth (a token Slack does not know): paused, and told', async () => {
    const wrong = createChannelClients({
      slack: { botToken: 'xoxb-stale-token', apiUrl: `${slack.server.url}/api` },
    });
    try {
      const b = bench(wrong);
      // Added while the token was good (checked with it); its posts then go with the stale one.
      const { record } = await bench().service.add(
        {
          when: 'every day at 12:05',
          command: '/weather Oslo',
          channel: { platform: 'slack', id: 'C0GENERAL' },
        },
        ADA,
      );
      await b.schedules.addSchedule(record, 50);
      const outcomes = await runScheduledSlot(b);
      expect(outcomes[0]!.deliveries.map((d) => d.outcome)).toEqual(['given_up']);
      expect((await b.schedules.getSchedule(record.id))?.paused).toBe(true);
      expect(await b.runner.notices.take(ADA)).toContain("Slack no longer accepts herald's token");
    } finally {
      await closeChannelClients(wrong);
    }
  });

  it('missing_scope names the scope, in the history and in what the creator is told', async () => {
    const b = bench();
    const record = await addThenRefuse(b, { platform: 'slack', id: 'C0GENERAL' }, () =>
      slack.scopes.delete('chat:write'),
    );
    try {
      await runScheduledSlot(b);
    } finally {
      slack.scopes.add('chat:write');
    }
    const stored = await b.schedules.getSchedule(record.id);
    expect(stored?.paused).toBe(true);
    expect(stored?.lastRun?.error).toContain('lacks the chat:write scope');
    expect(await b.runner.notices.take(ADA)).toContain('lacks the chat:write scope');
  });

  it('with im:write, the creator is told by DM at once, and nothing waits for their next command', async () => {
    slack.scopes.add('im:write');
    const b = bench();
    const record = await addThenRefuse(b, { platform: 'slack', id: 'C0DMTEST' }, () =>
      slack.archived.add('C0DMTEST'),
    );
    const before = dmPosts().length;
    await runScheduledSlot(b);
    const sent = dmPosts().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.get('channel')).toBe('D0ADA');
    expect(sent[0]!.get('text')).toBe((await b.schedules.getSchedule(record.id))?.lastRun?.error);
    expect(await b.runner.notices.take(ADA)).toBeUndefined();
  });

  it('on /schedule run by someone else: paused, and the creator told', async () => {
    const b = bench();
    const record = await addThenRefuse(b, { platform: 'slack', id: 'C0MANUAL' }, () =>
      slack.notMember.add('C0MANUAL'),
    );
    const { result: run } = await b.service.run(record.id, BOB);
    expect(run.outcome).toBe('failed');
    expect((await b.schedules.getSchedule(record.id))?.paused).toBe(true);
    expect(await b.runner.notices.take(ADA)).toContain('herald is not a member of <#C0MANUAL>');
  });

  it('on /schedule run by its creator: paused, and the reply is the telling (nothing waits)', async () => {
    const b = bench();
    const record = await addThenRefuse(b, { platform: 'slack', id: 'C0MINE' }, () =>
      slack.notMember.add('C0MINE'),
    );
    const { result: run } = await b.service.run(record.id, ADA);
    expect(run.outcome).toBe('failed');
    expect(run.error).toContain('herald is not a member of <#C0MINE>');
    expect((await b.schedules.getSchedule(record.id))?.paused).toBe(true);
    expect(await b.runner.notices.take(ADA)).toBeUndefined();
  });
});

describe('a platform-neutral refusal: Discord through the same port', () => {
  it("Discord's 10003 at HTTP 404 pauses the schedule and its creator is told by the Discord DM port", async () => {
    const dms: [string, string][] = [];
    const discord: ChannelClient = {
      post: () =>
        Promise.reject(
          new ServiceError({
            service: 'webhook',
            operation: 'createMessage',
            code: 'not_found',
            status: 404,
            refusal: { platform: 'discord', code: '10003' },
            message: 'Discord says the channel <#1187421520894746722> no longer exists.',
          }),
        ),
      check: () => Promise.resolve(undefined),
      messageLink: () => Promise.resolve(undefined),
      directMessage: (user, text) => {
        dms.push([user, text]);
        return Promise.resolve({ id: '1300000000000000200', channelId: '1300000000000000100' });
      },
      audience: () => Promise.resolve({ isPrivate: false }),
      close: () => Promise.resolve(),
    };
    const b = bench({ discord });
    const ANN: Actor = { platform: 'discord', id: '1100000000000000001', displayName: 'ann', roles: [] };
    const { record } = await b.service.add(
      {
        when: 'every day at 12:05',
        command: '/weather Oslo',
        channel: { platform: 'discord', id: '1187421520894746722' },
      },
      ANN,
    );
    await runScheduledSlot(b);
    expect((await b.schedules.getSchedule(record.id))?.paused).toBe(true);
    expect(dms).toHaveLength(1);
    expect(dms[0]![0]).toBe(ANN.id);
    expect(dms[0]![1]).toContain('<#1187421520894746722>');
  });
});

describe('Slack incoming webhook, webhook-only (added on the console)', () => {
  /** A schedule added on the console that posts to the `ops` incoming webhook, and its bench. */
  async function withHookSchedule(
    run: (b: ReturnType<typeof bench>, record: ScheduleRecord) => Promise<void>,
  ): Promise<void> {
    const ops = createSlackWebhookClient({
      baseUrl: `${hooks.url}/services/T0HERALD`,
      id: 'B0HOOK',
      token: 'slack-hook-secret-for-tests',
    });
    try {
      const b = bench(channels, { ops });
      const { record } = await b.service.add(
        { when: 'every day at 12:05', command: '/weather Oslo', to: 'ops' },
        OPERATOR,
      );
      await run(b, record);
    } finally {
      await ops.close();
    }
  }

  it.each([
    [410, 'channel_is_archived'],
    [404, 'channel_not_found'],
    [404, 'no_service'],
    [403, 'invalid_token'],
    [403, 'action_prohibited'],
  ] as const)('%i %s pauses the schedule; /schedule list and the log say so', async (status, error) => {
    await withHookSchedule(async (b, record) => {
      hookAnswer = { status, body: error };
      await runScheduledSlot(b);
      const stored = await b.schedules.getSchedule(record.id);
      expect(stored?.paused).toBe(true);
      expect(stored?.lastRun?.error).toContain(`/schedule resume ${record.id}`);
      const listed = await b.service.list({ actor: OPERATOR });
      expect(JSON.stringify(listed)).toContain(stored!.lastRun!.error!.slice(0, 40));
      expect(b.lines.some((l) => l.level === 'warn' && l.msg === stored!.lastRun!.error)).toBe(true);
    });
  });

  it('posting_to_general_channel_denied pauses the schedule and names the setting', async () => {
    await withHookSchedule(async (b, record) => {
      hookAnswer = { status: 403, body: 'posting_to_general_channel_denied' };
      await runScheduledSlot(b);
      const stored = await b.schedules.getSchedule(record.id);
      expect(stored?.paused).toBe(true);
      expect(stored?.lastRun?.error).toContain('"People who can post in #general"');
      expect(await b.runner.notices.take(OPERATOR)).toContain('"People who can post in #general"');
    });
  });

  it('three failed slots are told to the creator, never to the webhook that refuses the posts', async () => {
    await withHookSchedule(async (b, record) => {
      hookAnswer = { status: 400, body: 'invalid_blocks' };
      const before = hooks.requests.length;
      for (const day of ['27', '28', '29']) {
        b.clock.at = new Date(`2026-03-${day}T12:05:10Z`);
        await b.runner.tick();
      }
      expect((await b.schedules.getSchedule(record.id))?.paused).toBe(false);
      // Three posts tried, and no fourth carrying the notice to the webhook that refuses.
      expect(hooks.requests.length - before).toBe(3);
      expect(await b.runner.notices.take(OPERATOR)).toContain('failed 3 times in a row');
    });
  });
});
