// Command definitions -> Discord application command JSON, for one bulk overwrite: a slash command
// (CHAT_INPUT) per entry, the registry's group "email" (email send, email status) as one /email
// with two subcommands, and a MESSAGE command per message command (Read aloud). Registered
// globally, each also says where it may be installed and used (integration_types, contexts).
// Every name, description and choice carries its German and French (`*_localizations`).
// Shape and limits: https://discord.com/developers/docs/interactions/application-commands#application-command-object
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandSubcommandOption,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { groupDescription, isGroup, type CommandRegistry } from '../../src/core/adapter.ts';
import { describeOptions, type Command, type OptionSpec } from '../../src/core/command.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';
import { truncate } from '../../src/domain/text.ts';
import { PREFERENCE_DEFAULTS, type Language } from '../../src/domain/preferences.ts';
import { translatorFor } from '../../src/i18n/translate.ts';
import {
  choiceName,
  commandDescription,
  commandWord,
  menuName,
  optionDescription,
  optionName,
} from '../../src/i18n/command-text.ts';
import { namingProblem } from './command-names.ts';

const DESCRIPTION_MAX = DISCORD_LIMITS.commandDescription;
const OPTIONS_MAX = DISCORD_LIMITS.commandOptions;
const SUBCOMMANDS_MAX = DISCORD_LIMITS.subcommands;
const CHOICES_MAX = DISCORD_LIMITS.choices;
const CHOICE_MAX = DISCORD_LIMITS.choiceValue;
const STRING_LENGTH_LIMIT = DISCORD_LIMITS.stringOptionLength;
/** Names, descriptions, choice names and values of one command together. */
export const COMMAND_CHARS_MAX = DISCORD_LIMITS.commandChars;
/** A MESSAGE command's name: 1-32 characters, capitals and spaces allowed ("Read aloud"). */
const MENU_NAME_RE = /^[-_ \p{L}\p{N}]{1,32}$/u;
/** Discord's INTEGER and NUMBER bounds; zod's int() reports these when no bound was given. */
const SAFE_BOUND = Number.MAX_SAFE_INTEGER;

type DiscordCommandJson = RESTPostAPIApplicationCommandsJSONBody;

/**
 * The commands anyone may install into their own account and use in any DM or group DM (a user
 * install): those that only read, /say and Read aloud. The rest stay in guilds, where their access
 * rules are set: /schedule and /email post and send as the team, /host scans for it and /report
 * reads its analytics. A command not named here is guild-only.
 */
const USER_INSTALLABLE: ReadonlySet<string> = new Set([
  'weather',
  'forecast',
  'geocode',
  'jobs',
  'voices',
  'say',
  'read-aloud',
  'help',
]);

/** Where a command may be installed and run; Discord reads these on global commands only. */
function reachOf(name: string): Pick<DiscordCommandJson, 'integration_types' | 'contexts'> {
  return USER_INSTALLABLE.has(name)
    ? {
        integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
        contexts: [
          InteractionContextType.Guild,
          InteractionContextType.BotDM,
          InteractionContextType.PrivateChannel,
        ],
      }
    : {
        integration_types: [ApplicationIntegrationType.GuildInstall],
        contexts: [InteractionContextType.Guild],
      };
}

/** Whether a published command may be installed by a user (it carries integration type 1). */
export function isUserInstallable(json: Pick<DiscordCommandJson, 'integration_types'>): boolean {
  return json.integration_types?.includes(ApplicationIntegrationType.UserInstall) ?? false;
}

const TYPES = {
  string: ApplicationCommandOptionType.String,
  integer: ApplicationCommandOptionType.Integer,
  number: ApplicationCommandOptionType.Number,
  boolean: ApplicationCommandOptionType.Boolean,
} as const;

/**
 * The languages herald writes besides English, as Discord's locale keys
 * (https://discord.com/developers/docs/reference#locales). Discord sends the English (default)
 * names in every interaction whatever the reader's locale, so dispatch reads the English alone.
 */
const DISCORD_LOCALES: readonly (readonly [Language, 'de' | 'fr'])[] = [
  ['de', 'de'],
  ['fr', 'fr'],
];

type Localizations = Partial<Record<'de' | 'fr', string>>;

/** A reader of Discord's command list in `language`: a command a description names is theirs. */
const onDiscord = (language: Language) => ({ language, platform: 'discord' as const });

/** `text` in each other language, where it is translated. */
function localized(english: string, translate: (language: Language) => string): Localizations {
  const out: Localizations = {};
  for (const [language, locale] of DISCORD_LOCALES) {
    const text = translate(language);
    if (text !== english) out[locale] = text;
  }
  return out;
}

/** `name` and, where a language has its own, `name_localizations`. */
function named(name: string, translate: (language: Language) => string) {
  const names = localized(name, translate);
  return Object.keys(names).length === 0 ? { name } : { name, name_localizations: names };
}

function describe(text: string, fallback: string): string {
  const trimmed = text.trim();
  return truncate(trimmed === '' ? fallback : trimmed, DESCRIPTION_MAX);
}

/** The description and its localizations, each cut to Discord's 100 characters. */
function described(english: string, fallback: string, translate: (language: Language) => string) {
  const description = describe(english, fallback);
  const localizations = localized(english, (language) => describe(translate(language), fallback));
  return Object.keys(localizations).length === 0
    ? { description }
    : { description, description_localizations: localizations };
}

function optionDescriptions(command: Command, spec: OptionSpec) {
  const value = spec.default;
  const hasDefault = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  // The default value where it fits: "(default: 5)", "(Standard: 5)", "(par défaut : 5)".
  const withDefault = (language: Language, base: string) => {
    if (!hasDefault) return base;
    const long = `${base} ${translatorFor(language)('common:defaultValue', { value: String(value) })}`;
    return long.length <= DESCRIPTION_MAX ? long : base;
  };
  const english = describe(spec.description, spec.name);
  const description = withDefault(PREFERENCE_DEFAULTS.language, english);
  // An option whose description is not translated keeps the English alone.
  const localizations = localized(description, (language) => {
    const base = describe(
      optionDescription(language, command.name, spec.name, spec.description, onDiscord(language)),
      spec.name,
    );
    return base === english ? description : withDefault(language, base);
  });
  return Object.keys(localizations).length === 0
    ? { description }
    : { description, description_localizations: localizations };
}

function buildOption(command: Command, spec: OptionSpec): APIApplicationCommandBasicOption {
  const option: Record<string, unknown> = {
    type: TYPES[spec.type],
    ...named(spec.name, (language) => optionName(language, spec.name)),
    ...optionDescriptions(command, spec),
    // A command with a form is also run with no options (it opens the form); the dispatcher still
    // refuses a line that misses a required one, in the sentence a typed line gets.
    required: spec.required && command.form === undefined,
  };
  const hasAutocomplete = command.autocomplete[spec.name] !== undefined;
  // Discord forbids choices together with autocomplete; autocomplete wins.
  if (hasAutocomplete && (spec.type === 'string' || spec.type === 'integer' || spec.type === 'number')) {
    option.autocomplete = true;
  } else if (spec.choices && spec.choices.length > 0 && spec.choices.length <= CHOICES_MAX) {
    // More than 25 values cannot be offered as choices; the dispatcher still validates them.
    option.choices = spec.choices
      .filter((c) => c.length <= CHOICE_MAX)
      .map((c) => ({ ...named(c, (language) => choiceName(language, c)), value: c }));
  }
  if (spec.type === 'integer' || spec.type === 'number') {
    if (spec.min !== undefined && Math.abs(spec.min) < SAFE_BOUND) option.min_value = spec.min;
    if (spec.max !== undefined && Math.abs(spec.max) < SAFE_BOUND) option.max_value = spec.max;
  }
  if (spec.type === 'string') {
    if (spec.minLength !== undefined)
      option.min_length = Math.min(Math.max(spec.minLength, 0), STRING_LENGTH_LIMIT);
    if (spec.maxLength !== undefined)
      option.max_length = Math.min(Math.max(spec.maxLength, 1), STRING_LENGTH_LIMIT);
  }
  return option as unknown as APIApplicationCommandBasicOption;
}

function buildOptions(command: Command): APIApplicationCommandBasicOption[] {
  const options = describeOptions(command.options).map((spec) => buildOption(command, spec));
  if (options.length > OPTIONS_MAX)
    throw new Error(`command ${command.name}: more than ${OPTIONS_MAX} options`);
  // Discord requires every required option to come before the optional ones.
  return [...options.filter((o) => o.required), ...options.filter((o) => !o.required)];
}

/** The longest of a field and its localizations (`name` and `name_localizations`). */
function longest(json: Record<string, unknown>, key: string): number {
  const localizations = json[`${key}_localizations`];
  const texts = [
    json[key],
    ...(typeof localizations === 'object' && localizations
      ? Object.values(localizations as Record<string, unknown>)
      : []),
  ];
  return Math.max(
    0,
    ...texts.filter((t) => typeof t !== 'object' && t !== undefined).map((t) => String(t).length),
  );
}

/**
 * The characters Discord counts against the 8000 per command: names, descriptions and choice
 * values, each field counted at its longest localization.
 */
export function commandChars(json: unknown): number {
  if (Array.isArray(json)) return json.reduce((n: number, item) => n + commandChars(item), 0);
  if (typeof json !== 'object' || json === null) return 0;
  const fields = json as Record<string, unknown>;
  let n = 0;
  for (const [key, value] of Object.entries(fields)) {
    if ((key === 'name' || key === 'description' || key === 'value') && typeof value !== 'object') {
      n += longest(fields, key);
    } else if (key === 'options' || key === 'choices') {
      n += commandChars(value);
    }
  }
  return n;
}

function check(json: DiscordCommandJson): DiscordCommandJson {
  const problem = namingProblem(json);
  if (problem !== undefined) throw new Error(`command /${json.name}: ${problem}`);
  const chars = commandChars(json);
  if (chars > COMMAND_CHARS_MAX) {
    throw new Error(
      `command /${json.name}: ${chars} characters of names and descriptions (max ${COMMAND_CHARS_MAX})`,
    );
  }
  return json;
}

function slashEntry(entry: CommandRegistry['entries'][number]): DiscordCommandJson {
  if (!isGroup(entry)) {
    return check({
      type: ApplicationCommandType.ChatInput,
      ...named(entry.name, (language) => commandWord(language, entry.name)),
      ...described(entry.description, entry.name, (language) =>
        commandDescription(language, entry.name, entry.description, onDiscord(language)),
      ),
      options: buildOptions(entry),
    });
  }
  const { name, subcommands } = entry;
  if (subcommands.length > SUBCOMMANDS_MAX)
    throw new Error(`/${name}: more than ${SUBCOMMANDS_MAX} subcommands`);
  const description = groupDescription(entry);
  return check({
    type: ApplicationCommandType.ChatInput,
    ...named(name, (language) => commandWord(language, name)),
    ...described(description, name, (language) =>
      commandDescription(language, name, description, onDiscord(language)),
    ),
    options: subcommands.map((sub): APIApplicationCommandSubcommandOption => ({
      type: ApplicationCommandOptionType.Subcommand,
      ...named(sub.name, (language) => commandWord(language, sub.command.name)),
      ...described(sub.command.description, sub.command.name, (language) =>
        commandDescription(language, sub.command.name, sub.command.description, onDiscord(language)),
      ),
      options: buildOptions(sub.command),
    })),
  });
}

/** A message command: a name on the message's Apps menu, no description and no options. */
function messageEntry(command: Command): DiscordCommandJson {
  const name = command.onMessage ?? '';
  const names = localized(name, (language) => menuName(language, command.name, name));
  for (const text of [name, ...Object.values(names)]) {
    if (!MENU_NAME_RE.test(text))
      throw new Error(`command ${command.name}: "${text}" is not a valid menu name (1-32)`);
  }
  return {
    type: ApplicationCommandType.Message,
    name,
    ...(Object.keys(names).length > 0 ? { name_localizations: names } : {}),
  };
}

/**
 * The whole set of commands for Discord's bulk overwrite, in the registry's order, message commands
 * last. Registered globally (`isGlobal`), each says where it may be installed and used.
 */
export function buildDiscordCommands(
  registry: CommandRegistry,
  opts: { isGlobal?: boolean } = {},
): DiscordCommandJson[] {
  const built = [
    ...registry.entries.map((entry) => ({ name: entry.name, json: slashEntry(entry) })),
    ...registry.messageCommands.map((command) => ({ name: command.name, json: messageEntry(command) })),
  ];
  return built.map(({ name, json }) => (opts.isGlobal ? { ...json, ...reachOf(name) } : json));
}
