// The Mapbox feature shapes of the geocoding simulator and the gazetteer's answers: countries,
// regions, places and landmarks a query names (fixtures/places.ts, fixtures/landmarks.ts).
import { hashSeed } from './seeded-random.ts';
import { LANDMARKS } from './fixtures/landmarks.ts';
import { normalizePlaceText, PLACES, type Place } from './fixtures/places.ts';

export type Feature = Record<string, unknown> & { relevance: number; place_type: string[] };

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export function mapboxId(...parts: (string | number)[]): string {
  const short = Buffer.from(hashSeed('mbx', ...parts).toString(16) + hashSeed(...parts).toString(36))
    .toString('base64url')
    .slice(0, 10);
  return Buffer.from(`urn:mbxplc:${short}`).toString('base64url');
}

export function featureId(type: string, ...parts: (string | number)[]): string {
  const a = hashSeed(type, ...parts);
  const b = hashSeed(...parts, type);
  return `${type}.${String(a).padStart(10, '0')}${String(b % 1_000_000).padStart(6, '0')}`;
}

export function context(p: Place, withPlace: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (withPlace)
    out.push({
      id: featureId('place', p.name, p.geonameId),
      mapbox_id: mapboxId('place', p.geonameId),
      wikidata: p.wikidata,
      text: p.name,
    });
  if (p.region !== p.name || withPlace)
    out.push({
      id: featureId('region', p.region, p.countryCode),
      mapbox_id: mapboxId('region', p.region),
      ...(p.regionCode ? { short_code: `${p.countryCode}-${p.regionCode}` } : {}),
      text: p.region,
    });
  out.push({
    id: featureId('country', p.countryCode),
    mapbox_id: mapboxId('country', p.countryCode),
    short_code: p.countryCode.toLowerCase(),
    text: p.country,
  });
  return out;
}

interface FeatureSpec {
  type: string;
  text: string;
  placeName: string;
  lon: number;
  lat: number;
  relevance: number;
  context: Record<string, unknown>[];
  properties?: Record<string, unknown>;
  address?: string;
  /** Half the bbox width in degrees; points (addresses, POIs) have none. */
  span?: number;
}

export function feature(f: FeatureSpec): Feature {
  const [lon, lat] = [round6(f.lon), round6(f.lat)];
  const span = f.span ?? 0;
  return {
    id: featureId(f.type, f.placeName),
    type: 'Feature',
    place_type: [f.type],
    relevance: Math.round(f.relevance * 1000) / 1000,
    properties: { mapbox_id: mapboxId(f.type, f.placeName), ...f.properties },
    text: f.text,
    place_name: f.placeName,
    ...(span > 0 ? { bbox: [lon - span, lat - span * 0.7, lon + span, lat + span * 0.7].map(round6) } : {}),
    center: [lon, lat],
    geometry: { type: 'Point', coordinates: [lon, lat] },
    ...(f.address === undefined ? {} : { address: f.address }),
    context: f.context,
  };
}

/** "A, B, C" without the empty parts. */
export const label = (...parts: string[]) => parts.filter((x) => x.trim() !== '').join(', ');

/** Every query token matches a word of the label; the last one may be a prefix (autocomplete). */
function matches(tokens: string[], text: string): boolean {
  const words = normalizePlaceText(text).split(' ');
  return tokens.every((t, i) =>
    words.some((w) => w === t || (i === tokens.length - 1 && t.length >= 2 && w.startsWith(t))),
  );
}

/** The gazetteer's answers to a query, and the real place the made-up extra matches gather around. */
interface Known {
  features: Feature[];
  anchor: Place | undefined;
}

const byPopulation = (a: Place, b: Place) => b.population - a.population;

/** A name or one of its aliases that the query names (the first token begins the name). */
function names(tokens: string[], all: readonly string[], around: string): boolean {
  const first = tokens.slice(0, 1);
  return all.some((n) => matches(tokens, `${n} ${around}`) && matches(first, n));
}

/** Landmarks the query names, as Mapbox POIs in their real city ("Eiffel Tower" is in Paris). */
function landmarkFeatures(tokens: string[]): { feature: Feature; city: Place; exact: boolean }[] {
  const out: { feature: Feature; city: Place; exact: boolean }[] = [];
  const query = tokens.join(' ');
  for (const l of LANDMARKS) {
    const city = PLACES.find((p) => p.name === l.city && p.countryCode === l.countryCode);
    const all = [l.name, ...(l.aliases ?? [])];
    if (!city || !names(tokens, all, `${city.name} ${city.country}`)) continue;
    const region = city.region === city.name ? '' : city.region;
    out.push({
      city,
      // "Tokyo Tower" in full; "東京" only begins "東京タワー" and ranks after the city.
      exact: all.some((n) => normalizePlaceText(n) === query),
      feature: feature({
        type: 'poi',
        text: l.name,
        placeName: label(l.name, city.name, region, city.country),
        lon: l.lon,
        lat: l.lat,
        relevance: 1,
        context: context(city, true),
        properties: { category: l.category, landmark: true, wikidata: l.wikidata },
      }),
    });
  }
  return out;
}

function countryFeature(p: Place): Feature {
  return feature({
    type: 'country',
    text: p.country,
    placeName: p.country,
    lon: p.lon,
    lat: p.lat,
    relevance: 1,
    context: [],
    properties: { short_code: p.countryCode.toLowerCase() },
    span: 4,
  });
}

function regionFeature(p: Place): Feature {
  return feature({
    type: 'region',
    text: p.region,
    placeName: label(p.region, p.country),
    lon: p.lon,
    lat: p.lat,
    relevance: 1,
    context: context(p, false).slice(-1),
    span: 1.5,
  });
}

function placeFeature(p: Place): Feature {
  return feature({
    type: 'place',
    text: p.name,
    placeName: label(p.name, p.region === p.name ? '' : p.region, p.country),
    lon: p.lon,
    lat: p.lat,
    relevance: 1,
    context: context(p, false),
    properties: { wikidata: p.wikidata },
    span: 0.25,
  });
}

/** The places the query names (by name or alias), the most populous first. */
function namedPlaces(tokens: string[]): Place[] {
  return PLACES.filter((x) =>
    names(
      tokens,
      [x.name, ...(x.aliases ?? [])],
      `${x.region} ${x.regionCode ?? ''} ${x.country} ${x.countryCode}`,
    ),
  ).sort(byPopulation);
}

/** Landmarks, countries, regions and places of the gazetteer that the query names. */
export function knownFeatures(tokens: string[]): Known {
  const landmarks = landmarkFeatures(tokens);
  const named = landmarks.filter((l) => l.exact);
  const out: Feature[] = named.map((l) => l.feature);
  const anchors: Place[] = named.map((l) => l.city);
  const regions: Feature[] = [];
  const seen = new Set<string>();
  const first = tokens.slice(0, 1);
  for (const p of [...PLACES].sort(byPopulation)) {
    const { country, countryCode: cc, region } = p;
    if (!seen.has(cc) && matches(tokens, country)) {
      seen.add(cc);
      anchors.push(p);
      out.push(countryFeature(p));
    }
    if (
      region !== p.name &&
      !seen.has(`${cc}|${region}`) &&
      matches(tokens, `${region} ${country}`) &&
      matches(first, region)
    ) {
      seen.add(`${cc}|${region}`);
      anchors.push(p);
      regions.push(regionFeature(p));
    }
  }
  const places = namedPlaces(tokens);
  // A named city outranks the country or region it was found through.
  anchors.splice(named.length, 0, ...places);
  for (const p of places) out.push(placeFeature(p));
  const partial = landmarks.filter((l) => !l.exact);
  // A region named like its city ("Zurich") follows the city.
  return {
    features: [...out, ...regions, ...partial.map((l) => l.feature)],
    anchor: anchors[0] ?? partial[0]?.city,
  };
}
