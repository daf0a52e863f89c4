// One composition for the bot, `npm run job` and `npm run register`: the published Discord set and
// the Slack manifest are exactly the registry the running bot has, /schedule included.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildDiscordCommands } from '../../adapters/discord/commands.ts';
import { slackManifest, type SlackManifest } from '../../adapters/slack/manifest.ts';
import { buildApp, offeredCommands, registrationParts, type AppMode } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { describeOptions } from '../../src/core/command.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { createLogger } from '../../src/log.ts';
import { planServices } from '../../src/sandbox/resolve.ts';
import { DISCORD_ENV, registerRun, useFakeDiscord } from '../adapters/discord/registration.ts';

const log = createLogger({ level: 'silent', format: 'json' });

/** The bot's registry for `env`, as main.ts composes it, on no clients and memory stores. */
function botApp(env: Record<string, string>, mode: AppMode = 'bot') {
  return buildApp(loadConfig(env), mode, registrationParts(log));
}

describe('buildApp', () => {
  it('composes the same commands, /schedule included, for the bot, a job run and a registration', () => {
    const names = (mode: AppMode) =>
      (mode === 'register'
        ? buildApp(loadConfig({}), 'register', registrationParts(log))
        : botApp({}, mode)
      ).registry.commands.map((c) => c.name);
    const bot = names('bot');
    expect(bot).toEqual(names('job'));
    expect(bot).toEqual(names('register'));
    for (const sub of ['add', 'list', 'history', 'remove', 'pause', 'resume', 'run', 'audit'])
      expect(bot).toContain(`schedule ${sub}`);
    expect(bot).toContain('help');
  });

  it('builds a dispatcher for the bot and a job run, none for a registration', () => {
    expect(botApp({}, 'bot').dispatcher).toBeDefined();
    expect(botApp({}, 'job').dispatcher).toBeDefined();
    expect(buildApp(loadConfig({}), 'register', registrationParts(log)).dispatcher).toBeUndefined();
  });

  it('gives the commands JOBS_COUNTRY and SPEECH_MODEL_ID from the configuration', () => {
    const app = botApp({ JOBS_COUNTRY: 'de', SPEECH_MODEL_ID: 'eleven_flash_v2_5' });
    // /say's text limit follows the model: flash v2.5 takes 40,000 characters, multilingual v2 10,000.
    const sayText = (a: typeof app) =>
      describeOptions(a.registry.get('say')!.options).find((o) => o.name === 'text');
    expect(sayText(app)?.description).toContain('at most 40000 characters');
    expect(sayText(botApp({}))?.description).toContain('at most 10000 characters');
  });
});

describe('offeredCommands', () => {
  const app = botApp({});
  const offeredNames = (env: Record<string, string>) =>
    offeredCommands(app.registry.commands, planServices(loadConfig(env))).map((c) => c.name);

  it('leaves out the commands whose services are neither configured nor simulated', () => {
    const names = offeredNames({ ...DISCORD_ENV, WEATHER_API_KEY: 'loopback-weather-key' });
    expect(names).toContain('weather');
    expect(names).toContain('help');
    expect(names).toContain('schedule add');
    expect(names).not.toContain('jobs');
    expect(names).not.toContain('email send');
  });

  it('offers every command when the sandbox simulates every service', () => {
    expect(offeredNames({ ...DISCORD_ENV, SANDBOX: 'on' })).toEqual(app.registry.commands.map((c) => c.name));
    expect(offeredNames({})).toEqual(app.registry.commands.map((c) => c.name));
  });
});

describe('npm run register', () => {
  const fake = useFakeDiscord();

  it('publishes exactly the bot’s registry to Discord, /schedule included', async () => {
    const env = { ...DISCORD_ENV, DISCORD_API_URL: fake.apiUrl, SANDBOX: 'on' };
    const result = await registerRun([], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(fake.calls).toHaveLength(1);
    const published = fake.calls[0]!.json as unknown as { name: string; options?: { name: string }[] }[];
    const registry = botApp(env).registry;
    expect(published).toEqual(buildDiscordCommands(registry));
    expect(published.map((c) => c.name)).toEqual([
      ...registry.entries.map((e) => e.name),
      ...registry.messageCommands.map((c) => c.onMessage),
    ]);
    const schedule = published.find((c) => c.name === 'schedule')!;
    expect(schedule.options!.map((o) => o.name)).toEqual([
      'add',
      'list',
      'history',
      'remove',
      'pause',
      'resume',
      'skip',
      'unskip',
      'run',
      'audit',
    ]);
    expect(result.stdout).toContain('/schedule');
    expect(result.stdout).not.toContain('Left out');
  });

  it('leaves out, and names, the commands whose services are not configured', async () => {
    const env = { ...DISCORD_ENV, DISCORD_API_URL: fake.apiUrl, WEATHER_API_KEY: 'loopback-weather-key' };
    const result = await registerRun([], env);
    expect(result.code, result.stderr).toBe(0);
    const names = (fake.calls[0]!.json as unknown as { name: string }[]).map((c) => c.name);
    const config = loadConfig(env);
    const offered = createRegistry(offeredCommands(botApp(env).registry.commands, planServices(config)));
    expect(names).toEqual(offered.entries.map((e) => e.name));
    expect(names).toContain('schedule');
    expect(names).not.toContain('email');
    expect(result.stdout).toMatch(/Left out \(service not configured\): .*\/email send/);
  });

  it('prints the Slack manifest with one slash command per top-level name of the registry', async () => {
    const result = await registerRun(['--slack-manifest'], {});
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const manifest = JSON.parse(result.stdout) as SlackManifest;
    const registry = botApp({}).registry;
    const commands = manifest.features.slash_commands;
    expect(commands.map((c) => c.command)).toEqual(registry.entries.map((e) => `/${e.name}`));
    expect(commands.map((c) => c.command)).toContain('/schedule');
    const schedule = commands.find((c) => c.command === '/schedule')!;
    expect(schedule.usage_hint).toMatch(
      /^add <when> <command> .*\| list \[page:integer\] \| history <id> \| remove <id>/,
    );
    const weather = commands.find((c) => c.command === '/weather')!;
    expect(weather).toEqual({
      command: '/weather',
      description: registry.get('weather')!.description,
      usage_hint: expect.stringMatching(/^\[city\]/),
      should_escape: false,
    });
    expect(manifest.oauth_config.scopes.bot).toEqual([
      'commands',
      'chat:write',
      'files:write',
      'channels:read',
      'groups:read',
      'im:write',
      'users:read',
    ]);
    expect(manifest.features.shortcuts).toEqual([
      {
        name: 'Read aloud',
        type: 'message',
        callback_id: 'read-aloud',
        description: 'Read a message aloud: replies with an mp3',
      },
    ]);
    expect(commands.map((c) => c.command)).not.toContain('/read-aloud');
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(fake.calls).toHaveLength(0);
  });

  it('offers no Read aloud shortcut where speech is not configured', async () => {
    const env = { ...DISCORD_ENV, WEATHER_API_KEY: 'loopback-weather-key' };
    const result = await registerRun(['--slack-manifest'], env);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as SlackManifest).features.shortcuts).toBeUndefined();
  });

  it('points every command and the buttons at the request URL in HTTP mode', async () => {
    const url = 'https://herald.example.com/slack/events';
    const result = await registerRun(['--slack-manifest', '--request-url', url], {});
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(result.stdout) as SlackManifest;
    expect(manifest.features.slash_commands.every((c) => c.url === url)).toBe(true);
    expect(manifest.settings.interactivity.request_url).toBe(url);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('exits 2 on an unknown option, in one line pointing at --help', async () => {
    const result = await registerRun(['--slack'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Unknown option '--slack'.*\(try --help\)\n$/);
  });
});

describe('docs/composition.md', () => {
  it('holds the manifest npm run register -- --slack-manifest prints with SANDBOX=on', async () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/composition.md', import.meta.url)), 'utf8');
    const block = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(block).toBeDefined();
    const result = await registerRun(['--slack-manifest'], { SANDBOX: 'on' });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(block!)).toEqual(JSON.parse(result.stdout));
    const registry = buildApp(loadConfig({ SANDBOX: 'on' }), 'register', registrationParts(log)).registry;
    expect(slackManifest(registry)).toEqual(JSON.parse(block!));
  });
});
