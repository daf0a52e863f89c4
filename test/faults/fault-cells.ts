// The fault matrix's cells, shared by fault-matrix.test.ts and sentinel.test.ts: every command with
// valid input, each upstream operation it calls, and the loopback fake and client configs that
// accept one credential per service (so that a leak names its source).
import type { RequestHandler } from 'msw';
import type { CommandSettings } from '../../commands/index.ts';
import type { ServiceConfigs } from '../../src/config/index.ts';
import type { Actor } from '../../src/core/actor.ts';
import { analyticsHandlers } from '../../src/sandbox/analytics.ts';
import { emailHandlers } from '../../src/sandbox/email.ts';
import { geocodingHandlers } from '../../src/sandbox/geocoding.ts';
import { hostscanHandlers } from '../../src/sandbox/hostscan.ts';
import { jobSearchHandlers } from '../../src/sandbox/job-search.ts';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { speechHandlers } from '../../src/sandbox/speech.ts';
import { weatherHandlers } from '../../src/sandbox/weather.ts';
import { webhookHandlers } from '../../src/sandbox/webhook.ts';
import { FAULTS, type FaultName, type Upstream } from './faults.ts';

/** One credential per variable, so that a leak names its source. */
export interface Credentials {
  emailToken: string;
  analyticsToken: string;
  weatherKey: string;
  geocodingKey: string;
  speechKey: string;
  hostscanKey: string;
  webhookToken: string;
  jobsAppId: string;
  jobsApiKey: string;
}

export const UPSTREAMS = {
  weatherCurrent: { service: 'weather', operation: 'current', method: 'get', path: '/weather', body: 'json' },
  weatherForecast: {
    service: 'weather',
    operation: 'forecast',
    method: 'get',
    path: '/forecast',
    body: 'json',
  },
  geocodingForward: {
    service: 'geocoding',
    operation: 'forward',
    method: 'get',
    path: '/geocoding/v5/:dataset/:query',
    body: 'json',
  },
  hostscanHost: {
    service: 'hostscan',
    operation: 'host',
    method: 'get',
    path: '/:provider/host/:ip',
    body: 'json',
  },
  jobSearch: {
    service: 'jobSearch',
    operation: 'search',
    method: 'get',
    path: '/jobs/:country/search/:page',
    body: 'json',
  },
  speechVoices: { service: 'speech', operation: 'voices', method: 'get', path: '/voices', body: 'json' },
  speechSynthesize: {
    service: 'speech',
    operation: 'synthesize',
    method: 'post',
    path: '/text-to-speech/:voiceId',
    body: 'audio',
  },
  emailSend: { service: 'email', operation: 'send', method: 'post', path: '/emails', body: 'json' },
  emailGet: { service: 'email', operation: 'get', method: 'get', path: '/emails/:id', body: 'json' },
  analyticsRunReport: {
    service: 'analytics',
    operation: 'runReport',
    method: 'post',
    path: '/properties/:resource',
    body: 'json',
  },
  webhookPost: { service: 'webhook', operation: 'post', method: 'post', path: '/:id/:token', body: 'empty' },
} as const satisfies Record<string, Upstream>;

/** A command with valid input, as a person types it, and the upstream calls it makes. */
export interface CommandCase {
  label: string;
  command: string;
  text: string;
  upstreams: readonly Upstream[];
}

/** Every entry of buildCommands except /help, which calls no upstream. */
export const COMMAND_CASES: readonly CommandCase[] = [
  {
    label: '/weather',
    command: 'weather',
    text: 'London units:metric',
    upstreams: [UPSTREAMS.weatherCurrent],
  },
  { label: '/forecast', command: 'forecast', text: '"Oslo,NO"', upstreams: [UPSTREAMS.weatherForecast] },
  {
    label: '/geocode',
    command: 'geocode',
    text: '"Eiffel Tower" limit:3',
    upstreams: [UPSTREAMS.geocodingForward],
  },
  { label: '/host', command: 'host', text: '8.8.8.8', upstreams: [UPSTREAMS.hostscanHost] },
  {
    label: '/jobs',
    command: 'jobs',
    text: 'what:"rust developer" where:Berlin country:de page:2',
    upstreams: [UPSTREAMS.jobSearch],
  },
  {
    label: '/say',
    command: 'say',
    text: '"Good morning, team" voice:Rachel',
    upstreams: [UPSTREAMS.speechVoices, UPSTREAMS.speechSynthesize],
  },
  {
    label: '/read-aloud',
    command: 'read-aloud',
    text: 'Good morning, team',
    upstreams: [UPSTREAMS.speechSynthesize],
  },
  { label: '/voices', command: 'voices', text: '', upstreams: [UPSTREAMS.speechVoices] },
  {
    label: '/email send',
    command: 'email',
    text: 'send ops@example.com "Deploy done" The release is live.',
    upstreams: [UPSTREAMS.emailSend],
  },
  {
    label: '/email status',
    command: 'email',
    text: 'status 49a3999c-0ce1-4ea6-ab68-afcd6dc2e794',
    upstreams: [UPSTREAMS.emailGet],
  },
  { label: '/report', command: 'report', text: '28d', upstreams: [UPSTREAMS.analyticsRunReport] },
];

export interface Cell {
  /** "/weather × weather.current × 503" */
  name: string;
  case: CommandCase;
  upstream: Upstream;
  fault: FaultName;
}

export function cellsOf(cases: readonly CommandCase[] = COMMAND_CASES): Cell[] {
  return cases.flatMap((c) =>
    c.upstreams.flatMap((upstream) =>
      FAULTS.map((fault) => ({
        name: `${c.label} × ${upstream.service}.${upstream.operation} × ${fault}`,
        case: c,
        upstream,
        fault,
      })),
    ),
  );
}

/** The sandbox's handlers, each service accepting only its own credential. */
export function fakeHandlers(creds: Credentials): RequestHandler[] {
  return [
    ...emailHandlers({ credential: creds.emailToken }),
    ...analyticsHandlers({ credential: creds.analyticsToken }),
    ...weatherHandlers({ credential: creds.weatherKey }),
    ...geocodingHandlers({ credential: creds.geocodingKey }),
    ...speechHandlers({ credential: creds.speechKey }),
    ...hostscanHandlers({ credential: creds.hostscanKey }),
    ...webhookHandlers({ credential: creds.webhookToken }),
    ...jobSearchHandlers({ credential: creds.jobsApiKey }),
  ];
}

export function serviceConfigs(origin: string, creds: Credentials): ServiceConfigs {
  return {
    email: {
      baseUrl: sandboxBaseUrl(origin, 'email'),
      accessToken: creds.emailToken,
      from: 'herald <herald@example.com>',
    },
    analytics: {
      baseUrl: sandboxBaseUrl(origin, 'analytics'),
      accessToken: creds.analyticsToken,
      propertyId: '123456789',
    },
    weather: { baseUrl: sandboxBaseUrl(origin, 'weather'), apiKey: creds.weatherKey },
    geocoding: {
      baseUrl: sandboxBaseUrl(origin, 'geocoding'),
      apiKey: creds.geocodingKey,
      dataset: 'mapbox.places',
    },
    speech: {
      baseUrl: sandboxBaseUrl(origin, 'speech'),
      apiKey: creds.speechKey,
      modelId: 'eleven_multilingual_v2',
      voiceId: '21m00Tcm4TlvDq8ikWAM',
    },
    hostscan: { baseUrl: sandboxBaseUrl(origin, 'hostscan'), apiKey: creds.hostscanKey, provider: 'shodan' },
    webhook: {
      baseUrl: sandboxBaseUrl(origin, 'webhook'),
      id: '1234567890123456789',
      token: creds.webhookToken,
    },
    jobSearch: {
      baseUrl: sandboxBaseUrl(origin, 'jobSearch'),
      appId: creds.jobsAppId,
      apiKey: creds.jobsApiKey,
      country: 'gb',
    },
  };
}

/** A Discord member on both allowlists: the ordinary path, not the operator's shortcut. */
export const ALLOWED_ACTOR: Actor = {
  platform: 'discord',
  id: '200000000000000001',
  displayName: 'ops-oncall',
  roles: ['300000000000000001'],
};

export const COMMAND_SETTINGS: CommandSettings = {
  access: {
    emailUsers: [ALLOWED_ACTOR.id],
    emailRoles: [],
    emailDomains: ['example.com'],
    hostUsers: [ALLOWED_ACTOR.id],
    hostRoles: [],
  },
  limits: { perUserPerMinute: 1_000, sayDailyChars: 100_000 },
  speechModelId: 'eleven_multilingual_v2',
  jobsCountry: 'gb',
};
