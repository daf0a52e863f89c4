import { describe, expect, it, vi } from 'vitest';
import { forecast } from '../../commands/forecast.ts';
import type { Forecast, WeatherClient } from '../../src/services/weather/client.ts';
import {
  createContext,
  expectWellFormed,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
} from './context.ts';

/** 40 steps from 2026-11-22T12:00Z for Oslo (UTC+1): rain by day, clear at night. */
function osloForecast(): Forecast {
  const start = Date.parse('2026-11-22T12:00:00Z');
  return {
    city: 'Oslo',
    country: 'NO',
    units: 'metric',
    timezoneOffsetS: 3600,
    steps: Array.from({ length: 40 }, (_, i) => {
      const at = new Date(start + i * 10_800_000);
      const localHour = (at.getUTCHours() + 1) % 24;
      const isDay = localHour >= 9 && localHour < 18;
      return {
        at,
        temp: isDay ? 4.2 + (i % 3) : -1.5 - (i % 2),
        conditions: [
          isDay ? { main: 'Rain', description: 'light rain' } : { main: 'Clear', description: 'clear sky' },
        ],
      };
    }),
  };
}

function fakeWeather(result: () => Promise<Forecast | undefined>) {
  return {
    current: vi.fn<WeatherClient['current']>(async () => undefined),
    forecast: vi.fn<WeatherClient['forecast']>(() => result()),
    close: vi.fn(async () => {}),
  } satisfies WeatherClient;
}

describe('/forecast', () => {
  it('keeps a city name with line breaks and 10,000 characters on one bounded line', async () => {
    const city = `Oslo\n# Breaking\r\nnews ${'Ω'.repeat(10_000)}`;
    const client = fakeWeather(async () => ({ ...osloForecast(), city }));
    const reply = await invoke(forecast, { city: 'Oslo' }, createContext({ services: { weather: client } }));
    expectWellFormed(reply);
    expect(onlyEmbed(reply).title).toMatch(/^5-day forecast for Oslo # Breaking news Ω+…, NO$/);
  });

  it('answers with five local days, each with its low, high and dominant condition', async () => {
    const client = fakeWeather(async () => osloForecast());
    const ctx = createContext({ services: { weather: client } });
    const reply = await invoke(forecast, { city: 'Oslo' }, ctx);

    expect(client.forecast).toHaveBeenCalledWith(
      { city: 'Oslo', units: 'metric' },
      { signal: expect.any(AbortSignal) },
    );
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('5-day forecast for Oslo, NO');
    expect(embed.fields!.map((f) => f.name)).toEqual([
      'Sun 22 Nov',
      'Mon 23 Nov',
      'Tue 24 Nov',
      'Wed 25 Nov',
      'Thu 26 Nov',
    ]);
    expect(embed.fields![1]!.value.startsWith('☀️ Clear\n')).toBe(true);
    expect(embed.fields![1]!.value).toContain('-2.5 °C to 6.2 °C');
    expect(embed.footer).toContain('UTC+01:00');
    expect(embed.footer).toContain('metric (°C, m/s)');
    expect(reply.text).toMatch(/^Oslo, NO, next 5 days: Sun 22 Nov /);
  });

  it('answers with a warning when the city is unknown', async () => {
    const client = fakeWeather(async () => undefined);
    const reply = await invoke(
      forecast,
      { city: 'Nowhereville' },
      createContext({ services: { weather: client } }),
    );
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(reply.text).toContain('“Nowhereville”');
  });

  it('answers with a warning when the forecast has no steps', async () => {
    const client = fakeWeather(async () => ({ ...osloForecast(), steps: [] }));
    const reply = await invoke(forecast, { city: 'Oslo' }, createContext({ services: { weather: client } }));
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(onlyEmbed(reply).fields).toBeUndefined();
  });

  it('groups by UTC days and says so when the provider gives no offset', async () => {
    const client = fakeWeather(async () => ({ ...osloForecast(), timezoneOffsetS: undefined }));
    const reply = await invoke(forecast, { city: 'Oslo' }, createContext({ services: { weather: client } }));
    expect(onlyEmbed(reply).footer).toContain('UTC+00:00');
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('weather', 'forecast', code);
    const client = fakeWeather(() => Promise.reject(error));
    await expect(
      invoke(forecast, { city: 'Oslo' }, createContext({ services: { weather: client } })),
    ).rejects.toBe(error);
  });

  it('rejects an empty city without calling the service', async () => {
    const client = fakeWeather(async () => osloForecast());
    await expect(
      invoke(forecast, { city: ' ' }, createContext({ services: { weather: client } })),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(client.forecast).not.toHaveBeenCalled();
  });
});

describe('/forecast in the reader’s language', () => {
  it('answers in German: German days, conditions, numbers and ranges', async () => {
    const ctx = createContext({
      services: { weather: fakeWeather(async () => osloForecast()) },
      language: 'de',
    });
    const embed = onlyEmbed(await invoke(forecast, { city: 'Oslo' }, ctx));
    expect(embed.title).toBe('5-Tage-Vorhersage für Oslo, NO');
    expect(embed.fields![1]!.name).toBe('Mo., 23. Nov.');
    expect(embed.fields![1]!.value).toBe('☀️ Klarer Himmel\n-2,5 °C bis 6,2 °C');
    expect(embed.footer).toBe('Tage in der Ortszeit der Stadt (UTC+01:00) · Einheiten: metrisch (°C, m/s)');
  });
});
