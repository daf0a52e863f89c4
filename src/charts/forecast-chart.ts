// The chart of /forecast: temperature at each 3-hour step, its times in the reader's zone (their
// settings, or a scheduled post's), a dashed line at each midnight there labelled with the day, and
// the chance of precipitation as bars on a right-hand 0–100 % axis where the provider gives it.
import type { ForecastStep, Units } from '../services/weather/client.ts';
import { formatNumber, wallClockIn } from '../format.ts';
import { chartText, type LineChartSpec } from './spec.ts';

const UNIT_SYMBOL: Readonly<Record<Units, string>> = { metric: '°C', imperial: '°F', standard: 'K' };
// Built on the first chart: /forecast imports this file, and an idle bot should not map ICU's data.
let dayLabel: Intl.DateTimeFormat | undefined;

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
  // Each step's wall clock in the zone, read through its UTC fields.
  const local = input.steps.map((s) => new Date(wallClockIn(s.at.getTime(), input.zone)));
  dayLabel ??= new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
  const label = dayLabel;
  const boundaries = local.flatMap((at, i) =>
    i > 0 && at.getUTCDate() !== local[i - 1]!.getUTCDate() ? [{ index: i, label: label.format(at) }] : [],
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
    xLabels: local.map((at) => `${String(at.getUTCHours()).padStart(2, '0')}h`),
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
