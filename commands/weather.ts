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
    if (now === undefined) return unknownCityReply(input.city!);

    const units = now.units;
    const place = placeLabel(now.city, now.country);
    const conditions = describeConditions(now.conditions);
    const icon = conditionIcon(now.conditions[0]?.main ?? '', now.conditions[0]?.icon);
    const temp = formatTemperature(now.temp, units);
    const feels = formatTemperature(now.feelsLike, units);
    const wind = formatWind(now.windSpeed, units);
    const humidity = formatPercent(now.humidity, 0);
    const footer = [
      // The absolute time is the embed's timestamp: the footer gives only the age, so no date twice.
      now.observedAt ? `Observed ${formatRelative(now.observedAt, ctx.now())}` : undefined,
      `Units: ${describeUnits(units)}`,
    ].filter((part) => part !== undefined);
    return {
      text: `${place}: ${conditions.toLowerCase()}, ${temp} (feels like ${feels}), humidity ${humidity}, wind ${wind}`,
      embeds: [
        {
          title: `${icon} Weather in ${place}`,
          description: conditions,
          color: 'info',
          fields: [
            { name: 'Temperature', value: temp, inline: true },
            { name: 'Feels like', value: feels, inline: true },
            { name: 'Humidity', value: humidity, inline: true },
            { name: 'Wind', value: wind, inline: true },
          ],
          footer: footer.join(' · '),
          ...(now.observedAt ? { timestamp: timeValue(now.observedAt, ctx.preferences.timezone) } : {}),
        },
      ],
    };
  },
});
