// S4 geocoding client (Mapbox v5): GET /geocoding/v5/{dataset}/{query}.json with the token in both
// carriers docs/SERVICES.md lists. https://docs.mapbox.com/api/search/geocoding-v5/#forward-geocoding
import { type CallOptions } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ConfigError, ServiceError } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { GeocodeResponse, readMapboxError } from './schemas.ts';

export interface GeocodingConfig {
  baseUrl: string;
  apiKey: string;
  /** The `provider` path segment, e.g. mapbox.places. */
  dataset: string;
}

export interface GeocodeMatch {
  placeName: string;
  longitude: number;
  latitude: number;
  placeType: string[];
  relevance: number | undefined;
}

export interface GeocodingClient extends Closable {
  /** An empty list when nothing matches (Mapbox answers 200 with no features). */
  forward(q: { query: string; limit?: number }, opts?: CallOptions): Promise<GeocodeMatch[]>;
}

/** Places do not move, so an answer is kept for a day. */
export const GEOCODE_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
/** Mapbox v5's documented bounds on the search text and on `limit`. */
const MAX_QUERY_LENGTH = 256;
const MAX_QUERY_TOKENS = 20;
export const MAX_LIMIT = 10;

function invalid(reason: string): ServiceError {
  return new ServiceError({
    service: 'geocoding',
    operation: 'forward',
    code: 'invalid_request',
    message: `geocoding.forward refused before sending: ${reason}`,
  });
}

function checkForward(q: { query: string; limit?: number }): string {
  const query = q.query.trim();
  if (query === '') throw invalid('the query is empty');
  if (query.length > MAX_QUERY_LENGTH)
    throw invalid(`the query is longer than ${MAX_QUERY_LENGTH} characters`);
  if ((query.match(/[\p{L}\p{N}]+/gu) ?? []).length > MAX_QUERY_TOKENS)
    throw invalid(`the query has more than ${MAX_QUERY_TOKENS} words or numbers`);
  // `;` separates batch queries, which Mapbox refuses raw or encoded on mapbox.places.
  if (query.includes(';')) throw invalid('the query contains ";"');
  if (/\p{Cc}/u.test(query)) throw invalid('the query contains control characters');
  if (q.limit !== undefined && !(Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= MAX_LIMIT))
    throw invalid(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return query;
}

export function createGeocodingClient(config: GeocodingConfig, deps: ClientDeps = {}): GeocodingClient {
  // The dataset is a path segment; a dot-only one would be a dot-segment that URL parsing removes.
  if (!/^[A-Za-z0-9._-]+$/.test(config.dataset) || /^\.+$/.test(config.dataset)) {
    throw new ConfigError({
      problems: [{ variable: 'GEOCODING_DATASET', message: 'must be a dataset name such as mapbox.places' }],
    });
  }
  const http = createServiceHttp(deps, {
    secrets: [config.apiKey],
    service: 'geocoding',
    baseUrl: config.baseUrl,
    headers: { 'x-api-key': config.apiKey },
    readError: readMapboxError,
  });

  return {
    async forward(q, opts) {
      const query = checkForward(q);
      return http.send(
        {
          service: 'geocoding',
          operation: 'forward',
          method: 'GET',
          // The literal `.json` follows the encoded search text inside the same segment.
          path: path`/geocoding/v5/${config.dataset}/${query}.json`,
          query: { access_token: config.apiKey, limit: q.limit },
          cacheTtlMs: GEOCODE_CACHE_TTL_MS,
        },
        GeocodeResponse,
        opts,
        // No more than Mapbox ever sends: a longer list (30,000 features fit in the body bound) would
        // be mapped and kept in the day-long cache for matches nobody is shown.
        (res) =>
          res.features.slice(0, MAX_LIMIT).map((f) => ({
            placeName: f.place_name,
            longitude: f.center[0]!,
            latitude: f.center[1]!,
            placeType: f.place_type ?? [],
            relevance: f.relevance,
          })),
      );
    },

    close: () => http.close(),
  };
}
