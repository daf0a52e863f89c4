// Each posted run's link for /schedule history, from the client that posted it: a Discord channel's
// from the guild kept at add time (no request), a Discord webhook's from its webhook object (one
// GET per webhook, kept), a Slack channel's from chat.getPermalink; none for a DM, a Slack incoming
// webhook, a run that posted nothing, or a platform that cannot say, and the history still shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelClients, closeChannelClients, type ChannelClients } from '../../src/destinations.ts';
import { createMessageLinker } from '../../src/schedule/message-links.ts';
import type { ScheduleRecord, ScheduleRun } from '../../src/schedule/schedules.ts';
import { SANDBOX_PREFIXES } from '../../src/sandbox/layout.ts';
import { WEBHOOK_MAGIC, webhookHandlers } from '../../src/sandbox/webhook.ts';
import { type WebhookClient } from '../../src/services/webhook/client.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { createSlackWebhookClient } from '../../src/services/webhook/slack.ts';
import {
  BOT_TOKEN,
  CHANNEL_ID,
  GUILD_ID,
  startFakeDiscord,
  type FakeDiscord,
} from '../adapters/discord/fake-discord.ts';
import {
  BOT_TOKEN as SLACK_BOT_TOKEN,
  permalinkOf,
  startSlackFake,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const WEBHOOK_TOKEN = 'links-test-webhook-token';
const OPS_ID = '1300000000000000071';
const MESSAGE_ID = '1300000000000000099';

let discord: FakeDiscord;
let slack: SlackFake;
let hooks: SandboxServer;
let guildless: SandboxServer;
let channels: ChannelClients;
let webhooks: Record<string, WebhookClient>;
const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
const log = {
  debug: () => undefined,
  info: () => undefined,
  warn: (fields: Record<string, unknown>, msg: string) => void warnings.push({ fields, msg }),
  error: () => undefined,
};

beforeAll(async () => {
  [discord, slack, hooks, guildless] = await Promise.all([
    startFakeDiscord(),
    startSlackFake(),
    startFake(webhookHandlers({ credential: WEBHOOK_TOKEN, guildId: GUILD_ID })),
    startFake(webhookHandlers({ credential: WEBHOOK_TOKEN })),
  ]);
  channels = createChannelClients({
    discord: { token: BOT_TOKEN, apiUrl: discord.apiUrl },
    slack: { botToken: SLACK_BOT_TOKEN, apiUrl: `${slack.server.url}/api` },
  });
  const hook = (server: SandboxServer, id: string) =>
    createWebhookClient({ baseUrl: server.url + SANDBOX_PREFIXES.webhook, id, token: WEBHOOK_TOKEN });
  webhooks = {
    ops: hook(hooks, OPS_ID),
    gone: hook(hooks, WEBHOOK_MAGIC.unknownWebhookId),
    simulated: hook(guildless, OPS_ID),
    team: createSlackWebhookClient({
      baseUrl: `${slack.server.url}/services/T0HERALD`,
      id: 'B0TEAM',
      token: 'slack-webhook-secret-not-real',
    }),
  };
});
afterAll(async () => {
  await closeChannelClients(channels);
  await Promise.all(Object.values(webhooks).map((w) => w.close()));
  await Promise.all([discord.close(), slack.server.close(), hooks.close(), guildless.close()]);
});

const linker = () => createMessageLinker({ channels, services: {}, destinations: webhooks, log });

function schedule(destination: string, guildId?: string): ScheduleRecord {
  return {
    id: 'k7p2mx',
    when: 'hourly',
    cron: '0 * * * *',
    words: 'every hour',
    timezone: 'UTC',
    destination,
    ...(guildId ? { guildId } : {}),
    command: '/weather Oslo',
    creator: { platform: 'discord', id: '80351110224678912', displayName: 'Ada', roles: [] },
    paused: false,
    createdAt: Date.parse('2026-03-27T12:00:00Z'),
  };
}

function posted(messageId: string | undefined, channelId?: string): ScheduleRun {
  return {
    slotId: '2026-03-27T13:00:00.000Z',
    at: Date.parse('2026-03-27T13:00:02Z'),
    outcome: 'posted',
    ...(messageId ? { messageId } : {}),
    ...(channelId ? { channelId } : {}),
  };
}

describe('Discord', () => {
  it('links a channel post from the guild kept at add time, asking Discord nothing', async () => {
    const before = discord.calls.length;
    const link = await linker()(
      schedule(`channel:discord:${CHANNEL_ID}`, GUILD_ID),
      posted(MESSAGE_ID, CHANNEL_ID),
    );
    expect(link).toBe(`https://discord.com/channels/${GUILD_ID}/${CHANNEL_ID}/${MESSAGE_ID}`);
    expect(discord.calls.length).toBe(before);
  });

  it('makes no link for a channel with no guild (a DM, or a schedule added before guilds were kept)', async () => {
    expect(await linker()(schedule(`channel:discord:${CHANNEL_ID}`), posted(MESSAGE_ID, CHANNEL_ID))).toBe(
      undefined,
    );
  });

  it("links a webhook post from the webhook object's guild, fetched once per webhook", async () => {
    const link = linker();
    const gets = () => hooks.requests.filter((r) => r.method === 'GET').length;
    const before = gets();
    const first = await link(schedule('ops'), posted(MESSAGE_ID, '1187421520894746722'));
    const second = await link(schedule('ops'), posted('1300000000000000100', '1187421520894746722'));
    expect(first).toBe(`https://discord.com/channels/${GUILD_ID}/1187421520894746722/${MESSAGE_ID}`);
    expect(second).toBe(`https://discord.com/channels/${GUILD_ID}/1187421520894746722/1300000000000000100`);
    expect(gets() - before).toBe(1);
    const request = hooks.requests.filter((r) => r.method === 'GET').at(-1);
    expect(request?.pathname).toBe(`${SANDBOX_PREFIXES.webhook}/${OPS_ID}/${WEBHOOK_TOKEN}`);
  });

  it('makes no link for a webhook in no guild, nor for a post whose channel Discord did not name', async () => {
    expect(await linker()(schedule('simulated'), posted(MESSAGE_ID, '1234567890123456789'))).toBe(undefined);
    const before = hooks.requests.length;
    expect(await linker()(schedule('ops'), posted(MESSAGE_ID))).toBe(undefined);
    expect(hooks.requests.length).toBe(before);
  });

  it('logs a webhook it cannot read (404 Unknown Webhook) and makes no link', async () => {
    warnings.length = 0;
    expect(await linker()(schedule('gone'), posted(MESSAGE_ID, CHANNEL_ID))).toBe(undefined);
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'schedule.message_link_failed',
        fields: expect.objectContaining({ scheduleId: 'k7p2mx' }),
      }),
    ]);
    expect(JSON.stringify(warnings)).not.toContain(WEBHOOK_TOKEN);
  });
});

describe('Slack', () => {
  it('links a channel post with the permalink chat.getPermalink answers', async () => {
    const sent = await channels.slack!.post('C0GENERAL', { platform: 'slack', text: 'Oslo', blocks: [] });
    const link = await linker()(schedule('channel:slack:C0GENERAL'), posted(sent.id, sent.channelId));
    expect(link).toBe(permalinkOf('C0GENERAL', sent.id));
    const call = slack.calls('chat.getPermalink').at(-1);
    expect(call?.get('channel')).toBe('C0GENERAL');
    expect(call?.get('message_ts')).toBe(sent.id);
    const request = slack.server.requests.filter((r) => r.pathname === '/api/chat.getPermalink').at(-1);
    // Slack's own client POSTs every method as a form, which Slack takes for every method.
    expect(request?.method).toBe('POST');
    expect(request?.headers.authorization).toBe(`Bearer ${SLACK_BOT_TOKEN}`);
  });

  it('makes no link for a deleted message (message_not_found), without a warning', async () => {
    warnings.length = 0;
    const link = await linker()(
      schedule('channel:slack:C0GENERAL'),
      posted('1714569999.000001', 'C0GENERAL'),
    );
    expect(link).toBe(undefined);
    expect(warnings).toEqual([]);
  });

  it('makes no link for an incoming webhook post, which names no message', async () => {
    const before = slack.server.requests.length;
    expect(await linker()(schedule('team'), posted(undefined))).toBe(undefined);
    expect(slack.server.requests.length).toBe(before);
  });
});

it('makes no link for a run that did not post', async () => {
  const failed: ScheduleRun = { ...posted(MESSAGE_ID, CHANNEL_ID), outcome: 'failed', error: 'no' };
  expect(await linker()(schedule(`channel:discord:${CHANNEL_ID}`, GUILD_ID), failed)).toBe(undefined);
});
