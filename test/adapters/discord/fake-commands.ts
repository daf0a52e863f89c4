// What Discord refuses of a command registration (Bulk Overwrite Global or Guild Application
// Commands), for the fake Discord to refuse it too: written from Discord's Application Commands page
// (https://discord.com/developers/docs/interactions/application-commands), not from herald's own
// builder, so that a registration herald gets wrong fails its tests as it would fail on Discord.
// - at most 100 CHAT_INPUT commands ("Registering a Command");
// - a CHAT_INPUT name, an option's name and each of their localizations: 1 to 32 characters, of the
//   "Application Command Naming" pattern, in lower case where the letter has one; a USER or MESSAGE
//   command's name: 1 to 32 characters of any kind;
// - a CHAT_INPUT description, an option's, and each localization: 1 to 100 characters; a USER or
//   MESSAGE command has none ("description ... Empty string for USER and MESSAGE commands");
// - at most 25 options and 25 choices; a choice's name and each localization 1 to 100, a string
//   value at most 100 ("Application Command Option Choice Structure");
// - option names unique among their siblings, and a localized option name distinct from the other
//   options' default names and from their names in the same locale ("Localization");
// - a localization map keyed only by Discord's locales ("Localization": `de`, `fr`, `en-GB`…;
//   `de-DE` is not one);
// - integration_types of 0 (guild install) and 1 (user install) only; contexts of 0 (guild), 1 (bot
//   DM) and 2 (private channel) only ("Installation Context", "Interaction Context");
// - "Limits": the name, description and value of a command, its options and choices, at most 8,000
//   characters together, where a localized field counts as its longest localization (the default
//   value included).
import { Locale } from 'discord-api-types/v10';
import { formBodyError } from './contract.ts';

type Json = Record<string, unknown>;

const CHAT_INPUT = 1;
const NAME_RE = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const COMMAND_CHARS = 8_000;
const LOCALES: ReadonlySet<string> = new Set(Object.values(Locale));

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const list = (value: unknown) => (Array.isArray(value) ? (value as Json[]) : []);
const numbers = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
const localizations = (value: unknown) =>
  typeof value === 'object' && value !== null
    ? Object.values(value as Record<string, unknown>).map(text)
    : [];

/** A field's length as the 8,000 counts it: its longest form, the default or a localization. */
function longest(item: Json, field: 'name' | 'description'): number {
  return Math.max(
    [...text(item[field])].length,
    ...localizations(item[`${field}_localizations`]).map((l) => [...l].length),
  );
}

/** The characters a command, its options and choices count toward Discord's 8,000. */
function chars(item: Json): number {
  const value = typeof item.value === 'string' ? [...item.value].length : 0;
  const nested = [...list(item.options), ...list(item.choices)].reduce((n, o) => n + chars(o), 0);
  return longest(item, 'name') + longest(item, 'description') + value + nested;
}

/** The first localization map of `item` keyed by a locale Discord does not have, at `at`. */
function localeProblem(item: Json, at: string): Response | undefined {
  for (const field of ['name', 'description']) {
    const map = item[`${field}_localizations`];
    if (typeof map !== 'object' || map === null) continue;
    const bad = Object.keys(map).find((locale) => !LOCALES.has(locale));
    if (bad !== undefined)
      return formBodyError(`${at}.${field}_localizations.${bad}`, 'LOCALE_INVALID', 'Invalid locale');
  }
  return undefined;
}

/** Why a slash command's or option's name is refused, if it is. */
function badName(name: string): string | undefined {
  if (!NAME_RE.test(name)) return 'APPLICATION_COMMAND_INVALID_NAME';
  if (name !== name.toLowerCase()) return 'APPLICATION_COMMAND_INVALID_NAME';
  return undefined;
}

/** The first refusal of a CHAT_INPUT command's or option's name and description, at `at`. */
function namedProblem(item: Json, at: string): Response | undefined {
  const locale = localeProblem(item, at);
  if (locale) return locale;
  for (const name of [text(item.name), ...localizations(item.name_localizations)]) {
    const code = badName(name);
    if (code) return formBodyError(`${at}.name`, code, 'Command name is invalid');
  }
  for (const description of [text(item.description), ...localizations(item.description_localizations)]) {
    const length = [...description].length;
    if (length < 1 || length > 100)
      return formBodyError(
        `${at}.description`,
        'BASE_TYPE_BAD_LENGTH',
        'Must be between 1 and 100 in length.',
      );
  }
  return undefined;
}

/**
 * The index of the first option whose name, or localized name, another option of the same list
 * already has: as a default name, or as a name in the same locale ("Localization").
 */
function nameClash(options: readonly Json[]): number | undefined {
  const defaults = options.map((o) => text(o.name));
  const perLocale = new Map<string, Set<string>>();
  for (const [i, option] of options.entries()) {
    if (defaults.indexOf(defaults[i]!) !== i) return i;
    const map = option.name_localizations;
    if (typeof map !== 'object' || map === null) continue;
    for (const [locale, value] of Object.entries(map as Record<string, unknown>)) {
      const name = text(value);
      const seen = perLocale.get(locale) ?? new Set<string>();
      perLocale.set(locale, seen);
      if (defaults.some((d, j) => j !== i && d === name) || seen.has(name)) return i;
      seen.add(name);
    }
  }
  return undefined;
}

/** The first refusal among `item`'s options (and theirs) and choices, at `at`. */
function optionsProblem(item: Json, at: string): Response | undefined {
  const options = list(item.options);
  const choices = list(item.choices);
  if (options.length > 25)
    return formBodyError(`${at}.options`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  if (choices.length > 25)
    return formBodyError(`${at}.choices`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  const clash = nameClash(options);
  if (clash !== undefined)
    return formBodyError(
      `${at}.options.${clash}`,
      'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
      'Option name already exists',
    );
  for (const [i, choice] of choices.entries()) {
    const names = [text(choice.name), ...localizations(choice.name_localizations)].map((n) => [...n].length);
    const value = typeof choice.value === 'string' ? [...choice.value].length : 0;
    if (names.some((n) => n < 1 || n > 100) || value > 100)
      return formBodyError(
        `${at}.choices.${i}`,
        'BASE_TYPE_BAD_LENGTH',
        'Must be between 1 and 100 in length.',
      );
  }
  for (const [i, option] of options.entries()) {
    const problem =
      namedProblem(option, `${at}.options.${i}`) ?? optionsProblem(option, `${at}.options.${i}`);
    if (problem) return problem;
  }
  return undefined;
}

/** The first refusal of one command of the list, at its index. */
function commandProblem(command: Json, i: number): Response | undefined {
  const at = String(i);
  const type = command.type ?? CHAT_INPUT;
  if (type === CHAT_INPUT) {
    const problem = namedProblem(command, at) ?? optionsProblem(command, at);
    if (problem) return problem;
  } else {
    const locale = localeProblem(command, at);
    if (locale) return locale;
    for (const name of [text(command.name), ...localizations(command.name_localizations)])
      if ([...name].length < 1 || [...name].length > 32)
        return formBodyError(`${at}.name`, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    if (text(command.description) !== '' || command.options !== undefined)
      return formBodyError(
        `${at}.description`,
        'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION',
        'Context menu commands cannot have description',
      );
  }
  if (numbers(command.integration_types).some((t) => t !== 0 && t !== 1))
    return formBodyError(`${at}.integration_types`, 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
  if (numbers(command.contexts).some((c) => c !== 0 && c !== 1 && c !== 2))
    return formBodyError(`${at}.contexts`, 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1, 2).');
  if (chars(command) > COMMAND_CHARS)
    return formBodyError(
      at,
      'APPLICATION_COMMAND_TOO_LARGE',
      `Command exceeds maximum size (${COMMAND_CHARS})`,
    );
  return undefined;
}

/** Discord's 400 / 50035 for a command list it would refuse, else undefined. */
export function invalidCommands(json: unknown): Response | undefined {
  const commands = list(json);
  if (commands.filter((c) => (c.type ?? CHAT_INPUT) === CHAT_INPUT).length > 100)
    return formBodyError('_root', 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
  for (const [i, command] of commands.entries()) {
    const problem = commandProblem(command, i);
    if (problem) return problem;
  }
  return undefined;
}
