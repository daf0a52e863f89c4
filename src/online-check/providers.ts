// `--check --online`'s provider calls: one cheap, read-only operation per service herald uses for
// real, through its own client (so the same base URL, credentials and carriers as every command).
// Nothing is sent, posted or spent beyond one lookup: email reads an id that does not exist, speech
// lists the voices, the others look up one well-known place, address or word.
import type { Config } from '../config/index.ts';
import { SERVICE_KEYS, type ServiceKey } from '../domain/services.ts';
import { ServiceError } from '../errors.ts';
import type { ServicePlan } from '../sandbox/resolve.ts';
import { closeServices, createServices, type Services } from '../services/index.ts';
import type { CheckLine } from './lines.ts';

type Probe = (services: Services, config: Config) => Promise<unknown> | undefined;

const PROBES: Readonly<Record<Exclude<ServiceKey, 'webhook'>, Probe>> = {
  email: (s) => s.email?.get('00000000-0000-4000-8000-000000000000'),
  analytics: (s) =>
    s.analytics?.runReport({
      dimensions: ['date'],
      metrics: ['activeUsers'],
      dateRanges: [{ startDate: 'today', endDate: 'today' }],
      limit: 1,
    }),
  weather: (s) => s.weather?.current({ city: 'London' }),
  geocoding: (s) => s.geocoding?.forward({ query: 'London', limit: 1 }),
  speech: (s) => s.speech?.voices(),
  hostscan: (s) => s.hostscan?.host('8.8.8.8'),
  jobSearch: (s, config) =>
    s.jobSearch?.search({
      country: config.services.jobSearch?.country ?? 'gb',
      page: 1,
      what: 'developer',
      resultsPerPage: 1,
    }),
};

function fixFor(err: unknown, key: ServiceKey, config: Config, origin: string): string {
  if (!(err instanceof ServiceError)) return `failed: ${err instanceof Error ? err.message : String(err)}`;
  const answered = `answered ${err.code}${err.status === undefined ? '' : ` (HTTP ${err.status})`}`;
  switch (err.code) {
    case 'unauthorized':
    case 'forbidden':
      return `${answered}: the credentials were refused; set ${config.serviceVariables[key]} to valid ones`;
    case 'rate_limited':
      return `${answered}: the credentials work, but the provider's limit or quota is used up for now`;
    case 'network':
    case 'timeout':
    case 'unavailable':
      return `could not reach ${origin} (${err.code}): check its base URL and the network`;
    default:
      return `${answered}: run the check again; if it stays, see docs/SERVICES.md for this service`;
  }
}

/** One line per service: checked when real, else what it is (simulated, disabled). */
export async function checkProviders(config: Config, plan: ServicePlan): Promise<CheckLine[]> {
  const real = SERVICE_KEYS.filter((k) => k !== 'webhook' && plan.modes[k] === 'real');
  const services = createServices(
    Object.fromEntries(real.map((k) => [k, config.services[k]])),
    {},
    // One call, no retries, no provider rate budget: a check, not traffic.
    Object.fromEntries(real.map((k) => [k, { maxRetries: 0, providerRateLimit: false }])),
  );
  try {
    return await Promise.all(
      SERVICE_KEYS.filter((k) => k !== 'webhook').map(async (key): Promise<CheckLine> => {
        const item = `service ${key}`;
        if (plan.modes[key] !== 'real')
          return { status: 'note', item, text: `${plan.modes[key]}: nothing to check` };
        const origin = new URL(config.services[key]!.baseUrl).origin;
        try {
          await PROBES[key](services, config);
          return { status: 'ok', item, text: `the credentials work (${origin})` };
        } catch (err) {
          return { status: 'fail', item, text: fixFor(err, key, config, origin) };
        }
      }),
    );
  } finally {
    await closeServices(services);
  }
}
