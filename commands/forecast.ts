// /forecast city [units]: S3's 5-day forecast (GET /forecast), its 3-hour steps grouped by the
// city's local days with min/max and the dominant condition (commands/forecast-days.ts).
import { z } from 'zod';
import { forecastChart } from '../src/charts/forecast-chart.ts';
import { tryDrawChart, withChart } from '../src/charts/index.ts';
import { defineCommand } from '../src/core/command.ts';
import type { EmbedField, Reply } from '../src/core/reply.ts';
import type { CommandWatch } from '../src/core/watch-contract.ts';
import { groupForecastDays, type ForecastDay } from './forecast-days.ts';
import { quote } from './format.ts';
import {
  CITY_OPTION,
  UNITS_OPTION,
  conditionIcon,
  conditionName,
  describeUnits,
  formatTemperature,
  formatUtcOffset,
  placeLabel,
  unknownCityReply,
} from './weather-format.ts';

/** `alert:` of a /forecast watch: a condition, or a temperature threshold in the command's units. */
type ForecastAlert = { kind: 'rain' | 'snow' } | { kind: 'below' | 'above'; value: number };

/** Reads `rain`, `snow`, `below 0`, `above 30`; undefined when it is none of them. */
function parseAlert(text: string): ForecastAlert | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === 'rain' || t === 'snow') return { kind: t };
  const m = /^(below|above) (-?\d+(?:\.\d+)?)$/.exec(t);
  return m ? { kind: m[1] as 'below' | 'above', value: Number(m[2]) } : undefined;
}

/** The day's condition (the provider's condition group, e.g. "Drizzle") that counts as rain or as snow. */
const ALERT_CONDITIONS = { rain: /rain|drizzle|thunder/i, snow: /snow|sleet/i } as const;

function dayMeets(day: ForecastDay, alert: ForecastAlert): boolean {
  if (!('value' in alert)) return ALERT_CONDITIONS[alert.kind].test(day.condition);
  return alert.kind === 'below' ? day.min < alert.value : day.max > alert.value;
}

/** The forecast's days, each with its field as the reply shows it. */
interface ShownDays {
  days: { day: ForecastDay; field: EmbedField }[];
}

/** A watch of /forecast posts each day once, when it first meets the alert (its date is its key). */
const forecastWatch: CommandWatch<ShownDays> = {
  mode: 'new',
  noun: ['day', 'days'],
  alert: {
    forms: 'alert:rain, alert:snow, alert:"below 0" or alert:"above 30"',
    reads: (text) => parseAlert(text) !== undefined,
  },
  items: ({ days }, text) => {
    const alert = parseAlert(text ?? '');
    if (!alert) return [];
    return days
      .filter(({ day }) => dayMeets(day, alert))
      .map(({ day, field }) => ({ key: day.date, text: field.name, field }));
  },
};

export const forecast = defineCommand({
  name: 'forecast',
  description: '5-day forecast for a city: low, high and conditions per day',
  options: z.object({ city: CITY_OPTION, units: UNITS_OPTION }),
  positional: ['city'],
  preferred: { city: 'home', units: 'units' },
  needs: ['weather'],
  examples: ['/forecast Oslo', '/forecast "Austin,US" units:imperial'],
  watch: forecastWatch,
  async handler(input, ctx) {
    const result = await ctx.services.weather.forecast(
      { city: input.city!, units: input.units },
      { signal: ctx.signal },
    );
    const { t, locale } = ctx;
    if (result === undefined) return unknownCityReply(input.city!, t);

    const place = placeLabel(result.city, result.country);
    const offsetS = result.timezoneOffsetS ?? 0;
    const days = groupForecastDays(result.steps, offsetS, 5, locale);
    if (days.length === 0) {
      return {
        text: t('weather:forecast.empty', { place: quote(place) }),
        embeds: [
          {
            title: t('weather:forecast.emptyTitle', { place }),
            description: t('weather:forecast.emptyDescription'),
            color: 'warning',
          },
        ],
      };
    }

    const units = result.units;
    const temperature = (value: number) => formatTemperature(value, units, locale);
    const range = (min: number, max: number) =>
      min === max
        ? temperature(min)
        : t('weather:forecast.range', { min: temperature(min), max: temperature(max) });
    const said = (condition: string) => conditionName(condition, t);
    // German capitalises its nouns: the conditions keep their case inside the line there.
    const inLine = (condition: string) => (locale === 'de' ? said(condition) : said(condition).toLowerCase());
    const summary = days.map((d) => `${d.label} ${inLine(d.condition)} ${range(d.min, d.max)}`);
    const chart = tryDrawChart(
      () => forecastChart({ place, units, zone: ctx.preferences.timezone, steps: result.steps }),
      ctx.log,
    );
    const shown = days.map((d) => ({
      day: d,
      field: {
        name: d.label,
        value: `${conditionIcon(d.condition)} ${said(d.condition)}\n${range(d.min, d.max)}`,
        inline: true,
      },
    }));
    const reply: Reply = {
      text: t('weather:forecast.line', { place, count: days.length, summary: summary.join('; ') }),
      embeds: [
        {
          title: t('weather:forecast.title', { count: days.length, place }),
          color: 'info',
          fields: shown.map((s) => s.field),
          footer: t('weather:forecast.footer', {
            offset: formatUtcOffset(offsetS),
            units: describeUnits(units, t),
          }),
        },
      ],
    };
    return { reply: withChart(reply, await chart), data: { days: shown } };
  },
});
