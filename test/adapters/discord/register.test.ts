import { createServer } from 'node:net';
import {
  ApplicationCommandType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry } from '../../../src/core/registry.ts';
import { buildDiscordCommands, commandChars, COMMAND_CHARS_MAX } from '../../../adapters/discord/commands.ts';
import { registerCommands } from '../../../adapters/discord/register.ts';
import { defineCommand } from '../../../src/core/command.ts';
import { AdapterError } from '../../../src/errors.ts';
import { APP_ID, BOT_TOKEN, GUILD_ID } from './fake-discord.ts';
import { DISCORD_ENV, registerRun, useFakeDiscord } from './registration.ts';
import { SILENT_LOG } from '../../support/command-doubles.ts';

const reply = async () => ({ text: 'ok' });
const weather = defineCommand({
  name: 'weather',
  description: 'Current weather',
  options: z.object({ city: z.string().describe('City') }),
  needs: ['weather'],
  handler: reply,
});
const emailSend = defineCommand({
  name: 'email send',
  description: 'Send an email',
  options: z.object({ to: z.string().describe('Recipient') }),
  needs: ['email'],
  handler: reply,
});
const help = defineCommand({
  name: 'help',
  description: 'Help',
  options: z.object({}),
  needs: [],
  handler: reply,
});

/** A loopback URL nothing listens on: a port taken from the OS, then released. */
async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}/api`;
}
const fake = useFakeDiscord();

describe('registerCommands', () => {
  it('replaces the guild’s command set with one bulk PUT when a guild is configured', async () => {
    const result = await registerCommands({
      config: { token: BOT_TOKEN, applicationId: APP_ID, guildId: GUILD_ID, apiUrl: fake.apiUrl },
      registry: createRegistry([weather, emailSend, help]),
      log: SILENT_LOG,
    });
    expect(fake.calls).toHaveLength(1);
    const [call] = fake.calls;
    expect(call!.method).toBe('PUT');
    expect(call!.path).toBe(`/api/v10/applications/${APP_ID}/guilds/${GUILD_ID}/commands`);
    expect(call!.authorization).toBe(`Bot ${BOT_TOKEN}`);
    expect(call!.json).toEqual(buildDiscordCommands(createRegistry([weather, emailSend, help])));
    expect(result).toEqual({
      scope: 'guild',
      names: ['/weather', '/email', '/help'],
      userInstallable: ['/weather', '/help'],
      guildOnly: ['/email'],
    });
    // Discord reads install types on global commands only: a guild's carry none.
    expect(JSON.stringify(call!.json)).not.toMatch(/integration_types|contexts/);
  });

  it('registers globally when no guild is configured', async () => {
    const result = await registerCommands({
      config: { token: BOT_TOKEN, applicationId: APP_ID, guildId: undefined, apiUrl: fake.apiUrl },
      registry: createRegistry([help]),
      log: SILENT_LOG,
    });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `PUT /api/v10/applications/${APP_ID}/commands`,
    ]);
    expect(result.scope).toBe('global');
  });

  it('reports Discord’s validation errors as an AdapterError without the token', async () => {
    fake.rest.use(
      http.put('*/api/v10/applications/:app/guilds/:guild/commands', () =>
        HttpResponse.json(
          {
            message: 'Invalid Form Body',
            code: 50035,
            errors: {
              '0': {
                name: {
                  _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' }],
                },
              },
            },
          },
          { status: 400 },
        ),
      ),
    );
    const before = fake.rest.requests.length;
    const error = await registerCommands({
      config: { token: BOT_TOKEN, applicationId: APP_ID, guildId: GUILD_ID, apiUrl: fake.apiUrl },
      registry: createRegistry([help]),
      log: SILENT_LOG,
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AdapterError);
    expect((error as AdapterError).message).toContain('Command name is invalid');
    expect((error as AdapterError).message).not.toContain(BOT_TOKEN);
    // A 400 is final: one request, no retry.
    expect(fake.rest.requests.length - before).toBe(1);
  });
});

describe('a global registration of herald’s own commands', () => {
  /** herald's commands as `npm start` builds them, every service configured. */
  async function heraldRegistry() {
    const { buildCommands } = await import('../../../commands/index.ts');
    return createRegistry(
      buildCommands({
        access: { emailUsers: [], emailRoles: [], emailDomains: [], hostUsers: [], hostRoles: [] },
        limits: { perUserPerMinute: 10, sayDailyChars: 2000 },
        speechModelId: 'eleven_multilingual_v2',
        jobsCountry: 'gb',
      }),
    );
  }

  it('makes the reading commands and Read aloud user-installable everywhere, and keeps the rest in guilds', async () => {
    const result = await registerCommands({
      config: { token: BOT_TOKEN, applicationId: APP_ID, guildId: undefined, apiUrl: fake.apiUrl },
      registry: await heraldRegistry(),
      log: SILENT_LOG,
    });
    const sent = fake.calls[0]!.json as unknown as {
      type: number;
      name: string;
      integration_types: number[];
      contexts: number[];
    }[];
    const reach = Object.fromEntries(sent.map((c) => [c.name, [c.integration_types, c.contexts]]));
    const everywhere = [
      [0, 1],
      [0, 1, 2],
    ];
    const guildOnly = [[0], [0]];
    expect(reach).toEqual({
      weather: everywhere,
      forecast: everywhere,
      geocode: everywhere,
      host: guildOnly,
      jobs: everywhere,
      say: everywhere,
      voices: everywhere,
      email: guildOnly,
      report: guildOnly,
      help: everywhere,
      'Read aloud': everywhere,
    });
    expect(sent.find((c) => c.name === 'Read aloud')).toEqual({
      type: 3,
      name: 'Read aloud',
      name_localizations: { de: 'Vorlesen', fr: 'Lire à voix haute' },
      integration_types: [0, 1],
      contexts: [0, 1, 2],
    });
    expect(result.userInstallable).toEqual([
      '/weather',
      '/forecast',
      '/geocode',
      '/jobs',
      '/say',
      '/voices',
      '/help',
      'Read aloud',
    ]);
    expect(result.guildOnly).toEqual(['/host', '/email', '/report']);
  });

  it('stays within Discord’s documented limits for every command it publishes', async () => {
    // https://discord.com/developers/docs/interactions/application-commands: 100 CHAT_INPUT and 15
    // MESSAGE commands; a slash name lower case 1-32, a menu name 1-32; descriptions 1-100 (none on
    // a MESSAGE command); 8000 characters of names and descriptions; integration types 0 (guild)
    // and 1 (user); contexts 0 (guild), 1 (bot DM), 2 (private channel).
    const json = buildDiscordCommands(await heraldRegistry(), { isGlobal: true });
    const slash = json.filter(
      (c): c is RESTPostAPIChatInputApplicationCommandsJSONBody =>
        c.type === ApplicationCommandType.ChatInput,
    );
    const menus = json.filter((c) => c.type === ApplicationCommandType.Message);
    expect(slash.length).toBeLessThanOrEqual(100);
    expect(menus.length).toBeGreaterThan(0);
    expect(menus.length).toBeLessThanOrEqual(15);
    for (const command of slash) {
      expect(command.name).toMatch(/^[-_\p{Ll}\p{N}]{1,32}$/u);
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.description.length).toBeLessThanOrEqual(100);
    }
    for (const command of menus) {
      expect(command.name).toMatch(/^[-_ \p{L}\p{N}]{1,32}$/u);
      expect(command).not.toHaveProperty('description');
      expect(command).not.toHaveProperty('options');
    }
    for (const command of json) {
      expect(commandChars(command)).toBeLessThanOrEqual(COMMAND_CHARS_MAX);
      expect(command.integration_types?.every((t) => [0, 1].includes(t))).toBe(true);
      expect(command.contexts?.every((t) => [0, 1, 2].includes(t))).toBe(true);
      expect(command.integration_types).toContain(0);
    }
  });
});

describe('registerCommands when Discord cannot be reached or fails', () => {
  it('says it could not reach Discord when the connection is refused, not that Discord rejected anything', async () => {
    const apiUrl = await refusingUrl();
    const error = await registerCommands({
      config: { token: BOT_TOKEN, applicationId: APP_ID, guildId: GUILD_ID, apiUrl },
      registry: createRegistry([help]),
      log: SILENT_LOG,
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AdapterError);
    expect((error as AdapterError).code).toBe('connect_failed');
    expect((error as AdapterError).message).toBe(
      `Could not reach Discord at ${new URL(apiUrl).origin}: connection refused (ECONNREFUSED); nothing was registered.`,
    );
  });

  it('says Discord failed, with the status, when it answers 5xx after its retries', async () => {
    fake.rest.use(
      http.put('*/api/v10/applications/:app/guilds/:guild/commands', () =>
        HttpResponse.json({ message: 'upstream connect error', code: 0 }, { status: 503 }),
      ),
    );
    const error = await registerCommands({
      config: { token: BOT_TOKEN, applicationId: APP_ID, guildId: GUILD_ID, apiUrl: fake.apiUrl },
      registry: createRegistry([help]),
      log: SILENT_LOG,
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AdapterError);
    expect((error as AdapterError).message).toMatch(
      /^Discord failed to take the command set \(HTTP 503\); try again later/,
    );
    expect((error as AdapterError).message).not.toContain('rejected');
  });
});

describe('npm run register', () => {
  it('publishes herald’s configured commands to the guild and prints them', async () => {
    const { code, stdout, stderr } = await registerRun([], {
      ...DISCORD_ENV,
      DISCORD_API_URL: fake.apiUrl,
      WEATHER_API_KEY: 'loopback-weather-key',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(fake.calls).toHaveLength(1);
    const names = (fake.calls[0]!.json as unknown as { name: string }[]).map((c) => c.name);
    expect(names).toContain('weather');
    expect(names).toContain('help');
    expect(names).not.toContain('email');
    expect(stdout).toContain(`Registered ${names.length} commands in guild ${GUILD_ID}`);
    expect(stdout).toContain('Left out (service not configured):');
    expect(stdout).toContain('User installs take a global registration');
    expect(stdout).not.toContain(BOT_TOKEN);
  });

  it('registers globally and prints which commands are user-installable and which stay in guilds', async () => {
    const { code, stdout, stderr } = await registerRun([], {
      DISCORD_TOKEN: BOT_TOKEN,
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_URL: fake.apiUrl,
      WEATHER_API_KEY: 'loopback-weather-key',
      SPEECH_API_KEY: 'loopback-speech-key',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(fake.calls[0]!.path).toBe(`/api/v10/applications/${APP_ID}/commands`);
    expect(stdout).toContain('every guild (global)');
    expect(stdout).toMatch(
      /^User-installable \(guilds, DMs with herald, group DMs\): \/weather .*\/say .*Read aloud$/m,
    );
    expect(stdout).toMatch(/^Guild-only: .*\/schedule/m);
    expect(stdout).not.toContain('User installs take a global registration');
  });

  it('exits 1 saying it could not reach Discord when nothing answers at DISCORD_API_URL', async () => {
    const apiUrl = await refusingUrl();
    const { code, stderr } = await registerRun([], {
      DISCORD_TOKEN: BOT_TOKEN,
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_URL: apiUrl,
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Could not reach Discord at ${new URL(apiUrl).origin}: connection refused (ECONNREFUSED); nothing was registered.\n`,
    );
  });

  it('exits 2 with a clear message when the Discord variables are missing', async () => {
    const { code, stderr } = await registerRun([], {});
    expect(code).toBe(2);
    expect(stderr).toContain('DISCORD_TOKEN');
    expect(fake.calls).toHaveLength(0);
  });
});
