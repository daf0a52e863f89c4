import { describe, expect, it } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import {
  createWeatherClient,
  FORECAST_MAX_STEPS,
  WEATHER_CACHE_TTL_MS,
} from '../../src/services/weather/client.ts';
import { WEATHER_MAGIC, weatherHandlers } from '../../src/sandbox/weather.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  type Answer,
  clientMaker,
  errorText,
  expectFailureCodes,
  LATE_ANSWER_MS,
  expectNoSecret,
  failure,
  htmlPage,
  readFixture,
  useFakeServer,
} from '../support/service-harness.ts';

const KEY = 'test-weather-key-0815';
const NOW = Date.parse('2025-01-15T10:20:00Z');
const fixture = (name: string) => readFixture('weather', name);

const server = useFakeServer(() => weatherHandlers({ credential: KEY, now: () => NOW }));
const makeClient = clientMaker(createWeatherClient, () => ({
  baseUrl: sandboxBaseUrl(server.url, 'weather'),
  apiKey: KEY,
}));

const gets = () => server.requests.filter((r) => r.method === 'GET');

describe('weather client', () => {
  it('asks GET /weather under the base path with q, units and the key in both carriers', async () => {
    const { client } = makeClient();
    const w = await client.current({ city: 'London' });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.pathname).toBe('/weather/data/2.5/weather');
    expect(Object.fromEntries(req.query)).toEqual({ q: 'London', units: 'metric', appid: KEY });
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toBe('');
    expect(w).toMatchObject({ city: 'London', country: 'GB', units: 'metric', timezoneOffsetS: 0 });
    expect(w!.temp).toBeGreaterThan(-25);
    expect(w!.temp).toBeLessThan(25);
    expect(w!.humidity).toBeGreaterThan(0);
    expect(w!.conditions[0]!.main).toMatch(/^(Clear|Clouds|Rain|Drizzle|Snow|Mist|Fog|Thunderstorm|Haze)$/);
    expect(w!.observedAt!.getTime()).toBeLessThanOrEqual(NOW);
  });

  it('asks GET /forecast and maps forty three-hour steps', async () => {
    const { client } = makeClient();
    const f = await client.forecast({ city: 'Tokyo', units: 'imperial' });
    expect(server.requests[0]!.pathname).toBe('/weather/data/2.5/forecast');
    expect(server.requests[0]!.query.get('units')).toBe('imperial');
    expect(f).toMatchObject({ city: 'Tokyo', country: 'JP', units: 'imperial', timezoneOffsetS: 32_400 });
    expect(f!.steps).toHaveLength(40);
    expect(f!.steps[0]!.at.getTime()).toBe(Date.parse('2025-01-15T12:00:00Z'));
    for (let i = 1; i < f!.steps.length; i++) {
      expect(f!.steps[i]!.at.getTime() - f!.steps[i - 1]!.at.getTime()).toBe(10_800_000);
    }
  });

  it('keeps a hostile city inside the q parameter, with one appid', async () => {
    const { client } = makeClient();
    const city = 'a b/../?#é&appid=evil';
    const w = await client.current({ city });
    const req = server.requests[0]!;
    expect(req.pathname).toBe('/weather/data/2.5/weather');
    expect(req.url.startsWith('/weather/data/2.5/weather?q=a+b%2F..%2F%3F%23%C3%A9%26appid%3Devil&')).toBe(
      true,
    );
    expect(req.query.getAll('appid')).toEqual([KEY]);
    expect(req.query.get('q')).toBe(city);
    expect(w?.city).toBe('A B/../?#é&appid=evil');
  });

  it('keeps a value outside its unit\'s sane range as NaN ("not available"), not as drawn or formatted', async () => {
    const current = fixture('current-zocca.json') as Record<string, Record<string, unknown>>;
    const forecast = fixture('forecast-zocca.json') as { list: Record<string, unknown>[] };
    server.use(
      http.get(route('weather', '/weather'), () =>
        HttpResponse.json({
          ...current,
          main: { ...current['main'], temp: 1e308, feels_like: -1e308, humidity: 400 },
          wind: { ...current['wind'], speed: -3 },
          timezone: 1e12,
        }),
      ),
      http.get(route('weather', '/forecast'), () =>
        HttpResponse.json({
          ...forecast,
          list: forecast.list.map((step, i) => ({
            ...step,
            main: { ...(step['main'] as object), temp: i === 0 ? -1e308 : 4.5 },
            pop: i === 0 ? 7 : 0.5,
          })),
        }),
      ),
    );
    const { client } = makeClient();
    const w = await client.current({ city: 'Zocca' });
    expect([w!.temp, w!.feelsLike, w!.humidity, w!.windSpeed]).toEqual([NaN, NaN, NaN, NaN]);
    expect(w!.timezoneOffsetS).toBeUndefined();
    const f = await client.forecast({ city: 'Zocca', units: 'imperial' });
    expect(f!.steps[0]).toMatchObject({ temp: NaN, pop: NaN });
    expect(f!.steps[1]).toMatchObject({ temp: 4.5, pop: 0.5 });
  });

  it('keeps a time no weather answer can hold (before 1970, past year 9999) out: no step at it, no observation time', async () => {
    const current = fixture('current-zocca.json');
    const forecast = fixture('forecast-zocca.json') as { list: Record<string, unknown>[] };
    // Whole seconds, as the schema asks, but 9e12 s is beyond what a Date holds.
    const hostile = [9e12, -9e12, 2 ** 53 - 1, -1];
    server.use(
      http.get(route('weather', '/weather'), () => HttpResponse.json({ ...current, dt: 9e12 })),
      http.get(route('weather', '/forecast'), () =>
        HttpResponse.json({
          ...forecast,
          list: [...hostile.map((dt) => ({ ...forecast.list[0], dt })), ...forecast.list],
        }),
      ),
    );
    const { client } = makeClient();
    expect((await client.current({ city: 'Zocca' }))!.observedAt).toBeUndefined();
    const f = await client.forecast({ city: 'Zocca' });
    expect(f!.steps.map((s) => s.at.getTime())).toEqual(forecast.list.map((s) => (s['dt'] as number) * 1000));
  });

  it('keeps the first forty usable steps of a forecast that sends far more (160,000 within the body bound)', async () => {
    const forecast = fixture('forecast-zocca.json') as { list: Record<string, unknown>[] };
    const first = forecast.list[0]!;
    // All on one day: the shape that made the day's min and max throw (a spread of 160,000 arguments).
    const dt = first['dt'] as number;
    const list = Array.from({ length: 160_000 }, (_, i) => ({
      dt: dt + (i % 3),
      main: { temp: i % 7 },
      weather: [],
    }));
    server.use(
      http.get(route('weather', '/forecast'), () =>
        HttpResponse.json({ ...forecast, list: [{ ...first, dt: 9e12 }, ...list] }),
      ),
    );
    const { client } = makeClient();
    const f = await client.forecast({ city: 'Zocca' });
    expect(f!.steps).toHaveLength(FORECAST_MAX_STEPS);
    expect(f!.steps.map((s) => s.at.getTime())).toEqual(
      list.slice(0, FORECAST_MAX_STEPS).map((s) => s.dt * 1000),
    );
  });

  it('maps realistic payloads whose cod is a number or a string, keeping only domain fields', async () => {
    server.use(
      http.get(route('weather', '/weather'), () => HttpResponse.json(fixture('current-zocca.json'))),
      http.get(route('weather', '/forecast'), () => HttpResponse.json(fixture('forecast-zocca.json'))),
    );
    const { client } = makeClient();
    expect(await client.current({ city: 'Zocca' })).toEqual({
      city: 'Zocca',
      country: 'IT',
      units: 'metric',
      temp: 25.33,
      feelsLike: 25.59,
      humidity: 64,
      windSpeed: 0.62,
      conditions: [{ main: 'Rain', description: 'moderate rain', icon: '10d' }],
      observedAt: new Date(1661870592_000),
      timezoneOffsetS: 7200,
    });
    expect(await client.forecast({ city: 'Zocca' })).toEqual({
      city: 'Zocca',
      country: 'IT',
      units: 'metric',
      timezoneOffsetS: 7200,
      steps: [
        {
          at: new Date(1661871600_000),
          temp: 23.61,
          conditions: [{ main: 'Rain', description: 'light rain', icon: '10d' }],
          pop: 0.32,
        },
        {
          at: new Date(1661882400_000),
          temp: 21.05,
          conditions: [{ main: 'Clouds', description: 'broken clouds', icon: '04n' }],
          pop: 0.08,
        },
      ],
    });
    server.use(
      http.get(route('weather', '/weather'), () =>
        HttpResponse.json({ ...fixture('current-zocca.json'), cod: '200' }),
      ),
    );
    expect((await client.current({ city: 'zocca' }))?.temp).toBe(25.33);
  });

  it('answers undefined for a city OpenWeatherMap does not know', async () => {
    const { client } = makeClient();
    await expect(client.current({ city: 'Atlantis' })).resolves.toBeUndefined();
    await expect(client.forecast({ city: 'atlantis' })).resolves.toBeUndefined();
    await expect(client.current({ city: '12345' })).resolves.toBeUndefined();
    expect(gets()).toHaveLength(3);
  });

  it('fails on a route the fake does not serve instead of answering undefined', async () => {
    const { client } = makeClient({ baseUrl: `${server.url}/nowhere` });
    const e = await failure(client.current({ city: 'London' }));
    expect([e.code, e.status]).toEqual(['invalid_request', 404]);
  });

  it('refuses an empty city and unknown units before any request', async () => {
    const { client } = makeClient();
    for (const q of [{ city: '  ' }, { city: 'x'.repeat(201) }, { city: 'a\u0000b' }]) {
      expect((await failure(client.current(q))).code).toBe('invalid_request');
    }
    expect((await failure(client.forecast({ city: 'Paris', units: 'kelvin' as 'metric' }))).code).toBe(
      'invalid_request',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('shares identical concurrent requests and keeps an answer for ten minutes', async () => {
    let nowMs = NOW;
    const { client } = makeClient({}, {}, { now: () => nowMs });
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.current({ city: 'Berlin' })));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(gets()).toHaveLength(1);
    nowMs += WEATHER_CACHE_TTL_MS - 1_000;
    await client.current({ city: 'Berlin' });
    expect(gets()).toHaveLength(1);
    await client.current({ city: 'Berlin', units: 'imperial' });
    expect(gets()).toHaveLength(2);
    nowMs += 2_000;
    await client.current({ city: 'Berlin' });
    expect(gets()).toHaveLength(3);
  });

  it("maps OpenWeatherMap's error bodies to typed codes", async () => {
    const cases: [number, string, string][] = [
      [400, '{"cod":"400","message":"Nothing to geocode"}', 'invalid_request'],
      [
        401,
        '{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}',
        'unauthorized',
      ],
      [403, '{"cod":403,"message":"Forbidden"}', 'forbidden'],
      [404, '{"cod":"404","message":"Internal error"}', 'invalid_request'],
      [
        429,
        '{"cod":429, "message": "Your account is temporary blocked due to exceeding of requests limitation"}',
        'rate_limited',
      ],
      [500, '{"cod":"500","message":"Internal error"}', 'upstream'],
      [503, '{"cod":"503","message":"Service Unavailable"}', 'upstream'],
    ];
    const { client } = makeClient({}, { maxRetries: 0 });
    for (const [status, body, code] of cases) {
      server.use(
        http.get(
          route('weather', '/weather'),
          () => new HttpResponse(body, { status, headers: { 'content-type': 'application/json' } }),
        ),
      );
      const e = await failure(client.current({ city: `London ${status}` }));
      expect({ status, code: e.code, http: e.status }).toEqual({ status, code, http: status });
      expect(e.providerMessage).toBe((JSON.parse(body) as { message: string }).message);
    }
  });

  it('is refused by the fake with a wrong or missing key', async () => {
    const e = await failure(makeClient({ apiKey: 'not-the-key-123' }).client.current({ city: 'Rome' }));
    expect([e.code, e.status]).toEqual(['unauthorized', 401]);
    expect(e.providerMessage).toMatch(/^Invalid API key/);
    const missing = await failure(makeClient({ apiKey: '' }).client.forecast({ city: 'Rome' }));
    expect(missing.code).toBe('unauthorized');
  });

  it('reads a 429 with Retry-After into retryAfterMs', async () => {
    server.use(
      http.get(route('weather', '/weather'), () =>
        HttpResponse.json(
          { cod: 429, message: 'blocked' },
          { status: 429, headers: { 'retry-after': '30' } },
        ),
      ),
    );
    const { client } = makeClient({}, { maxRetries: 0 });
    const e = await failure(client.current({ city: 'Oslo' }));
    expect([e.code, e.retryAfterMs]).toEqual(['rate_limited', 30_000]);
    const magic = await failure(client.current({ city: WEATHER_MAGIC.rateLimitedCity }));
    expect(magic.code).toBe('rate_limited');
  });

  it('retries a 500 twice and then reports upstream', async () => {
    const { client } = makeClient();
    const e = await failure(client.current({ city: WEATHER_MAGIC.errorCity }));
    expect([e.code, e.status, e.providerMessage]).toEqual(['upstream', 500, 'Internal error']);
    expect(gets()).toHaveLength(3);
  });

  it('maps a timeout, a reset, an HTML page and a misfit body to typed codes', async () => {
    const cases: [Answer, string][] = [
      [async () => (await delay(LATE_ANSWER_MS), HttpResponse.json({})), 'timeout'],
      [() => HttpResponse.error(), 'network'],
      [() => htmlPage('<html><h1>502 Bad Gateway</h1></html>', 200), 'bad_response'],
      [() => htmlPage('<html><h1>502 Bad Gateway</h1></html>', 502), 'upstream'],
      [
        () => HttpResponse.json({ ...fixture('current-zocca.json'), main: { temp: '25.33' } }),
        'bad_response',
      ],
    ];
    const { client } = makeClient({}, { maxRetries: 0, requestTimeoutMs: 5_000 });
    await expectFailureCodes(
      server,
      cases,
      (answer) => http.get(route('weather', '/weather'), answer),
      (i) => client.current({ city: `Case ${i}` }),
    );
  });

  it('never lets the key reach an error, a provider message or a log line', async () => {
    server.use(
      http.get(route('weather', '/weather'), ({ request }) =>
        HttpResponse.json(
          { cod: 401, message: `Invalid API key ${new URL(request.url).searchParams.get('appid')}` },
          { status: 401 },
        ),
      ),
    );
    const { client, lines } = makeClient({}, { maxRetries: 0 });
    const errors = [
      await failure(client.current({ city: 'Madrid' })),
      await failure(client.forecast({ city: WEATHER_MAGIC.errorCity })),
      await failure(makeClient({ apiKey: `${KEY}-wrong` }).client.forecast({ city: 'Madrid' })),
    ];
    expect(errors[0]!.providerMessage).toBe('Invalid API key [REDACTED]');
    expectNoSecret([KEY], ...errors.map(errorText));
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret([KEY], lines.join('\n'));
  });
});

describe('weather sandbox', () => {
  const get = async (p: string) => {
    const res = await fetch(`${sandboxBaseUrl(server.url, 'weather')}${p}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers the same city and clock with the same data, and different cities differently', async () => {
    const a = await get(`/weather?q=Lisbon&units=metric&appid=${KEY}`);
    const b = await get(`/weather?q=Lisbon&units=metric&appid=${KEY}`);
    const c = await get(`/weather?q=Cairo&units=metric&appid=${KEY}`);
    expect(a.body).toEqual(b.body);
    expect(c.body.main).not.toEqual(a.body.main);
    expect(a.body).toMatchObject({ name: 'Lisbon', base: 'stations', cod: 200 });
  });

  it('converts units like OpenWeatherMap and treats unknown units as standard', async () => {
    const metric = (await get(`/weather?q=Berlin&units=metric&appid=${KEY}`)).body.main as { temp: number };
    const standard = (await get(`/weather?q=Berlin&appid=${KEY}`)).body.main as { temp: number };
    const odd = (await get(`/weather?q=Berlin&units=kelvin&appid=${KEY}`)).body.main as { temp: number };
    const imperial = (await get(`/weather?q=Berlin&units=imperial&appid=${KEY}`)).body.main as {
      temp: number;
    };
    expect(standard.temp).toBeCloseTo(metric.temp + 273.15, 1);
    expect(odd.temp).toBe(standard.temp);
    expect(imperial.temp).toBeCloseTo((metric.temp * 9) / 5 + 32, 1);
  });

  it("answers OpenWeatherMap's 400s for a missing city or bad coordinates", async () => {
    expect(await get(`/weather?appid=${KEY}`)).toEqual({
      status: 400,
      body: { cod: '400', message: 'Nothing to geocode' },
    });
    expect((await get(`/weather?lat=91&lon=0&appid=${KEY}`)).body.message).toBe('wrong latitude');
    expect((await get(`/forecast?lat=10&lon=abc&appid=${KEY}`)).body.message).toBe('wrong longitude');
    expect((await get(`/weather?lat=48.85&lon=2.35&appid=${KEY}`)).body.name).toBe('Paris');
  });

  it('gives a forecast of UTC dt_txt steps that cnt can shorten', async () => {
    const { body } = await get(`/forecast?q=Sydney&cnt=3&appid=${KEY}`);
    expect(body).toMatchObject({ cod: '200', message: 0, cnt: 3 });
    const list = body.list as { dt: number; dt_txt: string }[];
    expect(list.map((s) => s.dt_txt)).toEqual([
      '2025-01-15 12:00:00',
      '2025-01-15 15:00:00',
      '2025-01-15 18:00:00',
    ]);
    expect(list[0]!.dt).toBe(Date.parse('2025-01-15T12:00:00Z') / 1000);
  });
});
