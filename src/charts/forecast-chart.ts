// The chart of /forecast: temperature at each 3-hour step, its times in the reader's zone (their
// settings, or a scheduled post's), a dashed line at each midnight there labelled with the day, and
// the chance of precipitation as bars on a right-hand 0–100 % axis where the provider gives it.
import type { ForecastStep, Units } from '../services/weather/client.ts';
import { formatNumber } from '../format.ts';
import { chartText, type LineChartSpec } from './spec.ts';

const UNIT_SYMBOL: Readonly<Record<Units, string>> = { metric: '°C', imperial: '°F', standard: 'K' };
// Built on the first chart in a zone: /forecast imports this file, and an idle bot should not map ICU's data.
const zoneLabels = new Map<string, { hour: Intl.DateTimeFormat; day: Intl.DateTimeFormat }>();

function labelsIn(zone: string) {
  let labels = zoneLabels.get(zone);
  if (!labels) {
    labels = {
      hour: new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: zone }),
      day: new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', timeZone: zone }),
    };
    zoneLabels.set(zone, labels);
  }
  return labels;
}

interface ForecastChartInput {
  /** "Oslo, NO". */
  place: string;
  units: Units;
  /** The IANA zone the times are shown in: the reader's (ctx.preferences.timezone). */
  zone: string;
  steps: readonly ForecastStep[];
}

export function forecastChart(given: ForecastChartInput): LineChartSpec {
  const input = { ...given, place: chartText(given.place) };
  const labels = labelsIn(input.zone);
  const days = input.steps.map((s) => labels.day.format(s.at));
  const boundaries = days.flatMap((day, i) =>
    i > 0 && day !== days[i - 1] ? [{ index: i, label: day }] : [],
  );
  const symbol = UNIT_SYMBOL[input.units];
  const hasPop = input.steps.some((s) => s.pop !== undefined);
  const temps = input.steps.map((s) => s.temp);
  const lo = Math.min(...temps);
  const hi = Math.max(...temps);
  const wettest = Math.max(0, ...input.steps.map((s) => s.pop ?? 0));
  return {
    filename: 'forecast.png',
    title: hasPop ? `${input.place}: temperature and chance of precipitation` : `${input.place}: temperature`,
    subtitle: `3-hour steps, times in ${chartText(input.zone)}; dashed lines mark midnight`,
    xLabels: input.steps.map((s) => `${labels.hour.format(s.at)}h`),
    xLabelEvery: 2,
    xAxisTitle: `Time (${chartText(input.zone)})`,
    yAxisTitle: `Temperature (${symbol})`,
    yUnit: input.units === 'standard' ? ' K' : '°',
    series: [{ name: `Temperature (${symbol})`, values: temps }],
    ...(hasPop
      ? {
          bars: {
            name: 'Chance of precipitation',
            values: input.steps.map((s) => (s.pop === undefined ? null : Math.round(s.pop * 100))),
            axisTitle: 'Chance of precipitation (%)',
            max: 100,
            unit: '%',
          },
        }
      : {}),
    boundaries,
    alt:
      `Line chart of the temperature in ${input.place} every 3 hours (times in ${chartText(input.zone)}), from ${formatNumber(lo, 1)} to ${formatNumber(hi, 1)} ${symbol}` +
      (hasPop
        ? `, with bars for the chance of precipitation (at most ${Math.round(wettest * 100)} %).`
        : '.'),
  };
}
