// Builds the Services bag: one client per service whose config is present (credentials set, or
// pointed at the sandbox); a service without config stays absent and its commands are hidden.
import type { ServiceKey } from '../domain/services.ts';
import type { ServiceConfigs } from '../config/index.ts';
import type { ClientDeps } from './deps.ts';
import type { HttpOptions } from '../http/policy.ts';
import { createAnalyticsClient, type AnalyticsClient } from './analytics/client.ts';
import { createEmailClient, type EmailClient } from './email/client.ts';
import { createGeocodingClient, type GeocodingClient } from './geocoding/client.ts';
import { createHostscanClient, type HostscanClient } from './hostscan/client.ts';
import { createJobSearchClient, type JobSearchClient } from './job-search/client.ts';
import { createSpeechClient, type SpeechClient } from './speech/client.ts';
import { createWeatherClient, type WeatherClient } from './weather/client.ts';
import { type WebhookClient } from './webhook/client.ts';
import { createWebhookClient } from './webhook/discord-webhook.ts';

/** The client type of each service key. */
export interface ServiceClients {
  email: EmailClient;
  analytics: AnalyticsClient;
  weather: WeatherClient;
  geocoding: GeocodingClient;
  speech: SpeechClient;
  hostscan: HostscanClient;
  webhook: WebhookClient;
  jobSearch: JobSearchClient;
}

/** A client per configured service; a service without config is absent. */
export type Services = { [K in ServiceKey]?: ServiceClients[K] };

/**
 * `perService` adds HTTP options for single services, e.g. the provider's rate limit for the real
 * upstreams and not for the simulated ones.
 */
export function createServices(
  configs: ServiceConfigs,
  deps: ClientDeps = {},
  perService: Partial<Record<ServiceKey, Partial<HttpOptions>>> = {},
): Services {
  const d = (key: ServiceKey): ClientDeps => {
    const extra = perService[key];
    return extra ? { ...deps, httpOptions: { ...deps.httpOptions, ...extra } } : deps;
  };
  const services: Services = {};
  if (configs.email) services.email = createEmailClient(configs.email, d('email'));
  if (configs.analytics) services.analytics = createAnalyticsClient(configs.analytics, d('analytics'));
  if (configs.weather) services.weather = createWeatherClient(configs.weather, d('weather'));
  if (configs.geocoding) services.geocoding = createGeocodingClient(configs.geocoding, d('geocoding'));
  if (configs.speech) services.speech = createSpeechClient(configs.speech, d('speech'));
  if (configs.hostscan) services.hostscan = createHostscanClient(configs.hostscan, d('hostscan'));
  if (configs.webhook) services.webhook = createWebhookClient(configs.webhook, d('webhook'));
  if (configs.jobSearch) services.jobSearch = createJobSearchClient(configs.jobSearch, d('jobSearch'));
  return services;
}

/** Closes every client's connection pool; one failing close does not stop the others. */
export async function closeServices(services: Services): Promise<void> {
  const clients = Object.values(services).filter((c) => c !== undefined);
  const results = await Promise.allSettled(clients.map((c) => c.close()));
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length > 0) {
    throw new AggregateError(
      failed.map((r): unknown => r.reason),
      `${failed.length} of ${clients.length} service clients failed to close`,
    );
  }
}
