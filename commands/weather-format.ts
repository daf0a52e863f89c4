// Units and condition wording shared by /weather and /forecast (OpenWeatherMap's `units`,
// https://openweathermap.org/current: standard is Kelvin and m/s, metric °C and m/s, imperial °F and mph).
import { z } from 'zod';
import type { Reply } from '../src/core/reply.ts';
import type { Condition, Units } from '../src/services/weather/client.ts';
import { formatQuantity, quote, truncate } from './format.ts';
import { ownEntry } from '../src/domain/lookup.ts';
import { PREFERENCE_DEFAULTS, UNIT_CHOICES } from '../src/domain/preferences.ts';
import { english, type Translate } from '../src/i18n/translate.ts';

export const CITY_OPTION = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .describe('City name, optionally with a country code: "Paris,FR" (default: your home place)');

export const UNITS_OPTION = z
  .enum(UNIT_CHOICES)
  .default(PREFERENCE_DEFAULTS.units)
  .describe('metric (°C, m/s), imperial (°F, mph) or standard (K, m/s)');

/** The answer when OpenWeatherMap does not know the city: a hint, not an error. */
export function unknownCityReply(city: string, t: Translate): Reply {
  return {
    text: t('weather:unknownCity.text', { city: quote(city) }),
    outcome: 'not-found',
    embeds: [
      {
        title: t('weather:unknownCity.title'),
        description: t('weather:unknownCity.description', { city: quote(city) }),
        color: 'warning',
      },
    ],
  };
}

const TEMPERATURE_UNIT: Readonly<Record<Units, string>> = { metric: '°C', imperial: '°F', standard: 'K' };
const WIND_UNIT: Readonly<Record<Units, string>> = { metric: 'm/s', imperial: 'mph', standard: 'm/s' };

/** "25.3 °C", "77.6 °F", "298.5 K", "5.0 °C" ("12,5 °C" in German): always one decimal (src/format.ts). */
export function formatTemperature(value: number, units: Units, locale?: string): string {
  return formatQuantity(value, TEMPERATURE_UNIT[units], 1, locale);
}

export function formatWind(value: number, units: Units, locale?: string): string {
  return formatQuantity(value, WIND_UNIT[units], 1, locale);
}

/** "metric (°C, m/s)", "metrisch (°C, m/s)". */
export function describeUnits(units: Units, t: Translate): string {
  return `${t(`weather:unitNames.${units}`)} (${TEMPERATURE_UNIT[units]}, ${WIND_UNIT[units]})`;
}

const CONDITION_GROUPS = [
  ...['Thunderstorm', 'Drizzle', 'Rain', 'Snow', 'Clear', 'Clouds', 'Tornado', 'Squall'],
  ...['Mist', 'Fog', 'Haze', 'Smoke', 'Dust', 'Sand', 'Ash'],
] as const;
type ConditionGroup = (typeof CONDITION_GROUPS)[number];
const isGroup = (main: string): main is ConditionGroup =>
  (CONDITION_GROUPS as readonly string[]).includes(main);

/** A condition group ("Rain") in the reader's words ("Regen"); one the catalogue lacks as it came. */
export function conditionName(main: string, t: Translate): string {
  return isGroup(main) ? t(`weather:conditions.${main}`) : main;
}

// OpenWeatherMap's condition groups (the `main` field), by day; at night (an icon ending in "n",
// https://openweathermap.org/weather-conditions) the sky ones change: no sun after sunset.
const ICONS: Readonly<Record<string, string>> = {
  Thunderstorm: '⛈️',
  Drizzle: '🌦️',
  Rain: '🌧️',
  Snow: '❄️',
  Clear: '☀️',
  Clouds: '☁️',
  Tornado: '🌪️',
};
const NIGHT_ICONS: Readonly<Record<string, string>> = { Clear: '🌙', Drizzle: '🌧️' };
/** By icon code: "few clouds" (02) shows the sun or the moon behind a cloud. */
const ICON_CODES: Readonly<Record<string, string>> = { '02d': '🌤️', '02n': '☁️', '10d': '🌦️' };

/** The emoji for a condition: by its icon code's day or night when given ("01n" -> 🌙). */
export function conditionIcon(main: string, icon?: string): string {
  const byCode = ownEntry(ICON_CODES, icon);
  if (byCode) return byCode;
  const isNight = icon?.endsWith('n') ?? false;
  return (isNight ? ownEntry(NIGHT_ICONS, main) : undefined) ?? ownEntry(ICONS, main) ?? '🌫️';
}

/**
 * "Moderate rain, mist" from the conditions' descriptions, or the groups when none is given. The
 * provider writes its descriptions in English, so any other language names the groups ("Regen, Dunst").
 */
export function describeConditions(
  conditions: readonly Condition[],
  t: Translate = english,
  locale: string = PREFERENCE_DEFAULTS.language,
): string {
  const isEnglish = locale === PREFERENCE_DEFAULTS.language;
  const named = conditions.map((c) =>
    (isEnglish ? c.description || c.main : conditionName(c.main, t)).trim(),
  );
  const text = [...new Set(named.filter(Boolean))].join(', ');
  return text === '' ? t('weather:conditions.Unknown') : text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The longest city name a reply shows: the longest real ones are under 100 characters, and the
 * provider's name lands in one-line places (the notification text, embed titles).
 */
const PLACE_NAME_MAX = 100;

/** "Zocca, IT". */
export function placeLabel(city: string, country: string | undefined): string {
  const name = truncate(city, PLACE_NAME_MAX, { oneLine: true });
  return country ? `${name}, ${truncate(country, PLACE_NAME_MAX, { oneLine: true })}` : name;
}

/** "UTC+02:00" from OpenWeatherMap's offset in seconds. */
export function formatUtcOffset(offsetS: number): string {
  const sign = offsetS < 0 ? '-' : '+';
  const minutes = Math.round(Math.abs(offsetS) / 60);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}
