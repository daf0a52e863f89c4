// Mapbox Geocoding v5 wire shapes (docs/SERVICES.md S4): the forward feature collection and the
// `{"message": ...}` error body. https://docs.mapbox.com/api/search/geocoding-v5/
import { z } from 'zod';
import type { ProviderErrorReader } from '../../http/client.ts';

/** GeoJSON order, longitude first; a pair out of range means the provider swapped or broke it. */
const LonLat = z
  .array(z.number())
  .min(2)
  .refine((c) => Math.abs(c[0]!) <= 180 && Math.abs(c[1]!) <= 90, {
    message: 'not a [longitude, latitude] pair',
  });

const FeatureResponse = z.object({
  id: z.string().optional(),
  type: z.string().optional(),
  place_type: z.array(z.string()).optional(),
  relevance: z.number().optional(),
  text: z.string().optional(),
  place_name: z.string(),
  center: LonLat,
  geometry: z.object({ type: z.string(), coordinates: LonLat }),
});

export const GeocodeResponse = z.object({
  type: z.literal('FeatureCollection'),
  /** The tokenised search text (forward) or [lon, lat] (reverse). */
  query: z.array(z.union([z.string(), z.number()])).optional(),
  /** Empty, not a 404, when nothing matches. */
  features: z.array(FeatureResponse),
  attribution: z.string().optional(),
});

const MapboxErrorResponse = z.object({ message: z.string() });

/**
 * `{"message": "..."}`. A 429 may carry no Retry-After but X-Rate-Limit-Reset, the Unix time in
 * seconds when the window resets; that becomes retryAfterMs.
 */
export const readMapboxError: ProviderErrorReader = ({ status, headers, body }) => {
  const parsed = MapboxErrorResponse.safeParse(body);
  const message = parsed.success
    ? parsed.data.message
    : body === undefined
      ? 'the error body is not JSON'
      : undefined;
  const reset = Number(headers['x-rate-limit-reset']);
  if (status === 429 && headers['retry-after'] === undefined && Number.isFinite(reset) && reset > 0) {
    return { message, retryAfterMs: Math.max(0, reset * 1000 - Date.now()) };
  }
  return { message };
};
