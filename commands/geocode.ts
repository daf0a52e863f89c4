// /geocode query [limit]: forward geocoding through S4. The API gives [lon, lat]; people read
// "lat, lon", so the reply turns them round and links each match to OpenStreetMap.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { ownEntry } from '../src/domain/lookup.ts';
import type { GeocodeMatch } from '../src/services/geocoding/client.ts';
import type { Translate } from '../src/i18n/translate.ts';
import { formatCoordinate, quote, truncate } from './format.ts';

/** Mapbox v5 rejects longer queries (docs/SERVICES.md S4: at most 20 words and 256 characters, no ";"). */
const MAX_QUERY_WORDS = 20;

// A map zoom that shows the whole feature: a country needs a wide view, an address a close one.
const ZOOM_BY_TYPE = {
  country: 5,
  region: 7,
  postcode: 13,
  district: 10,
  place: 12,
  locality: 13,
  neighborhood: 15,
  address: 17,
  poi: 17,
} as const;

/** A place type herald knows (zoom and name); the service may send others. */
function isKnownType(type: string): type is keyof typeof ZOOM_BY_TYPE {
  return Object.hasOwn(ZOOM_BY_TYPE, type);
}

/** Five decimals is about a metre: enough for a map, short enough to read (src/format.ts). */
export { formatCoordinate };

export function mapLink(match: GeocodeMatch): string {
  const lat = formatCoordinate(match.latitude);
  const lon = formatCoordinate(match.longitude);
  const zoom = ownEntry(ZOOM_BY_TYPE, match.placeType[0]) ?? 12;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=${zoom}/${lat}/${lon}`;
}

/** A place type in the reader's words; a type the catalogue does not know stays the service's word. */
function placeTypeName(type: string, t: Translate): string {
  return isKnownType(type) ? t(`geocode:placeTypes.${type}`) : type;
}

/** One match: its name, its coordinates (latitude first), its types and its map link. */
function matchField(m: GeocodeMatch, i: number, t: Translate): { name: string; value: string } {
  const lat = formatCoordinate(m.latitude);
  const lon = formatCoordinate(m.longitude);
  const types = m.placeType.map((type) => placeTypeName(type, t)).join(', ');
  return {
    name: `${i + 1}. ${truncate(m.placeName, 200, { oneLine: true })}`,
    value: [
      t('geocode:coordinates', { lat, lon }),
      m.placeType.length > 0 ? t('geocode:type', { types }) : undefined,
      mapLink(m),
    ]
      .filter((line) => line !== undefined)
      .join('\n'),
  };
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
    const { t } = ctx;
    if (matches.length === 0) {
      const query = quote(input.query);
      return {
        text: t('geocode:noMatch', { query }),
        outcome: 'not-found',
        embeds: [
          {
            title: t('geocode:noMatchTitle'),
            description: t('geocode:noMatchDescription', { query }),
            color: 'warning',
          },
        ],
      };
    }

    const shown = matches.slice(0, input.limit);
    const first = shown[0]!;
    const latLon = `${formatCoordinate(first.latitude)}, ${formatCoordinate(first.longitude)}`;
    const others = shown.length - 1;
    return {
      text:
        others > 0
          ? t('geocode:lineMore', { place: first.placeName, latLon, count: others })
          : t('geocode:line', { place: first.placeName, latLon }),
      embeds: [
        {
          title: t('geocode:title', { count: shown.length, query: quote(input.query, 60) }),
          url: mapLink(first),
          color: 'info',
          fields: shown.map((m, i) => matchField(m, i, t)),
          footer: t('geocode:footer'),
        },
      ],
    };
  },
});
