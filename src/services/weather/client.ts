import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

export interface WeatherConfig {
  baseUrl: string;
  apiKey: string;
}

export type Units = 'metric' | 'imperial' | 'standard';

export interface Condition {
  main: string;
  description: string;
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

export declare function createWeatherClient(config: WeatherConfig, deps?: ClientDeps): WeatherClient;
