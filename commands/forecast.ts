// /forecast city [units]: S3's 5-day forecast (GET /forecast), its 3-hour steps grouped by the
// city's local days with min/max and the dominant condition (commands/forecast-days.ts).
import { z } from 'zod';
import { forecastChart } from '../src/charts/forecast-chart.ts';
import { tryDrawChart, withChart } from '../src/charts/index.ts';
import { defineCommand } from '../src/core/command.ts';
import type { Reply } from '../src/core/reply.ts';
import { groupForecastDays } from './forecast-days.ts';
import { quote } from './format.ts';
import {
  CITY_OPTION,
  UNITS_OPTION,
  conditionIcon,
  describeUnits,
  formatTemperature,
  formatUtcOffset,
  placeLabel,
  unknownCityReply,
} from './weather-format.ts';

export const forecast = defineCommand({
  name: 'forecast',
  description: '5-day forecast for a city: low, high and conditions per day',
  options: z.object({ city: CITY_OPTION, units: UNITS_OPTION }),
  positional: ['city'],
  needs: ['weather'],
  examples: ['/forecast Oslo', '/forecast "Austin,US" units:imperial'],
  async handler(input, ctx) {
    const result = await ctx.services.weather.forecast(
      { city: input.city, units: input.units },
      { signal: ctx.signal },
    );
    if (result === undefined) return unknownCityReply(input.city);

    const place = placeLabel(result.city, result.country);
    const offsetS = result.timezoneOffsetS ?? 0;
    const days = groupForecastDays(result.steps, offsetS);
    if (days.length === 0) {
      return {
        text: `The weather service has no forecast for ${quote(place)} right now.`,
        embeds: [
          {
            title: `No forecast for ${place}`,
            description: 'The forecast came back empty; try again in a few minutes.',
            color: 'warning',
          },
        ],
      };
    }

    const units = result.units;
    const range = (min: number, max: number) =>
      min === max
        ? formatTemperature(min, units)
        : `${formatTemperature(min, units)} to ${formatTemperature(max, units)}`;
    const summary = days.map((d) => `${d.label} ${d.condition.toLowerCase()} ${range(d.min, d.max)}`);
    const chart = tryDrawChart(
      () =>
        forecastChart({ place, units, offsetS, offsetText: formatUtcOffset(offsetS), steps: result.steps }),
      ctx.log,
    );
    const reply: Reply = {
      text: `${place}, next ${days.length} days: ${summary.join('; ')}`,
      embeds: [
        {
          title: `${days.length}-day forecast for ${place}`,
          color: 'info',
          fields: days.map((d) => ({
            name: d.label,
            value: `${conditionIcon(d.condition)} ${d.condition}\n${range(d.min, d.max)}`,
            inline: true,
          })),
          footer: `Days in the city's local time (${formatUtcOffset(offsetS)}) · Units: ${describeUnits(units)}`,
        },
      ],
    };
    return withChart(reply, await chart);
  },
});
