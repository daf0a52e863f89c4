// Discord's rules for the names in a slash command (CHAT_INPUT) and their localizations, checked on
// herald's own registration before it is sent, so a bad translation fails `npm run register` with
// the name at fault rather than Discord's one "Invalid Form Body" for the whole set. Each rule cites
// its section of https://discord.com/developers/docs/interactions/application-commands.

type Json = Readonly<Record<string, unknown>>;

/**
 * "Application Command Naming": CHAT_INPUT command and option names match this pattern (unicode
 * flag) and use a letter's lower-case form where it has one. "Localization": localized names
 * "follow the same restrictions as name".
 */
const NAME_RE = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
/** "Application Command Option Choice Structure": a choice's name, and each localization, 1-100. */
const CHOICE_NAME_MAX = 100;

const list = (value: unknown) => (Array.isArray(value) ? (value as Json[]) : []);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A field's localizations by locale (`de`: "wetter"). */
function localizations(item: Json, field: string): [string, string][] {
  const map = item[`${field}_localizations`];
  return typeof map === 'object' && map !== null
    ? Object.entries(map as Record<string, unknown>).map(([locale, value]) => [locale, text(value)])
    : [];
}

function badName(name: string): string | undefined {
  if (!NAME_RE.test(name)) return `"${name}" is not a valid name (letters, digits, - _ ', 1-32)`;
  if (name !== name.toLowerCase()) return `"${name}" is not in lower case`;
  return undefined;
}

/**
 * "Localization": a localized option name is distinct from the other options' default names and
 * from their names in the same locale. Siblings are one `options` array (a command's options, or a
 * subcommand's); a subcommand's names count among its command's other subcommands the same way.
 */
function clashIn(options: readonly Json[]): string | undefined {
  const defaults = options.map((o) => text(o.name));
  const seen = new Set(defaults);
  if (seen.size < defaults.length) return `two options are named alike (${defaults.join(', ')})`;
  const byLocale = new Map<string, Set<string>>();
  for (const [i, option] of options.entries()) {
    for (const [locale, name] of localizations(option, 'name')) {
      const inLocale = byLocale.get(locale) ?? new Set<string>();
      byLocale.set(locale, inLocale);
      const isOtherDefault = defaults.some((d, j) => j !== i && d === name);
      if (isOtherDefault || inLocale.has(name))
        return `the ${locale} name "${name}" of option ${defaults[i]} is another option's name`;
      inLocale.add(name);
    }
  }
  return undefined;
}

function choiceProblem(choice: Json): string | undefined {
  for (const name of [text(choice.name), ...localizations(choice, 'name').map(([, n]) => n)]) {
    if (name.length < 1 || name.length > CHOICE_NAME_MAX)
      return `the choice name "${name.slice(0, 40)}" is not 1-${CHOICE_NAME_MAX} characters`;
  }
  return undefined;
}

/** Why Discord would refuse a name of this slash command or option, or of those under it, if any. */
export function namingProblem(json: object): string | undefined {
  const part = json as Json;
  for (const name of [text(part.name), ...localizations(part, 'name').map(([, n]) => n)]) {
    const problem = badName(name);
    if (problem !== undefined) return `${text(part.name)}: ${problem}`;
  }
  const options = list(part.options);
  const problem = clashIn(options) ?? list(part.choices).map(choiceProblem).find(Boolean);
  if (problem !== undefined) return `${text(part.name)}: ${problem}`;
  return options.map(namingProblem).find(Boolean);
}
