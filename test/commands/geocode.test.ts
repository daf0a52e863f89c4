import { describe, expect, it, vi } from 'vitest';
import { formatCoordinate, geocode, mapLink } from '../../commands/geocode.ts';
import type { GeocodeMatch, GeocodingClient } from '../../src/services/geocoding/client.ts';
import {
  createContext,
  expectWellFormed,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
} from './context.ts';

const LOS_ANGELES: GeocodeMatch = {
  placeName: 'Los Angeles, California, United States',
  longitude: -118.242766,
  latitude: 34.053691,
  placeType: ['place'],
  relevance: 1,
};

const LOS_ANGELES_COUNTY: GeocodeMatch = {
  placeName: 'Los Angeles County, California, United States',
  longitude: -118.2,
  latitude: 34.3,
  placeType: ['district'],
  relevance: 0.96,
};

function fakeGeocoding(result: () => Promise<GeocodeMatch[]>) {
  return {
    forward: vi.fn<GeocodingClient['forward']>(() => result()),
    close: vi.fn(async () => {}),
  } satisfies GeocodingClient;
}

describe('/geocode', () => {
  it('answers with each match as latitude, longitude (turned round from the API) and a map link', async () => {
    const client = fakeGeocoding(async () => [LOS_ANGELES, LOS_ANGELES_COUNTY]);
    const ctx = createContext({ services: { geocoding: client } });
    const reply = await invoke(geocode, { query: 'Los Angeles' }, ctx);

    expect(client.forward).toHaveBeenCalledWith(
      { query: 'Los Angeles', limit: 5 },
      { signal: expect.any(AbortSignal) },
    );
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('2 places match “Los Angeles”');
    expect(embed.url).toBe(
      'https://www.openstreetmap.org/?mlat=34.05369&mlon=-118.24277#map=12/34.05369/-118.24277',
    );
    expect(embed.fields!.map((f) => f.name)).toEqual([
      '1. Los Angeles, California, United States',
      '2. Los Angeles County, California, United States',
    ]);
    expect(embed.fields![0]!.value).toContain('Latitude 34.05369, longitude -118.24277');
    expect(embed.fields![1]!.value).toContain('#map=10/34.3/-118.2');
    expect(reply.text).toBe(
      'Los Angeles, California, United States: 34.05369, -118.24277 (and 1 other match)',
    );
  });

  it('passes the limit on and shows no more matches than asked for', async () => {
    const client = fakeGeocoding(async () => [LOS_ANGELES, LOS_ANGELES_COUNTY]);
    const reply = await invoke(
      geocode,
      { query: 'Los Angeles', limit: 1 },
      createContext({ services: { geocoding: client } }),
    );
    expect(client.forward.mock.calls[0]![0]).toEqual({ query: 'Los Angeles', limit: 1 });
    expect(onlyEmbed(reply).fields).toHaveLength(1);
    expect(reply.text).not.toContain('other');
  });

  it('answers with a warning when nothing matches', async () => {
    const client = fakeGeocoding(async () => []);
    const reply = await invoke(
      geocode,
      { query: 'xyzzy plugh' },
      createContext({ services: { geocoding: client } }),
    );
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(reply.text).toBe('No place matches “xyzzy plugh”.');
    expect(reply.outcome).toBe('not-found');
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('geocoding', 'forward', code);
    const client = fakeGeocoding(() => Promise.reject(error));
    await expect(
      invoke(geocode, { query: 'Paris' }, createContext({ services: { geocoding: client } })),
    ).rejects.toBe(error);
  });

  it.each([
    ['an empty query', { query: '' }],
    ['a limit of 0', { query: 'Paris', limit: 0 }],
    ['a limit of 11', { query: 'Paris', limit: 11 }],
    ['a fractional limit', { query: 'Paris', limit: 2.5 }],
    ['a query over 256 characters', { query: 'a'.repeat(257) }],
    ['a query with a semicolon', { query: 'Paris; London' }],
    ['a query of 21 words', { query: Array.from({ length: 21 }, (_, i) => `w${i}`).join(' ') }],
  ])('rejects %s without calling the service', async (_name, input) => {
    const client = fakeGeocoding(async () => [LOS_ANGELES]);
    await expect(
      invoke(geocode, input, createContext({ services: { geocoding: client } })),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(client.forward).not.toHaveBeenCalled();
  });
});

describe('mapLink', () => {
  it('zooms out for a country and in for an address', () => {
    expect(mapLink({ ...LOS_ANGELES, placeType: ['country'] })).toContain('#map=5/');
    expect(mapLink({ ...LOS_ANGELES, placeType: ['address'] })).toContain('#map=17/');
    expect(mapLink({ ...LOS_ANGELES, placeType: [] })).toContain('#map=12/');
  });

  it('gives a place type named like an inherited member the default zoom', () => {
    for (const type of ['constructor', 'toString', '__proto__'])
      expect(mapLink({ ...LOS_ANGELES, placeType: [type] })).toMatch(/#map=12\/[-\d.]+\/[-\d.]+$/);
  });

  it('rounds coordinates to five decimals without trailing zeros', () => {
    expect(formatCoordinate(51.5)).toBe('51.5');
    expect(formatCoordinate(-0.1276474)).toBe('-0.12765');
  });
});

describe('/geocode in the reader’s language', () => {
  it('answers in German: the line, the title, each match’s coordinates and type, the footer', async () => {
    const client = fakeGeocoding(async () => [LOS_ANGELES, LOS_ANGELES_COUNTY]);
    const ctx = createContext({ services: { geocoding: client }, language: 'de' });
    const reply = await invoke(geocode, { query: 'Los Angeles' }, ctx);

    expect(reply.text).toBe(
      'Los Angeles, California, United States: 34.05369, -118.24277 (und 1 weiterer Treffer)',
    );
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('2 Orte passen zu “Los Angeles”');
    expect(embed.fields![0]!.value).toContain('Breite 34.05369, Länge -118.24277\nArt: Ort\n');
    expect(embed.fields![1]!.value).toContain('Art: Bezirk');
    expect(embed.footer).toBe('Die Kartenlinks öffnen OpenStreetMap');
  });

  it('answers in French, and keeps a place type it does not know as the service wrote it', async () => {
    const client = fakeGeocoding(async () => [{ ...LOS_ANGELES, placeType: ['poi', 'landmark'] }]);
    const ctx = createContext({ services: { geocoding: client }, language: 'fr' });
    const reply = await invoke(geocode, { query: 'Los Angeles', limit: 1 }, ctx);

    expect(reply.text).toBe('Los Angeles, California, United States : 34.05369, -118.24277');
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('1 lieu correspond à “Los Angeles”');
    expect(embed.fields![0]!.value).toContain("Type : point d'intérêt, landmark");
  });

  it('says in French that nothing matched', async () => {
    const ctx = createContext({ services: { geocoding: fakeGeocoding(async () => []) }, language: 'fr' });
    const reply = await invoke(geocode, { query: 'Atlantis' }, ctx);
    expect(reply.text).toBe('Aucun lieu ne correspond à “Atlantis”.');
    expect(onlyEmbed(reply).title).toBe('Aucun lieu trouvé');
  });
});
