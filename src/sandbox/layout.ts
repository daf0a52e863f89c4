// Where each simulated service lives on the one sandbox server. Each prefix carries the same
// path segments as the provider's base URL (docs/SERVICES.md), so clients build the same paths.

import type { ServiceKey } from '../domain/services.ts';

export type SandboxService = ServiceKey;

export const SANDBOX_PREFIXES: Readonly<Record<SandboxService, string>> = {
  email: '/email',
  analytics: '/analytics/v1beta',
  weather: '/weather/data/2.5',
  geocoding: '/geocoding-api',
  speech: '/speech/v1',
  hostscan: '/hostscan',
  webhook: '/webhook/api/webhooks',
  jobSearch: '/jobs/v1/api',
};

/** The base URL a client uses to reach a service on a sandbox server at `origin`. */
export function sandboxBaseUrl(origin: string, service: SandboxService): string {
  return origin + SANDBOX_PREFIXES[service];
}

/** The msw path pattern for a route of a service, matching any origin. */
export function route(service: SandboxService, path: string): string {
  return `*${SANDBOX_PREFIXES[service]}${path}`;
}

/** Options every service's handler factory takes. */
export interface HandlerOptions {
  /**
   * The credential the fake accepts (API key, access token, app_key, webhook token). When unset,
   * any non-empty credential is accepted; a missing or wrong one gets the provider's 401.
   */
  credential?: string;
}

/**
 * The key a magic input is compared by: trimmed, lower case, and `sandbox:busy` read as
 * `sandbox-busy` (the hyphen form needs no quotes in chat, where `name:value` is an option).
 */
export function magicKey(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/^sandbox:/, 'sandbox-');
}
