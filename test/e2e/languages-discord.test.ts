// Replies in the reader's language on Discord, end to end: the real commands and dispatcher on the
// simulated providers, raw interactions carrying Discord's `locale` (signed and posted to herald's
// public server in HTTP mode; dispatched to the real discord.js client in gateway mode), answers
// read back from the fake Discord. German text, German numbers ("12,5 °C"), a German error; a
// /settings language overriding the interaction's locale; a scheduled post in a channel set to
// German written in German; a command registered with German names (/wetter stadt:) and picked by
// that name, which Discord sends by its English name, answered in German.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/adapter.ts';
import { createHttpInteractions, discordPublicKey } from '../../adapters/discord/http.ts';
import { registerCommands } from '../../adapters/discord/register.ts';
import { buildCommands } from '../../commands/index.ts';
import type { ChatAdapter, CommandRegistry } from '../../src/core/adapter.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import type { Dispatcher } from '../../src/core/dispatch-contract.ts';
import { createPreferenceBook, type PreferenceBook } from '../../src/core/preferences.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { loadConfig, SERVICE_VARIABLES } from '../../src/config/index.ts';
import { createRoutes, startHealthServer, type HealthServer } from '../../src/health.ts';
import { createMetrics } from '../../src/metrics.ts';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { planServices, resolveServiceConfigs, SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { closeServices, createServices } from '../../src/services/index.ts';
import type { Services } from '../../src/core/services.ts';
import {
  APP_ID,
  BOT_TOKEN,
  CHANNEL_ID,
  USER_ID,
  slashCommand,
  startFakeDiscord,
  type DiscordCall,
  type FakeDiscord,
} from '../adapters/discord/fake-discord.ts';
import { startDiscordGateway } from '../adapters/discord/fake-config.ts';
import { generateKeys, post, signedHeaders } from '../adapters/discord/http-support.ts';
import { COMMAND_SETTINGS, SILENT_LOG } from '../schedule/world.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const PATH = '/discord/interactions';

type Json = Record<string, unknown>;
const localizedName = (item: Json, locale: string) =>
  (item.name_localizations as Record<string, string> | undefined)?.[locale];
/** A number written the German way with its unit: "12,5 °C". */
const GERMAN_DEGREES = /-?\d+,\d °C/;

/** The store's key/value part, in memory. */
function memoryValues() {
  const values = new Map<string, string>();
  return {
    getValue: (key: string) => Promise.resolve(values.get(key)),
    setValue: (key: string, value: string) => Promise.resolve(Boolean(values.set(key, value))),
    deleteValues: (prefix: string) => {
      const keys = [...values.keys()].filter((k) => k.startsWith(prefix));
      for (const key of keys) values.delete(key);
      return Promise.resolve(keys.length);
    },
  };
}

describe('Discord replies in the reader’s language', () => {
  const keys = generateKeys();
  let fake: FakeDiscord;
  let gatewayFake: FakeDiscord;
  let providers: SandboxServer;
  let services: Services;
  let server: HealthServer;
  let adapter: ChatAdapter;
  let gateway: ChatAdapter;
  let dispatcher: Dispatcher;
  let book: PreferenceBook;
  let registry: CommandRegistry;
  let url: string;
  let n = 0;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    gatewayFake = await startFakeDiscord();
    providers = await startFake(sandboxHandlers({ credential: SANDBOX_CREDENTIAL }));
    const config = loadConfig({ SANDBOX: 'on' });
    services = createServices(resolveServiceConfigs(config, planServices(config), providers.url));
    registry = createRegistry(buildCommands(COMMAND_SETTINGS));
    book = createPreferenceBook(memoryValues(), { timezone: 'UTC' });
    dispatcher = createDispatcher({
      registry,
      services,
      log: SILENT_LOG,
      commandTimeoutMs: 10_000,
      serviceVariables: SERVICE_VARIABLES,
      preferences: book,
    });
    const routes = createRoutes();
    server = await startHealthServer({ port: 0, checks: [], metrics: createMetrics(), routes });
    const interactions = createHttpInteractions({
      publicKey: discordPublicKey(keys.publicKeyHex),
      log: SILENT_LOG,
    });
    routes.add(PATH, interactions.route);
    adapter = createDiscordAdapter({
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
    gateway = await startDiscordGateway(gatewayFake, registry, dispatcher, SILENT_LOG);
    url = `http://127.0.0.1:${server.port}${PATH}`;
  });

  afterAll(async () => {
    await adapter?.stop();
    await gateway?.stop();
    await server?.close();
    await closeServices(services);
    await providers?.close();
    await fake?.close();
    await gatewayFake?.close();
  });

  const token = () => `lang-${++n}-aW50ZXJhY3Rpb246`;
  const answerTo = (t: string) => (c: DiscordCall) =>
    c.token === t && (c.kind === 'followup' || (c.kind === 'edit' && c.json?.content !== '…'));

  /** Posts a slash command in `locale`, signed as Discord signs it, in HTTP mode; the answer's JSON. */
  async function overHttp(
    name: string,
    options: { name: string; type: number; value: string }[],
    locale: string,
  ) {
    const t = token();
    const body = JSON.stringify({ ...slashCommand({ name, options, token: t }), locale });
    const answered = await post(url, body, signedHeaders(keys, body));
    expect(answered.status).toBe(200);
    return JSON.stringify((await fake.waitFor(answerTo(t), 10_000)).json);
  }

  /** Dispatches a slash command in `locale` to the real discord.js client; the answer's JSON. */
  async function overGateway(
    name: string,
    options: { name: string; type: number; value: string }[],
    locale: string,
  ) {
    const t = token();
    gatewayFake.dispatch('INTERACTION_CREATE', { ...slashCommand({ name, options, token: t }), locale });
    return JSON.stringify((await gatewayFake.waitFor(answerTo(t), 10_000)).json);
  }

  const paris = [{ name: 'city', type: 3, value: 'Paris' }];
  const failing = [{ name: 'city', type: 3, value: 'sandbox-error' }];

  for (const [mode, ask] of [
    ['HTTP mode (signed raw interactions)', () => overHttp],
    ['gateway mode (discord.js)', () => overGateway],
  ] as const) {
    describe(mode, () => {
      it('answers a de interaction in German, with German numbers', async () => {
        const answer = await ask()('weather', paris, 'de');
        expect(answer).toContain('Wetter in Paris');
        expect(answer).toContain('Luftfeuchtigkeit');
        expect(answer).toMatch(GERMAN_DEGREES);
        expect(answer).not.toContain('Humidity');
      });

      it('tells a de interaction its error in German, with its reference', async () => {
        const answer = await ask()('weather', failing, 'de');
        expect(answer).toMatch(/Der Dienst Wetter .*\(Ref\. [0-9a-f]{8}\)\./);
      });

      it('answers an en-US interaction in en-GB, a French one in French', async () => {
        expect(await ask()('weather', paris, 'en-US')).toContain('Weather in Paris');
        expect(await ask()('weather', paris, 'fr')).toContain('Météo à Paris');
      });

      it('answers /report to a de interaction in German, with German numbers and dates', async () => {
        const answer = await ask()('report', [{ name: 'range', type: 3, value: '28d' }], 'de');
        expect(answer).toContain('Analytics-Zusammenfassung: die letzten 28 Tage');
        expect(answer).toContain('Sitzungen');
        expect(answer).toMatch(/\d+\. [A-Z][a-zä]+\.? \d{4}\*\* verglichen mit/);
        expect(answer).not.toContain('compared with');
      });
    });
  }

  it('answers /wetter stadt:Paris, registered with German names, in German: Discord sends the English names', async () => {
    const config = { token: BOT_TOKEN, applicationId: APP_ID, guildId: undefined, apiUrl: fake.apiUrl };
    await registerCommands({ config, registry, log: SILENT_LOG });
    const published = fake.calls.findLast((c) => c.kind === 'commands')!.json as unknown as Json[];
    // What a German client lists: the command and its option by their German names.
    const wetter = published.find((c) => localizedName(c, 'de') === 'wetter')!;
    const stadt = (wetter.options as Json[]).find((o) => localizedName(o, 'de') === 'stadt')!;
    // "the interaction payload received by your client will still use default command, subcommand,
    // and option names" (Application Commands, Localization): so dispatch reads them unchanged.
    const answer = await overHttp(
      String(wetter.name),
      [{ name: String(stadt.name), type: 3, value: 'Paris' }],
      'de',
    );
    expect(answer).toContain('Wetter in Paris');
    expect(answer).toMatch(GERMAN_DEGREES);
    // /hilfe names the commands as the German client lists them.
    const hilfe = published.find((c) => localizedName(c, 'de') === 'hilfe')!;
    const help = await overHttp(String(hilfe.name), [], 'de');
    expect(help).toContain('/wetter [stadt] [einheiten]');
    expect(help).toContain('Listet die Stimmen, die /sprechen verwenden kann');
    expect(help).not.toContain('/weather [');
  });

  it('lets /settings language: win over the interaction’s locale', async () => {
    await book.write({ kind: 'user', actor: { platform: 'discord', id: USER_ID } }, { language: 'de' });
    try {
      expect(await overHttp('weather', paris, 'fr')).toContain('Wetter in Paris');
    } finally {
      await book.write(
        { kind: 'user', actor: { platform: 'discord', id: USER_ID } },
        { language: undefined },
      );
    }
  });

  it('writes a scheduled post in German where its channel is set to German, whatever its creator’s locale', async () => {
    await book.write(
      { kind: 'channel', channel: { platform: 'discord', id: CHANNEL_ID } },
      { language: 'de' },
    );
    const creator = { platform: 'discord' as const, id: USER_ID, displayName: 'Ada', roles: [] };
    const reply = await dispatcher.run('/weather Paris', creator, AbortSignal.timeout(10_000), {
      schedule: { creator, destination: `channel:discord:${CHANNEL_ID}`, timezone: 'Europe/Berlin' },
    });
    expect(reply.text).toMatch(/^Paris, FR: .*Luftfeuchtigkeit/);
    expect(reply.text).toMatch(GERMAN_DEGREES);
  });
});
