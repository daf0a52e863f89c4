// /geocode query [limit]: forward geocoding through S4. The API gives [lon, lat]; people read
// "lat, lon", so the reply turns them round and links each match to OpenStreetMap.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { ownEntry } from '../src/domain/lookup.ts';
import type { GeocodeMatch } from '../src/services/geocoding/client.ts';
import { formatCoordinate, plural, quote, truncate } from './format.ts';

/** Mapbox v5 rejects longer queries (docs/SERVICES.md S4: at most 20 words and 256 characters, no ";"). */
const MAX_QUERY_WORDS = 20;

// A map zoom that shows the whole feature: a country needs a wide view, an address a close one.
const ZOOM_BY_TYPE: Readonly<Record<string, number>> = {
  country: 5,
  region: 7,
  postcode: 13,
  district: 10,
  place: 12,
  locality: 13,
  neighborhood: 15,
  address: 17,
  poi: 17,
};

/** Five decimals is about a metre: enough for a map, short enough to read (src/format.ts). */
export { formatCoordinate };

export function mapLink(match: GeocodeMatch): string {
  const lat = formatCoordinate(match.latitude);
  const lon = formatCoordinate(match.longitude);
  const zoom = ownEntry(ZOOM_BY_TYPE, match.placeType[0]) ?? 12;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=${zoom}/${lat}/${lon}`;
}

export const geocode = defineCommand({
  name: 'geocode',
  description: 'Find the coordinates of a place, with a map link',
  options: z.object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .refine((q) => !q.includes(';'), { error: 'A place search cannot contain ";".' })
      .refine((q) => q.split(/\s+/).length <= MAX_QUERY_WORDS, {
        error: `A place search can have at most ${MAX_QUERY_WORDS} words; shorten it and try again.`,
      })
      .describe('What to look for: a place, an address or a landmark'),
    limit: z.number().int().min(1).max(10).default(5).describe('How many matches to show (1-10)'),
  }),
  positional: ['query'],
  needs: ['geocoding'],
  examples: ['/geocode Eiffel Tower', '/geocode "10 Downing Street, London" limit:1'],
  async handler(input, ctx) {
    const matches = await ctx.services.geocoding.forward(
      { query: input.query, limit: input.limit },
      { signal: ctx.signal },
    );
    if (matches.length === 0) {
      return {
        text: `No place matches ${quote(input.query)}.`,
        outcome: 'not-found',
        embeds: [
          {
            title: 'No place found',
            description: `Nothing matches ${quote(input.query)}. Check the spelling, use fewer words, or add the region or country.`,
            color: 'warning',
          },
        ],
      };
    }

    const shown = matches.slice(0, input.limit);
    const first = shown[0]!;
    const latLon = (m: GeocodeMatch) => `${formatCoordinate(m.latitude)}, ${formatCoordinate(m.longitude)}`;
    const more = shown.length > 1 ? ` (and ${plural(shown.length - 1, 'other match', 'other matches')})` : '';
    return {
      text: `${first.placeName}: ${latLon(first)}${more}`,
      embeds: [
        {
          title: `${plural(shown.length, 'place matches', 'places match')} ${quote(input.query, 60)}`,
          url: mapLink(first),
          color: 'info',
          fields: shown.map((m, i) => ({
            name: `${i + 1}. ${truncate(m.placeName, 200, { oneLine: true })}`,
            value: [
              `Latitude ${formatCoordinate(m.latitude)}, longitude ${formatCoordinate(m.longitude)}`,
              m.placeType.length > 0 ? `Type: ${m.placeType.join(', ')}` : undefined,
              mapLink(m),
            ]
              .filter((line) => line !== undefined)
              .join('\n'),
          })),
          footer: 'Map links open OpenStreetMap',
        },
      ],
    };
  },
});
