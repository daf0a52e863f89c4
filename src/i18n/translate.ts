// The one translator: i18next (https://www.i18next.com) over the catalogue, built on first use, and
// the one mapping from a platform's locale (Discord's `locale`, Slack's `user.locale`) to a
// language herald writes. Keys are typed from the English messages, so a key that does not exist
// is a type error; `{{name}}` placeholders are filled as they are (replies are not HTML). A
// sentence names a command a reader runs as `{{/schedule list}}`: the translator fills it with the
// name the reader finds in their picker (`slashName`), "/zeitplan liste" for a German reader on
// Discord, "/schedule list" everywhere else.
import { createInstance, type i18n } from 'i18next';
import { LANGUAGES, PREFERENCE_DEFAULTS, type Language } from '../domain/preferences.ts';
import { CATALOGUE, type Catalogue } from './catalogue.ts';
import { commandNames, slashName, type NameReader } from './command-text.ts';

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
    t = (key, values) => String(fixed(key as string, { ...names, ...values }));
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
