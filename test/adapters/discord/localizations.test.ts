// Discord's command localizations: `npm run register` publishes every command with German and
// French names and descriptions that the fake Discord (which refuses what Discord refuses: long or badly
// formed localized names and descriptions, unknown locale keys, more than 8,000 characters counted
// at each field's longest localization) accepts; and herald's own budget check counts the same way.
import { describe, expect, it } from 'vitest';
import { commandChars, COMMAND_CHARS_MAX } from '../../../adapters/discord/commands.ts';
import { APP_ID, BOT_TOKEN, startFakeDiscord } from './fake-discord.ts';
import { registerRun, useFakeDiscord } from './registration.ts';

const fake = useFakeDiscord();

type Json = Record<string, unknown>;

/** Every description-bearing part of a command: itself, its subcommands and their options. */
function parts(command: Json): Json[] {
  const options = Array.isArray(command.options) ? (command.options as Json[]) : [];
  return [command, ...options.flatMap(parts)];
}

/** One bulk overwrite on a fake Discord of its own (Discord rate-limits the route per application). */
async function put(body: unknown) {
  const own = await startFakeDiscord();
  try {
    return await send(own.apiUrl, body);
  } finally {
    await own.close();
  }
}

async function send(apiUrl: string, body: unknown) {
  const res = await fetch(`${apiUrl}/v10/applications/${APP_ID}/commands`, {
    method: 'PUT',
    headers: {
      authorization: `Bot ${BOT_TOKEN}`,
      'content-type': 'application/json',
      'user-agent': 'DiscordBot (https://github.com/herald, 1.0.0)',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

const slash = (extra: Json): Json => ({ type: 1, name: 'weather', description: 'Current weather', ...extra });

describe('npm run register with localizations', () => {
  it('publishes German and French names and descriptions for every slash command, within Discord’s limits', async () => {
    const { code, stderr } = await registerRun([], {
      DISCORD_TOKEN: BOT_TOKEN,
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_URL: fake.apiUrl,
      ...Object.fromEntries(
        ['WEATHER', 'GEOCODING', 'SPEECH', 'HOSTSCAN', 'JOBS'].map((s) => [`${s}_API_KEY`, `loopback-${s}`]),
      ),
      JOBS_APP_ID: 'loopback-jobs-app',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const sent = fake.calls[0]!.json as unknown as Json[];
    const slashCommands = sent.filter((c) => c.type === 1);
    expect(slashCommands.length).toBeGreaterThan(8);
    for (const command of slashCommands) {
      for (const part of parts(command)) {
        const localized = part.description_localizations as Record<string, string> | undefined;
        expect(Object.keys(localized ?? {}), `${String(command.name)} › ${String(part.name)}`).toEqual([
          'de',
          'fr',
        ]);
        for (const text of Object.values(localized!)) expect(text.length).toBeLessThanOrEqual(100);
        // A name the language shares with English ("id", "ip") carries none: Discord ignores it.
        const names = (part.name_localizations ?? {}) as Record<string, string>;
        for (const [locale, name] of Object.entries(names)) {
          expect(name, `${String(part.name)} (${locale})`).toMatch(/^[-_'\p{L}\p{N}]{1,32}$/u);
          expect(name).toBe(name.toLowerCase());
          expect(name).not.toBe(part.name);
        }
      }
      expect(Object.keys(command.name_localizations ?? {}), String(command.name)).toEqual(['de', 'fr']);
      expect(commandChars(command)).toBeLessThanOrEqual(COMMAND_CHARS_MAX);
    }
    const names = (name: string) => sent.find((c) => c.name === name)?.name_localizations;
    expect(names('weather')).toEqual({ de: 'wetter', fr: 'météo' });
    expect(names('forecast')).toEqual({ de: 'vorhersage', fr: 'prévisions' });
    const readAloud = sent.find((c) => c.type === 3);
    expect(readAloud?.name_localizations).toEqual({ de: 'Vorlesen', fr: 'Lire à voix haute' });
    expect(fake.calls).toHaveLength(1);
  });
});

describe('the fake Discord refuses what Discord refuses in localizations', () => {
  it('accepts a command with valid German and French localizations', async () => {
    const ok = slash({ description_localizations: { de: 'Aktuelles Wetter', fr: 'Météo actuelle' } });
    expect((await put([ok])).status).toBe(200);
  });

  it('refuses a locale key Discord does not have', async () => {
    const res = await put([slash({ description_localizations: { 'de-DE': 'Aktuelles Wetter' } })]);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 50035,
      errors: { '0': { description_localizations: { 'de-DE': { _errors: [{ code: 'LOCALE_INVALID' }] } } } },
    });
  });

  it('refuses a localized description over 100 characters and a localized name over 32 or with capitals', async () => {
    const long = await put([slash({ description_localizations: { fr: 'é'.repeat(101) } })]);
    expect(long.status).toBe(400);
    const name = await put([slash({ name_localizations: { de: 'w'.repeat(33) } })]);
    expect(name.status).toBe(400);
    const capital = await put([slash({ name_localizations: { de: 'Wetter' } })]);
    expect(capital.status).toBe(400);
    // A message command's name may hold capitals and spaces.
    expect(
      (await put([{ type: 3, name: 'Read aloud', name_localizations: { de: 'Vorlesen' } }])).status,
    ).toBe(200);
  });

  it('counts each field at its longest localization against the 8,000 characters, as herald does', async () => {
    // 10 subcommands of 25 options: 750 characters in English, over 25,000 at their German length.
    const options = Array.from({ length: 25 }, (_, i) => ({
      type: 3,
      name: `o${i}`,
      description: 'x',
      description_localizations: { de: 'ü'.repeat(100) },
    }));
    const subcommands = Array.from({ length: 10 }, (_, i) => ({
      type: 1,
      name: `s${i}`,
      description: 'x',
      options,
    }));
    const big = slash({ options: subcommands });
    expect(commandChars(big)).toBeGreaterThan(COMMAND_CHARS_MAX);
    const res = await put([big]);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      errors: { '0': { _errors: [{ code: 'APPLICATION_COMMAND_TOO_LARGE' }] } },
    });
    const english = slash({
      options: subcommands.map((s) => ({
        ...s,
        options: s.options.map(({ description_localizations: _, ...o }) => o),
      })),
    });
    expect((await put([english])).status).toBe(200);
  });
});
