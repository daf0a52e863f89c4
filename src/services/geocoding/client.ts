import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

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

export declare function createGeocodingClient(config: GeocodingConfig, deps?: ClientDeps): GeocodingClient;
