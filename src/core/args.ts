// A command's raw input into its typed options: argument text (console, Slack) is tokenized and
// bound to option names, text values are coerced to the option's type, and the whole is validated
// by the command's schema; a failure is one sentence. The steps live in input/, one job a file:
// tokenize.ts, resolve.ts (which command, "did you mean"), bind.ts, coerce.ts, issues.ts.
import { refusal } from '../errors.ts';
import { type Translate } from '../i18n/translate.ts';
import type { Command } from './command.ts';
import { parseArgs } from './input/bind.ts';
import { coerce } from './input/coerce.ts';
import { sentenceFor } from './input/issues.ts';
import { optionSpecs } from './options.ts';
import type { Preferences } from './preferences.ts';

export { parseArgs } from './input/bind.ts';
export { resolveCommand } from './input/resolve.ts';
export { parseLine, tokenize, type ArgToken } from './input/tokenize.ts';

/** The options `command` takes from preferences, filled where not typed; a place with no home is refused. */
function withPreferred(
  command: Command,
  raw: Record<string, unknown>,
  prefs: Preferences | undefined,
): Record<string, unknown> {
  const filled = { ...raw };
  for (const [option, key] of Object.entries(command.preferred)) {
    if (filled[option] !== undefined && filled[option] !== null) continue;
    const value = key === undefined || prefs === undefined ? undefined : prefs[key];
    if (value !== undefined) filled[option] = value;
    else if (key === 'home') throw refusal((t) => t('errors:needsPlace', { command: command.name }));
  }
  return filled;
}

/**
 * Validates raw input against a command's options, those not typed filled from `prefs` where the
 * command takes them (`preferred`); throws a UserError naming the option.
 */
export function readInput(
  command: Command,
  rawInput: Record<string, unknown> | string,
  prefs?: Preferences,
): Record<string, unknown> {
  const typed = typeof rawInput === 'string' ? parseArgs(command, rawInput) : rawInput;
  const raw = withPreferred(command, typed, prefs);
  const specs = optionSpecs(command.options);
  // No prototype: an own "__proto__" key of a record input (JSON.parse makes one) stays a key that
  // the schema drops, instead of becoming the prototype whose members the schema would then read.
  const values = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    values[name] =
      typeof value === 'string'
        ? coerce(
            specs.find((s) => s.name === name),
            value,
          )
        : value;
  }
  const result = command.options.safeParse(values, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const said = (t: Translate, locale: string): string =>
    issue ? sentenceFor(command, issue, t, locale) : t('input:invalid', { command: command.name });
  throw refusal(said);
}
