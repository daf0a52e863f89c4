// A message's text as i18next resolved it, split once at its `{{placeholders}}` and filled the way
// i18next fills plain ones. A performance trick (translate.ts says why; docs/PERFORMANCE.md has the
// figures): i18next does its whole lookup and interpolation on every call, and a reply makes nine.
// What i18next would read differently (a nesting, an unescaped or formatted value, a path, a
// placeholder it takes as one of its own options) is not split: such a message is i18next's alone.

/** A message split at its placeholders: `texts[i]`, the value of `slots[i]`, …, the last text. */
export interface Template {
  texts: readonly string[];
  slots: readonly string[];
  /** Each placeholder as written, left as it is when no value fills it (as i18next leaves it). */
  written: readonly string[];
  names: ReadonlySet<string>;
}

type Values = Readonly<Record<string, string | number>>;

// i18next's defaults: `{{name}}`, `{{- name}}` for an unescaped value, `{{name, format}}`,
// `$t(key)` for a nesting, "." between a path's parts ("###" for a literal one).
const PLACEHOLDER = /\{\{(.+?)\}\}/g;
const UNESCAPED = /\{\{-(.+?)\}\}/;
const NESTING = '$t(';
/** What i18next reads from t()'s options (or its fixed t adds to them), `count` aside. */
const OPTION_NAMES: ReadonlySet<string> = new Set([
  ...['ordinal', 'context', 'replace', 'lng', 'lngs', 'fallbackLng', 'ns', 'keySeparator'],
  ...['nsSeparator', 'returnObjects', 'returnDetails', 'joinArrays', 'postProcess', 'interpolation'],
  ...['skipInterpolation', 'keyPrefix', 'nest', 'applyPostProcessor', 'missingInterpolationHandler'],
  ...['appendNamespaceToCIMode', 'missingKeyNoValueFallbackToKey', 'i18nResolved'],
]);
/** i18next's cap on the values one interpolation writes. */
const MAX_REPLACES = 1000;

function isPlain(name: string): boolean {
  return (
    name !== '' &&
    !name.includes(',') &&
    !name.includes('.') &&
    !name.includes('###') &&
    !name.startsWith('defaultValue') &&
    !OPTION_NAMES.has(name)
  );
}

/** `text` split at its placeholders; undefined when i18next would read any part of it otherwise. */
export function compileMessage(text: string): Template | undefined {
  if (text.includes(NESTING) || UNESCAPED.test(text)) return undefined;
  const texts: string[] = [];
  const slots: string[] = [];
  const written: string[] = [];
  let at = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1]!.trim();
    if (!isPlain(name)) return undefined;
    texts.push(text.slice(at, match.index));
    slots.push(name);
    written.push(match[0]);
    at = match.index + match[0].length;
  }
  if (slots.length >= MAX_REPLACES) return undefined;
  texts.push(text.slice(at));
  return { texts, slots, written, names: new Set(slots) };
}

/** Whether i18next would read `values` only as the template's placeholders and a plural's count. */
export function fitsTemplate(template: Template, values: Values | undefined): boolean {
  for (const key in values) {
    if (key !== 'count' && !template.names.has(key)) return false;
  }
  return true;
}

/**
 * The template's text with each placeholder's value: from `values`, else from `defaults` (i18next's
 * options are the two spread in that order), else the placeholder as written. A value present but
 * unset is empty, as i18next writes it.
 */
export function fillTemplate(
  template: Template,
  values: Values | undefined,
  defaults: Readonly<Record<string, string>>,
): string {
  const { texts, slots, written } = template;
  let out = texts[0]!;
  for (let i = 0; i < slots.length; i++) {
    const name = slots[i]!;
    let value: string;
    if (values !== undefined && Object.hasOwn(values, name)) value = String(values[name] ?? '');
    else if (Object.hasOwn(defaults, name)) value = defaults[name]!;
    else value = written[i]!;
    out += value + texts[i + 1]!;
  }
  return out;
}
