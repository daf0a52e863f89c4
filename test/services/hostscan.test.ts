import { describe, expect, it } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { HOSTSCAN_MAGIC, hostscanHandlers } from '../../src/sandbox/hostscan.ts';
import { createHostscanClient, type HostscanConfig } from '../../src/services/hostscan/client.ts';
import type { ClientDeps } from '../../src/services/deps.ts';
import {
  expectNoSecret,
  failure as serviceFailure,
  htmlPage,
  readFixture,
  useFakeServer,
  useLogCapture,
} from '../support/service-harness.ts';

const API_KEY = 'sandbox-shodan-key-51c0d2';
const NOW = Date.parse('2025-06-01T12:00:00Z');
const HOST_FIXTURE = readFixture('hostscan', 'host-8.8.8.8.json');
const HOST_ROUTE = route('hostscan', '/:provider/host/:ip');

const server = useFakeServer(() => hostscanHandlers({ credential: API_KEY, now: () => NOW }));
const { log: capturingLog, lines: logLines } = useLogCapture();

function client(config: Partial<HostscanConfig> = {}, deps: ClientDeps = {}) {
  return createHostscanClient(
    { baseUrl: sandboxBaseUrl(server.url, 'hostscan'), apiKey: API_KEY, provider: 'shodan', ...config },
    { log: capturingLog, httpOptions: { retryBaseMs: 1, requestTimeoutMs: 2_000 }, ...deps },
  );
}

const failure = (p: Promise<unknown>) => serviceFailure(p, API_KEY);

describe('hostscan client', () => {
  it('looks a host up with GET /shodan/host/{ip}, the key query parameter and the X-API-Key header', async () => {
    const hostscan = client();
    const host = await hostscan.host('8.8.8.8');

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.pathname).toBe('/hostscan/shodan/host/8.8.8.8');
    expect([...req.query.keys()]).toEqual(['key']);
    expect(req.query.get('key')).toBe(API_KEY);
    expect(req.headers['x-api-key']).toBe(API_KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toBe('');

    expect(host).toBeDefined();
    expect(host!.ip).toBe('8.8.8.8');
    expect(host!.org).toEqual(expect.any(String));
    expect(host!.countryName).toEqual(expect.any(String));
    expect(host!.ports.length).toBeGreaterThanOrEqual(1);
    expect(host!.ports.length).toBeLessThanOrEqual(6);
    expect(host!.ports).toEqual([...host!.ports].sort((a, b) => a - b));
    expect(host!.services.map((s) => s.port)).toEqual(host!.ports);
    expect(host!.asn).toMatch(/^AS\d+$/);
    expect(host!.lastUpdate!.getTime()).toBeLessThan(NOW);
    await hostscan.close();
  });

  it('sends an IPv6 address as one encoded segment', async () => {
    const hostscan = client();
    const host = await hostscan.host('2606:4700:4700::1111');
    expect(server.requests[0]!.pathname).toBe('/hostscan/shodan/host/2606%3A4700%3A4700%3A%3A1111');
    expect(host!.ip).toBe('2606:4700:4700::1111');
    await hostscan.close();
  });

  it('keeps a hostile provider segment inside its segment, and an unknown route is not_found, not "no information"', async () => {
    const hostscan = client({ provider: 'a b/../?x=1#é' });
    const err = await failure(hostscan.host('8.8.8.8'));
    expect(server.requests[0]!.pathname).toBe('/hostscan/a%20b%2F..%2F%3Fx%3D1%23%C3%A9/host/8.8.8.8');
    expect([...server.requests[0]!.query.keys()]).toEqual(['key']);
    expect(err.code).toBe('not_found');
    expect(err.status).toBe(404);
    await hostscan.close();
  });

  it('rejects anything that is not an IP address before any request', async () => {
    const hostscan = client();
    for (const bad of [
      '',
      'abc',
      '8.8.8.8/24',
      '../8.8.8.8',
      '999.1.1.1',
      '8.8.8.8?x=1',
      '1.2.3.4#',
      'fe80::1%eth0',
    ]) {
      const err = await failure(hostscan.host(bad));
      expect(err.code).toBe('invalid_request');
    }
    expect(server.requests).toHaveLength(0);
    await hostscan.close();
  });

  it('maps a realistic record: numeric asn, no vulns key, unsorted duplicate ports, zone-less timestamp', async () => {
    server.use(http.get(HOST_ROUTE, () => HttpResponse.json(HOST_FIXTURE)));
    const hostscan = client();
    expect(await hostscan.host('8.8.8.8')).toEqual({
      ip: '8.8.8.8',
      org: 'Google LLC',
      countryName: 'United States',
      hostnames: ['dns.google'],
      ports: [53, 443],
      vulns: [],
      services: [
        { port: 53, transport: 'udp', product: 'Google DNS', version: undefined },
        { port: 443, transport: 'tcp', product: 'Google frontend', version: undefined },
      ],
      lastUpdate: new Date('2025-03-01T04:14:37.743Z'),
      asn: 'AS15169',
    });
    await hostscan.close();
  });

  it('reads the top-level vulns list of CVE ids', async () => {
    server.use(
      http.get(HOST_ROUTE, () =>
        HttpResponse.json({ ...HOST_FIXTURE, vulns: ['CVE-2021-23017', 'CVE-2019-9511'], asn: 'AS15169' }),
      ),
    );
    const hostscan = client();
    const host = await hostscan.host('8.8.8.8');
    expect(host!.vulns).toEqual(['CVE-2021-23017', 'CVE-2019-9511']);
    await hostscan.close();
  });

  it('answers undefined for an address Shodan has no information on', async () => {
    const hostscan = client();
    expect(await hostscan.host(HOSTSCAN_MAGIC.unknownIp)).toBeUndefined();
    expect(await hostscan.host('203.0.113.77')).toBeUndefined();
    expect(await hostscan.host('2001:db8::1')).toBeUndefined();
    expect(server.requests).toHaveLength(3);
    await hostscan.close();
  });

  it('keeps a host record for an hour, then asks again', async () => {
    let nowMs = 5_000_000;
    const hostscan = client({}, { now: () => nowMs });
    const first = await hostscan.host('1.1.1.1');
    expect(await hostscan.host('1.1.1.1')).toEqual(first);
    expect(server.requests).toHaveLength(1);
    nowMs += 60 * 60 * 1000 + 1;
    await hostscan.host('1.1.1.1');
    expect(server.requests).toHaveLength(2);
    await hostscan.close();
  });

  it('maps 400 Invalid IP to invalid_request', async () => {
    server.use(http.get(HOST_ROUTE, () => HttpResponse.json({ error: 'Invalid IP' }, { status: 400 })));
    const hostscan = client();
    const err = await failure(hostscan.host('8.8.4.4'));
    expect(err.code).toBe('invalid_request');
    expect(err.providerMessage).toBe('Invalid IP');
    await hostscan.close();
  });

  it('maps a wrong key to unauthorized, and a missing key (nginx HTML page) too', async () => {
    const wrong = client({ apiKey: 'not-the-right-key-42' });
    const err = await failure(wrong.host('8.8.8.8'));
    expect(err.code).toBe('unauthorized');
    expect(err.providerMessage).toBe('Invalid API key');
    await wrong.close();

    const missing = client({ apiKey: '' });
    const html = await failure(missing.host('8.8.8.8'));
    expect(html.code).toBe('unauthorized');
    expect(html.status).toBe(401);
    expect(html.providerMessage).toBe('401 Authorization Required 401 Authorization Required nginx');
    await missing.close();
  });

  it('maps a free plan (403 membership) to forbidden', async () => {
    const free = client({ apiKey: HOSTSCAN_MAGIC.freePlanKey });
    const err = await failure(free.host('8.8.8.8'));
    expect(err.code).toBe('forbidden');
    expect(err.providerMessage).toBe('Requires membership or higher to access');
    await free.close();
  });

  it('maps a 429 to rate_limited with Retry-After in ms when it is too long to wait', async () => {
    server.use(
      http.get(HOST_ROUTE, () =>
        HttpResponse.json(
          {
            error:
              'Request rate limit reached (1 request/ second). Please wait a second before trying again and slow down your API calls.',
          },
          { status: 429, headers: { 'retry-after': '30' } },
        ),
      ),
    );
    const hostscan = client();
    const err = await failure(hostscan.host('8.8.8.8'));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(30_000);
    expect(server.requests).toHaveLength(1);
    await hostscan.close();
  });

  it('retries a short 429 and then succeeds', async () => {
    let calls = 0;
    server.use(
      http.get(HOST_ROUTE, () => {
        calls++;
        return calls === 1
          ? HttpResponse.json(
              { error: 'Request rate limit reached' },
              { status: 429, headers: { 'retry-after': '0' } },
            )
          : HttpResponse.json(HOST_FIXTURE);
      }),
    );
    const hostscan = client();
    expect((await hostscan.host('8.8.8.8'))!.org).toBe('Google LLC');
    expect(server.requests).toHaveLength(2);
    await hostscan.close();
  });

  it('maps a 502 HTML page to upstream after the retries', async () => {
    server.use(
      http.get(HOST_ROUTE, () =>
        htmlPage('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 502),
      ),
    );
    const hostscan = client();
    const err = await failure(hostscan.host('8.8.8.8'));
    expect(err.code).toBe('upstream');
    expect(err.status).toBe(502);
    expect(server.requests).toHaveLength(3);
    await hostscan.close();
  });

  it('fails with timeout when Shodan is slower than the request timeout', async () => {
    server.use(
      http.get(HOST_ROUTE, async () => {
        await delay(1_000);
        return HttpResponse.json(HOST_FIXTURE);
      }),
    );
    const hostscan = client({}, { httpOptions: { retryBaseMs: 1, requestTimeoutMs: 100 } });
    expect((await failure(hostscan.host('8.8.8.8'))).code).toBe('timeout');
    await hostscan.close();
  });

  it('fails with network when every connection is reset', async () => {
    server.use(http.get(HOST_ROUTE, () => HttpResponse.error()));
    const hostscan = client();
    expect((await failure(hostscan.host('8.8.8.8'))).code).toBe('network');
    expect(server.requests).toHaveLength(3);
    await hostscan.close();
  });

  it('treats an HTML 200, a body that does not fit and a 200 carrying an error as bad_response', async () => {
    const hostscan = client();
    server.use(http.get(HOST_ROUTE, () => htmlPage('<html>hi</html>')));
    expect((await failure(hostscan.host('8.8.8.8'))).code).toBe('bad_response');
    server.resetHandlers();
    server.use(http.get(HOST_ROUTE, () => HttpResponse.json({ ...HOST_FIXTURE, ports: '53,443' })));
    const err = await failure(hostscan.host('8.8.4.4'));
    expect(err.code).toBe('bad_response');
    expect(err.providerMessage).toContain('ports');
    server.resetHandlers();
    server.use(http.get(HOST_ROUTE, () => HttpResponse.json({ error: 'Unable to parse the request' })));
    expect((await failure(hostscan.host('9.9.9.9'))).code).toBe('bad_response');
    await hostscan.close();
  });

  it('never writes the key into log lines or errors, even when Shodan echoes the URL', async () => {
    server.use(
      http.get(HOST_ROUTE, ({ request }) =>
        HttpResponse.json({ error: `Invalid request ${request.url}` }, { status: 400 }),
      ),
    );
    const hostscan = client();
    const err = await failure(hostscan.host('8.8.8.8'));
    expect(err.providerMessage).toContain('key=[REDACTED]');
    server.resetHandlers();
    await hostscan.host('1.0.0.1');
    expect(logLines.length).toBeGreaterThanOrEqual(2);
    expectNoSecret([API_KEY], ...logLines);
    await hostscan.close();
  });
});
