// A Slack incoming webhook as a /schedule destination: recognised by its path on any allowed host,
// posted Block Kit from the one Slack renderer, its answers mapped to the delivery's decisions, its
// secret never shown.
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { loadScheduleConfig, parseDestinationUrl } from '../../src/config/schedule.ts';
import type { Reply } from '../../src/core/reply.ts';
import { createDeliverer } from '../../src/schedule/delivery.ts';
import { toOutboxPayload } from '../../src/schedule/delivery-options.ts';
import {
  closeDestinationClients,
  createDestinationClients,
  destinationMessages,
  slackWebhookMessage,
} from '../../src/destinations.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { SLACK_LIMITS } from '../../src/domain/slack.ts';
import { userMessageFor, type ConfigProblem } from '../../src/errors.ts';
import { redactText } from '../../src/redact.ts';
import { createSlackWebhookClient } from '../../src/services/webhook/slack.ts';
import {
  closeAfterEach,
  errorText,
  expectNoSecret,
  failure,
  htmlPage,
  useFakeServer,
  useLogCapture,
} from '../support/service-harness.ts';
import {
  SLACK_HOOK,
  SLACK_SECRET,
  SLACK_TEAM,
  slackHookUrl,
  slackWebhookHandlers,
  type SlackHookInbox,
} from '../support/slack-webhook.ts';
import { expectSlackEscaped, slackVisible } from '../safety/payloads.ts';
import { enqueue } from '../support/enqueue.ts';

const inbox: SlackHookInbox = { messages: [] };
const server = useFakeServer(() => slackWebhookHandlers(inbox));
const { log, lines } = useLogCapture();
const clients = closeAfterEach<ReturnType<typeof createSlackWebhookClient>>();

function client() {
  const destination = parseDestinationUrl(slackHookUrl(server.url));
  if (destination?.kind !== 'slack') throw new Error('not recognised as a Slack webhook');
  return clients.track(
    createSlackWebhookClient(destination, { log, httpOptions: { retryBaseMs: 1, requestTimeoutMs: 2_000 } }),
  );
}

const POST_ROUTE = `*/services/${SLACK_TEAM}/${SLACK_HOOK}/${SLACK_SECRET}`;

describe('a Slack incoming webhook as a destination', () => {
  it('is recognised by its path on hooks.slack.com, a proxy or loopback, and refused on plain http elsewhere', () => {
    const real = `https://hooks.slack.com/services/${SLACK_TEAM}/${SLACK_HOOK}/${SLACK_SECRET}`;
    expect(parseDestinationUrl(real)).toEqual({
      kind: 'slack',
      baseUrl: `https://hooks.slack.com/services/${SLACK_TEAM}`,
      id: SLACK_HOOK,
      token: SLACK_SECRET,
    });
    expect(
      parseDestinationUrl(`https://proxy.example/slack/services/${SLACK_TEAM}/${SLACK_HOOK}/x1`),
    ).toMatchObject({ kind: 'slack', baseUrl: `https://proxy.example/slack/services/${SLACK_TEAM}` });
    expect(parseDestinationUrl(slackHookUrl('http://127.0.0.1:9'))?.kind).toBe('slack');
    expect(parseDestinationUrl(slackHookUrl('http://hooks.example'))).toBeUndefined();
    expect(parseDestinationUrl(`${real}?x=1`)).toBeUndefined();
    expect(
      parseDestinationUrl(`https://hooks.slack.com/services/${SLACK_TEAM}/${SLACK_HOOK}`),
    ).toBeUndefined();
    expect(parseDestinationUrl('https://discord.com/api/webhooks/123/tok')).toMatchObject({
      kind: 'discord',
    });
  });

  it('is accepted as WEBHOOK_URL_<NAME> by the configuration check, its secret listed for redaction', () => {
    const problems: ConfigProblem[] = [];
    const config = loadScheduleConfig(
      { WEBHOOK_URL_TEAM: `https://hooks.slack.com/services/${SLACK_TEAM}/${SLACK_HOOK}/${SLACK_SECRET}` },
      undefined,
      problems,
    );
    expect(problems).toEqual([]);
    expect(config.destinations.team?.kind).toBe('slack');
    const bad: ConfigProblem[] = [];
    loadScheduleConfig({ WEBHOOK_URL_TEAM: 'https://hooks.slack.com/services/nope' }, undefined, bad);
    expect(bad[0]?.message).toMatch(/hooks\.slack\.com\/services/);
  });

  it('posts Block Kit with a text fallback and no unfurling, and Slack answers ok', async () => {
    const webhook = client();
    const posted = await webhook.post(slackWebhookMessage({ text: 'Paris: 12 °C, light rain' }));
    expect(posted).toEqual({ id: '' });
    expect(inbox.messages.at(-1)).toEqual({
      text: 'Paris: 12 °C, light rain',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Paris: 12 °C, light rain', verbatim: true } },
      ],
      unfurl_links: false,
      unfurl_media: false,
    });
    const request = server.requests.at(-1)!;
    expect(request.headers['content-type']).toMatch(/application\/json/);
    expect(request.headers.authorization).toBeUndefined();
  });

  it('turns each documented failure into the code the delivery decides on, never showing the secret', async () => {
    const cases = [
      [400, 'invalid_payload', 'invalid_request'],
      [400, 'invalid_blocks', 'invalid_request'],
      [403, 'action_prohibited', 'forbidden'],
      [403, 'invalid_token', 'unauthorized'],
      [404, 'channel_not_found', 'not_found'],
      [404, 'no_service', 'not_found'],
      [410, 'channel_is_archived', 'not_found'],
      [500, 'rollup_error', 'upstream'],
      [502, '<html>Bad gateway</html>', 'upstream'],
    ] as const;
    for (const [status, body, code] of cases) {
      server.use(http.post(POST_ROUTE, () => htmlPage(body, status)));
      const err = await failure(client().post(slackWebhookMessage({ text: 'x' })), SLACK_SECRET);
      expect([status, body, err.code]).toEqual([status, body, code]);
      expect(err.status).toBe(status);
      server.resetHandlers();
    }
    expectNoSecret([SLACK_SECRET], ...lines);
  });

  it('marks each documented error that is for good as a refusal, whatever its status; the general-channel setting is named', async () => {
    const cases = [
      [410, 'channel_is_archived', true],
      [404, 'channel_not_found', true],
      [404, 'no_service', true],
      [403, 'invalid_token', true],
      [403, 'action_prohibited', true],
      [403, 'posting_to_general_channel_denied', true],
      [400, 'invalid_payload', false],
      [500, 'rollup_error', false],
    ] as const;
    for (const [status, body, isRefusal] of cases) {
      server.use(http.post(POST_ROUTE, () => htmlPage(body, status)));
      const err = await failure(client().post(slackWebhookMessage({ text: 'x' })), SLACK_SECRET);
      expect([body, err.refusal]).toEqual([body, isRefusal ? { platform: 'slack', code: body } : undefined]);
      if (isRefusal) expect(userMessageFor(err)).not.toMatch(/webhook service|check the input/);
      if (body === 'posting_to_general_channel_denied') {
        expect(err.code).toBe('forbidden');
        expect(err.message).toContain('"People who can post in #general"');
      }
      server.resetHandlers();
    }
  });

  it('reads a 429 Retry-After in seconds for the delivery to wait out, without retrying the POST itself', async () => {
    server.use(http.post(POST_ROUTE, () => htmlPage('rate_limited', 429, { 'retry-after': '30' })));
    const before = server.requests.length;
    const err = await failure(client().post(slackWebhookMessage({ text: 'x' })), SLACK_SECRET);
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(30_000);
    expect(server.requests.length - before).toBe(1);
  });

  it('counts a 200 that is not `ok` as not confirmed', async () => {
    server.use(http.post(POST_ROUTE, () => htmlPage('<html>login</html>', 200)));
    const err = await failure(client().post(slackWebhookMessage({ text: 'x' })), SLACK_SECRET);
    expect(err.code).toBe('bad_response');
  });

  it('refuses a Discord message before any request, and a Discord client refuses a Slack one', async () => {
    const before = server.requests.length;
    const err = await failure(client().post({ content: 'hi' }), SLACK_SECRET);
    expect(err.code).toBe('invalid_request');
    expect(server.requests.length).toBe(before);
    const [discord] = Object.values(
      createDestinationClients({
        destinations: {
          ops: { kind: 'discord', baseUrl: `${server.url}/api/webhooks`, id: '1', token: 'tok-discord-0001' },
        },
      }),
    );
    const refused = await failure(discord!.post(slackWebhookMessage({ text: 'x' })));
    expect(refused.code).toBe('invalid_request');
    await discord!.close();
    expect(server.requests.length).toBe(before);
  });

  it('keeps the webhook secret out of logs, errors and any text redacted, in the URL or alone', async () => {
    const url = slackHookUrl(server.url);
    createSlackWebhookClient(parseDestinationUrl(url)!); // registers the secret, as start-up does
    expect(redactText(`posting to ${url} failed`)).not.toContain(SLACK_SECRET);
    expect(redactText(`token ${SLACK_SECRET}`)).not.toContain(SLACK_SECRET);
    server.use(http.post(POST_ROUTE, () => htmlPage(`no_service for ${url}`, 404)));
    const err = await failure(client().post(slackWebhookMessage({ text: 'x' })), SLACK_SECRET);
    expectNoSecret([SLACK_SECRET], errorText(err), ...lines);
  });
});

describe('a reply rendered for a Slack incoming webhook', () => {
  const renderFor = destinationMessages(
    {
      destinations: {
        team: { kind: 'slack', baseUrl: 'https://hooks.slack.com/services/T1', id: 'B1', token: 'secret-1' },
        ops: { kind: 'discord', baseUrl: 'https://discord.com/api/webhooks', id: '1', token: 'secret-2' },
      },
    },
    'herald',
  );

  it('is Slack for a Slack destination and Discord for the others', () => {
    expect(renderFor({ text: 'x' }, 'team')).toMatchObject({ platform: 'slack', text: 'x' });
    expect(renderFor({ text: 'x' }, 'ops')).toEqual({ content: 'x', username: 'herald' });
    expect(renderFor({ text: 'x' }, 'default')).toEqual({ content: 'x', username: 'herald' });
  });

  it('stays within Slack limits for a huge reply: at most 50 blocks, sections of at most 3000', async () => {
    const reply: Reply = {
      text: 'w'.repeat(20_000),
      embeds: Array.from({ length: 30 }, (_, i) => ({
        title: `Listing ${i}`,
        description: 'd '.repeat(2_000),
        fields: Array.from({ length: 12 }, (_, j) => ({ name: `f${j}`, value: 'v'.repeat(500) })),
      })),
    };
    const message = slackWebhookMessage(reply);
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    for (const block of message.blocks) {
      if (block.type === 'section' && block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    expect(message.text.length).toBeGreaterThan(0);
    expect(slackVisible(message)).toContain('not shown');
    await client().post(message);
    expect(inbox.messages.at(-1)?.blocks).toEqual(message.blocks);
  });

  it('pings no one: broadcasts and user mentions are escaped in the text and the blocks', async () => {
    const reply: Reply = {
      text: '<!channel> <!here> <!everyone> <@U024BE7LH> @channel report',
      embeds: [
        {
          title: '<!here> title',
          description: '<@U024BE7LH> desc',
          fields: [{ name: '@here', value: '<!channel>' }],
        },
      ],
    };
    const message = slackWebhookMessage(reply);
    expectSlackEscaped(message);
    await client().post(message);
    const sent = JSON.stringify(inbox.messages.at(-1));
    expect(sent).not.toMatch(/<!(channel|here|everyone)>|<@U/);
  });

  it('leaves out an image or audio file with one line saying so, and lists buttons as commands', () => {
    const reply: Reply = {
      text: 'Sessions 1,204',
      embeds: [{ title: 'Analytics', image: 'chart.png' }],
      attachments: [
        { filename: 'chart.png', contentType: 'image/png', bytes: new Uint8Array(10) },
        { filename: 'briefing.mp3', contentType: 'audio/mpeg', bytes: new Uint8Array(10) },
      ],
      actions: [{ label: 'Next page', command: 'jobs', input: { what: 'rust', page: 2 } }],
    };
    const message = slackWebhookMessage(reply);
    expect(message).not.toHaveProperty('files');
    const visible = slackVisible(message);
    expect(visible.match(/cannot carry files/g)).toHaveLength(1);
    expect(visible).toContain('2 files left out (chart.png, briefing.mp3)');
    expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(visible).toContain('Next page: `/jobs what:rust page:2`');
  });
});

describe('a Slack destination through the outbox: its answers become the delivery decisions', () => {
  async function deliverOnce(answers: (() => Response | undefined)[]) {
    let call = 0;
    server.use(http.post(POST_ROUTE, () => answers[call++]?.()));
    const nowMs = Date.parse('2026-11-27T07:30:00Z');
    const store = createMemoryStore({ now: () => nowMs });
    const destination = parseDestinationUrl(slackHookUrl(server.url))!;
    const destinations = createDestinationClients({ destinations: { team: destination } });
    const silent = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    const deliverer = createDeliverer({
      store,
      services: {},
      destinations,
      log: silent,
      owner: 'test',
      now: () => nowMs,
      backoffMs: 1,
    });
    await enqueue(store, {
      id: 'schedule-1|slot|0:webhook',
      job: 'schedule-1',
      slotId: 'slot',
      kind: 'webhook',
      payload: toOutboxPayload({
        kind: 'webhook',
        destination: 'team',
        message: slackWebhookMessage({ text: 'Weather for Paris: 12 °C' }),
      }),
    });
    const before = inbox.messages.length;
    const outcomes = (await deliverer.drain()).map((r) => r.outcome);
    await closeDestinationClients(destinations);
    await store.close();
    return { outcome: outcomes[0], posted: inbox.messages.length - before };
  }

  it('ok: delivered once, as Block Kit', async () => {
    const { outcome, posted } = await deliverOnce([]);
    expect([outcome, posted]).toEqual(['delivered', 1]);
    expect(inbox.messages.at(-1)?.text).toBe('Weather for Paris: 12 °C');
  });

  it('429 with a short Retry-After is waited out and delivered; a long one goes back to the outbox', async () => {
    const short = await deliverOnce([() => htmlPage('rate_limited', 429, { 'retry-after': '0' })]);
    expect([short.outcome, short.posted]).toEqual(['delivered', 1]);
    const long = await deliverOnce([() => htmlPage('rate_limited', 429, { 'retry-after': '3600' })]);
    expect([long.outcome, long.posted]).toEqual(['pending', 0]);
  });

  it('5xx (rollup_error) is retried', async () => {
    const { outcome, posted } = await deliverOnce([() => htmlPage('rollup_error', 500)]);
    expect([outcome, posted]).toEqual(['delivered', 1]);
  });

  it.each([
    [404, 'no_service'],
    [404, 'channel_not_found'],
    [410, 'channel_is_archived'],
    [403, 'action_prohibited'],
    [400, 'invalid_payload'],
  ] as const)('%i %s is given up: no retry makes it better', async (status, error) => {
    const { outcome, posted } = await deliverOnce([() => htmlPage(error, status)]);
    expect([outcome, posted]).toEqual(['given_up', 0]);
  });
});
