// /weather city [units]: current conditions from S3 (GET /weather).
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { timeValue } from '../src/core/reply.ts';
import { formatPercent, formatRelative } from './format.ts';
import {
  CITY_OPTION,
  UNITS_OPTION,
  conditionIcon,
  describeConditions,
  describeUnits,
  formatTemperature,
  formatWind,
  placeLabel,
  unknownCityReply,
} from './weather-format.ts';

export const weather = defineCommand({
  name: 'weather',
  description: 'Current weather for a city',
  options: z.object({ city: CITY_OPTION, units: UNITS_OPTION }),
  positional: ['city'],
  preferred: { city: 'home', units: 'units' },
  needs: ['weather'],
  examples: ['/weather London', '/weather "New York,US" units:imperial'],
  async handler(input, ctx) {
    const now = await ctx.services.weather.current(
      { city: input.city!, units: input.units },
      { signal: ctx.signal },
    );
    const { t, locale } = ctx;
    if (now === undefined) return unknownCityReply(input.city!, t);

    const units = now.units;
    const place = placeLabel(now.city, now.country);
    const conditions = describeConditions(now.conditions, t, locale);
    const icon = conditionIcon(now.conditions[0]?.main ?? '', now.conditions[0]?.icon);
    const temp = formatTemperature(now.temp, units, locale);
    const feels = formatTemperature(now.feelsLike, units, locale);
    const wind = formatWind(now.windSpeed, units, locale);
    const humidity = formatPercent(now.humidity, 0, locale);
    const footer = [
      // The absolute time is the embed's timestamp: the footer gives only the age, so no date twice.
      now.observedAt
        ? t('weather:observed', { ago: formatRelative(now.observedAt, ctx.now(), locale) })
        : undefined,
      t('weather:units', { units: describeUnits(units, t) }),
    ].filter((part) => part !== undefined);
    // German capitalises its nouns: the conditions keep their case inside the line there.
    const inLine = locale === 'de' ? conditions : conditions.toLowerCase();
    return {
      text: t('weather:line', { place, conditions: inLine, temp, feels, humidity, wind }),
      embeds: [
        {
          title: `${icon} ${t('weather:title', { place })}`,
          description: conditions,
          color: 'info',
          fields: [
            { name: t('weather:temperature'), value: temp, inline: true },
            { name: t('weather:feelsLike'), value: feels, inline: true },
            { name: t('weather:humidity'), value: humidity, inline: true },
            { name: t('weather:wind'), value: wind, inline: true },
          ],
          footer: footer.join(' · '),
          ...(now.observedAt
            ? { timestamp: timeValue(now.observedAt, ctx.preferences.timezone, 'f', locale) }
            : {}),
        },
      ],
    };
  },
});
