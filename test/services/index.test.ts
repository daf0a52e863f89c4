import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.ts';
import type { ServiceConfigs } from '../../src/config/index.ts';
import type { Services } from '../../src/core/services.ts';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { hostscanHandlers } from '../../src/sandbox/hostscan.ts';
import { jobSearchHandlers } from '../../src/sandbox/job-search.ts';
import { closeServices, createServices } from '../../src/services/index.ts';
import { useFakeServer } from '../support/service-harness.ts';

const KEY = 'sandbox-index-key-5e5e';
const server = useFakeServer(() => [
  ...hostscanHandlers({ credential: KEY }),
  ...jobSearchHandlers({ credential: KEY }),
]);

function configs(): ServiceConfigs {
  return {
    hostscan: { baseUrl: sandboxBaseUrl(server.url, 'hostscan'), apiKey: KEY, provider: 'shodan' },
    jobSearch: {
      baseUrl: sandboxBaseUrl(server.url, 'jobSearch'),
      appId: 'app-id-1',
      apiKey: KEY,
      country: 'gb',
    },
  };
}

describe('createServices', () => {
  it('creates a client for each configured service and none for the others', async () => {
    const services = createServices(configs(), { httpOptions: { retryBaseMs: 1 } });
    expect(Object.keys(services).sort()).toEqual(['hostscan', 'jobSearch']);
    expect(services.weather).toBeUndefined();
    expect((await services.hostscan!.host('8.8.8.8'))!.ip).toBe('8.8.8.8');
    expect(
      (await services.jobSearch!.search({ country: 'gb', page: 1, what: 'nurse' })).count,
    ).toBeGreaterThan(0);
    await closeServices(services);
  });

  it('creates clients for all eight services from a full config', () => {
    const origin = 'http://127.0.0.1:9';
    const all = createServices({
      email: { baseUrl: sandboxBaseUrl(origin, 'email'), accessToken: KEY, from: 'herald <bot@example.com>' },
      analytics: { baseUrl: sandboxBaseUrl(origin, 'analytics'), accessToken: KEY, propertyId: '123456' },
      weather: { baseUrl: sandboxBaseUrl(origin, 'weather'), apiKey: KEY },
      geocoding: { baseUrl: sandboxBaseUrl(origin, 'geocoding'), apiKey: KEY, dataset: 'mapbox.places' },
      speech: { baseUrl: sandboxBaseUrl(origin, 'speech'), apiKey: KEY, modelId: 'eleven_v3', voiceId: 'v' },
      ...configs(),
      webhook: { baseUrl: sandboxBaseUrl(origin, 'webhook'), id: '1', token: KEY },
    });
    expect(Object.keys(all).sort()).toEqual([
      'analytics',
      'email',
      'geocoding',
      'hostscan',
      'jobSearch',
      'speech',
      'weather',
      'webhook',
    ]);
    return closeServices(all);
  });

  it('closes every client: a call after closeServices fails instead of reaching the upstream', async () => {
    const services = createServices(configs(), { httpOptions: { retryBaseMs: 1, maxRetries: 0 } });
    await closeServices(services);
    const before = server.requests.length;
    await expect(services.hostscan!.host('1.1.1.1')).rejects.toBeInstanceOf(ServiceError);
    expect(server.requests.length).toBe(before);
  });

  it('closes the other clients when one fails to close, then reports the failure', async () => {
    const closed: string[] = [];
    const fake = (name: string, fails = false) => ({
      close: async () => {
        if (fails) throw new Error(`${name} would not close`);
        closed.push(name);
      },
    });
    const services = {
      weather: fake('weather', true),
      hostscan: fake('hostscan'),
      speech: fake('speech'),
    } as unknown as Services;
    await expect(closeServices(services)).rejects.toThrow('1 of 3 service clients failed to close');
    expect(closed.sort()).toEqual(['hostscan', 'speech']);
  });
});
