// The fake Discord refuses a command registration that Discord refuses (fake-commands.ts, each rule
// with its section of the Application Commands page): each test sends one such registration and sees
// it refused with 400 / 50035, so that `npm run register`'s tests (register.test.ts) cannot pass on
// a registration Discord would reject. herald's own registration passes them (the last test).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDiscordCommands } from '../../../adapters/discord/commands.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { APP_ID, BOT_TOKEN, startFakeDiscord, type FakeDiscord } from './fake-discord.ts';

const UA = 'DiscordBot (https://example.org/herald-tests, 1.0.0)';
let fake: FakeDiscord;

beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(async () => {
  await fake.close();
});
// Each registration starts with the route's bucket full: the fake counts it in real time.
beforeEach(() => fake.contract.reset());

/** Bulk Overwrite Global Application Commands with `commands`; its status and error code. */
async function register(commands: unknown[]) {
  const res = await fetch(`${fake.apiUrl}/v10/applications/${APP_ID}/commands`, {
    method: 'PUT',
    headers: { 'user-agent': UA, 'content-type': 'application/json', authorization: `Bot ${BOT_TOKEN}` },
    body: JSON.stringify(commands),
  });
  const body = (await res.json()) as { code?: number; errors?: unknown };
  return { status: res.status, code: body.code, errors: JSON.stringify(body.errors ?? null) };
}

const weather = (extra: Record<string, unknown> = {}) => ({
  type: 1,
  name: 'weather',
  description: 'Current weather for a city',
  options: [{ type: 3, name: 'city', description: 'City', required: true }],
  integration_types: [0, 1],
  contexts: [0, 1, 2],
  ...extra,
});

describe('the fake Discord’s rules for a command registration', () => {
  it('takes a command within the limits', async () => {
    expect(await register([weather(), { type: 3, name: 'Read aloud', integration_types: [0, 1] }])).toEqual({
      status: 200,
      code: undefined,
      errors: 'null',
    });
  });

  it.each([
    ['a slash name of 33 characters', weather({ name: 'w'.repeat(33) }), 'APPLICATION_COMMAND_INVALID_NAME'],
    ['a slash name in capitals', weather({ name: 'Weather' }), 'APPLICATION_COMMAND_INVALID_NAME'],
    ['a slash name with a space', weather({ name: 'the weather' }), 'APPLICATION_COMMAND_INVALID_NAME'],
    ['a localized name over 32', weather({ name_localizations: { de: 'w'.repeat(33) } }), 'INVALID_NAME'],
    ['a localized name in capitals', weather({ name_localizations: { de: 'Wetter' } }), 'INVALID_NAME'],
    ['a localized name with a space', weather({ name_localizations: { fr: 'la météo' } }), 'INVALID_NAME'],
    [
      'a localized name with a slash',
      weather({ name_localizations: { de: 'wetter/jetzt' } }),
      'INVALID_NAME',
    ],
    [
      "an option's localized name in capitals",
      weather({
        options: [{ type: 3, name: 'city', name_localizations: { de: 'Stadt' }, description: 'City' }],
      }),
      'INVALID_NAME',
    ],
    [
      'two options with one localized name',
      weather({
        options: [
          { type: 3, name: 'city', name_localizations: { de: 'ort' }, description: 'City' },
          { type: 3, name: 'place', name_localizations: { de: 'ort' }, description: 'Place' },
        ],
      }),
      'NAME_ALREADY_EXISTS',
    ],
    [
      "a localized option name that is another option's English name",
      weather({
        options: [
          { type: 3, name: 'city', description: 'City' },
          { type: 3, name: 'place', name_localizations: { fr: 'city' }, description: 'Place' },
        ],
      }),
      'NAME_ALREADY_EXISTS',
    ],
    [
      'a localized choice name of 101',
      weather({
        options: [
          {
            type: 3,
            name: 'units',
            description: 'Units',
            choices: [{ name: 'metric', name_localizations: { de: 'm'.repeat(101) }, value: 'metric' }],
          },
        ],
      }),
      'BASE_TYPE_BAD_LENGTH',
    ],
    ['an empty description', weather({ description: '' }), 'BASE_TYPE_BAD_LENGTH'],
    ['a description of 101', weather({ description: 'd'.repeat(101) }), 'BASE_TYPE_BAD_LENGTH'],
    [
      'a localized description of 101',
      weather({ description_localizations: { fr: 'd'.repeat(101) } }),
      'BASE_TYPE_BAD_LENGTH',
    ],
    [
      "an option's description of 101",
      weather({ options: [{ type: 3, name: 'city', description: 'd'.repeat(101) }] }),
      'BASE_TYPE_BAD_LENGTH',
    ],
    [
      '26 options',
      weather({
        options: Array.from({ length: 26 }, (_, i) => ({ type: 3, name: `o${i}`, description: 'One' })),
      }),
      'BASE_TYPE_MAX_LENGTH',
    ],
    ['integration type 2', weather({ integration_types: [0, 2] }), 'BASE_TYPE_CHOICES'],
    ['context 3', weather({ contexts: [0, 3] }), 'BASE_TYPE_CHOICES'],
    [
      'a message command with a description',
      { type: 3, name: 'Read aloud', description: 'Reads it' },
      'CONTEXT_MENU_DESCRIPTION',
    ],
    ['a message command named with 33 characters', { type: 3, name: 'R'.repeat(33) }, 'INVALID_NAME'],
  ])('refuses %s with 50035', async (_what, command, code) => {
    const answer = await register([command]);
    expect([answer.status, answer.code]).toEqual([400, 50035]);
    expect(answer.errors).toContain(code);
  });

  it('counts the longest localization of each field toward the 8,000 characters', async () => {
    // 25 options of 10 choices: about 1,300 characters as written, 25,000 more when each choice's
    // name counts its German localization of 100 instead of its own one character.
    const options = (localized: boolean) =>
      Array.from({ length: 25 }, (_, i) => ({
        type: 3,
        name: `o${i}`,
        description: 'd',
        choices: Array.from({ length: 10 }, (_, j) => ({
          name: 'c',
          value: `${j}`,
          ...(localized ? { name_localizations: { de: 'C'.repeat(100) } } : {}),
        })),
      }));
    expect((await register([weather({ options: options(false) })])).status).toBe(200);
    const answer = await register([weather({ options: options(true) })]);
    expect([answer.status, answer.code]).toEqual([400, 50035]);
    expect(answer.errors).toContain('APPLICATION_COMMAND_TOO_LARGE');
  });

  it('counts a name at its longest localization toward the 8,000 characters', async () => {
    // 10 subcommands of 25 options named "o0"…: about 1,000 characters in English, over 8,000
    // when each option's German name of 32 characters counts instead.
    const subcommands = (localized: boolean) =>
      Array.from({ length: 10 }, (_, s) => ({
        type: 1,
        name: `s${s}`,
        description: 'd',
        options: Array.from({ length: 25 }, (_, i) => ({
          type: 3,
          name: `o${i}`,
          description: 'd',
          ...(localized
            ? { name_localizations: { de: `${'ö'.repeat(30)}${String(i).padStart(2, '0')}` } }
            : {}),
        })),
      }));
    expect((await register([weather({ options: subcommands(false) })])).status).toBe(200);
    const answer = await register([weather({ options: subcommands(true) })]);
    expect([answer.status, answer.code]).toEqual([400, 50035]);
    expect(answer.errors).toContain('APPLICATION_COMMAND_TOO_LARGE');
  });

  it('takes what herald builds for a global registration', async () => {
    const { buildCommands } = await import('../../../commands/index.ts');
    const registry = createRegistry(
      buildCommands({
        access: { emailUsers: [], emailRoles: [], emailDomains: [], hostUsers: [], hostRoles: [] },
        limits: { perUserPerMinute: 10, sayDailyChars: 2000 },
        speechModelId: 'eleven_multilingual_v2',
        jobsCountry: 'gb',
      }),
    );
    expect((await register(buildDiscordCommands(registry, { isGlobal: true }))).status).toBe(200);
  });
});
