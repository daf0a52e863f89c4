// What Discord refuses in a bulk overwrite of application commands, for the fake: names and option
// names (CHAT_INPUT: the naming regex, lower case where a letter has one, 1-32; MESSAGE and USER:
// 1-32, any case and spaces), descriptions 1-100 (none on MESSAGE and USER commands), localization
// maps keyed by Discord's locales with values under the same rules, and the 8,000 characters of
// names, descriptions and values a command may hold, each field counted at its longest
// localization (https://discord.com/developers/docs/interactions/application-commands). Written
// apart from herald's own check, so each tests the other.
import { Locale } from 'discord-api-types/v10';

const CHAT_NAME_RE = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const LOCALES: ReadonlySet<string> = new Set(Object.values(Locale));
const COMMAND_CHARS = 8000;

type Json = Record<string, unknown>;

/** The refusal of one field: its path and Discord's error code. */
interface Problem {
  path: string;
  code: string;
}

function textsOf(json: Json, key: string): { where: string; text: unknown }[] {
  const map = json[`${key}_localizations`];
  const localized =
    typeof map === 'object' && map !== null
      ? Object.entries(map as Json).map(([locale, text]) => ({
          where: `${key}_localizations.${locale}`,
          text,
        }))
      : [];
  return [{ where: key, text: json[key] }, ...localized];
}

function localeProblems(json: Json, path: string): Problem[] {
  const problems: Problem[] = [];
  for (const key of ['name', 'description']) {
    const map = json[`${key}_localizations`];
    if (map === undefined || map === null) continue;
    for (const locale of Object.keys(map))
      if (!LOCALES.has(locale))
        problems.push({ path: `${path}${key}_localizations.${locale}`, code: 'LOCALE_INVALID' });
  }
  return problems;
}

function fieldProblems(json: Json, path: string, isChatInput: boolean): Problem[] {
  const problems = localeProblems(json, path);
  for (const { where, text } of textsOf(json, 'name')) {
    const name = typeof text === 'string' ? text : '';
    const isValid = isChatInput
      ? CHAT_NAME_RE.test(name) && name === name.toLowerCase()
      : name.length >= 1 && name.length <= 32;
    if (!isValid) problems.push({ path: `${path}${where}`, code: 'APPLICATION_COMMAND_INVALID_NAME' });
  }
  for (const { where, text } of textsOf(json, 'description')) {
    if (!isChatInput) {
      if (text !== undefined && text !== '')
        problems.push({ path: `${path}${where}`, code: 'BASE_TYPE_MAX_LENGTH' });
      continue;
    }
    const length = typeof text === 'string' ? text.length : 0;
    if (length < 1 || length > 100) problems.push({ path: `${path}${where}`, code: 'BASE_TYPE_BAD_LENGTH' });
  }
  return problems;
}

function longest(json: Json, key: string): number {
  return Math.max(0, ...textsOf(json, key).map(({ text }) => (typeof text === 'string' ? text.length : 0)));
}

/** Names, descriptions and choice values, each at its longest localization. */
function charsOf(json: Json): number {
  let n = longest(json, 'name') + longest(json, 'description');
  if (typeof json.value === 'string') n += json.value.length;
  for (const key of ['options', 'choices']) {
    const list = json[key];
    if (Array.isArray(list)) for (const item of list as Json[]) n += charsOf(item);
  }
  return n;
}

function optionProblems(options: unknown, path: string): Problem[] {
  if (!Array.isArray(options)) return [];
  return (options as Json[]).flatMap((option, i) => [
    ...fieldProblems(option, `${path}options.${i}.`, true),
    ...optionProblems(option.options, `${path}options.${i}.`),
  ]);
}

/** Every problem Discord names in a bulk overwrite's body; none: it is saved. */
export function commandProblems(list: readonly Json[]): Problem[] {
  return list.flatMap((command, i) => {
    const isChatInput = (command.type ?? 1) === 1;
    const problems = [
      ...fieldProblems(command, `${i}.`, isChatInput),
      ...optionProblems(command.options, `${i}.`),
    ];
    if (charsOf(command) > COMMAND_CHARS)
      problems.push({ path: `${i}`, code: 'APPLICATION_COMMAND_TOO_LARGE' });
    return problems;
  });
}

/** Discord's 400 for those problems: a 50035 form body error, each under its field's path. */
export function commandFormBodyError(problems: readonly Problem[]) {
  const errors: Json = {};
  for (const { path, code } of problems)
    errors[path] = { _errors: [{ code, message: `Invalid value (${code})` }] };
  return { message: 'Invalid Form Body', code: 50035, errors };
}
