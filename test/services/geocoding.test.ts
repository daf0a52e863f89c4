import { describe, expect, it } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import {
  createGeocodingClient,
  GEOCODE_CACHE_TTL_MS,
  MAX_LIMIT,
} from '../../src/services/geocoding/client.ts';
import { GEOCODING_MAGIC, geocodingHandlers } from '../../src/sandbox/geocoding.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { ConfigError } from '../../src/errors.ts';
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

const KEY = 'test-geocoding-token-2718';
const fixture = (name: string) => readFixture('geocoding', name);

const server = useFakeServer(() => geocodingHandlers({ credential: KEY }));
const makeClient = clientMaker(createGeocodingClient, () => ({
  baseUrl: sandboxBaseUrl(server.url, 'geocoding'),
  apiKey: KEY,
  dataset: 'mapbox.places',
}));

const FORWARD = '/geocoding-api/geocoding/v5/mapbox.places';
const answer = (
  body: Record<string, unknown>,
  init: { status?: number; headers?: Record<string, string> } = {},
) => http.get(route('geocoding', '/geocoding/v5/:dataset/:query'), () => HttpResponse.json(body, init));

describe('geocoding client', () => {
  it('asks GET /geocoding/v5/{dataset}/{query}.json with the token in both carriers', async () => {
    const { client } = makeClient();
    const matches = await client.forward({ query: 'Paris' });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.pathname).toBe(`${FORWARD}/Paris.json`);
    expect(Object.fromEntries(req.query)).toEqual({ access_token: KEY });
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(matches).toHaveLength(5);
    expect(matches[0]).toEqual({
      placeName: 'Paris, Île-de-France, France',
      longitude: 2.3488,
      latitude: 48.8534,
      placeType: ['place'],
      relevance: 1,
    });
    expect(matches[1]!.placeName).toBe('Paris, Texas, United States');
  });

  it('sends limit only when given, and the fake honours it', async () => {
    const { client } = makeClient();
    expect(await client.forward({ query: 'Springfield', limit: 2 })).toHaveLength(2);
    expect(server.requests[0]!.query.get('limit')).toBe('2');
  });

  it('keeps a hostile query and the dataset inside their segments, before the literal .json', async () => {
    const { client } = makeClient({ dataset: 'mapbox.places-permanent' });
    const matches = await client.forward({ query: 'a b/../?#é' });
    await client.forward({ query: '..' });
    const [hostile, dots] = server.requests;
    expect(hostile!.url).toBe(
      `/geocoding-api/geocoding/v5/mapbox.places-permanent/a%20b%2F..%2F%3F%23%C3%A9.json?access_token=${KEY}`,
    );
    expect(hostile!.pathname).toBe(
      '/geocoding-api/geocoding/v5/mapbox.places-permanent/a%20b%2F..%2F%3F%23%C3%A9.json',
    );
    // `...json` is not a dot-segment, so the dots stay as they are.
    expect(dots!.pathname).toBe('/geocoding-api/geocoding/v5/mapbox.places-permanent/...json');
    expect(matches[0]!.placeName.startsWith('A B/../?#é')).toBe(true);
  });

  it('maps a realistic feature collection, longitude first, ignoring extra fields', async () => {
    server.use(
      answer(fixture('los-angeles.json'), {
        headers: { 'content-type': 'application/vnd.geo+json; charset=utf-8' },
      }),
    );
    const { client } = makeClient();
    expect(await client.forward({ query: 'los angeles' })).toEqual([
      {
        placeName: 'Los Angeles, California, United States',
        longitude: -118.242766,
        latitude: 34.053691,
        placeType: ['place'],
        relevance: 1,
      },
      {
        placeName:
          'Los Angeles International Airport (LAX), 1 World Way, Los Angeles, California 90045, United States',
        longitude: -118.408049,
        latitude: 33.942496,
        placeType: ['poi'],
        relevance: 0.97,
      },
    ]);
  });

  it('answers an empty list when nothing matches (Mapbox answers 200, not 404)', async () => {
    const { client } = makeClient();
    for (const query of GEOCODING_MAGIC.noMatchQueries) expect(await client.forward({ query })).toEqual([]);
    expect(await client.forward({ query: '???' })).toEqual([]);
    expect(server.requests).toHaveLength(GEOCODING_MAGIC.noMatchQueries.length + 1);
  });

  it("keeps at most Mapbox's largest limit of matches from an answer that sends 30,000", async () => {
    const place = (fixture('los-angeles.json') as { features: Record<string, unknown>[] }).features[0]!;
    const features = Array.from({ length: 30_000 }, (_, i) => ({
      place_name: `Place ${i}`,
      center: place['center'],
      geometry: place['geometry'],
    }));
    server.use(answer({ type: 'FeatureCollection', features }));
    const { client } = makeClient();
    const matches = await client.forward({ query: 'Los Angeles' });
    expect(matches.map((m) => m.placeName)).toEqual(features.slice(0, MAX_LIMIT).map((f) => f.place_name));
  });

  it('refuses a query or limit Mapbox would reject before any request', async () => {
    const { client } = makeClient();
    const bad = [
      { query: '  ' },
      { query: 'x'.repeat(257) },
      { query: Array.from({ length: 21 }, (_, i) => `w${i}`).join(' ') },
      { query: 'paris;london' },
      { query: 'Paris', limit: 0 },
      { query: 'Paris', limit: 11 },
      { query: 'Paris', limit: 1.5 },
    ];
    for (const q of bad) expect((await failure(client.forward(q))).code).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a dataset that is not one path segment at creation', () => {
    for (const dataset of ['..', '.', 'a/b', '']) {
      expect(() => makeClient({ dataset })).toThrow(ConfigError);
    }
  });

  it('keeps an answer for a day', async () => {
    let nowMs = Date.parse('2025-03-01T09:00:00Z');
    const { client } = makeClient({}, {}, { now: () => nowMs });
    await client.forward({ query: 'Berlin' });
    nowMs += GEOCODE_CACHE_TTL_MS - 60_000;
    await client.forward({ query: 'Berlin' });
    expect(server.requests).toHaveLength(1);
    await client.forward({ query: 'Berlin', limit: 1 });
    expect(server.requests).toHaveLength(2);
    nowMs += 120_000;
    await client.forward({ query: 'Berlin' });
    expect(server.requests).toHaveLength(3);
  });

  it("maps Mapbox's error bodies to typed codes, keeping the provider's message", async () => {
    const cases: [number, string, string][] = [
      [401, 'Not Authorized - No Token', 'unauthorized'],
      [401, 'Not Authorized - Invalid Token', 'unauthorized'],
      [403, 'Forbidden', 'forbidden'],
      [404, 'Not Found', 'not_found'],
      [422, 'Query too long', 'invalid_request'],
      [429, 'Rate limit exceeded', 'rate_limited'],
      [500, 'Internal Server Error', 'upstream'],
    ];
    const { client } = makeClient({}, { maxRetries: 0 });
    for (const [status, message, code] of cases) {
      server.use(answer({ message }, { status }));
      const e = await failure(client.forward({ query: `case ${status} ${message}` }));
      expect({ status, code: e.code, http: e.status, message: e.providerMessage }).toEqual({
        status,
        code,
        http: status,
        message,
      });
    }
  });

  it('reads a 429 wait from Retry-After or else from X-Rate-Limit-Reset', async () => {
    const { client } = makeClient({}, { maxRetries: 0 });
    server.use(answer({ message: 'Too Many Requests' }, { status: 429, headers: { 'retry-after': '2' } }));
    expect((await failure(client.forward({ query: 'Oslo' }))).retryAfterMs).toBe(2_000);
    const reset = Math.ceil(Date.now() / 1000) + 30;
    server.use(
      answer(
        { message: 'Rate limit exceeded' },
        { status: 429, headers: { 'x-rate-limit-reset': String(reset) } },
      ),
    );
    const e = await failure(client.forward({ query: 'Bergen' }));
    expect(e.retryAfterMs).toBeGreaterThan(28_000);
    expect(e.retryAfterMs).toBeLessThanOrEqual(31_000);
    const magic = await failure(client.forward({ query: GEOCODING_MAGIC.rateLimitedQuery }));
    expect(magic.code).toBe('rate_limited');
    expect(magic.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('is refused by the fake with a wrong token or an unknown dataset', async () => {
    const wrong = await failure(makeClient({ apiKey: 'not-the-token-1' }).client.forward({ query: 'Rome' }));
    expect([wrong.code, wrong.providerMessage]).toEqual(['unauthorized', 'Not Authorized - Invalid Token']);
    const missing = await failure(makeClient({ apiKey: '' }).client.forward({ query: 'Rome' }));
    expect(missing.providerMessage).toBe('Not Authorized - No Token');
    const dataset = await failure(
      makeClient({ dataset: 'mapbox.streets' }).client.forward({ query: 'Rome' }),
    );
    expect([dataset.code, dataset.status]).toEqual(['not_found', 404]);
  });

  it('retries a 500 twice and then reports upstream', async () => {
    const { client } = makeClient();
    const e = await failure(client.forward({ query: GEOCODING_MAGIC.errorQuery }));
    expect([e.code, e.status, e.providerMessage]).toEqual(['upstream', 500, 'Internal Server Error']);
    expect(server.requests).toHaveLength(3);
  });

  it('maps a timeout, a reset, an HTML page and misfit bodies to typed codes', async () => {
    const la = fixture('los-angeles.json');
    const [first] = la.features as Record<string, unknown>[];
    const cases: [Answer, string][] = [
      [async () => (await delay(LATE_ANSWER_MS), HttpResponse.json(la)), 'timeout'],
      [() => HttpResponse.error(), 'network'],
      [() => htmlPage('<html>Bad gateway</html>', 200), 'bad_response'],
      [() => htmlPage('<html>Bad gateway</html>', 503), 'upstream'],
      [() => HttpResponse.json({ ...la, type: 'Feature' }), 'bad_response'],
      [
        () => HttpResponse.json({ ...la, features: [{ ...first, center: [34.053691, -118.242766] }] }),
        'bad_response',
      ],
    ];
    const { client } = makeClient({}, { maxRetries: 0, requestTimeoutMs: 5_000 });
    await expectFailureCodes(
      server,
      cases,
      (respond) => http.get(route('geocoding', '/geocoding/v5/:dataset/:query'), respond),
      (i) => client.forward({ query: `case ${i}` }),
    );
  });

  it('never lets the token reach an error, a provider message or a log line', async () => {
    server.use(
      http.get(route('geocoding', '/geocoding/v5/:dataset/:query'), ({ request }) =>
        HttpResponse.json(
          { message: `Invalid Token ${new URL(request.url).searchParams.get('access_token')}` },
          { status: 401 },
        ),
      ),
    );
    const { client, lines } = makeClient({}, { maxRetries: 0 });
    const errors = [
      await failure(client.forward({ query: 'Lima' })),
      await failure(makeClient({ apiKey: `${KEY}-wrong` }).client.forward({ query: 'Lima' })),
    ];
    expect(errors[0]!.providerMessage).toBe('Invalid Token [REDACTED]');
    expectNoSecret([KEY], ...errors.map(errorText));
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret([KEY], lines.join('\n'));
  });
});

describe('geocoding sandbox', () => {
  const get = async (search: string, params = '') => {
    const res = await fetch(
      `${sandboxBaseUrl(server.url, 'geocoding')}/geocoding/v5/mapbox.places/${encodeURIComponent(search)}.json?access_token=${KEY}${params}`,
    );
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  type Feature = {
    place_type: string[];
    place_name: string;
    center: number[];
    geometry: { coordinates: number[] };
  };

  it('answers the same text with the same features, tokenised and lower-cased like Mapbox', async () => {
    const a = await get('Gotham City');
    expect(a.body).toEqual((await get('Gotham City')).body);
    expect(a.body.query).toEqual(['gotham', 'city']);
    expect(a.headers.get('content-type')).toBe('application/vnd.geo+json; charset=utf-8');
    expect(a.headers.get('x-rate-limit-limit')).toBe('600');
    const features = a.body.features as Feature[];
    expect(features).toHaveLength(5);
    for (const f of features) {
      expect(f.center).toEqual(f.geometry.coordinates);
      expect(Math.abs(f.center[0]!)).toBeLessThanOrEqual(180);
      expect(Math.abs(f.center[1]!)).toBeLessThanOrEqual(90);
    }
  });

  it('finds countries, regions and addresses, and filters by types and country', async () => {
    const first = async (q: string) => ((await get(q)).body.features as Feature[])[0];
    expect(await first('germany')).toMatchObject({ place_type: ['country'], place_name: 'Germany' });
    expect(await first('Bavaria')).toMatchObject({ place_type: ['region'], place_name: 'Bavaria, Germany' });
    const address = (await get('10 Downing Street, London')).body.features as (Feature & {
      address: string;
    })[];
    expect(address[0]).toMatchObject({ place_type: ['address'], address: '10' });
    expect(address[0]!.place_name).toMatch(/^10 Downing Street, London, England [A-Z0-9 ]+, United Kingdom$/);
    const places = (await get('Paris', '&types=place&country=us')).body.features as Feature[];
    expect(places.map((f) => f.place_name)).toContain('Paris, Texas, United States');
    expect(places.every((f) => f.place_type[0] === 'place' && f.place_name.endsWith('United States'))).toBe(
      true,
    );
  });

  it("answers Mapbox's 422s for a long query, a bad limit or type, and a batch on mapbox.places", async () => {
    expect(await get(Array.from({ length: 21 }, (_, i) => `w${i}`).join(' '))).toMatchObject({
      status: 422,
      body: { message: 'Query too long' },
    });
    expect((await get('Paris', '&limit=11')).status).toBe(422);
    expect((await get('Paris', '&types=planet')).status).toBe(422);
    expect((await get('paris;london')).status).toBe(422);
  });
});
