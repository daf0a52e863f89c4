// The simulator's places are believable for real names
// (non-Latin and accented ones included), landmarks are where they stand, input that is not a
// place is OpenWeatherMap's 404, and the icon's d/n follows the place's own sun. Driven through
// the real clients and the real sandbox server on loopback.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weather as weatherCommand } from '../../commands/weather.ts';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { planServices, resolveServiceConfigs } from '../../src/sandbox/resolve.ts';
import { startSandboxServer, type SandboxServer } from '../../src/sandbox/server.ts';
import { closeServices, createServices } from '../../src/services/index.ts';
import type { Services } from '../../src/core/services.ts';
import { createContext, invoke, onlyEmbed } from '../commands/context.ts';

// 24 Nov 2026, 12:00 UTC: 21:00 in Tokyo (night), 07:00 in Lima (day).
const CLOCK = Date.parse('2026-11-24T12:00:00Z');

let server: SandboxServer;
let services: Services;

beforeAll(async () => {
  server = await startSandboxServer({ handlers: sandboxHandlers({ now: () => CLOCK }), record: true });
  const plan = planServices({ sandbox: 'on', services: {}, discord: undefined, slack: undefined });
  services = createServices(resolveServiceConfigs({ services: {} }, plan, server.url));
});

afterAll(async () => {
  await closeServices(services);
  await server.close();
});

/** The fields of OWM's /weather and /forecast answers these tests read. */
interface OwmAnswer {
  dt: number;
  sys: { sunrise: number; sunset: number };
  weather: { icon: string }[];
  list: { weather: { icon: string }[]; sys: { pod: string } }[];
}

async function owm(kind: 'weather' | 'forecast', q: string): Promise<{ status: number; body: OwmAnswer }> {
  const url = new URL(`${server.url}/weather/data/2.5/${kind}`);
  url.searchParams.set('q', q);
  url.searchParams.set('appid', 'any-key');
  url.searchParams.set('units', 'metric');
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as OwmAnswer };
}

describe('simulated weather places', () => {
  it.each([
    ['東京', 'Tokyo', 'JP'],
    ['Tōkyō', 'Tokyo', 'JP'],
    ['Tokyo', 'Tokyo', 'JP'],
    ['Lima', 'Lima', 'PE'],
    ['Zürich', 'Zürich', 'CH'],
    ['Zurich', 'Zürich', 'CH'],
    ['São Paulo', 'São Paulo', 'BR'],
    ['Sao Paulo', 'São Paulo', 'BR'],
    ['México', 'Mexico City', 'MX'],
    ['Москва', 'Moscow', 'RU'],
  ])('puts %s in its real country', async (q, name, country) => {
    const w = await services.weather!.current({ city: q, units: 'metric' });
    expect(w).toMatchObject({ city: name, country });
  });

  it('answers a city with a character above U+00FF, its header included, with weather', async () => {
    for (const [kind, q] of [
      ['weather', '東京'],
      ['forecast', 'Tōkyō'],
    ] as const) {
      const res = await owm(kind, q);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const forecast = await services.weather!.forecast({ city: 'Tōkyō', units: 'metric' });
    expect(forecast).toMatchObject({ city: 'Tokyo', country: 'JP', timezoneOffsetS: 9 * 3600 });
  });

  it('answers input that is not a place like OpenWeatherMap: 404 city not found', async () => {
    for (const q of ['--help', '-x', '123', '...']) {
      const res = await owm('weather', q);
      expect(res.status, q).toBe(404);
      expect(res.body).toEqual({ cod: '404', message: 'city not found' });
    }
    expect(await services.weather!.current({ city: '--help', units: 'metric' })).toBeUndefined();
  });

  it('places an unknown name deterministically, and near its script’s countries', async () => {
    const a = await services.weather!.current({ city: '札幌', units: 'metric' });
    const b = await services.weather!.current({ city: '札幌', units: 'metric' });
    expect(a).toEqual(b);
    expect(['CN', 'JP', 'HK']).toContain(a?.country);
    const pusan = await services.weather!.current({ city: '부산', units: 'metric' });
    expect(pusan?.country).toBe('KR');
  });

  it('gives night icons after the local sunset and day icons after the local sunrise', async () => {
    const tokyo = (await owm('weather', 'Tokyo')).body;
    const lima = (await owm('weather', 'Lima')).body;
    expect(tokyo.weather[0]!.icon).toMatch(/^\d\dn$/);
    expect(lima.weather[0]!.icon).toMatch(/^\d\dd$/);
    for (const body of [tokyo, lima]) {
      const isDay = body.dt >= body.sys.sunrise && body.dt < body.sys.sunset;
      expect(body.weather[0]!.icon.endsWith(isDay ? 'd' : 'n')).toBe(true);
    }
    const forecast = (await owm('forecast', 'Tokyo')).body;
    for (const step of forecast.list) expect(step.weather[0]!.icon.slice(-1)).toBe(step.sys.pod);
    expect(new Set(forecast.list.map((s: { sys: { pod: string } }) => s.sys.pod))).toEqual(
      new Set(['d', 'n']),
    );
  });

  it('shows no sun in a clear night: the reply’s emoji follows the icon’s d/n', async () => {
    // Find a clear night in the simulator at CLOCK (deterministic), then ask /weather for it.
    const cities = ['Tokyo', 'Seoul', 'Beijing', 'Osaka', 'Kyoto', 'Shanghai', 'Hong Kong', 'Dubai', 'Cairo'];
    const cities2 = ['Riyadh', 'Tehran', 'New Delhi', 'Agra', 'Bangkok', 'Jakarta', 'Sydney', 'Melbourne'];
    let found: string | undefined;
    for (const city of [...cities, ...cities2]) {
      const body = (await owm('weather', city)).body;
      if (body.weather[0]!.icon === '01n') {
        found = city;
        break;
      }
    }
    expect(found, 'a clear night somewhere east of UTC at 12:00 UTC').toBeDefined();
    const ctx = createContext({ services, now: new Date(CLOCK) });
    const reply = await invoke(weatherCommand, { city: found! }, ctx);
    expect(onlyEmbed(reply).title).toMatch(/^🌙 Weather in /);
    expect(onlyEmbed(reply).title).not.toContain('☀️');
  });
});

describe('simulated geocoding places', () => {
  const placeNames = async (query: string) =>
    (await services.geocoding!.forward({ query, limit: 5 })).map((p) => p.placeName);

  it('finds a landmark where it stands, first', async () => {
    const [first, ...rest] = await placeNames('Eiffel Tower');
    expect(first).toBe('Eiffel Tower, Paris, Île-de-France, France');
    // The made-up extra matches gather in the same city, never a second Eiffel Tower in Italy.
    for (const name of rest) expect(name).toMatch(/Paris, Île-de-France.*France$/);
  });

  it('finds 東京 as Tokyo, Japan, and only around it', async () => {
    const names = await placeNames('東京');
    expect(names[0]).toBe('Tokyo, Japan');
    for (const name of names) expect(name).toMatch(/Japan$/);
  });

  it.each([
    ['Lima', 'Lima, Peru'],
    ['Zürich', 'Zürich, Zurich, Switzerland'],
    ['Zurich', 'Zürich, Zurich, Switzerland'],
    ['São Paulo', 'São Paulo, Brazil'],
    ['México', 'Mexico'],
  ])('finds %s as %s first', async (query, expected) => {
    expect((await placeNames(query))[0]).toBe(expected);
  });

  it('places an unknown name in a country its script is written in', async () => {
    const names = await placeNames('札幌');
    for (const name of names) expect(name).toMatch(/(China|Japan|Hong Kong)$/);
  });
});

describe('any text the user types', () => {
  it('gets a provider’s answer, never the simulator’s own 500 (headers carry any city)', async () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }).filter((t) => t.trim() !== '');
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom('weather', 'forecast'), async (q, kind) => {
        const { status } = await owm(kind, q);
        expect(status).not.toBe(500);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(text, async (query) => {
        const url = `${server.url}/geocoding-api/geocoding/v5/mapbox.places/${encodeURIComponent(query)}.json?access_token=k`;
        const res = await fetch(url);
        expect(res.status).not.toBe(500);
      }),
      { numRuns: 60 },
    );
  });
});
