// Every field a command echoes, user-typed or upstream-supplied: the command and input that echo
// it, and fake services (plain objects typed by the client interfaces) that put the payload there.
import type { Services } from '../../src/core/services.ts';
import type { EmailClient, EmailRecord, SendEmailInput } from '../../src/services/email/client.ts';
import type { GeocodeMatch, GeocodingClient } from '../../src/services/geocoding/client.ts';
import type { HostRecord, HostscanClient } from '../../src/services/hostscan/client.ts';
import type { JobListing, JobSearchClient } from '../../src/services/job-search/client.ts';
import type { SpeechClient, Voice } from '../../src/services/speech/client.ts';
import type { CurrentWeather, Forecast, WeatherClient } from '../../src/services/weather/client.ts';

const closed = { close: () => Promise.resolve() };
/** An ID3 header then an MPEG-1 Layer III frame header: enough to look like an mp3. */
export const MP3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0xff, 0xfb, 0x90, 0x64, 0x00, 0x0f]);
export const EMAIL_ID = '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794';

/** What the fakes were asked to send, for the assertions on email HTML. */
export interface Sent {
  emails: SendEmailInput[];
}

export interface EchoCase {
  field: string;
  command: string;
  input(payload: string): Record<string, unknown>;
  services(payload: string, sent: Sent): Services;
  /** False when the reply does not show the field (the email body only goes into the email). */
  isShown?: boolean;
  /** The field goes into the HTML body of the email sent. */
  isInEmailHtml?: boolean;
}

function current(city: string, description = 'light rain'): CurrentWeather {
  return {
    city,
    country: 'FR',
    units: 'metric',
    temp: 12.3,
    feelsLike: 11.1,
    humidity: 81,
    windSpeed: 4.1,
    conditions: [{ main: 'Rain', description }],
    observedAt: new Date('2026-11-22T09:50:00Z'),
    timezoneOffsetS: 3600,
  };
}

function forecast(city: string): Forecast {
  const start = Date.parse('2026-11-22T12:00:00Z');
  return {
    city,
    country: 'FR',
    units: 'metric',
    timezoneOffsetS: 3600,
    steps: Array.from({ length: 16 }, (_, i) => ({
      at: new Date(start + i * 3 * 3_600_000),
      temp: 8 + (i % 8),
      conditions: [{ main: i % 3 === 0 ? 'Clouds' : 'Rain', description: 'overcast clouds' }],
    })),
  };
}

function weatherService(answer: { current?: CurrentWeather; forecast?: Forecast }): WeatherClient {
  return {
    ...closed,
    current: () => Promise.resolve(answer.current),
    forecast: () => Promise.resolve(answer.forecast),
  };
}

const PARIS: GeocodeMatch = {
  placeName: 'Paris, Île-de-France, France',
  longitude: 2.35183,
  latitude: 48.85658,
  placeType: ['place'],
  relevance: 1,
};

function geocodingService(match: GeocodeMatch): GeocodingClient {
  return { ...closed, forward: () => Promise.resolve([match]) };
}

function listing(over: Partial<JobListing> = {}): JobListing {
  return {
    id: '4812233141',
    title: 'Senior Rust Developer',
    company: 'Ferrous Systems',
    location: 'Shoreditch, London',
    salaryMin: 65_000,
    salaryMax: 85_000,
    salaryIsPredicted: false,
    created: new Date('2026-11-19T08:12:00Z'),
    url: 'https://www.adzuna.co.uk/jobs/details/4812233141',
    contractTime: 'full_time',
    contractType: 'permanent',
    ...over,
  };
}

function jobsService(job: JobListing): JobSearchClient {
  return {
    ...closed,
    search: () => Promise.resolve({ count: 12, results: [job], meanSalary: 71_250 }),
  };
}

function host(over: Partial<HostRecord> = {}): HostRecord {
  return {
    ip: '8.8.8.8',
    org: 'Google LLC',
    countryName: 'United States',
    hostnames: ['dns.google'],
    ports: [53, 443],
    vulns: [],
    services: [
      { port: 53, transport: 'udp', product: 'Google DNS', version: undefined },
      { port: 443, transport: 'tcp', product: 'Google Frontend', version: '2.0' },
    ],
    lastUpdate: new Date('2026-11-21T04:31:07Z'),
    asn: 'AS15169',
    ...over,
  };
}

function hostService(record: HostRecord): HostscanClient {
  return { ...closed, host: () => Promise.resolve(record) };
}

function voice(name: string): Voice {
  return {
    id: '21m00Tcm4TlvDq8ikWAM',
    name,
    category: 'premade',
    labels: { accent: 'american', age: 'young', gender: 'female', use_case: 'narration' },
    previewUrl: 'https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00/preview.mp3',
  };
}

function speechService(voices: Voice[]): SpeechClient {
  return {
    ...closed,
    voices: () => Promise.resolve(voices),
    synthesize: () => Promise.resolve({ bytes: MP3, contentType: 'audio/mpeg' }),
  };
}

function emailService(sent: Sent, record?: EmailRecord): EmailClient {
  return {
    ...closed,
    send: (input) => {
      sent.emails.push(input);
      return Promise.resolve({ id: EMAIL_ID });
    },
    get: () => Promise.resolve(record),
  };
}

const SEND = { to: 'ops@example.com', subject: 'Deploy done', body: 'The release is live.' };

export const ECHO_CASES: readonly EchoCase[] = [
  // What the invoker typed.
  {
    field: '/weather city (typed)',
    command: 'weather',
    input: (p) => ({ city: p }),
    services: () => ({ weather: weatherService({}) }),
  },
  {
    field: '/forecast city (typed)',
    command: 'forecast',
    input: (p) => ({ city: p }),
    services: () => ({ weather: weatherService({}) }),
  },
  {
    field: '/geocode query (typed)',
    command: 'geocode',
    input: (p) => ({ query: p }),
    services: () => ({ geocoding: geocodingService(PARIS) }),
  },
  {
    field: '/jobs what (typed)',
    command: 'jobs',
    input: (p) => ({ what: p }),
    services: () => ({ jobSearch: jobsService(listing()) }),
  },
  {
    field: '/jobs where (typed)',
    command: 'jobs',
    input: (p) => ({ what: 'rust developer', where: p }),
    services: () => ({ jobSearch: jobsService(listing()) }),
  },
  {
    field: '/say text (typed)',
    command: 'say',
    input: (p) => ({ text: p }),
    services: () => ({ speech: speechService([voice('Rachel')]) }),
  },
  {
    field: '/say voice (typed, unknown)',
    command: 'say',
    input: (p) => ({ text: 'Good morning', voice: p }),
    services: () => ({ speech: speechService([voice('Rachel')]) }),
  },
  {
    field: '/email send subject (typed)',
    command: 'email send',
    input: (p) => ({ ...SEND, subject: p }),
    services: (_p, sent) => ({ email: emailService(sent) }),
  },
  {
    field: '/email send body (typed)',
    command: 'email send',
    input: (p) => ({ ...SEND, body: `Hello team,\n\n${p}\nThanks` }),
    services: (_p, sent) => ({ email: emailService(sent) }),
    isShown: false,
    isInEmailHtml: true,
  },
  {
    field: '/email send to (typed, invalid)',
    command: 'email send',
    input: (p) => ({ ...SEND, to: p }),
    services: (_p, sent) => ({ email: emailService(sent) }),
  },
  // What the upstream sent.
  {
    field: 'weather city name (S3)',
    command: 'weather',
    input: () => ({ city: 'Paris' }),
    services: (p) => ({ weather: weatherService({ current: current(p) }) }),
  },
  {
    field: 'weather conditions (S3)',
    command: 'weather',
    input: () => ({ city: 'Paris' }),
    services: (p) => ({ weather: weatherService({ current: current('Paris', p) }) }),
  },
  {
    field: 'forecast city name (S3)',
    command: 'forecast',
    input: () => ({ city: 'Paris' }),
    services: (p) => ({ weather: weatherService({ forecast: forecast(p) }) }),
  },
  {
    field: 'geocode place_name (S4)',
    command: 'geocode',
    input: () => ({ query: 'Paris' }),
    services: (p) => ({ geocoding: geocodingService({ ...PARIS, placeName: p }) }),
  },
  {
    field: 'job title (S8)',
    command: 'jobs',
    input: () => ({ what: 'rust developer' }),
    services: (p) => ({ jobSearch: jobsService(listing({ title: p })) }),
  },
  {
    field: 'job company (S8)',
    command: 'jobs',
    input: () => ({ what: 'rust developer' }),
    services: (p) => ({ jobSearch: jobsService(listing({ company: p })) }),
  },
  {
    field: 'job location (S8)',
    command: 'jobs',
    input: () => ({ what: 'rust developer' }),
    services: (p) => ({ jobSearch: jobsService(listing({ location: p })) }),
  },
  {
    field: 'host org (S6)',
    command: 'host',
    input: () => ({ ip: '8.8.8.8' }),
    services: (p) => ({ hostscan: hostService(host({ org: p })) }),
  },
  {
    field: 'host hostnames (S6)',
    command: 'host',
    input: () => ({ ip: '8.8.8.8' }),
    services: (p) => ({ hostscan: hostService(host({ hostnames: [p, 'dns.google'] })) }),
  },
  {
    field: 'host product (S6)',
    command: 'host',
    input: () => ({ ip: '8.8.8.8' }),
    services: (p) => ({
      hostscan: hostService(
        host({ services: [{ port: 443, transport: 'tcp', product: p, version: '1.18.0' }] }),
      ),
    }),
  },
  {
    field: 'voice names in /voices (S5)',
    command: 'voices',
    input: () => ({}),
    services: (p) => ({
      speech: speechService([voice(p), { ...voice('Adam'), id: 'pNInz6obpgDQGcFmaJgB' }]),
    }),
  },
  {
    field: 'voice name picked by /say (S5)',
    command: 'say',
    input: (p) => ({ text: 'Good morning', voice: p }),
    services: (p) => ({ speech: speechService([voice(p)]) }),
  },
  {
    field: 'email subject in /email status (S1)',
    command: 'email status',
    input: () => ({ id: EMAIL_ID }),
    services: (p, sent) => ({
      email: emailService(sent, {
        id: EMAIL_ID,
        from: 'herald <herald@example.com>',
        to: ['ops@example.com'],
        subject: p,
        createdAt: new Date('2026-11-22T09:58:00Z'),
        lastEvent: 'delivered',
      }),
    }),
  },
];
