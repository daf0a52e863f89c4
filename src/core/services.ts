// The Services bag handed to commands and jobs: a client per configured service, absent when
// its credentials are not set. Types only, so that core never imports a service's code.
import type { EmailClient } from '../services/email/client.ts';
import type { AnalyticsClient } from '../services/analytics/client.ts';
import type { WeatherClient } from '../services/weather/client.ts';
import type { GeocodingClient } from '../services/geocoding/client.ts';
import type { SpeechClient } from '../services/speech/client.ts';
import type { HostscanClient } from '../services/hostscan/client.ts';
import type { WebhookClient } from '../services/webhook/client.ts';
import type { JobSearchClient } from '../services/job-search/client.ts';

export interface Services {
  email?: EmailClient;
  analytics?: AnalyticsClient;
  weather?: WeatherClient;
  geocoding?: GeocodingClient;
  speech?: SpeechClient;
  hostscan?: HostscanClient;
  webhook?: WebhookClient;
  jobSearch?: JobSearchClient;
}

export type ServiceKey = keyof Services;

export const SERVICE_KEYS: readonly ServiceKey[] = [
  'email',
  'analytics',
  'weather',
  'geocoding',
  'speech',
  'hostscan',
  'webhook',
  'jobSearch',
];
