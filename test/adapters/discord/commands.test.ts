import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineCommand } from '../../../src/core/command.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import {
  ApplicationCommandType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { buildDiscordCommands, commandChars, COMMAND_CHARS_MAX } from '../../../adapters/discord/commands.ts';

const reply = async () => ({ text: 'ok' });

const weather = defineCommand({
  name: 'weather',
  description: 'Current weather for a city',
  options: z.object({
    units: z.enum(['metric', 'imperial']).default('metric').describe('Units of measurement'),
    city: z.string().min(1).max(100).describe('City name, e.g. Paris'),
  }),
  needs: ['weather'],
  handler: reply,
});

const jobs = defineCommand({
  name: 'jobs',
  description: 'Search job listings',
  options: z.object({
    what: z.string().describe('Keywords'),
    country: z.string().length(2).optional().describe('Country code'),
    page: z.number().int().min(1).max(50).optional().describe('Result page'),
    remote: z.boolean().optional().describe('Remote only'),
    radius: z.number().min(0.5).optional().describe('Radius in km'),
    count: z.number().int().optional().describe('How many'),
  }),
  needs: ['jobSearch'],
  autocomplete: { country: async () => [] },
  handler: reply,
});

const emailSend = defineCommand({
  name: 'email send',
  description: 'Send an email',
  options: z.object({
    to: z.string().describe('Recipient'),
    subject: z.string().max(200).describe('Subject line'),
    body: z.string().describe('Body text'),
  }),
  needs: ['email'],
  handler: reply,
});

const emailStatus = defineCommand({
  name: 'email status',
  description: 'Show the status of a sent email',
  options: z.object({ id: z.string().describe('Email id') }),
  needs: ['email'],
  handler: reply,
});

type Built = ReturnType<typeof buildDiscordCommands>[number];
type Slash = RESTPostAPIChatInputApplicationCommandsJSONBody;
const isSlash = (c: Built): c is Slash => c.type === ApplicationCommandType.ChatInput;

function find(json: readonly Built[], name: string): Slash {
  const found = json.filter(isSlash).find((c) => c.name === name);
  if (!found) throw new Error(`no /${name}`);
  return found;
}

describe('buildDiscordCommands', () => {
  it('renders a command with typed options, choices and the required ones first', () => {
    expect(find(buildDiscordCommands(createRegistry([weather])), 'weather')).toEqual({
      type: 1,
      name: 'weather',
      name_localizations: { de: 'wetter', fr: 'météo' },
      description: 'Current weather for a city',
      description_localizations: {
        de: 'Aktuelles Wetter für eine Stadt',
        fr: "La météo actuelle d'une ville",
      },
      options: [
        {
          type: 3,
          name: 'city',
          name_localizations: { de: 'stadt', fr: 'ville' },
          description: 'City name, e.g. Paris',
          required: true,
          min_length: 1,
          max_length: 100,
        },
        {
          type: 3,
          name: 'units',
          name_localizations: { de: 'einheiten', fr: 'unités' },
          description: 'Units of measurement (default: metric)',
          required: false,
          // A choice's label is localized; its value, which herald reads, stays the English.
          choices: [
            {
              name: 'metric',
              name_localizations: { de: 'metrisch (°C, m/s)', fr: 'métrique (°C, m/s)' },
              value: 'metric',
            },
            {
              name: 'imperial',
              name_localizations: { de: 'imperial (°F, mph)', fr: 'impérial (°F, mph)' },
              value: 'imperial',
            },
          ],
        },
      ],
    });
  });

  it('maps integer, number and boolean options with their bounds, and flags autocomplete', () => {
    const options = find(buildDiscordCommands(createRegistry([jobs])), 'jobs').options!;
    const byName = Object.fromEntries(options.map((o) => [o.name, o as unknown as Record<string, unknown>]));
    expect(byName.what).toMatchObject({ type: 3, required: true });
    expect(byName.country).toMatchObject({
      type: 3,
      required: false,
      autocomplete: true,
      min_length: 2,
      max_length: 2,
    });
    expect(byName.country).not.toHaveProperty('choices');
    expect(byName.page).toMatchObject({ type: 4, min_value: 1, max_value: 50 });
    expect(byName.remote).toMatchObject({ type: 5, required: false });
    expect(byName.radius).toMatchObject({ type: 10, min_value: 0.5 });
    expect(byName.radius).not.toHaveProperty('max_value');
    expect(byName.count).toMatchObject({ type: 4 });
    expect(byName.count).not.toHaveProperty('min_value');
    expect(byName.count).not.toHaveProperty('max_value');
  });

  it('turns "email send" and "email status" into one /email command with two subcommands', () => {
    const json = buildDiscordCommands(createRegistry([weather, emailSend, emailStatus]));
    expect(json.map((c) => c.name)).toEqual(['weather', 'email']);
    const email = find(json, 'email');
    expect(email.description).toBe('Email: send, status');
    expect(email.options).toEqual([
      {
        type: 1,
        name: 'send',
        name_localizations: { de: 'senden', fr: 'envoyer' },
        description: 'Send an email',
        description_localizations: { de: 'Sendet eine E-Mail', fr: 'Envoie un e-mail' },
        options: [
          {
            type: 3,
            name: 'to',
            name_localizations: { de: 'an', fr: 'à' },
            description: 'Recipient',
            required: true,
          },
          {
            type: 3,
            name: 'subject',
            name_localizations: { de: 'betreff', fr: 'objet' },
            description: 'Subject line',
            description_localizations: { de: 'Betreffzeile', fr: 'Objet' },
            required: true,
            max_length: 200,
          },
          {
            type: 3,
            name: 'body',
            name_localizations: { de: 'nachricht', fr: 'message' },
            description: 'Body text',
            required: true,
          },
        ],
      },
      {
        type: 1,
        name: 'status',
        name_localizations: { de: 'zustellung', fr: 'suivi' },
        description: 'Show the status of a sent email',
        options: [{ type: 3, name: 'id', description: 'Email id', required: true }],
      },
    ]);
  });

  it('rejects a name used both as a command and as a group', () => {
    const email = defineCommand({
      name: 'email',
      description: 'Email',
      options: z.object({}),
      needs: [],
      handler: reply,
    });
    expect(() => buildDiscordCommands(createRegistry([email, emailSend]))).toThrow(
      /both a command and a group/,
    );
  });

  it('rejects an option name Discord would refuse', () => {
    const bad = defineCommand({
      name: 'say',
      description: 'Speak',
      options: z.object({ voiceId: z.string().describe('Voice') }),
      needs: ['speech'],
      handler: reply,
    });
    expect(() => buildDiscordCommands(createRegistry([bad]))).toThrow(/voiceId/);
  });

  it('rejects a command whose names and descriptions exceed 8000 characters', () => {
    const values = Array.from({ length: 25 }, (_, i) => `${'v'.repeat(95)}${String(i).padStart(2, '0')}`);
    const shape = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [
        `o${i}`,
        z.enum(values as [string, ...string[]]).describe('d'.repeat(90)),
      ]),
    );
    const huge = defineCommand({
      name: 'huge',
      description: 'Huge',
      options: z.object(shape),
      needs: [],
      handler: reply,
    });
    expect(() => buildDiscordCommands(createRegistry([huge]))).toThrow(/max 8000/);
  });

  it('keeps real-sized commands well within the per-command budget', () => {
    for (const json of buildDiscordCommands(createRegistry([weather, jobs, emailSend, emailStatus]))) {
      expect(commandChars(json)).toBeLessThan(COMMAND_CHARS_MAX);
    }
    expect(commandChars(find(buildDiscordCommands(createRegistry([emailStatus])), 'email'))).toBe(
      // Each name at its longest localization: "e-mail", "zustellung".
      'e-mail'.length +
        'Email: status'.length +
        'zustellung'.length +
        'Show the status of a sent email'.length +
        'id'.length +
        'Email id'.length,
    );
  });
});

describe('buildDiscordCommands with herald’s own command list', () => {
  it('builds every real command within Discord’s limits, with /email as a group and /say voice autocompleted', async () => {
    const { buildCommands } = await import('../../../commands/index.ts');
    const commands = buildCommands({
      access: { emailUsers: [], emailRoles: [], emailDomains: [], hostUsers: [], hostRoles: [] },
      limits: { perUserPerMinute: 10, sayDailyChars: 2000 },
      speechModelId: 'eleven_multilingual_v2',
      jobsCountry: 'gb',
    });
    const json = buildDiscordCommands(createRegistry(commands));
    expect(json.filter(isSlash).length).toBeLessThanOrEqual(100);
    for (const command of json.filter(isSlash)) {
      expect(command.name).toMatch(/^[a-z][a-z0-9-]{0,31}$/);
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.description.length).toBeLessThanOrEqual(100);
      expect(command.options?.length ?? 0).toBeLessThanOrEqual(25);
      expect(commandChars(command)).toBeLessThanOrEqual(COMMAND_CHARS_MAX);
    }
    const email = find(json, 'email');
    expect(email.options?.map((o) => [o.name, o.type])).toEqual([
      ['send', 1],
      ['status', 1],
    ]);
    const voice = find(json, 'say').options?.find((o) => o.name === 'voice');
    expect(voice).toMatchObject({ type: 3, autocomplete: true });
  });
});
