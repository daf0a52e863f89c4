// Simulated OpenWeatherMap 2.5 (docs/SERVICES.md S3): GET /weather and GET /forecast for any city,
// from a small climate model (season, time of day, a weather regime per day), deterministic for the
// same city and clock. Errors use OWM's `{cod, message}` bodies, number or string `cod` as live.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { magicKey, route, type HandlerOptions } from './layout.ts';
import { hashSeed, seededRandom, type SeededRandom } from './seeded-random.ts';
import {
  anchorsFor,
  normalizePlaceText,
  PLACES,
  placesNamed,
  titleCase,
  utcOffsetSeconds,
  type Place,
} from './fixtures/places.ts';

/** Inputs that make the simulator answer like OpenWeatherMap's failures (README, tests). */
export const WEATHER_MAGIC = Object.freeze({
  /**
   * 404 {"cod":"404","message":"city not found"}; so does anything that is not written like a
   * place name (`--help`, `a_b`, `http://x`, no letter).
   */
  notFoundCities: ['Atlantis', 'Nowhere'] as readonly string[],
  /** 429 "Your account is temporary blocked ..." (or `sandbox:busy`, which needs quotes in chat). */
  rateLimitedCity: 'sandbox-busy',
  /** 500 {"cod":"500","message":"Internal error"} (or `sandbox:error`). */
  errorCity: 'sandbox-error',
});

interface WeatherHandlerOptions extends HandlerOptions {
  /** Clock for observation times and the forecast's first step (tests fix it). */
  now?: () => number;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', server: 'openresty' };
// Raw bodies as OWM sends them: `cod` a number and a space after the commas.
const INVALID_KEY =
  '{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}';
const BLOCKED =
  '{"cod":429, "message": "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription http://openweathermap.org/price"}';

const raw = (status: number, body: string) => new HttpResponse(body, { status, headers: JSON_HEADERS });
const owmError = (status: number, message: string) =>
  HttpResponse.json({ cod: String(status), message }, { status, headers: JSON_HEADERS });

const HOUR_MS = 3_600_000;
const SLOT_MS = 3 * HOUR_MS;
const DAY_MS = 24 * HOUR_MS;

type Units = 'standard' | 'metric' | 'imperial';
interface Condition {
  id: number;
  main: string;
  description: string;
  icon: string;
}
interface Sample {
  tempC: number;
  feelsC: number;
  humidity: number;
  pressure: number;
  windMs: number;
  windDeg: number;
  gustMs: number | undefined;
  clouds: number;
  visibility: number;
  pop: number;
  precipMm: number;
  condition: Condition;
  isDay: boolean;
}

// prettier-ignore
const CONDITIONS: Record<string, [number, string, string, string]> = {
  clear: [800, 'Clear', 'clear sky', '01'], few: [801, 'Clouds', 'few clouds', '02'],
  scattered: [802, 'Clouds', 'scattered clouds', '03'], broken: [803, 'Clouds', 'broken clouds', '04'],
  overcast: [804, 'Clouds', 'overcast clouds', '04'], drizzle: [300, 'Drizzle', 'light intensity drizzle', '09'],
  lightRain: [500, 'Rain', 'light rain', '10'], rain: [501, 'Rain', 'moderate rain', '10'],
  shower: [520, 'Rain', 'light intensity shower rain', '09'], storm: [211, 'Thunderstorm', 'thunderstorm', '11'],
  lightSnow: [600, 'Snow', 'light snow', '13'], snow: [601, 'Snow', 'snow', '13'],
  mist: [701, 'Mist', 'mist', '50'], haze: [721, 'Haze', 'haze', '50'], fog: [741, 'Fog', 'fog', '50'],
};

// prettier-ignore
const CLOUD_RANGE: Record<string, [number, number]> = {
  clear: [0, 10], few: [11, 25], scattered: [25, 50], broken: [51, 84], overcast: [85, 100],
};

/**
 * A place name begins with a letter ("St. John's", "Saint-Étienne", "東京"); OWM finds nothing
 * for `--help`, `123` or `.`.
 */
const PLACE_NAME = /^\p{L}/u;

/** The place a `q` names: a gazetteer entry, one placed near a real one, or undefined (404). */
function resolveCity(q: string): Place | undefined {
  const [cityPart = '', ...rest] = q.split(',').map((s) => s.trim());
  const city = normalizePlaceText(cityPart);
  if (!PLACE_NAME.test(cityPart)) return undefined;
  if (WEATHER_MAGIC.notFoundCities.some((n) => normalizePlaceText(n) === city)) return undefined;
  const country = rest.length > 0 ? rest[rest.length - 1]!.toUpperCase() : undefined;
  const state = rest.length > 1 ? normalizePlaceText(rest[0]!) : undefined;
  const named = placesNamed(city)
    .filter((p) => country === undefined || p.countryCode === country)
    .filter(
      (p) =>
        state === undefined || [p.region, p.regionCode ?? ''].some((r) => normalizePlaceText(r) === state),
    );
  if (named.length > 0) return named.reduce((a, b) => (b.population > a.population ? b : a));
  const rng = seededRandom('weather-place', city, country ?? '');
  const anchor = rng.pick(anchorsFor(cityPart, country));
  return {
    ...anchor,
    name: titleCase(cityPart),
    aliases: [],
    countryCode: country && /^[A-Z]{2}$/.test(country) ? country : anchor.countryCode,
    lat: round(anchor.lat + (rng.next() - 0.5) * 3, 4),
    lon: round(anchor.lon + (rng.next() - 0.5) * 3, 4),
    population: rng.int(1_500, 180_000),
    geonameId: 2_000_000 + (hashSeed(city) % 7_000_000),
    meanC: anchor.meanC + (rng.next() - 0.6) * 2,
    wetness: Math.min(0.9, Math.max(0.02, anchor.wetness + (rng.next() - 0.5) * 0.15)),
  };
}

function nearestPlace(lat: number, lon: number): Place {
  const d = (p: Place) => (p.lat - lat) ** 2 + ((p.lon - lon) * Math.cos((lat * Math.PI) / 180)) ** 2;
  const near = PLACES.reduce((a, b) => (d(b) < d(a) ? b : a));
  return { ...near, lat, lon };
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function dayOfYear(ms: number): number {
  const d = new Date(ms);
  return Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
}

/** Sunrise and sunset (Unix seconds) on the local calendar day of `atMs`, from declination. */
function sunTimes(place: Place, atMs: number): { sunrise: number; sunset: number } {
  const local = new Date(atMs + utcOffsetSeconds(place.timeZone, atMs) * 1000);
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const decl = (-23.44 * Math.cos((2 * Math.PI * (dayOfYear(day) + 10)) / 365) * Math.PI) / 180;
  const cosW = -Math.tan((place.lat * Math.PI) / 180) * Math.tan(decl);
  const halfDayH = (Math.acos(Math.min(1, Math.max(-1, cosW))) * 180) / Math.PI / 15;
  const noonH = 12 - place.lon / 15;
  return {
    sunrise: Math.round((day + (noonH - halfDayH) * HOUR_MS) / 1000),
    sunset: Math.round((day + (noonH + halfDayH) * HOUR_MS) / 1000),
  };
}

function dayAnomaly(key: string, dayIndex: number): number {
  const r = seededRandom('anomaly', key, dayIndex);
  return (r.next() + r.next() + r.next() - 1.5) * 3;
}

type ConditionInputs = { shift: string; tempC: number; isDay: boolean; humidity: number; wetness: number };
/** The sample's condition (a key of CONDITIONS) for its regime, temperature and light. */
function conditionName(rng: SeededRandom, d: ConditionInputs): string {
  const { shift, tempC, isDay, humidity, wetness } = d;
  if (shift === 'wet') {
    const r = rng.next();
    if (tempC < 0.5) return r < 0.6 ? 'lightSnow' : 'snow';
    if (tempC > 24 && r < 0.3) return 'storm';
    return r < 0.5 ? 'lightRain' : r < 0.7 ? 'rain' : r < 0.85 ? 'shower' : 'drizzle';
  }
  if (shift === 'cloudy') return rng.pick(['scattered', 'broken', 'overcast', 'broken'] as const);
  if (!isDay && humidity > 88) return rng.next() < 0.7 ? 'mist' : 'fog';
  if (wetness < 0.1 && rng.next() < 0.15) return 'haze';
  return rng.next() < 0.7 ? 'clear' : 'few';
}

/** The weather at one place and instant; the same inputs always give the same sample. */
function sampleWeather(place: Place, atMs: number): Sample {
  const key = `${place.name}|${place.lat}|${place.lon}`;
  const offsetMs = utcOffsetSeconds(place.timeZone, atMs) * 1000;
  const localMs = atMs + offsetMs;
  const localHour = (localMs % DAY_MS) / HOUR_MS;
  const dayIndex = Math.floor(localMs / DAY_MS);
  const dayRng = seededRandom('regime', key, dayIndex);
  const slotRng = seededRandom('slot', key, Math.floor(atMs / SLOT_MS));
  const regimeRoll = dayRng.next();
  const regime =
    regimeRoll < place.wetness * 0.65 ? 'wet' : regimeRoll < place.wetness * 0.65 + 0.35 ? 'cloudy' : 'clear';
  const shift =
    slotRng.next() < 0.25 ? (regime === 'clear' ? 'cloudy' : regime === 'wet' ? 'cloudy' : 'clear') : regime;
  const seasonal =
    (place.lat >= 0 ? -1 : 1) * place.swingC * Math.cos((2 * Math.PI * (dayOfYear(localMs) - 15)) / 365.25);
  const frac = localHour / 24;
  const anomaly = dayAnomaly(key, dayIndex) * (1 - frac) + dayAnomaly(key, dayIndex + 1) * frac;
  const damp = shift === 'clear' ? 1 : shift === 'cloudy' ? 0.7 : 0.45;
  const diurnal = (3 + 4 * (1 - place.wetness)) * damp * Math.cos((2 * Math.PI * (localHour - 15)) / 24);
  const tempC = place.meanC + seasonal + anomaly + diurnal + (slotRng.next() - 0.5) * 0.6;
  const wet = shift === 'wet';
  const humidity = Math.round(
    Math.min(
      100,
      Math.max(12, 38 + place.wetness * 35 + (wet ? 22 : 0) - diurnal * 2 + (slotRng.next() - 0.5) * 12),
    ),
  );
  const { sunrise, sunset } = sunTimes(place, atMs);
  const isDay = atMs / 1000 >= sunrise && atMs / 1000 < sunset;

  const name = conditionName(slotRng, { shift, tempC, isDay, humidity, wetness: place.wetness });
  const [id, main, description, icon] = CONDITIONS[name]!;
  const [cMin, cMax] = CLOUD_RANGE[name] ?? (wet ? [75, 100] : [20, 75]);
  const windMs = round(0.8 + slotRng.next() * 4 + (wet ? 2.5 : 0) + (Math.abs(place.lat) > 45 ? 1 : 0));
  const windKmh = windMs * 3.6;
  const vapour = (humidity / 100) * 6.105 * Math.exp((17.27 * tempC) / (237.7 + tempC));
  const feelsC =
    tempC <= 10 && windKmh > 4.8
      ? 13.12 + 0.6215 * tempC - 11.37 * windKmh ** 0.16 + 0.3965 * tempC * windKmh ** 0.16
      : tempC + 0.33 * vapour - 0.7 * windMs - 4;
  return {
    tempC,
    feelsC: tempC > 10 ? Math.max(feelsC, tempC - 3) : feelsC,
    humidity,
    pressure: Math.round(1013 + anomaly * 1.5 - (wet ? 8 : 0) + (slotRng.next() - 0.5) * 6),
    windMs,
    windDeg: slotRng.int(0, 359),
    gustMs: windMs > 4 ? round(windMs * (1.3 + slotRng.next() * 0.5)) : undefined,
    clouds: slotRng.int(cMin, cMax),
    visibility:
      name === 'fog'
        ? slotRng.int(200, 999)
        : name === 'mist'
          ? slotRng.int(2000, 5000)
          : wet
            ? slotRng.int(6000, 10000)
            : 10000,
    pop: wet ? round(0.55 + slotRng.next() * 0.45) : shift === 'cloudy' ? round(slotRng.next() * 0.3) : 0,
    precipMm: wet ? round(0.1 + slotRng.next() * (name === 'rain' || name === 'storm' ? 6 : 1.5)) : 0,
    condition: { id, main, description, icon: `${icon}${isDay ? 'd' : 'n'}` },
    isDay,
  };
}

function temp(c: number, units: Units): number {
  return round(units === 'metric' ? c : units === 'imperial' ? (c * 9) / 5 + 32 : c + 273.15);
}

function speed(ms: number, units: Units): number {
  return round(units === 'imperial' ? ms * 2.23694 : ms);
}

function mainBlock(place: Place, s: Sample, units: Units, spread: number) {
  const groundDrop = hashSeed('ground', place.name, place.lat) % 80;
  return {
    temp: temp(s.tempC, units),
    feels_like: temp(s.feelsC, units),
    temp_min: temp(s.tempC - spread, units),
    temp_max: temp(s.tempC + spread, units),
    pressure: s.pressure,
    humidity: s.humidity,
    sea_level: s.pressure,
    grnd_level: s.pressure - groundDrop,
  };
}

function windBlock(s: Sample, units: Units) {
  return {
    speed: speed(s.windMs, units),
    deg: s.windDeg,
    ...(s.gustMs === undefined ? {} : { gust: speed(s.gustMs, units) }),
  };
}

function precipBlock(s: Sample, window: '1h' | '3h') {
  if (s.precipMm === 0) return {};
  return s.condition.main === 'Snow'
    ? { snow: { [window]: s.precipMm } }
    : { rain: { [window]: s.precipMm } };
}

function currentBody(place: Place, units: Units, nowMs: number): Record<string, unknown> {
  const dt = Math.floor(nowMs / 600_000) * 600 - 120;
  const s = sampleWeather(place, dt * 1000);
  const { sunrise, sunset } = sunTimes(place, dt * 1000);
  return {
    coord: { lon: round(place.lon, 4), lat: round(place.lat, 4) },
    weather: [s.condition],
    base: 'stations',
    main: mainBlock(place, s, units, 0.4 + (hashSeed(place.name, dt) % 150) / 100),
    visibility: s.visibility,
    wind: windBlock(s, units),
    ...precipBlock(s, '1h'),
    clouds: { all: s.clouds },
    dt,
    sys: {
      type: 2,
      id: 2_000_000 + (hashSeed('station', place.geonameId) % 90_000),
      country: place.countryCode,
      sunrise,
      sunset,
    },
    timezone: utcOffsetSeconds(place.timeZone, dt * 1000),
    id: place.geonameId,
    name: place.name,
    cod: 200,
  };
}

function forecastBody(place: Place, units: Units, nowMs: number, cnt: number): Record<string, unknown> {
  const first = Math.ceil(nowMs / SLOT_MS) * SLOT_MS;
  const list = Array.from({ length: cnt }, (_, i) => {
    const at = first + i * SLOT_MS;
    const s = sampleWeather(place, at);
    const kf = round((hashSeed('kf', place.name, at) % 200) / 100 - 1);
    return {
      dt: at / 1000,
      main: { ...mainBlock(place, s, units, Math.abs(kf) / 2), temp_kf: kf },
      weather: [s.condition],
      clouds: { all: s.clouds },
      wind: windBlock(s, units),
      visibility: s.visibility,
      pop: s.pop,
      ...precipBlock(s, '3h'),
      sys: { pod: s.isDay ? 'd' : 'n' },
      dt_txt: new Date(at).toISOString().slice(0, 19).replace('T', ' '),
    };
  });
  return {
    cod: '200',
    message: 0,
    cnt,
    list,
    city: {
      id: place.geonameId,
      name: place.name,
      coord: { lat: round(place.lat, 4), lon: round(place.lon, 4) },
      country: place.countryCode,
      population: place.population,
      timezone: utcOffsetSeconds(place.timeZone, nowMs),
      ...sunTimes(place, nowMs),
    },
  };
}

/** Where a request points: a place, or OWM's error answer. */
function locate(url: URL): Place | Response {
  const q = url.searchParams.get('q');
  if (q !== null && q.trim() !== '') {
    const key = magicKey(q);
    if (key === WEATHER_MAGIC.rateLimitedCity) return raw(429, BLOCKED);
    if (key === WEATHER_MAGIC.errorCity) return owmError(500, 'Internal error');
    return resolveCity(q) ?? owmError(404, 'city not found');
  }
  const lat = url.searchParams.get('lat');
  const lon = url.searchParams.get('lon');
  if (lat === null && lon === null) return owmError(400, 'Nothing to geocode');
  const la = Number(lat);
  const lo = Number(lon);
  if (lat === null || lat.trim() === '' || !(Math.abs(la) <= 90)) return owmError(400, 'wrong latitude');
  if (lon === null || lon.trim() === '' || !(Math.abs(lo) <= 180)) return owmError(400, 'wrong longitude');
  return nearestPlace(la, lo);
}

export function weatherHandlers(opts: WeatherHandlerOptions = {}): RequestHandler[] {
  const now = opts.now ?? Date.now;
  const answer =
    (kind: 'weather' | 'forecast') =>
    ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      const key = url.searchParams.get('appid');
      if (!key || (opts.credential !== undefined && key !== opts.credential)) return raw(401, INVALID_KEY);
      const place = locate(url);
      if (place instanceof Response) return place;
      const unitsParam = url.searchParams.get('units');
      // OWM ignores a units value it does not know and answers in standard units.
      const units: Units = unitsParam === 'metric' || unitsParam === 'imperial' ? unitsParam : 'standard';
      const cnt = Number(url.searchParams.get('cnt'));
      const body =
        kind === 'weather'
          ? currentBody(place, units, now())
          : forecastBody(place, units, now(), Number.isInteger(cnt) && cnt >= 1 && cnt <= 40 ? cnt : 40);
      // A header carries bytes only: the city stays percent-encoded, as in the request (東京, Tōkyō).
      const q = encodeURIComponent((url.searchParams.get('q') ?? '').toLowerCase());
      const cacheKey = `${url.pathname.replace(/^.*\/data\/2\.5/, '/data/2.5')}?q=${q}&units=${units}`;
      return HttpResponse.json(body, {
        headers: { ...JSON_HEADERS, 'x-cache-key': cacheKey, 'access-control-allow-origin': '*' },
      });
    };
  return [
    http.get(route('weather', '/weather'), answer('weather')),
    http.get(route('weather', '/forecast'), answer('forecast')),
  ];
}
