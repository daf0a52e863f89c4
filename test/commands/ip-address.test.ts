import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIpAddress } from '../../commands/ip-address.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { COMMAND_CASES, UPSTREAMS, fakeHandlers, type Credentials } from '../faults/fault-cells.ts';
import { createHarness, requestsTo, runInvocation, type Harness } from '../faults/harness.ts';

/** IPv6 forms of internal IPv4 addresses: the embedded IPv4 address decides. */
const EMBEDDED: readonly (readonly [text: string, range: string])[] = [
  ['::ffff:7f00:1', 'loopback (127.0.0.0/8)'],
  ['0:0:0:0:0:ffff:10.0.0.1', 'private (RFC 1918)'],
  ['::ffff:192.168.1.1', 'private (RFC 1918)'],
  ['::FFFF:A9FE:A9FE', 'link-local (169.254.0.0/16)'],
  ['::ffff:0:10.1.2.3', 'private (RFC 1918)'],
  ['::10.0.0.1', 'private (RFC 1918)'],
  ['::7f00:1', 'loopback (127.0.0.0/8)'],
  ['64:ff9b::10.0.0.1', 'private (RFC 1918)'],
  ['64:ff9b::c0a8:101', 'private (RFC 1918)'],
  ['64:ff9b:0:0:0:0:7f00:1', 'loopback (127.0.0.0/8)'],
  ['2002:c0a8:101::1', 'private (RFC 1918)'],
  ['2002:7f00:1:0:0:0:0:1', 'loopback (127.0.0.0/8)'],
  ['2002:a00:1::', 'private (RFC 1918)'],
  ['64:ff9b:1::8.8.8.8', 'local-use NAT64 (64:ff9b:1::/48)'],
];

describe('checkIpAddress', () => {
  it.each([
    ['8.8.8.8', 4],
    [' 1.1.1.1 ', 4],
    ['203.0.113.7', 4],
    ['2001:4860:4860::8888', 6],
    ['2a03:2880:f10c:83:face:b00c:0:25de', 6],
  ])('accepts the public address %s', (text, version) => {
    expect(checkIpAddress(text)).toEqual({ kind: 'public', address: text.trim(), version });
  });

  it.each<readonly [string, string]>([
    ['10.0.0.1', 'private (RFC 1918)'],
    ['172.16.5.4', 'private (RFC 1918)'],
    ['172.31.255.255', 'private (RFC 1918)'],
    ['192.168.1.10', 'private (RFC 1918)'],
    ['100.64.0.1', 'carrier-grade NAT (100.64.0.0/10)'],
    ['127.0.0.1', 'loopback (127.0.0.0/8)'],
    ['169.254.169.254', 'link-local (169.254.0.0/16)'],
    ['0.0.0.0', 'this-network (0.0.0.0/8)'],
    ['239.255.255.250', 'multicast (224.0.0.0/4)'],
    ['255.255.255.255', 'reserved (240.0.0.0/4)'],
    ['198.18.0.1', 'benchmarking (198.18.0.0/15)'],
    ['198.19.255.254', 'benchmarking (198.18.0.0/15)'],
    ['192.0.0.9', 'IETF protocol assignments (192.0.0.0/24)'],
    ['192.0.0.170', 'IETF protocol assignments (192.0.0.0/24)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (2001::/32)'],
    ['2001::1', 'Teredo (2001::/32)'],
    ['::ffff:198.18.5.5', 'benchmarking (198.18.0.0/15)'],
    ['::', 'unspecified (::)'],
    ['::1', 'loopback (::1)'],
    ['0:0:0:0:0:0:0:1', 'loopback (::1)'],
    ['fe80::1ff:fe23:4567:890a', 'link-local (fe80::/10)'],
    ['fd12:3456:789a::1', 'unique local (fc00::/7)'],
    ['ff02::1', 'multicast (ff00::/8)'],
    ['::ffff:192.168.0.1', 'private (RFC 1918)'],
    ...EMBEDDED,
  ])('recognises %s as %s', (text, range) => {
    expect(checkIpAddress(text)).toEqual({ kind: 'internal', address: text, range });
  });

  it.each([
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '::ffff:0:1.1.1.1',
    '2001:db9::10.0.0.1',
  ])('keeps %s public: its embedded IPv4 address (or its prefix) is public', (text) => {
    expect(checkIpAddress(text)).toEqual({ kind: 'public', address: text, version: 6 });
  });

  it('does not mistake neighbours of the private ranges for private ones', () => {
    expect(checkIpAddress('172.32.0.1').kind).toBe('public');
    expect(checkIpAddress('100.128.0.1').kind).toBe('public');
    expect(checkIpAddress('11.0.0.1').kind).toBe('public');
    expect(checkIpAddress('198.17.255.255').kind).toBe('public');
    expect(checkIpAddress('198.20.0.1').kind).toBe('public');
    expect(checkIpAddress('192.0.1.1').kind).toBe('public');
    expect(checkIpAddress('2001:1::1').kind).toBe('public');
    expect(checkIpAddress('2001:4860:4860::8888').kind).toBe('public');
  });

  it.each([
    ['999.1.1.1'],
    ['256.0.0.1'],
    ['example.com'],
    ['1.2.3'],
    ['1.2.3.4/32'],
    ['fe80::1%eth0'],
    [''],
    ['::g'],
  ])('rejects %j', (text) => {
    expect(checkIpAddress(text)).toEqual({ kind: 'invalid' });
  });
});

const CREDS: Credentials = {
  emailToken: 'ip-email-token-41b7',
  analyticsToken: 'ip-analytics-token-93c2',
  weatherKey: 'ip-weather-key-0e55',
  geocodingKey: 'ip-geocoding-key-6a1d',
  speechKey: 'ip-speech-key-d4f0',
  hostscanKey: 'ip-hostscan-key-2c88',
  webhookToken: 'ip-webhook-token-7719',
  jobsAppId: 'ip-jobs-app-5b3e',
  jobsApiKey: 'ip-jobs-key-e902',
};

describe('/host with an IPv6 form of an internal IPv4 address, through the real client', () => {
  let server: SandboxServer;
  let harness: Harness;
  const HOST = COMMAND_CASES.find((c) => c.command === 'host')!;

  beforeAll(async () => {
    const base = fakeHandlers(CREDS);
    server = await startFake(base);
    harness = createHarness(server, base, CREDS);
  });
  afterAll(() => server.close());

  it.each(EMBEDDED)('answers %s locally, with no request to the provider', async (text) => {
    const run = await runInvocation(harness, { ...HOST, text });
    expect(run.replies).toHaveLength(1);
    expect(run.replies[0]!.text).toContain(text);
    expect(run.requests).toHaveLength(0);
  });

  it('does send a public address written the same way, so the fake above would have counted it', async () => {
    const run = await runInvocation(harness, { ...HOST, text: '::ffff:8.8.8.8' });
    expect(requestsTo(run, UPSTREAMS.hostscanHost)).toHaveLength(1);
  });
});
