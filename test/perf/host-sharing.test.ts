import { hostscanHandlers } from '../../src/sandbox/hostscan.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { HOST_CACHE_TTL_MS, createHostscanClient } from '../../src/services/hostscan/client.ts';
import { describeSharing } from './sharing.ts';

const API_KEY = 'sandbox-shodan-key-77d2';
const IPS = ['8.8.8.8', '1.1.1.1', '9.9.9.9', '2606:4700:4700::1111', '151.101.1.69', '140.82.112.3'];

describeSharing({
  name: 'hostscan.host',
  ttlMs: HOST_CACHE_TTL_MS,
  handlers: (now) => hostscanHandlers({ credential: API_KEY, now }),
  route: route('hostscan', '/:provider/host/:ip'),
  create: (origin, deps) =>
    createHostscanClient(
      { baseUrl: sandboxBaseUrl(origin, 'hostscan'), apiKey: API_KEY, provider: 'shodan' },
      deps,
    ),
  // Ten distinct public addresses: the six above, then 23.0.0.1 to 23.0.0.4.
  call: (client, input, opts) => client.host(IPS[input] ?? `23.0.0.${input - IPS.length + 1}`, opts),
  pathname: '/hostscan/shodan/host/1.1.1.1',
  hasInput: true,
  failureBody: { error: 'Request timed out or temporarily unavailable. Please try again later.' },
  failureCode: 'upstream',
});
