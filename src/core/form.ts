// A command's form (`/schedule add` with no arguments, on Discord and Slack), built from the same
// zod options as the typed command: a field per option its FormSpec names (description, bounds and
// whether it is required read from the schema), and one for the further options written as typed.
// A submit becomes the typed line its fields spell, so it runs through the dispatcher exactly as a
// typed line: the same grammar, checks, sentences and access rules.
import { truncate } from '../domain/text.ts';
import type { Command } from './command.ts';
import { optionSpecs } from './options.ts';
import type { Action, Form, FormField, Reply } from './reply.ts';
import { english, type Translate } from '../i18n/translate.ts';

/** The name of the further options' field. */
const MORE_FIELD = 'more';
/** The further options, and a field whose option sets no bound: as long as a typed line runs. */
const FIELD_MAX = 1000;
/** A field allowed past this many characters is drawn over several lines. */
const LONG_FIELD = 200;

/** Values as a form holds them: text by field name. */
export type FormValues = Record<string, string>;

function withValue(field: FormField, value: string | undefined): FormField {
  return value === undefined || value === '' ? field : { ...field, value: truncate(value, field.maxLength) };
}

/** The command's form, filled in with `values`, in the reader's words (`t`); undefined for a command without one. */
export function buildForm(
  command: Command,
  values: FormValues = {},
  t: Translate = english,
): Form | undefined {
  const spec = command.form;
  if (!spec) return undefined;
  const specs = optionSpecs(command.options);
  const fields = spec.fields.map(({ option: name, label, hint }): FormField => {
    const option = specs.find((s) => s.name === name);
    if (!option) throw new Error(`command ${command.name}: its form names no option "${name}"`);
    const maxLength = option.maxLength ?? FIELD_MAX;
    const shown = { label: t(label), hint: hint ? t(hint) : option.description };
    const field = { name, ...shown, isRequired: option.required, maxLength };
    return withValue({ ...field, isLong: maxLength > LONG_FIELD }, values[name]);
  });
  const more: FormField = {
    name: MORE_FIELD,
    label: t(spec.more.label),
    hint: t(spec.more.hint),
    isRequired: false,
    maxLength: FIELD_MAX,
    isLong: false,
  };
  return {
    command: command.name,
    title: t(spec.title),
    fields: [...fields, withValue(more, values[MORE_FIELD])],
  };
}

/** A value as the grammar reads a quoted one back: `"` and `\` escaped (src/core/input/tokenize.ts). */
const quoted = (text: string) => `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * The typed line a submit spells: `when:"…" command:"…" to:"…"` for each field filled in, then the
 * further options as they were written.
 */
export function formLine(form: Pick<Form, 'fields'>, values: FormValues): string {
  const parts: string[] = [];
  for (const field of form.fields) {
    const value = values[field.name]?.trim() ?? '';
    if (value === '') continue;
    parts.push(field.name === MORE_FIELD ? value : `${field.name}:${quoted(value)}`);
  }
  return parts.join(' ');
}

/**
 * The field a refusal belongs beside, where the platform shows errors per field (Slack): the one
 * its sentence starts with or names as an option (the input's sentences do), else the first.
 */
export function fieldOfError(form: Pick<Form, 'fields'>, sentence: string): string {
  const lower = sentence.toLowerCase();
  const named = form.fields.find(
    (f) => lower.startsWith(`${f.name} `) || lower.includes(`option ${f.name} `),
  );
  return (named ?? form.fields[0])?.name ?? MORE_FIELD;
}

/** Raw input that gives nothing: empty text, or no options. */
export function isEmptyInput(raw: Record<string, unknown> | string): boolean {
  return typeof raw === 'string' ? raw.trim() === '' : Object.keys(raw).length === 0;
}

/** A component target's input as form values: text only. */
export function formValuesOf(input: Record<string, string | number | boolean>): FormValues {
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)]));
}

/**
 * A refused submit with a button that opens the form again, filled in with what was sent: for a
 * platform that cannot answer a form with a form (Discord). Any other reply is left as it is.
 */
export function withReopen(reply: Reply, command: string, values: FormValues, t: Translate = english): Reply {
  if (reply.failureRef === undefined) return reply;
  const reopen: Action = { label: t('common:editAgain'), command, input: values, opensForm: true };
  return { ...reply, actions: [...(reply.actions ?? []), reopen] };
}

/** The answer that opens `command`'s form; its text is what a platform without forms would say. */
export function formReply(command: Command, values?: FormValues, t: Translate = english): Reply {
  const form = buildForm(command, values, t);
  const text = t('forms:fillIn', { command: command.name });
  return { text, ephemeral: true, ...(form ? { form } : {}) };
}
