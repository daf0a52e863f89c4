// Mention and markup injection: every field herald echoes, typed by the invoker or sent by an
// upstream, carries each payload through the real dispatcher and commands; the reply is rendered
// through every path a reply takes (a Discord interaction's answer and a Discord webhook post, a
// Slack command's answer and a Slack incoming-webhook post, the console), and the analytics summary
// goes out through the webhook client (loopback fake) and as HTML email.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderConsole } from '../../adapters/console/render.ts';
import { renderDiscord, renderDiscordWebhook, type DiscordMessage } from '../../src/render/discord.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { slackWebhookMessage } from '../../src/destinations.ts';
import { customIdFor } from '../../adapters/discord/custom-id.ts';
import { buildCommands } from '../../commands/index.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import type { Reply } from '../../src/core/reply.ts';
import { createRegistry } from '../../src/core/registry.ts';
import type { Services } from '../../src/core/services.ts';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { createWebhookInbox, webhookHandlers } from '../../src/sandbox/webhook.ts';
import { type WebhookMessage } from '../../src/services/webhook/client.ts';
import { createWebhookClient } from '../../src/services/webhook/discord-webhook.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { ECHO_CASES, type Sent } from './echo-cases.ts';
import { runAnalyticsSummary } from './analytics-run.ts';
import {
  INJECTION_ROWS,
  consoleForm,
  withoutVisibleEscapes,
  discordTexts,
  chatForm,
  expectConsolePlain,
  expectNoControls,
  expectDiscordSilent,
  expectHtmlEscaped,
  expectSlackEscaped,
  slackVisible,
} from './payloads.ts';
import { OPERATOR } from '../support/command-doubles.ts';

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

const commands = buildCommands({
  access: { emailUsers: [], emailRoles: [], emailDomains: [], hostUsers: [], hostRoles: [] },
  limits: { perUserPerMinute: 1_000, sayDailyChars: 100_000 },
  speechModelId: 'eleven_multilingual_v2',
  jobsCountry: 'gb',
});
const registry = createRegistry(commands);

/** Runs one command through the real dispatcher, as an adapter would, and returns its reply. */
async function run(command: string, rawInput: Record<string, unknown>, services: Services): Promise<Reply> {
  const dispatcher = createDispatcher({
    registry,
    services,
    log: quiet,
    commandTimeoutMs: 5_000,
    serviceVariables: {},
    now: () => new Date('2026-11-22T10:00:00Z'),
  });
  const replies: Reply[] = [];
  await dispatcher.onInvocation({
    command,
    rawInput,
    actor: OPERATOR,
    channelId: 'C0GENERAL',
    signal: new AbortController().signal,
    respond: (reply) => {
      replies.push(reply);
      return Promise.resolve();
    },
  });
  expect(replies).toHaveLength(1);
  return replies[0]!;
}

describe.each(ECHO_CASES)('echoed field: $field', (echo) => {
  it.each(INJECTION_ROWS)('never lets %s ping, link or inject markup', async (_title, payload) => {
    const sent: Sent = { emails: [] };
    const reply = await run(echo.command, echo.input(payload), echo.services(payload, sent));

    // Every path a reply takes: the same defences whichever one it is.
    const webhook = renderDiscordWebhook(reply);
    const discordPaths: DiscordMessage[] = [
      renderDiscord(reply, { customIdFor }),
      { ...renderDiscord(reply), ...webhook, embeds: webhook.embeds ?? [], content: webhook.content ?? '' },
    ];
    for (const discord of discordPaths) {
      expectDiscordSilent(discord);
      // No masked link survives where Discord renders one (content, descriptions, field values),
      // outside code: `[label](url)` would hide an address behind words.
      const linkable = [
        discord.content,
        ...discord.embeds.flatMap((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => f.value)]),
      ];
      const outsideCode = linkable.join('\n').replace(/```[\s\S]*?```|`[^`\n]*`/g, '');
      expect(outsideCode).not.toMatch(/(?<!\\)\[[^\]\n]*\]\(/);
    }
    const discord = discordPaths[0]!;
    const slack = renderSlack(reply);
    expectSlackEscaped(slack);
    expectSlackEscaped(slackWebhookMessage(reply));
    const terminal = renderConsole(reply);
    expectConsolePlain(terminal);

    if (echo.isShown ?? true) {
      // The payload did reach the reply: each platform shows it, harmless, without its control
      // characters (chats drop them; a refusal that quotes it has them as spaces already).
      const bare = (text: string) => text.replace(/[\p{Cc}\s]+/gu, '');
      expect(bare(discordTexts(discord).join('\n'))).toContain(bare(payload));
      expect(bare(slackVisible(slack))).toContain(bare(payload));
      expectNoControls(discordTexts(discord).join('\n'));
      expectNoControls(slackVisible(slack));
      const unspaced = (text: string) => text.replace(/\s+/g, '');
      expect(unspaced(withoutVisibleEscapes(terminal))).toContain(unspaced(consoleForm(payload)));
    }
    if (echo.isInEmailHtml) {
      expect(sent.emails).toHaveLength(1);
      expectHtmlEscaped(sent.emails[0]!.html, payload);
    }
  });
});

describe('webhook posts carrying a payload (analytics summary, GA4 dimension values)', () => {
  const WEBHOOK_ID = '1349081729583431690';
  const WEBHOOK_TOKEN = 'loopback-webhook-token-7c1e';
  const inbox = createWebhookInbox();
  let server: SandboxServer;

  beforeAll(async () => {
    server = await startFake(webhookHandlers({ credential: WEBHOOK_TOKEN, webhookId: WEBHOOK_ID, inbox }));
  });
  afterAll(() => server.close());

  /** Posts through the real webhook client and returns the JSON body the fake Discord received. */
  async function post(message: WebhookMessage): Promise<Record<string, unknown>> {
    const client = createWebhookClient({
      baseUrl: sandboxBaseUrl(server.url, 'webhook'),
      id: WEBHOOK_ID,
      token: WEBHOOK_TOKEN,
    });
    const before = server.requests.length;
    try {
      await client.post(message);
    } finally {
      await client.close();
    }
    expect(server.requests).toHaveLength(before + 1);
    // The JSON body, or the payload_json part of a multipart post with the chart.
    return inbox.messages.at(-1)!.body;
  }

  it.each(INJECTION_ROWS)(
    'posts %s as a page title with allowed_mentions empty and emails it escaped',
    async (_title, payload) => {
      const { webhook, email } = await runAnalyticsSummary(payload);

      const body = await post(webhook);
      expectDiscordSilent(body);
      const embeds = body.embeds as { fields: { value: string }[] }[];
      const top = embeds[0]!.fields.at(-1)!.value;
      // Discord markdown in a page title is escaped, so a title cannot become a masked link.
      expect(top.replace(/\\([\\*_~`|>[\]])/g, '$1')).toContain(chatForm(payload));
      expect(top).not.toContain('[click](');
      expectNoControls(top);

      expectHtmlEscaped(email.html, payload);
    },
  );

  it.each(INJECTION_ROWS)(
    'posts %s as plain content with allowed_mentions empty',
    async (_title, payload) => {
      const body = await post({ content: `No data for ${payload}`, username: 'herald reports' });
      expectDiscordSilent(body);
      expect(body.content).toBe(`No data for ${payload}`);
    },
  );
});

describe('an upstream job title in a scheduled post is defused exactly as in the typed command', () => {
  const WEBHOOK_ID = '1349081729583431691';
  const WEBHOOK_TOKEN = 'loopback-webhook-token-9d2f';
  const inbox = createWebhookInbox();
  let server: SandboxServer;
  beforeAll(async () => {
    server = await startFake(webhookHandlers({ credential: WEBHOOK_TOKEN, webhookId: WEBHOOK_ID, inbox }));
  });
  afterAll(() => server.close());

  const fields = ECHO_CASES.filter((c) => c.field === 'job title (S8)' || c.field === 'job company (S8)');
  const TEXTS = [
    '[click](https://evil.example)',
    'Senior \u202eved tsuR\u202c engineer',
    '\u2066[x](https://evil.example)\u2069',
  ];
  const rows = fields.flatMap((echo) =>
    TEXTS.map((t) => [`${echo.field}: ${JSON.stringify(t)}`, echo, t] as const),
  );

  it.each(rows)('%s', async (_name, echo, text) => {
    const reply = await run(echo.command, echo.input(text), echo.services(text, { emails: [] }));
    const typed = renderDiscord(reply, { customIdFor });
    const client = createWebhookClient({
      baseUrl: sandboxBaseUrl(server.url, 'webhook'),
      id: WEBHOOK_ID,
      token: WEBHOOK_TOKEN,
    });
    try {
      await client.post(renderDiscordWebhook(reply, { username: 'herald' }));
    } finally {
      await client.close();
    }
    const posted = inbox.messages.at(-1)!.body as { embeds: unknown[] };
    // The same embeds, byte for byte, as the answer to the typed command.
    expect(posted.embeds).toEqual(typed.embeds);
    const postedMessage = inbox.messages.at(-1)!.body as {
      content?: string;
      embeds: DiscordMessage['embeds'];
    };
    for (const message of [postedMessage, typed]) {
      expect(JSON.stringify(message)).not.toMatch(/\p{Bidi_Control}/u);
      // Where Discord renders a masked link (content, descriptions, field values), none is live.
      const linkable = [
        message.content ?? '',
        ...message.embeds.flatMap((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => f.value)]),
      ].join('\n');
      expect(linkable.replace(/```[\s\S]*?```|`[^`\n]*`/g, '')).not.toMatch(/(?<!\\)\[[^\]\n]*\]\(/);
    }
    // Slack: the slash command's answer and the incoming-webhook post show the same listing.
    const slackTyped = renderSlack(reply);
    const slackPosted = slackWebhookMessage(reply);
    const listing = (blocks: readonly { type: string }[]) =>
      blocks.filter((b) => b.type !== 'actions' && b.type !== 'context');
    expect(listing(slackPosted.blocks)).toEqual(listing(slackTyped.blocks));
    expect(JSON.stringify(slackPosted)).not.toMatch(/\p{Bidi_Control}/u);
    expectSlackEscaped(slackTyped);
  });
});
