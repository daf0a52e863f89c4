// S3 weather client (OpenWeatherMap 2.5): GET /weather and GET /forecast by city name, with the key
// in both carriers docs/SERVICES.md lists (appid and X-API-Key). https://openweathermap.org/current
import { type CallOptions } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import {
  CurrentWeatherResponse,
  ForecastResponse,
  readOwmError,
  type ConditionWire,
  type CurrentWeatherWire,
  type ForecastWire,
} from './schemas.ts';

export interface WeatherConfig {
  baseUrl: string;
  apiKey: string;
}

export type Units = 'metric' | 'imperial' | 'standard';

export interface Condition {
  main: string;
  description: string;
  /** OWM's icon code, e.g. "01n": the digits the condition, the letter day (d) or night (n). */
  icon?: string;
}

export interface CurrentWeather {
  city: string;
  country: string | undefined;
  units: Units;
  temp: number;
  feelsLike: number;
  humidity: number;
  windSpeed: number;
  conditions: Condition[];
  observedAt: Date | undefined;
  /** Offset of the city's local time from UTC, in seconds. */
  timezoneOffsetS: number | undefined;
}

export interface ForecastStep {
  at: Date;
  temp: number;
  conditions: Condition[];
  /** Chance of precipitation, 0 to 1, where the provider gives it. */
  pop?: number;
}

export interface Forecast {
  city: string;
  country: string | undefined;
  units: Units;
  timezoneOffsetS: number | undefined;
  steps: ForecastStep[];
}

export interface WeatherQuery {
  city: string;
  units?: Units;
}

export interface WeatherClient extends Closable {
  /** undefined when the city is unknown (OpenWeatherMap's 404 "city not found"). */
  current(q: WeatherQuery, opts?: CallOptions): Promise<CurrentWeather | undefined>;
  forecast(q: WeatherQuery, opts?: CallOptions): Promise<Forecast | undefined>;
}

/** Conditions change slowly enough to keep an answer for ten minutes. */
export const WEATHER_CACHE_TTL_MS = 10 * 60 * 1000;
const UNITS: readonly Units[] = ['metric', 'imperial', 'standard'];
/** Longer than any real "city,state,country" query; OpenWeatherMap's own bound is not documented. */
const MAX_CITY_LENGTH = 200;

function checkQuery(operation: string, q: WeatherQuery): { city: string; units: Units } {
  const city = q.city.trim();
  const units = q.units ?? 'metric';
  const reason =
    city === ''
      ? 'the city is empty'
      : city.length > MAX_CITY_LENGTH
        ? `the city is longer than ${MAX_CITY_LENGTH} characters`
        : /\p{Cc}/u.test(city)
          ? 'the city contains control characters'
          : !UNITS.includes(units)
            ? `units must be one of ${UNITS.join(', ')}`
            : undefined;
  if (reason !== undefined) {
    throw new ServiceError({
      service: 'weather',
      operation,
      code: 'invalid_request',
      message: `weather.${operation} refused before sending: ${reason}`,
    });
  }
  return { city, units };
}

/**
 * The sane range of each measured value per unit system: beyond the coldest and hottest air ever
 * measured, with room. A value outside it (or not finite) is kept as NaN, which the formatting
 * shows as "not available" and a chart refuses, so one hostile number loses only itself.
 */
const SANE: Readonly<Record<Units, { temp: [number, number]; wind: [number, number] }>> = {
  metric: { temp: [-150, 100], wind: [0, 150] },
  imperial: { temp: [-238, 212], wind: [0, 336] },
  standard: { temp: [123.15, 373.15], wind: [0, 150] },
};
/** UTC offsets run from -12:00 to +14:00; a day either way is already not an offset. */
const MAX_OFFSET_S = 86_400;

function within(value: number, [min, max]: readonly [number, number]): number {
  return value >= min && value <= max ? value : Number.NaN;
}

function offsetOf(seconds: number | undefined): number | undefined {
  return seconds !== undefined && Math.abs(seconds) < MAX_OFFSET_S ? seconds : undefined;
}

/**
 * The last second of year 9999: a weather answer's times lie between 1970 and this. Beyond it a
 * Date is invalid or has no 4-digit ISO day, and the commands cannot place the step on a day.
 */
const MAX_TIME_S = 253_402_300_799;

/** The instant `seconds` after 1970, or undefined when no weather answer can be at it. */
function instantOf(seconds: number): Date | undefined {
  return seconds >= 0 && seconds <= MAX_TIME_S ? new Date(seconds * 1000) : undefined;
}

function toConditions(list: ConditionWire[]): Condition[] {
  return list.map((c) => {
    const condition: Condition = { main: c.main, description: c.description ?? c.main.toLowerCase() };
    if (c.icon !== undefined) condition.icon = c.icon;
    return condition;
  });
}

/** OpenWeatherMap's 404 "city not found" is an answer, not a failure. */
async function orUndefined<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'not_found') return undefined;
    throw err;
  }
}

/**
 * OpenWeatherMap's 5 days of 3-hour steps. A longer list (160,000 steps fit in the body bound) is
 * cut here, before anything is built for each step: the days, the chart and the spoken version
 * read no more than this.
 */
export const FORECAST_MAX_STEPS = 40;

function toSteps(list: ForecastWire['list'], units: Units): ForecastStep[] {
  const steps: ForecastStep[] = [];
  for (const s of list) {
    if (steps.length === FORECAST_MAX_STEPS) break;
    // A step at no time a forecast can have is left out: it belongs to no day.
    const at = instantOf(s.dt);
    if (at === undefined) continue;
    const step: ForecastStep = {
      at,
      temp: within(s.main.temp, SANE[units].temp),
      conditions: toConditions(s.weather),
    };
    // Assigned, not spread from a `{ pop }` object: an object for each of the forty steps made the
    // mapping dearer (bench/client-steps.ts, "a forecast answer mapped"; docs/PERFORMANCE.md).
    if (s.pop !== undefined) step.pop = within(s.pop, [0, 1]);
    steps.push(step);
  }
  return steps;
}

export function createWeatherClient(config: WeatherConfig, deps: ClientDeps = {}): WeatherClient {
  const http = createServiceHttp(deps, {
    secrets: [config.apiKey],
    service: 'weather',
    baseUrl: config.baseUrl,
    headers: { 'x-api-key': config.apiKey },
    readError: readOwmError,
  });
  const request = (operation: 'current' | 'forecast', city: string, units: Units) => ({
    service: 'weather' as const,
    operation,
    method: 'GET' as const,
    path: operation === 'current' ? path`/weather` : path`/forecast`,
    query: { q: city, units, appid: config.apiKey },
    cacheTtlMs: WEATHER_CACHE_TTL_MS,
  });

  return {
    async current(q, opts) {
      const { city, units } = checkQuery('current', q);
      const toCurrent = (w: CurrentWeatherWire): CurrentWeather => ({
        city: w.name,
        country: w.sys?.country,
        units,
        temp: within(w.main.temp, SANE[units].temp),
        feelsLike: within(w.main.feels_like, SANE[units].temp),
        humidity: within(w.main.humidity, [0, 100]),
        windSpeed: within(w.wind.speed, SANE[units].wind),
        conditions: toConditions(w.weather),
        observedAt: w.dt === undefined ? undefined : instantOf(w.dt),
        timezoneOffsetS: offsetOf(w.timezone),
      });
      return orUndefined(http.send(request('current', city, units), CurrentWeatherResponse, opts, toCurrent));
    },

    async forecast(q, opts) {
      const { city, units } = checkQuery('forecast', q);
      const toForecast = (f: ForecastWire): Forecast => ({
        city: f.city.name,
        country: f.city.country,
        units,
        timezoneOffsetS: offsetOf(f.city.timezone),
        steps: toSteps(f.list, units),
      });
      return orUndefined(http.send(request('forecast', city, units), ForecastResponse, opts, toForecast));
    },

    close: () => http.close(),
  };
}
