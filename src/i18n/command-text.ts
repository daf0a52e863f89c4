// A command's and its options' names and descriptions in a language, for /help and Discord's
// localizations. Read from the catalogue's `commands` area by the command's name (a key no type can
// list, since commands are data); a description whose English no longer matches the definition's is
// stale, and the definition's English is shown instead of a translation of something else.
import type { Language } from '../domain/preferences.ts';
import { formatNumber } from '../format.ts';
import { commands } from './commands.ts';
import { discordNames } from './discord-names.ts';

type Area = Readonly<Record<string, Readonly<Record<string, string>> | undefined>>;

const areaOf = (language: Language) => commands[language] as unknown as Area;
const ENGLISH = areaOf('en-GB');

const PLACEHOLDER_RE = /\{\{(\w+)\}\}/g;
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The values of a catalogue text's `{{placeholders}}` in the definition's English (a limit the
 * configuration sets: "at most {{limit}} characters"); undefined when the English is another text.
 */
function valuesIn(pattern: string, english: string): Map<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split(PLACEHOLDER_RE)
    .map((part, i) => (i % 2 === 1 ? (names.push(part), '(.+?)') : escapeRe(part)))
    .join('');
  const match = new RegExp(`^${source}$`, 'u').exec(english);
  return match ? new Map(names.map((name, i) => [name, match[i + 1]!])) : undefined;
}

/** A number as the definition wrote it (en-GB, "5,000"), rewritten for `language` ("5.000"). */
function localNumber(text: string, language: Language): string {
  return /^\d{1,3}(,\d{3})*$/.test(text) ? formatNumber(Number(text.replaceAll(',', '')), 0, language) : text;
}

/** A placeholder's value in `language`: a number its way, a command ("/say") as `names` finds it. */
function localValue(value: string, language: Language, names: NameReader | undefined): string {
  if (value.startsWith('/')) return names === undefined ? value : slashName(value.slice(1), names);
  return localNumber(value, language);
}

function translated(
  language: Language,
  entry: string,
  key: string,
  english: string,
  names?: NameReader,
): string {
  const pattern = ENGLISH[entry]?.[key];
  const values = pattern === undefined ? undefined : valuesIn(pattern, english);
  const text = areaOf(language)[entry]?.[key];
  if (values === undefined || text === undefined) return english;
  return text.replace(PLACEHOLDER_RE, (_, name: string) =>
    localValue(values.get(name) ?? '', language, names),
  );
}

/**
 * What the command (or group: "email") is for, in `language`; a command it names is written as
 * `names` finds it (Discord's list), else as typed in English.
 */
export function commandDescription(
  language: Language,
  name: string,
  english: string,
  names?: NameReader,
): string {
  return translated(language, name, 'description', english, names);
}

/** An option's description in `language`: the command's own, else the one several share. */
export function optionDescription(
  language: Language,
  command: string,
  option: string,
  english: string,
  names?: NameReader,
): string {
  const own = ENGLISH[command]?.[option];
  const isOwn = own !== undefined && valuesIn(own, english) !== undefined;
  return translated(language, isOwn ? command : 'options', option, english, names);
}

/** A message command's name on a message's menu ("Read aloud": "Vorlesen"). */
export function menuName(language: Language, command: string, english: string): string {
  return translated(language, command, 'menu', english);
}

type Names = Readonly<Record<'commands' | 'options' | 'choices', Readonly<Record<string, string>>>>;

const namesOf = (language: Language) => discordNames[language] as unknown as Names;

/** One word of Discord's command list in `language`; the English where the catalogue has none. */
function named(language: Language, kind: keyof Names, english: string): string {
  return namesOf(language)[kind][english] ?? english;
}

/** Every command and subcommand the catalogue names, in English ("schedule", "schedule add"). */
export function commandNames(): readonly string[] {
  return Object.keys(namesOf('en-GB').commands);
}

/** A command's or subcommand's own word in `language` ("schedule add": "hinzufügen"). */
export function commandWord(language: Language, command: string): string {
  return named(language, 'commands', command);
}

/** An option's name in `language` ("city": "stadt"), the same in every command that has it. */
export function optionName(language: Language, option: string): string {
  return named(language, 'options', option);
}

/** A choice's label in `language` ("yes": "ja"); the value sent stays the English. */
export function choiceName(language: Language, value: string): string {
  return named(language, 'choices', value);
}

/** Who reads a command's name: localized names exist on Discord alone (its command list). */
export interface NameReader {
  language: Language;
  platform: 'console' | 'discord' | 'slack';
}

/**
 * A command as the reader finds it in their picker: "/zeitplan liste" on Discord in German,
 * "/schedule list" on Slack and the console, which have the English names only.
 */
export function slashName(command: string, reader: NameReader): string {
  if (reader.platform !== 'discord') return `/${command}`;
  const words = command.split(' ');
  const local = words.map((_, i) => commandWord(reader.language, words.slice(0, i + 1).join(' ')));
  return `/${local.join(' ')}`;
}

/** An option's name as the reader sees it beside the command (`stadt` on Discord in German). */
export function shownOptionName(option: string, reader: NameReader): string {
  return reader.platform === 'discord' ? optionName(reader.language, option) : option;
}
