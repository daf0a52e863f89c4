// What a person or a channel may set with /settings, and what applies when nobody set it: the
// values every layer reads (the option schemas, the resolution in src/core/preferences.ts, docs).

/** The units /weather and /forecast take (OpenWeatherMap's `units`). */
export const UNIT_CHOICES = ['metric', 'imperial', 'standard'] as const;
export type Units = (typeof UNIT_CHOICES)[number];

/** The languages a reply may be written in; herald writes en-GB until replies are translated. */
export const LANGUAGES = ['en-GB', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The word that clears a setting, so the next source applies again. */
export const CLEAR_WORD = 'default';

export const PREFERENCE_DEFAULTS = { units: 'metric', language: 'en-GB' } as const satisfies {
  units: Units;
  language: Language;
};
