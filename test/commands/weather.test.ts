import { describe, expect, it, vi } from 'vitest';
import { weather } from '../../commands/weather.ts';
import { embedTime } from '../../src/core/reply.ts';
import type {
  CurrentWeather,
  Forecast,
  WeatherClient,
  WeatherQuery,
} from '../../src/services/weather/client.ts';
import {
  createContext,
  expectWellFormed,
  field,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
} from './context.ts';

const ZOCCA: CurrentWeather = {
  city: 'Zocca',
  country: 'IT',
  units: 'metric',
  temp: 25.33,
  feelsLike: 25.59,
  humidity: 64,
  windSpeed: 0.62,
  conditions: [{ main: 'Rain', description: 'moderate rain' }],
  observedAt: new Date('2026-11-22T09:40:00Z'),
  timezoneOffsetS: 3600,
};

function fakeWeather(current: (q: WeatherQuery) => Promise<CurrentWeather | undefined>) {
  const client = {
    current: vi.fn<WeatherClient['current']>((q) => current(q)),
    forecast: vi.fn<WeatherClient['forecast']>(async (): Promise<Forecast | undefined> => undefined),
    close: vi.fn(async () => {}),
  } satisfies WeatherClient;
  return client;
}

describe('/weather', () => {
  it('answers with conditions, temperature, feels like, humidity and wind in the units asked for', async () => {
    const client = fakeWeather(async () => ZOCCA);
    const ctx = createContext({ services: { weather: client } });
    const reply = await invoke(weather, { city: 'Zocca' }, ctx);

    expect(client.current).toHaveBeenCalledWith(
      { city: 'Zocca', units: 'metric' },
      { signal: expect.any(AbortSignal) },
    );
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toContain('Weather in Zocca, IT');
    expect(embed.description).toBe('Moderate rain');
    expect(embed.color).toBe('info');
    expect(field(reply, 'Temperature')).toBe('25.3 °C');
    expect(field(reply, 'Feels like')).toBe('25.6 °C');
    expect(field(reply, 'Humidity')).toBe('64%');
    expect(field(reply, 'Wind')).toBe('0.6 m/s');
    expect(embed.footer).toContain('Observed 20 minutes ago · ');
    // The date is the embed's timestamp: the footer does not write it a second time.
    expect(embed.footer).not.toContain('Nov');
    expect(embedTime(embed.timestamp!)).toEqual({
      unix: Date.parse('2026-11-22T09:40:00.000Z') / 1000,
      text: 'Sun, 22 Nov 2026, 09:40 UTC',
    });
    expect(reply.text).toBe(
      'Zocca, IT: moderate rain, 25.3 °C (feels like 25.6 °C), humidity 64%, wind 0.6 m/s',
    );
  });

  it('keeps a city name with line breaks and 10,000 characters on one bounded line', async () => {
    const client = fakeWeather(async () => ({ ...ZOCCA, city: `Zocca\n\n**Alert** ${'Ω'.repeat(10_000)}` }));
    const reply = await invoke(weather, { city: 'Zocca' }, createContext({ services: { weather: client } }));
    expectWellFormed(reply);
    expect(reply.text).toMatch(/^Zocca \*\*Alert\*\* Ω+…, IT: /);
  });

  it('shows °F and mph for imperial units and kelvin for standard ones', async () => {
    const client = fakeWeather(async (q) =>
      q.units === 'imperial'
        ? { ...ZOCCA, units: 'imperial', temp: 77.59, feelsLike: 78.06, windSpeed: 1.39 }
        : { ...ZOCCA, units: 'standard', temp: 298.48, feelsLike: 298.74 },
    );
    const ctx = createContext({ services: { weather: client } });

    const imperial = await invoke(weather, { city: 'Zocca', units: 'imperial' }, ctx);
    expect(field(imperial, 'Temperature')).toBe('77.6 °F');
    expect(field(imperial, 'Wind')).toBe('1.4 mph');
    expect(onlyEmbed(imperial).footer).toContain('imperial (°F, mph)');

    const standard = await invoke(weather, { city: 'Zocca', units: 'standard' }, ctx);
    expect(field(standard, 'Temperature')).toBe('298.5 K');
    expect(field(standard, 'Wind')).toBe('0.6 m/s');
  });

  it('answers with a warning and a hint when the city is unknown', async () => {
    const client = fakeWeather(async () => undefined);
    const reply = await invoke(
      weather,
      { city: 'Atlantis' },
      createContext({ services: { weather: client } }),
    );

    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.color).toBe('warning');
    expect(embed.description).toContain('“Atlantis”');
    expect(embed.description).toContain('Paris,FR');
    expect(reply.text).toBe('No city called “Atlantis” was found.');
    // Typed, it is shown; scheduled, its slot fails with this sentence (Reply.outcome).
    expect(reply.outcome).toBe('not-found');
  });

  it('keeps an echoed mention inside quotes rather than leading the text', async () => {
    const client = fakeWeather(async () => undefined);
    const reply = await invoke(
      weather,
      { city: '@everyone' },
      createContext({ services: { weather: client } }),
    );
    expect(reply.text.startsWith('@')).toBe(false);
    expect(reply.text).toContain('“@everyone”');
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('weather', 'current', code);
    const client = fakeWeather(() => Promise.reject(error));
    await expect(
      invoke(weather, { city: 'Oslo' }, createContext({ services: { weather: client } })),
    ).rejects.toBe(error);
  });

  it.each([
    [{ city: '' }],
    [{ city: '   ' }],
    [{ city: 'x'.repeat(101) }],
    [{ city: 'Oslo', units: 'kelvin' }],
  ])('rejects %j without calling the service', async (input) => {
    const client = fakeWeather(async () => ZOCCA);
    await expect(
      invoke(weather, input, createContext({ services: { weather: client } })),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(client.current).not.toHaveBeenCalled();
  });

  it('names the conditions group when the provider gives no description', async () => {
    const client = fakeWeather(async () => ({
      ...ZOCCA,
      conditions: [{ main: 'Clouds', description: '' }],
      observedAt: undefined,
    }));
    const reply = await invoke(weather, { city: 'Zocca' }, createContext({ services: { weather: client } }));
    expect(onlyEmbed(reply).description).toBe('Clouds');
    expect(onlyEmbed(reply).footer).toBe('Units: metric (°C, m/s)');
  });
});

describe('/weather in the reader’s language', () => {
  it('answers in German with German numbers, and names the conditions in German', async () => {
    const ctx = createContext({ services: { weather: fakeWeather(async () => ZOCCA) }, language: 'de' });
    const reply = await invoke(weather, { city: 'Zocca' }, ctx);
    expect(reply.text).toBe(
      'Zocca, IT: Regen, 25,3 °C (gefühlt 25,6 °C), Luftfeuchtigkeit 64\u00a0%, Wind 0,6 m/s',
    );
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('🌧️ Wetter in Zocca, IT');
    expect(embed.fields!.map((f) => f.name)).toEqual(['Temperatur', 'Gefühlt', 'Luftfeuchtigkeit', 'Wind']);
    expect(embed.footer).toContain('Einheiten: metrisch (°C, m/s)');
    // Where the platform shows the timestamp as text (the console, Slack's fallback), it is German too.
    expect(embedTime(embed.timestamp!)?.text).toBe('So., 22. Nov. 2026, 09:40 UTC');
  });

  it('answers in French, and an unknown city in French', async () => {
    const ctx = createContext({ services: { weather: fakeWeather(async () => ZOCCA) }, language: 'fr' });
    expect((await invoke(weather, { city: 'Zocca' }, ctx)).text).toBe(
      'Zocca, IT : pluie, 25,3 °C (ressenti 25,6 °C), humidité 64\u00a0%, vent 0,6 m/s',
    );
    const none = createContext({ services: { weather: fakeWeather(async () => undefined) }, language: 'fr' });
    expect((await invoke(weather, { city: 'Atlantis' }, none)).text).toBe(
      "Aucune ville nommée “Atlantis” n'a été trouvée.",
    );
  });
});
