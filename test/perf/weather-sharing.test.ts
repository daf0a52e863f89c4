import { describe, expect, it } from 'vitest';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { weatherHandlers } from '../../src/sandbox/weather.ts';
import { WEATHER_CACHE_TTL_MS, createWeatherClient } from '../../src/services/weather/client.ts';
import { startFake } from '../support/sandbox-server.ts';
import { START_MS, describeSharing } from './sharing.ts';

const API_KEY = 'sandbox-owm-key-3be1';
const CITIES = [
  'London',
  'Paris,FR',
  'Berlin',
  'Madrid',
  'Rome',
  'Lisbon',
  'Oslo',
  'Vienna',
  'Dublin',
  'Prague',
];

describeSharing({
  name: 'weather.current',
  ttlMs: WEATHER_CACHE_TTL_MS,
  handlers: (now) => weatherHandlers({ credential: API_KEY, now }),
  route: route('weather', '/weather'),
  create: (origin, deps) =>
    createWeatherClient({ baseUrl: sandboxBaseUrl(origin, 'weather'), apiKey: API_KEY }, deps),
  call: (client, input, opts) => client.current({ city: CITIES[input % CITIES.length]! }, opts),
  pathname: '/weather/data/2.5/weather',
  hasInput: true,
  failureBody: { cod: 503, message: 'Service Unavailable' },
  failureCode: 'upstream',
});

describeSharing({
  name: 'weather.forecast',
  ttlMs: WEATHER_CACHE_TTL_MS,
  handlers: (now) => weatherHandlers({ credential: API_KEY, now }),
  route: route('weather', '/forecast'),
  create: (origin, deps) =>
    createWeatherClient({ baseUrl: sandboxBaseUrl(origin, 'weather'), apiKey: API_KEY }, deps),
  call: (client, input, opts) => client.forecast({ city: CITIES[input % CITIES.length]! }, opts),
  pathname: '/weather/data/2.5/forecast',
  hasInput: true,
  failureBody: { cod: 503, message: 'Service Unavailable' },
  failureCode: 'upstream',
});

describe('weather cache keys', () => {
  it('keeps current conditions, forecasts and each unit system apart, and the trimmed city together', async () => {
    const server = await startFake(weatherHandlers({ credential: API_KEY, now: () => START_MS }));
    const weather = createWeatherClient(
      { baseUrl: sandboxBaseUrl(server.url, 'weather'), apiKey: API_KEY },
      { now: () => START_MS },
    );
    try {
      const metric = await weather.current({ city: 'London' });
      const imperial = await weather.current({ city: 'London', units: 'imperial' });
      await weather.forecast({ city: 'London' });
      await weather.current({ city: '  London ', units: 'metric' });

      expect(server.requests.map((r) => `${r.pathname} ${r.query.get('units')}`)).toEqual([
        '/weather/data/2.5/weather metric',
        '/weather/data/2.5/weather imperial',
        '/weather/data/2.5/forecast metric',
      ]);
      expect(metric!.units).toBe('metric');
      expect(imperial!.units).toBe('imperial');
      expect(imperial!.temp).not.toBe(metric!.temp);
    } finally {
      await weather.close();
      await server.close();
    }
  });
});
