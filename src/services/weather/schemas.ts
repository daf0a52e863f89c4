// OpenWeatherMap 2.5 wire shapes (docs/SERVICES.md S3): current weather, the 5 day / 3 hour forecast
// and the `{cod, message}` error body. https://openweathermap.org/current, .../forecast5
import { z } from 'zod';
import type { ProviderErrorReader } from '../../http/client.ts';

/** `cod` is the number 200 on /weather and the string "200" on /forecast; errors vary the same way. */
const Cod = z.union([z.number(), z.string()]);

const ConditionWire = z.object({
  id: z.number().optional(),
  main: z.string(),
  description: z.string().optional(),
  icon: z.string().optional(),
});

export const CurrentWeatherResponse = z.object({
  cod: Cod.optional(),
  name: z.string(),
  main: z.object({
    temp: z.number(),
    feels_like: z.number(),
    humidity: z.number(),
  }),
  weather: z.array(ConditionWire),
  wind: z.object({ speed: z.number() }),
  dt: z.number().optional(),
  timezone: z.number().optional(),
  sys: z.object({ country: z.string().optional() }).optional(),
});

export const ForecastResponse = z.object({
  cod: Cod.optional(),
  list: z.array(
    z.object({
      dt: z.number().int(),
      main: z.object({ temp: z.number() }),
      weather: z.array(ConditionWire),
      /** Probability of precipitation, 0 to 1 (OpenWeatherMap sends it on forecast steps). */
      pop: z.number().optional(),
    }),
  ),
  city: z.object({
    name: z.string(),
    country: z.string().optional(),
    timezone: z.number().optional(),
  }),
});

export type ConditionWire = z.output<typeof ConditionWire>;
export type CurrentWeatherWire = z.output<typeof CurrentWeatherResponse>;
export type ForecastWire = z.output<typeof ForecastResponse>;

const OwmErrorResponse = z.object({
  cod: Cod.optional(),
  message: z.string(),
});

/** OpenWeatherMap's "not found" outcome, told apart from a missing route by its message. */
const CITY_NOT_FOUND = /^city not found$/i;

/**
 * `{"cod": <num|string>, "message": "..."}`. Only "city not found" is the not-found outcome; any
 * other 404 (a wrong base URL, a proxy page) is a request that went to the wrong place.
 */
export const readOwmError: ProviderErrorReader = ({ status, body }) => {
  const parsed = OwmErrorResponse.safeParse(body);
  if (!parsed.success) {
    return {
      message: body === undefined ? 'the error body is not JSON' : undefined,
      code: status === 404 ? 'invalid_request' : undefined,
    };
  }
  const { message } = parsed.data;
  if (status === 404)
    return { message, code: CITY_NOT_FOUND.test(message.trim()) ? 'not_found' : 'invalid_request' };
  return { message };
};
