// Turns the text of an option (console, Slack) into the option's type before zod validates it:
// numbers, yes/no words, and enum values in any case. Text that does not fit is left for zod to
// reject with its sentence.
import type { OptionSpec } from '../options.ts';

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'y']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'n']);

export function coerce(spec: OptionSpec | undefined, value: string): unknown {
  const text = value.trim();
  switch (spec?.type) {
    case 'integer':
      return /^[+-]?\d+$/.test(text) ? Number(text) : value;
    case 'number':
      return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : value;
    case 'boolean': {
      const word = text.toLowerCase();
      return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : value;
    }
    default: {
      // `units:IMPERIAL` means imperial, as `country:DE` means de.
      const lower = text.toLowerCase();
      return spec?.choices?.find((c) => c.toLowerCase() === lower) ?? value;
    }
  }
}
