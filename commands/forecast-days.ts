// Groups OpenWeatherMap's 3-hour forecast steps into calendar days in the CITY's local time (its
// UTC offset, not the bot's zone), with each day's min/max and dominant condition. Pure.
import type { ForecastStep } from '../src/services/weather/client.ts';
import { formatDay } from './format.ts';

export interface ForecastDay {
  /** The local calendar date, YYYY-MM-DD. */
  date: string;
  /** "Sun 22 Nov". */
  label: string;
  min: number;
  max: number;
  /** The condition group seen in most steps of the day, e.g. "Rain". */
  condition: string;
  /** How many 3-hour steps fell on this day (fewer than 8 on the first and last day). */
  steps: number;
}

// When two conditions are equally frequent, the one a reader should be warned about wins.
const SEVERITY: readonly string[] = [
  'Tornado',
  'Thunderstorm',
  'Snow',
  'Rain',
  'Drizzle',
  'Squall',
  'Fog',
  'Mist',
  'Haze',
  'Smoke',
  'Dust',
  'Sand',
  'Ash',
  'Clouds',
  'Clear',
];

function severityOf(condition: string): number {
  const rank = SEVERITY.indexOf(condition);
  return rank === -1 ? SEVERITY.length : rank;
}

/** The most frequent condition; ties go to the more severe one. */
export function dominantCondition(conditions: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of conditions) counts.set(c, (counts.get(c) ?? 0) + 1);
  let best: [string, number] | undefined;
  for (const entry of counts) {
    if (
      best === undefined ||
      entry[1] > best[1] ||
      (entry[1] === best[1] && severityOf(entry[0]) < severityOf(best[0]))
    ) {
      best = entry;
    }
  }
  return best?.[0] ?? 'Unknown';
}

/** Splits the steps into at most `maxDays` local days, in time order. */
export function groupForecastDays(
  steps: readonly ForecastStep[],
  timezoneOffsetS: number,
  maxDays = 5,
  locale?: string,
): ForecastDay[] {
  const byDate = new Map<string, { local: Date; temps: number[]; conditions: string[] }>();
  const sorted = [...steps].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of sorted) {
    // Shift the instant by the city's offset; its UTC fields are then the city's wall clock.
    const local = new Date(step.at.getTime() + timezoneOffsetS * 1000);
    const date = local.toISOString().slice(0, 10);
    let day = byDate.get(date);
    if (day === undefined) {
      day = { local, temps: [], conditions: [] };
      byDate.set(date, day);
    }
    day.temps.push(step.temp);
    day.conditions.push(step.conditions[0]?.main ?? 'Unknown');
  }
  return [...byDate.entries()].slice(0, maxDays).map(([date, day]) => ({
    date,
    label: formatDay(day.local, locale),
    min: Math.min(...day.temps),
    max: Math.max(...day.temps),
    condition: dominantCondition(day.conditions),
    steps: day.temps.length,
  }));
}
