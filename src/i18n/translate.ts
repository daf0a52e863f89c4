// The one translator: i18next (https://www.i18next.com) over the catalogue, built on first use, and
// the one mapping from a platform's locale (Discord's `locale`, Slack's `user.locale`) to a
// language herald writes. Keys are typed from the English messages, so a key that does not exist
// is a type error; `{{name}}` placeholders are filled as they are (replies are not HTML). A
// sentence names a command a reader runs as `{{/schedule list}}`: the translator fills it with the
// name the reader finds in their picker (`slashName`), "/zeitplan liste" for a German reader on
// Discord, "/schedule list" everywhere else. i18next finds each message's text once; the text is
// kept split at its placeholders and filled as i18next fills it (template.ts).
import { createInstance, type i18n, type TFunction } from 'i18next';
import { LANGUAGES, PREFERENCE_DEFAULTS, type Language } from '../domain/preferences.ts';
import { pluralCategory } from '../format.ts';
import { CATALOGUE, type Catalogue } from './catalogue.ts';
import { commandNames, slashName, type NameReader } from './command-text.ts';
import { compileMessage, fillTemplate, fitsTemplate, type Template } from './template.ts';

type Unplural<K extends string> = K extends `${infer B}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}`
  ? B
  : K;
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${Unplural<K>}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A message's key: its area and its path, "weather:feelsLike". */
export type MessageKey = { [N in keyof Catalogue]: `${N}:${Leaves<Catalogue[N]>}` }[keyof Catalogue];

/** Values for a message's placeholders; `count` also picks the plural form. */
type MessageValues = Readonly<Record<string, string | number>>;

/** Writes a message in one language. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

let instance: i18n | undefined;

function translator(): i18n {
  if (instance) return instance;
  const resources = Object.fromEntries(
    LANGUAGES.map((lng) => [
      lng,
      Object.fromEntries(Object.entries(CATALOGUE).map(([ns, m]) => [ns, m[lng]])),
    ]),
  );
  const built = createInstance();
  // Resources are in memory, so initAsync: false makes the instance ready when init returns.
  void built.init({
    resources,
    lng: PREFERENCE_DEFAULTS.language,
    fallbackLng: PREFERENCE_DEFAULTS.language,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(CATALOGUE),
    defaultNS: false,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  instance = built;
  return built;
}

const translators = new Map<string, Translate>();

/** `{{/weather}}`'s value for every command, as `reader` finds it. */
function namesFor(reader: NameReader): Readonly<Record<string, string>> {
  return Object.fromEntries(commandNames().map((name) => [`/${name}`, slashName(name, reader)]));
}

/**
 * What decides the text i18next finds for a key given `count`: its plural form in the language and
 * in the fallback, and 0's own lookup (`_zero`); '' for no number; undefined for a count i18next
 * reads some other way.
 */
function formOf(language: Language, count: unknown): string | undefined {
  if (count === undefined || typeof count === 'string') return '';
  if (typeof count !== 'number') return undefined;
  if (count === 0) return 'zero';
  return `${pluralCategory(count, language)}/${pluralCategory(count, PREFERENCE_DEFAULTS.language)}`;
}

/** i18next's answer with `returnDetails`: the text, and where it found it. */
interface Found {
  res: unknown;
  usedLng?: string;
  usedNS?: string;
  exactUsedKey?: string;
}

/**
 * The text i18next finds for `key` (and `count`) split at its placeholders, null when it is not
 * plain (template.ts), undefined when the catalogue has none (i18next answers with the key).
 */
function templateOf(fixed: TFunction, key: string, count: unknown): Template | null | undefined {
  const found = fixed(key, { count, skipInterpolation: true, returnDetails: true }) as unknown as Found;
  const { res, usedLng, usedNS, exactUsedKey } = found;
  if (typeof res !== 'string' || res === '' || !usedLng || !usedNS || !exactUsedKey) return undefined;
  if (translator().getResource(usedLng, usedNS, exactUsedKey) !== res) return undefined;
  return compileMessage(res) ?? null;
}

/**
 * `language`'s messages by key and plural form, each as i18next resolved it, split once. A
 * performance trick: i18next's t() repeats its lookup and interpolation on every call, several µs
 * each, and a reply makes several (docs/PERFORMANCE.md, "A command's sentences"); a kept text
 * is filled as i18next fills it. Only texts the catalogue holds are kept: at most its keys times
 * their plural forms.
 */
const templates = new Map<Language, Map<string, Template | null>>();

/**
 * The translator for `language`; on `platform` 'discord', a command a sentence names is written as
 * Discord's command list shows it in that language.
 */
export function translatorFor(language: Language, platform: NameReader['platform'] = 'console'): Translate {
  const reader: NameReader = { language, platform: platform === 'discord' ? 'discord' : 'console' };
  const id = `${reader.language}/${reader.platform}`;
  let t = translators.get(id);
  if (!t) {
    const fixed = translator().getFixedT(language);
    const names = namesFor(reader);
    const known = templates.get(language) ?? new Map<string, Template | null>();
    templates.set(language, known);
    t = (key, values) => {
      const form = formOf(language, values?.count);
      if (form !== undefined) {
        const at = form === '' ? key : `${key}\0${form}`;
        let template = known.get(at);
        if (template === undefined) {
          template = templateOf(fixed, key, values?.count);
          if (template !== undefined) known.set(at, template);
        }
        if (template && fitsTemplate(template, values)) return fillTemplate(template, values, names);
      }
      return String(fixed(key as string, { ...names, ...values }));
    };
    translators.set(id, t);
  }
  return t;
}

/** English, for text written where nobody's language applies (logs' fallbacks, the defaults). */
export const english: Translate = (key, values) => translatorFor(PREFERENCE_DEFAULTS.language)(key, values);

/**
 * The language for a platform's locale: "de", "de-AT" -> de; "fr", "fr-FR", "fr-CA" -> fr; any
 * English -> en-GB; anything else (or nothing) -> undefined, so the next source applies.
 */
export function languageOfLocale(locale: string | undefined): Language | undefined {
  if (!locale) return undefined;
  const base = locale.toLowerCase().split(/[-_]/)[0];
  if (base === 'en') return 'en-GB';
  return LANGUAGES.find((lng) => lng === base);
}
