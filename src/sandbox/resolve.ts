// Which services the built-in simulator answers, and the client
// configs that follow. SANDBOX=auto simulates only while no chat platform is configured, so a
// real chat never gets made-up data; on simulates everything; off nothing.
import type { Config, ServiceConfigs } from '../config/index.ts';
import { SERVICE_KEYS, type ServiceKey } from '../domain/services.ts';
import { DEFAULT_JOB_COUNTRY } from '../domain/job-countries.ts';
import { DEFAULT_SPEECH_MODEL_ID } from '../domain/speech.ts';
import { sandboxBaseUrl } from './layout.ts';

export type ServiceMode = 'real' | 'simulated' | 'disabled';

export interface ServicePlan {
  modes: Readonly<Record<ServiceKey, ServiceMode>>;
  real: readonly ServiceKey[];
  simulated: readonly ServiceKey[];
  disabled: readonly ServiceKey[];
}

/** The one credential the simulator accepts; the sandbox is on loopback and holds no real data. */
export const SANDBOX_CREDENTIAL = 'herald-sandbox-credential';

export type PlanInput = Pick<Config, 'sandbox' | 'services' | 'discord' | 'slack'>;

export function planServices(config: PlanInput): ServicePlan {
  const hasPlatform = config.discord !== undefined || config.slack !== undefined;
  const modes = {} as Record<ServiceKey, ServiceMode>;
  for (const key of SERVICE_KEYS) {
    const hasCredentials = config.services[key] !== undefined;
    if (config.sandbox === 'on') modes[key] = 'simulated';
    else if (hasCredentials) modes[key] = 'real';
    else if (config.sandbox === 'auto' && !hasPlatform) modes[key] = 'simulated';
    else modes[key] = 'disabled';
  }
  const having = (mode: ServiceMode) => SERVICE_KEYS.filter((key) => modes[key] === mode);
  return { modes, real: having('real'), simulated: having('simulated'), disabled: having('disabled') };
}

/**
 * The configs to build clients from: real services keep theirs, simulated ones point at the
 * sandbox at `sandboxOrigin` with the sandbox credential (keeping non-secret settings such as the
 * sender or the speech model), disabled ones are absent.
 */
export function resolveServiceConfigs(
  config: Pick<Config, 'services'> & Partial<Pick<Config, 'jobsCountry' | 'speechModelId'>>,
  plan: ServicePlan,
  sandboxOrigin: string | undefined,
): ServiceConfigs {
  const out: ServiceConfigs = {};
  const own = config.services;
  for (const key of plan.real) Object.assign(out, { [key]: own[key] });
  if (plan.simulated.length === 0) return out;
  if (sandboxOrigin === undefined) throw new Error('simulated services need the sandbox origin');
  const base = (key: ServiceKey): string => sandboxBaseUrl(sandboxOrigin, key);
  const simulated: Required<ServiceConfigs> = {
    email: {
      baseUrl: base('email'),
      accessToken: SANDBOX_CREDENTIAL,
      from: own.email?.from ?? 'herald <herald@sandbox.invalid>',
    },
    analytics: {
      baseUrl: base('analytics'),
      accessToken: SANDBOX_CREDENTIAL,
      propertyId: own.analytics?.propertyId ?? '123456789',
    },
    weather: { baseUrl: base('weather'), apiKey: SANDBOX_CREDENTIAL },
    geocoding: {
      baseUrl: base('geocoding'),
      apiKey: SANDBOX_CREDENTIAL,
      dataset: own.geocoding?.dataset ?? 'mapbox.places',
    },
    // The defaults are loadConfig's: ElevenLabs' multilingual v2 model and its "Rachel" voice.
    speech: {
      baseUrl: base('speech'),
      apiKey: SANDBOX_CREDENTIAL,
      modelId: config.speechModelId ?? DEFAULT_SPEECH_MODEL_ID,
      voiceId: own.speech?.voiceId ?? '21m00Tcm4TlvDq8ikWAM',
    },
    hostscan: {
      baseUrl: base('hostscan'),
      apiKey: SANDBOX_CREDENTIAL,
      provider: own.hostscan?.provider ?? 'shodan',
    },
    webhook: { baseUrl: base('webhook'), id: '100000000000000001', token: SANDBOX_CREDENTIAL },
    jobSearch: {
      baseUrl: base('jobSearch'),
      appId: 'herald-sandbox',
      apiKey: SANDBOX_CREDENTIAL,
      country: config.jobsCountry ?? DEFAULT_JOB_COUNTRY,
    },
  };
  for (const key of plan.simulated) Object.assign(out, { [key]: simulated[key] });
  return out;
}
