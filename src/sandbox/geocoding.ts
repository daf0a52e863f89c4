// Simulated Mapbox Geocoding v5 (docs/SERVICES.md S4): GET /geocoding/v5/{dataset}/{query}.json
// answers a FeatureCollection for any text: real places from the gazetteer first, then believable
// places, streets and points of interest named after the query, deterministic for the same input.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { magicKey, route, type HandlerOptions } from './layout.ts';
import { hashSeed, seededRandom, type SeededRandom } from './seeded-random.ts';
import {
  context,
  feature,
  featureId,
  knownFeatures,
  label,
  mapboxId,
  type Feature,
} from './geocoding-features.ts';
import {
  anchorsFor,
  NEIGHBOURHOODS,
  normalizePlaceText,
  PLACES,
  POI_KINDS,
  postcode,
  STREETS,
  titleCase,
  type Place,
} from './fixtures/places.ts';

/** Inputs that make the simulator answer like Mapbox's edge cases (README, tests). */
export const GEOCODING_MAGIC = Object.freeze({
  /** 200 with `features: []`, Mapbox's "no match"; so does text without a letter or digit. */
  noMatchQueries: ['nothing', 'Atlantis', 'nowhere'] as readonly string[],
  /** 429 {"message":"Rate limit exceeded"} with X-Rate-Limit-* headers (or `sandbox:busy`). */
  rateLimitedQuery: 'sandbox-busy',
  /** 500 {"message":"Internal Server Error"} (or `sandbox:error`). */
  errorQuery: 'sandbox-error',
});

interface GeocodingHandlerOptions extends HandlerOptions {
  /** Clock for X-Rate-Limit-Reset and the attribution year (tests fix it). */
  now?: () => number;
}

const TYPES = [
  'country',
  'region',
  'postcode',
  'district',
  'place',
  'locality',
  'neighborhood',
  'address',
  'poi',
];
const SYNTHETIC_KINDS = ['poi', 'locality', 'neighborhood', 'address', 'place'] as const;
const NEAR_KINDS = ['poi', 'neighborhood', 'address'] as const;

/** Where a made-up match lies and what it is called after. */
interface Spot {
  a: Place;
  base: { lon: number; lat: number; relevance: number };
  code: string;
  region: string;
  named: string;
}

/** A made-up address; `search` is the query when it is an address itself ("10 Downing Street"). */
function addressFeature(rng: SeededRandom, spot: Spot, search: string | undefined): Feature {
  const { a, code, region, named } = spot;
  const number = (search !== undefined ? /^\d+/.exec(search)?.[0] : undefined) ?? String(rng.int(1, 250));
  const street = search !== undefined ? named : `${named} ${rng.pick(['Street', 'Road', 'Avenue', 'Lane'])}`;
  const postcodeCtx = {
    id: featureId('postcode', code, a.countryCode),
    mapbox_id: mapboxId('postcode', code),
    text: code,
  };
  const placeName = label(`${number} ${street}`, a.name, `${region} ${code}`.trim(), a.country);
  const properties = { accuracy: 'rooftop' };
  return feature({
    ...spot.base,
    type: 'address',
    text: street,
    placeName,
    address: number,
    properties,
    context: [postcodeCtx, ...context(a, true)],
  });
}

/** A made-up point of interest named after the query. */
function poiFeature(rng: SeededRandom, spot: Spot): Feature {
  const { a, code, region, named } = spot;
  const [suffix, category] = rng.pick(POI_KINDS);
  const text = `${named} ${suffix}`;
  const placeName = label(
    text,
    `${rng.int(1, 120)} ${rng.pick(STREETS)}`,
    a.name,
    `${region} ${code}`.trim(),
    a.country,
  );
  const properties = {
    category,
    landmark: true,
    foursquare: `${hashSeed('fsq', text).toString(16)}4b0588`,
  };
  return feature({ ...spot.base, type: 'poi', text, placeName, properties, context: context(a, true) });
}

/**
 * Made-up but believable matches named after the query. Around `near` (the real place the query
 * named) they are streets, quarters and points of interest there, never a second town elsewhere;
 * otherwise near real places of a country the query's script fits (東京 not in Ontario).
 */
function syntheticFeatures(
  search: string,
  tokens: string[],
  count: number,
  isAddress: boolean,
  near: Place | undefined,
): Feature[] {
  const rng = seededRandom('geocode', tokens.join(' '));
  const named = titleCase(search.replace(/^\d+\s+/, '').split(',')[0] ?? search);
  // An address names its city after the street ("10 Downing Street, London"): the first match is there.
  const namedCity = PLACES.find((p) => tokens.slice(1).includes(normalizePlaceText(p.name)));
  const pool = anchorsFor(search);
  return Array.from({ length: count }, (_, k): Feature => {
    const a = near ?? (k === 0 && namedCity ? namedCity : rng.pick(pool));
    const lon = a.lon + (rng.next() - 0.5) * (isAddress ? 0.1 : 1.2);
    const lat = a.lat + (rng.next() - 0.5) * (isAddress ? 0.08 : 0.9);
    const relevance = Math.max(0.5, 0.97 - k * 0.06 - rng.next() * 0.04);
    const code = postcode(a.countryCode, rng);
    const region = a.region === a.name ? '' : a.region;
    const kind = isAddress
      ? 'address'
      : near
        ? NEAR_KINDS[k % NEAR_KINDS.length]!
        : k === 0
          ? 'place'
          : SYNTHETIC_KINDS[(k - 1) % SYNTHETIC_KINDS.length]!;
    const spot: Spot = { a, base: { lon, lat, relevance }, code, region, named };
    if (kind === 'address') return addressFeature(rng, spot, isAddress ? search : undefined);
    if (kind === 'poi') return poiFeature(rng, spot);
    if (kind === 'place')
      return feature({
        ...spot.base,
        type: 'place',
        text: named,
        placeName: label(named, region, a.country),
        context: context(a, false),
        span: 0.12,
      });
    const text = kind === 'neighborhood' ? `${named} ${rng.pick(NEIGHBOURHOODS)}` : named;
    return feature({
      ...spot.base,
      type: kind,
      text,
      placeName: label(text, a.name, region, a.country),
      context: context(a, true),
      span: 0.03,
    });
  });
}

function collection(
  search: string,
  limit: number,
  types: string[] | undefined,
  countries: string[] | undefined,
  year: number,
) {
  const tokens = normalizePlaceText(search).split(' ').filter(Boolean);
  const query = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  let features: Feature[] = [];
  const isNoMatch =
    tokens.length === 0 ||
    GEOCODING_MAGIC.noMatchQueries.some((q) => normalizePlaceText(q) === tokens.join(' '));
  if (!isNoMatch) {
    const isAddress = /^\d+\s+\S/.test(search.trim());
    const known = isAddress ? { features: [], anchor: undefined } : knownFeatures(tokens);
    const extra = Math.max(0, 10 - known.features.length);
    features = [
      ...known.features,
      ...syntheticFeatures(search.trim(), tokens, extra, isAddress, known.anchor),
    ];
    const countryOf = (f: Feature) =>
      (
        (f.context as { short_code?: string; id: string }[]).find((c) => c.id.startsWith('country.'))
          ?.short_code ??
        (f.properties as { short_code?: string }).short_code ??
        ''
      ).toUpperCase();
    if (types) features = features.filter((f) => types.includes(f.place_type[0]!));
    if (countries) features = features.filter((f) => countries.includes(countryOf(f)));
  }
  return {
    type: 'FeatureCollection',
    query,
    features: features.slice(0, limit),
    attribution: `NOTICE: © ${year} Mapbox and its suppliers. All rights reserved. Use of this data is subject to the Mapbox Terms of Service (https://www.mapbox.com/about/maps/). This response and the information it contains may not be retained. POI(s) provided by Foursquare.`,
  };
}

export function geocodingHandlers(opts: GeocodingHandlerOptions = {}): RequestHandler[] {
  const now = opts.now ?? Date.now;
  return [
    http.get(route('geocoding', '/geocoding/v5/:dataset/:query'), ({ request, params }) => {
      const headers = {
        'content-type': 'application/vnd.geo+json; charset=utf-8',
        'x-rate-limit-interval': '60',
        'x-rate-limit-limit': '600',
        'x-rate-limit-reset': String(Math.ceil(now() / 60_000) * 60),
        'access-control-allow-origin': '*',
      };
      const fail = (status: number, message: string, extra: Record<string, string> = {}) =>
        HttpResponse.json(
          { message },
          { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8', ...extra } },
        );
      const url = new URL(request.url);
      const token = url.searchParams.get('access_token');
      if (!token) return fail(401, 'Not Authorized - No Token');
      if (opts.credential !== undefined && token !== opts.credential)
        return fail(401, 'Not Authorized - Invalid Token');
      const dataset = String(params.dataset);
      const segment = String(params.query);
      if (
        !/\.places(-permanent)?$/.test(dataset) ||
        !segment.endsWith('.json') ||
        segment.slice(0, -5).trim() === ''
      )
        return fail(404, 'Not Found');
      const search = segment.slice(0, -5);
      const magic = magicKey(search);
      if (magic === GEOCODING_MAGIC.rateLimitedQuery)
        return fail(429, 'Rate limit exceeded', { 'x-rate-limit-remaining': '0' });
      if (magic === GEOCODING_MAGIC.errorQuery) return fail(500, 'Internal Server Error');
      const limitParam = url.searchParams.get('limit');
      const limit = limitParam === null ? 5 : Number(limitParam);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10)
        return fail(422, 'limit must be a number between 1 and 10');
      const types = url.searchParams
        .get('types')
        ?.split(',')
        .map((t) => t.trim());
      const badType = types?.find((t) => !TYPES.includes(t));
      if (badType !== undefined)
        return fail(422, `Type "${badType}" is not a known type. Must be one of: ${TYPES.join(', ')}.`);
      const countries = url.searchParams
        .get('country')
        ?.split(',')
        .map((c) => c.trim().toUpperCase());
      const queries = search.split(';');
      const isPermanent = dataset.endsWith('-permanent');
      if (queries.length > 1 && !isPermanent)
        return fail(422, 'Batch queries are only supported by the mapbox.places-permanent endpoint');
      if (queries.length > 50) return fail(422, 'Batch queries are limited to 50');
      for (const q of queries) {
        if (q.length > 256 || (q.match(/[\p{L}\p{N}]+/gu) ?? []).length > 20)
          return fail(422, 'Query too long');
      }
      const year = new Date(now()).getUTCFullYear();
      const answers = queries.map((q) => collection(q, limit, types, countries, year));
      return HttpResponse.json(isPermanent && queries.length > 1 ? answers : answers[0], { headers });
    }),
  ];
}
