// Read aloud and user installs in Discord HTTP mode, end to end: raw interactions signed with the
// application's key posted to herald's public server, the real commands and dispatcher on the
// simulated providers, the /say budget, and the answers read back from the fake Discord (Read aloud
// also through the real discord.js client on the fake gateway, last):
// - "Read aloud" on a message (a MESSAGE command, type 3) answers with an mp3 of its words and
//   charges the invoker's daily budget; a message past the model's limit is refused;
// - a user install (no guild, context 1 or 2, authorised by the user's install alone) answers
//   /weather with no gateway, within Discord's 5 follow-ups for such an interaction, which the fake
//   enforces (follow-up-limit.ts): every reading command, a long /jobs page and a chart too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/adapter.ts';
import { createHttpInteractions, discordPublicKey } from '../../adapters/discord/http.ts';
import { buildCommands } from '../../commands/index.ts';
import { READ_ALOUD } from '../../commands/read-aloud.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry } from '../../src/core/adapter.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { loadConfig, SERVICE_VARIABLES } from '../../src/config/index.ts';
import { createRoutes, startHealthServer, type HealthServer } from '../../src/health.ts';
import { createMetrics } from '../../src/metrics.ts';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { planServices, resolveServiceConfigs, SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { closeServices, createServices } from '../../src/services/index.ts';
import type { Services } from '../../src/core/services.ts';
import { createQuotas, createSayCharge, createSayRefund, type Quotas } from '../../src/user-limits.ts';
import {
  APP_ID,
  BOT_TOKEN,
  USER_ID,
  asUserInstall,
  messageCommand,
  slashCommand,
  startFakeDiscord,
  userMessage,
  type DiscordCall,
  type FakeDiscord,
} from '../adapters/discord/fake-discord.ts';
import { startDiscordGateway } from '../adapters/discord/fake-config.ts';
import { generateKeys, post, signedHeaders } from '../adapters/discord/http-support.ts';
import { COMMAND_SETTINGS, SILENT_LOG } from '../schedule/world.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const PATH = '/discord/interactions';
const DAILY_CHARS = 120;

/** The real commands and dispatcher on the simulated providers, with the /say budget. */
async function readingCommands() {
  const providers = await startFake(sandboxHandlers({ credential: SANDBOX_CREDENTIAL }));
  const config = loadConfig({ SANDBOX: 'on' });
  const services = createServices(resolveServiceConfigs(config, planServices(config), providers.url));
  const quotas = createQuotas({ perUserPerMinute: 100, sayDailyChars: DAILY_CHARS });
  const registry = createRegistry(
    buildCommands({
      ...COMMAND_SETTINGS,
      chargeSay: createSayCharge(quotas),
      refundSay: createSayRefund(quotas),
    }),
  );
  const dispatcher = createDispatcher({
    registry,
    services,
    log: SILENT_LOG,
    commandTimeoutMs: 10_000,
    serviceVariables: SERVICE_VARIABLES,
  });
  return { providers, services, quotas, registry, dispatcher };
}

/** A message with a mention, bold words, a link and a custom emoji, and the words it is read as. */
const RICH_MESSAGE = {
  message: userMessage(
    `<@${USER_ID}> the **deploy** is done: https://ci.example.com/runs/42 <:party:1187421520894748000>`,
    {
      mentions: [
        { id: USER_ID, username: 'ada', global_name: 'Ada Lovelace', discriminator: '0', avatar: null },
      ],
    },
  ),
  words: 'Ada Lovelace the deploy is done: a link to ci.example.com party.',
};

describe('Discord HTTP mode: Read aloud and user installs, end to end', () => {
  const keys = generateKeys();
  let fake: FakeDiscord;
  let providers: SandboxServer;
  let services: Services;
  let quotas: Quotas;
  let server: HealthServer;
  let adapter: ChatAdapter;
  let url: string;
  let n = 0;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    let registry: CommandRegistry, dispatcher: AdapterHandlers;
    ({ providers, services, quotas, registry, dispatcher } = await readingCommands());
    const routes = createRoutes();
    server = await startHealthServer({ port: 0, checks: [], metrics: createMetrics(), routes });
    const interactions = createHttpInteractions({
      publicKey: discordPublicKey(keys.publicKeyHex),
      log: SILENT_LOG,
    });
    routes.add(PATH, interactions.route);
    adapter = createDiscordAdapter({
      // No guild: the application's commands are global, as user installs need.
      config: {
        token: BOT_TOKEN,
        applicationId: APP_ID,
        guildId: undefined,
        apiUrl: fake.apiUrl,
        mode: 'http',
        publicKey: keys.publicKeyHex,
        interactionsPath: PATH,
      },
      log: SILENT_LOG,
      webhook: fake.webhook,
      interactions,
    });
    await adapter.start(registry, dispatcher);
    url = `http://127.0.0.1:${server.port}${PATH}`;
  });

  afterAll(async () => {
    await adapter?.stop();
    await server?.close();
    await closeServices(services);
    await providers?.close();
    await fake?.close();
  });

  /** Posts `interaction` signed as Discord signs it; resolves with the first answer. */
  async function send(interaction: Record<string, unknown>) {
    const body = JSON.stringify(interaction);
    const answered = await post(url, body, signedHeaders(keys, body));
    expect(answered.status).toBe(200);
    return answered.json as { type: number; data?: { flags?: number; content?: string } };
  }

  const token = () => `aloud-${++n}-aW50ZXJhY3Rpb246`;
  const answerTo = (t: string) => (c: DiscordCall) =>
    c.token === t && (c.kind === 'followup' || (c.kind === 'edit' && c.json?.content !== '…'));
  const budgetLeft = async () => (await quotas.sayChars.consume(`discord:${USER_ID}`, 0)).remaining;

  it('reads a message aloud: its words to S5, an mp3 attachment back, the characters charged', async () => {
    const before = await budgetLeft();
    const { message, words } = RICH_MESSAGE;
    const t = token();
    const first = await send(messageCommand({ name: READ_ALOUD, message, token: t }));
    expect(first.type).toBe(5);
    const answer = await fake.waitFor(answerTo(t), 10_000);
    expect(answer.files.map((f) => [f.name, f.contentType])).toEqual([['read-aloud.mp3', 'audio/mpeg']]);
    expect(answer.files[0]!.bytes.byteLength).toBeGreaterThan(0);
    expect(JSON.stringify(answer.json?.embeds)).toContain(words);
    expect(JSON.stringify(answer.json)).not.toContain(USER_ID);
    const asked = providers.requests.filter((r) => r.pathname.includes('text-to-speech')).at(-1)!;
    expect(JSON.parse(asked.body)).toMatchObject({ text: words });
    expect(before - (await budgetLeft())).toBe([...words].length);
  });

  it("reads in the reader's language: Discord's locale fr says the unnamed mention and the link in French", async () => {
    const t = token();
    const message = userMessage('<@' + '9'.repeat(18) + '> see https://www.example.com/status');
    await send({ ...messageCommand({ name: READ_ALOUD, message, token: t }), locale: 'fr' });
    const answer = await fake.waitFor(answerTo(t), 10_000);
    const said = "quelqu'un see un lien vers example.com.";
    const asked = providers.requests.filter((r) => r.pathname.includes('text-to-speech')).at(-1)!;
    expect(JSON.parse(asked.body)).toMatchObject({ text: said });
    expect(JSON.stringify(answer.json?.embeds)).toContain(' · 39 caractères · ');
    expect(JSON.stringify(answer.json?.embeds)).toContain(said);
  });

  it("refuses a message past the invoker's budget in one sentence, and charges nothing for it", async () => {
    const left = await budgetLeft();
    const t = token();
    const message = userMessage('word '.repeat(40).trim());
    await send(messageCommand({ name: READ_ALOUD, message, token: t }));
    const answer = await fake.waitFor(answerTo(t), 10_000);
    expect(answer.files).toEqual([]);
    expect(String(answer.json?.content)).toMatch(
      /^That needs 200 characters, but your \/say budget has \d+ left today/,
    );
    expect(await budgetLeft()).toBe(left);
  });

  it('answers /weather to a user install in the DM with herald: no guild, context 1, no gateway', async () => {
    const t = token();
    const interaction = asUserInstall(
      slashCommand({ name: 'weather', options: [{ name: 'city', type: 3, value: 'Paris' }], token: t }),
      1,
    );
    expect(interaction).not.toHaveProperty('guild_id');
    expect(interaction).not.toHaveProperty('member');
    const first = await send(interaction);
    expect(first.type).toBe(5);
    const answer = await fake.waitFor(answerTo(t), 10_000);
    expect(JSON.stringify(answer.json)).toContain('Paris');
    const followUps = fake.calls.filter((c) => c.token === t && c.kind === 'followup');
    expect(followUps.length).toBeLessThanOrEqual(5);
    expect(fake.calls.filter((c) => c.kind === 'gateway')).toEqual([]);
  });

  it.each([
    [
      'jobs',
      [
        { name: 'what', type: 3, value: 'typescript' },
        { name: 'size', type: 4, value: 50 },
      ],
    ],
    ['forecast', [{ name: 'city', type: 3, value: 'Paris' }]],
    ['say', [{ name: 'text', type: 3, value: 'Stand-up in five minutes' }]],
    ['voices', []],
    ['geocode', [{ name: 'query', type: 3, value: 'Paris' }]],
  ])('answers /%s to a user install within its follow-ups, none refused', async (name, options) => {
    const t = token();
    await send(asUserInstall(slashCommand({ name, options, token: t }), 1));
    await fake.waitFor(answerTo(t), 10_000);
    const followUps = fake.calls.filter((c) => c.token === t && c.kind === 'followup');
    expect(followUps.length).toBeLessThanOrEqual(5);
    expect(fake.followUps.refused).toBe(0);
  });

  it('answers Read aloud in a DM between users (context 2), where herald is installed by the user only', async () => {
    const t = token();
    const message = userMessage('Lunch at noon?');
    await send(asUserInstall(messageCommand({ name: READ_ALOUD, message, token: t }), 2));
    const answer = await fake.waitFor(answerTo(t), 10_000);
    expect(answer.files.map((f) => f.name)).toEqual(['read-aloud.mp3']);
  });
});

describe('Discord gateway: Read aloud through the real discord.js client', () => {
  let fake: FakeDiscord;
  let providers: SandboxServer;
  let services: Services;
  let quotas: Quotas;
  let adapter: ChatAdapter;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    let registry: CommandRegistry, dispatcher: AdapterHandlers;
    ({ providers, services, quotas, registry, dispatcher } = await readingCommands());
    adapter = await startDiscordGateway(fake, registry, dispatcher, SILENT_LOG);
  });

  afterAll(async () => {
    await adapter?.stop();
    await closeServices(services);
    await providers?.close();
    await fake?.close();
  });

  it('reads a message aloud: an mp3 attachment back, the characters charged', async () => {
    const left = async () => (await quotas.sayChars.consume(`discord:${USER_ID}`, 0)).remaining;
    const before = await left();
    const { message, words } = RICH_MESSAGE;
    const t = 'aloud-gateway-1-aW50ZXJhY3Rpb246';
    fake.dispatch('INTERACTION_CREATE', messageCommand({ name: READ_ALOUD, message, token: t }));
    const answer = await fake.waitFor(
      (c) => c.token === t && (c.kind === 'followup' || (c.kind === 'edit' && c.json?.content !== '…')),
      10_000,
    );
    expect(answer.files.map((f) => [f.name, f.contentType])).toEqual([['read-aloud.mp3', 'audio/mpeg']]);
    expect(JSON.stringify(answer.json?.embeds)).toContain(words);
    expect(before - (await left())).toBe([...words].length);
  });
});
