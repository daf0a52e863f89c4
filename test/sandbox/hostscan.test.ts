import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { HOSTSCAN_MAGIC, hostscanHandlers, isUnknownAddress } from '../../src/sandbox/hostscan.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const KEY = 'sandbox-shodan-key-77e1';
let server: SandboxServer;
let base: string;
let nowMs = Date.parse('2025-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startFake(hostscanHandlers({ credential: KEY, now: () => nowMs }));
  base = sandboxBaseUrl(server.url, 'hostscan');
});
afterAll(() => server.close());

const lookup = (ip: string, key: string | null = KEY) =>
  fetch(`${base}/shodan/host/${encodeURIComponent(ip)}${key === null ? '' : `?key=${key}`}`);

interface Host {
  org: string;
  ip_str: string;
  ports: number[];
  vulns?: string[];
  asn: string | number;
  last_update: string;
  data: { port: number; transport: string; product?: string; vulns?: Record<string, unknown> }[];
}

describe('hostscan sandbox', () => {
  it('answers the same believable host for the same address during a day', async () => {
    const first = (await (await lookup('8.8.8.8')).json()) as Host;
    nowMs += 3_600_000;
    const second = (await (await lookup('8.8.8.8')).json()) as Host;
    expect(second).toEqual(first);
    expect(first.ip_str).toBe('8.8.8.8');
    expect(first).toMatchObject({
      org: 'Google LLC',
      hostnames: ['dns.google'],
      country_name: 'United States',
    });
    expect(first.ports.length).toBeGreaterThanOrEqual(1);
    expect(first.ports.length).toBeLessThanOrEqual(6);
    expect(first.data.map((d) => d.port)).toEqual(first.ports);
    expect(first.last_update).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
  });

  it('varies across addresses: some hosts carry vulns, some have no vulns key, asn is sometimes a number', async () => {
    const hosts: Host[] = [];
    for (let i = 1; i <= 60; i++) hosts.push((await (await lookup(`45.33.${i}.${i * 3}`)).json()) as Host);
    expect(hosts.some((h) => Array.isArray(h.vulns) && h.vulns.length > 0)).toBe(true);
    expect(hosts.some((h) => !('vulns' in h))).toBe(true);
    expect(hosts.some((h) => typeof h.asn === 'number')).toBe(true);
    expect(new Set(hosts.map((h) => h.ports.length)).size).toBeGreaterThanOrEqual(4);
    for (const h of hosts.filter((x) => x.vulns)) {
      const perBanner = h.data.flatMap((d) => Object.keys(d.vulns ?? {}));
      expect(new Set(perBanner)).toEqual(new Set(h.vulns));
    }
  });

  it('has no information on documentation, private and loopback ranges', async () => {
    for (const ip of [
      '192.0.2.1',
      '198.51.100.200',
      '203.0.113.9',
      '2001:db8::8',
      '10.1.2.3',
      '127.0.0.1',
      '::1',
    ]) {
      expect(isUnknownAddress(ip)).toBe(true);
      const res = await lookup(ip);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'No information available for that IP.' });
    }
    expect(isUnknownAddress('8.8.8.8')).toBe(false);
    expect(isUnknownAddress('2606:4700::1111')).toBe(false);
  });

  it("answers Shodan's errors: HTML 401 without a key, JSON 401 for a wrong key, 403 on a free plan, 400 for a non-IP", async () => {
    const missing = await lookup('8.8.8.8', null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toBe('text/html');
    expect(await missing.text()).toContain('401 Authorization Required');
    const wrong = await lookup('8.8.8.8', 'wrong-key-123');
    expect(await wrong.json()).toEqual({ error: 'Invalid API key' });
    const free = await lookup('8.8.8.8', HOSTSCAN_MAGIC.freePlanKey);
    expect(free.status).toBe(403);
    const bad = await lookup('not-an-ip');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Invalid IP' });
  });
});
