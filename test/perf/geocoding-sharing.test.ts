import { geocodingHandlers } from '../../src/sandbox/geocoding.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { GEOCODE_CACHE_TTL_MS, createGeocodingClient } from '../../src/services/geocoding/client.ts';
import { describeSharing } from './sharing.ts';

const API_KEY = 'sandbox-mapbox-token-9a0e';
const QUERIES = [
  'Eiffel Tower',
  'Paris',
  '10 Downing Street, London',
  'Brandenburger Tor',
  'Times Square',
  'Sydney Opera House',
  'Colosseum Rome',
  'Golden Gate Bridge',
  'Kyoto',
  'Reykjavik',
];

describeSharing({
  name: 'geocoding.forward',
  ttlMs: GEOCODE_CACHE_TTL_MS,
  handlers: (now) => geocodingHandlers({ credential: API_KEY, now }),
  route: route('geocoding', '/geocoding/v5/:dataset/:query'),
  create: (origin, deps) =>
    createGeocodingClient(
      { baseUrl: sandboxBaseUrl(origin, 'geocoding'), apiKey: API_KEY, dataset: 'mapbox.places' },
      deps,
    ),
  call: (client, input, opts) => client.forward({ query: QUERIES[input % QUERIES.length]!, limit: 3 }, opts),
  pathname: '/geocoding-api/geocoding/v5/mapbox.places/Paris.json',
  hasInput: true,
  failureBody: { message: 'Service Unavailable' },
  failureCode: 'upstream',
});
