import { describe, expect, it, vi } from 'vitest';
import { createHostCommand } from '../../commands/host.ts';
import type { HostRecord, HostscanClient } from '../../src/services/hostscan/client.ts';
import {
  createContext,
  DISCORD_MEMBER,
  expectWellFormed,
  field,
  invoke,
  onlyEmbed,
  OPERATOR,
  SERVICE_ERROR_CODES,
  serviceError,
  SLACK_MEMBER,
} from './context.ts';

const GOOGLE_DNS: HostRecord = {
  ip: '8.8.8.8',
  org: 'Google LLC',
  countryName: 'United States',
  hostnames: ['dns.google'],
  ports: [443, 53],
  vulns: ['CVE-2019-9511', 'CVE-2021-23017'],
  services: [
    { port: 53, transport: 'udp', product: 'Google DNS', version: undefined },
    { port: 443, transport: 'tcp', product: 'nginx', version: '1.18' },
    { port: 443, transport: 'tcp', product: undefined, version: undefined },
  ],
  lastUpdate: new Date('2026-11-19T04:14:37.743Z'),
};

function fakeHostscan(result: () => Promise<HostRecord | undefined>) {
  return {
    host: vi.fn<HostscanClient['host']>(() => result()),
    close: vi.fn(async () => {}),
  } satisfies HostscanClient;
}

const host = createHostCommand({ users: [], roles: [] });

describe('/host', () => {
  it('answers with organisation, country, hostnames, ports, vulnerabilities and one line per service', async () => {
    const client = fakeHostscan(async () => GOOGLE_DNS);
    const ctx = createContext({ services: { hostscan: client } });
    const reply = await invoke(host, { ip: '8.8.8.8' }, ctx);

    expect(client.host).toHaveBeenCalledWith('8.8.8.8', { signal: expect.any(AbortSignal) });
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('Host 8.8.8.8');
    expect(embed.description).toBe('```\n53/udp   Google DNS\n443/tcp  nginx 1.18\n```');
    expect(field(reply, 'Organisation')).toBe('Google LLC');
    expect(field(reply, 'Country')).toBe('United States');
    expect(field(reply, 'Hostnames')).toBe('dns.google');
    expect(field(reply, 'Open ports')).toBe('53, 443');
    expect(field(reply, 'Vulnerabilities')).toBe('2: CVE-2021-23017, CVE-2019-9511');
    expect(embed.color).toBe('warning');
    expect(embed.footer).toBe('Last scanned 3 days ago');
    expect(reply.text).toBe('8.8.8.8: Google LLC, United States; 2 open ports, 2 known vulnerabilities');
    // The dispatcher gives the reply the command's own visibility.
    expect(reply.ephemeral).toBe(false);
    expect(host.ephemeral).toBe(false);
  });

  it('shows the first few vulnerabilities and counts the rest', async () => {
    const vulns = Array.from({ length: 9 }, (_, i) => `CVE-2024-${1000 + i}`);
    const client = fakeHostscan(async () => ({ ...GOOGLE_DNS, vulns }));
    const reply = await invoke(host, { ip: '8.8.8.8' }, createContext({ services: { hostscan: client } }));
    expect(field(reply, 'Vulnerabilities')).toBe(
      '9: CVE-2024-1008, CVE-2024-1007, CVE-2024-1006, CVE-2024-1005, CVE-2024-1004 and 4 more',
    );
  });

  it('answers a host with 200,000 distinct services: fifteen lines, then how many more', async () => {
    // Distinct ports and transports within Shodan's schema (about 7 MiB of banners).
    const services = Array.from({ length: 200_000 }, (_, i) => ({
      port: i,
      transport: 'tcp',
      product: undefined,
      version: undefined,
    }));
    const client = fakeHostscan(async () => ({ ...GOOGLE_DNS, services }));
    const reply = await invoke(host, { ip: '8.8.8.8' }, createContext({ services: { hostscan: client } }));
    expectWellFormed(reply);
    const lines = onlyEmbed(reply).description!.split('\n');
    expect(lines[1]).toBe('0/tcp       unknown service');
    expect(lines.at(-2)).toBe('… and 199985 more');
  });

  it('uses the info colour and says so when no vulnerability is known', async () => {
    const client = fakeHostscan(async () => ({ ...GOOGLE_DNS, vulns: [], lastUpdate: undefined }));
    const reply = await invoke(host, { ip: '8.8.8.8' }, createContext({ services: { hostscan: client } }));
    expect(field(reply, 'Vulnerabilities')).toBe('None known');
    expect(onlyEmbed(reply).color).toBe('info');
    expect(onlyEmbed(reply).footer).toBeUndefined();
  });

  it('accepts an IPv6 address', async () => {
    const client = fakeHostscan(async () => ({ ...GOOGLE_DNS, ip: '2001:4860:4860::8888' }));
    await invoke(host, { ip: '2001:4860:4860::8888' }, createContext({ services: { hostscan: client } }));
    expect(client.host.mock.calls[0]![0]).toBe('2001:4860:4860::8888');
  });

  it('answers with a warning when the scanner knows nothing of the address', async () => {
    const client = fakeHostscan(async () => undefined);
    const reply = await invoke(
      host,
      { ip: '203.0.113.7' },
      createContext({ services: { hostscan: client } }),
    );
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(reply.text).toBe('No information is available for 203.0.113.7.');
    expect(reply.outcome).toBe('not-found');
  });

  it.each([['10.1.2.3'], ['192.168.0.1'], ['127.0.0.1'], ['::1'], ['fe80::1']])(
    'answers %s locally as a non-public address without a request',
    async (ip) => {
      const client = fakeHostscan(async () => GOOGLE_DNS);
      const reply = await invoke(host, { ip }, createContext({ services: { hostscan: client } }));
      expect(onlyEmbed(reply).color).toBe('warning');
      expect(reply.text).toContain('no internet scanner can see it');
      expect(reply.outcome).toBe('refused');
      expect(client.host).not.toHaveBeenCalled();
    },
  );

  it.each([['999.1.1.1'], ['example.com'], ['8.8.8'], ['8.8.8.8/24'], ['1.2.3.4; rm -rf'], ['fe80::1%eth0']])(
    'rejects %s as not an IP address without a request',
    async (ip) => {
      const client = fakeHostscan(async () => GOOGLE_DNS);
      const failure = invoke(host, { ip }, createContext({ services: { hostscan: client } }));
      await expect(failure).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(failure).rejects.toThrow(/is not an IP address; give an IPv4 address/);
      expect(client.host).not.toHaveBeenCalled();
    },
  );

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('hostscan', 'host', code);
    const client = fakeHostscan(() => Promise.reject(error));
    await expect(
      invoke(host, { ip: '8.8.8.8' }, createContext({ services: { hostscan: client } })),
    ).rejects.toBe(error);
  });

  describe('access', () => {
    it('lets only the operator in while HOST_ALLOWED_USERS is empty', async () => {
      const client = fakeHostscan(async () => GOOGLE_DNS);
      const failure = invoke(
        host,
        { ip: '8.8.8.8' },
        createContext({ services: { hostscan: client }, actor: SLACK_MEMBER }),
      );
      await expect(failure).rejects.toMatchObject({ code: 'forbidden' });
      await expect(failure).rejects.toThrow(/Nobody but the operator.*HOST_ALLOWED_USERS/);
      expect(client.host).not.toHaveBeenCalled();
      await invoke(
        host,
        { ip: '8.8.8.8' },
        createContext({ services: { hostscan: client }, actor: OPERATOR }),
      );
      expect(client.host).toHaveBeenCalledTimes(1);
    });

    it('lets in a listed user and a holder of a listed role', async () => {
      const client = fakeHostscan(async () => GOOGLE_DNS);
      const byUser = createHostCommand({ users: [SLACK_MEMBER.id], roles: [] });
      const byRole = createHostCommand({ users: [], roles: [DISCORD_MEMBER.roles[0]!] });
      await invoke(
        byUser,
        { ip: '8.8.8.8' },
        createContext({ services: { hostscan: client }, actor: SLACK_MEMBER }),
      );
      await invoke(
        byRole,
        { ip: '8.8.8.8' },
        createContext({ services: { hostscan: client }, actor: DISCORD_MEMBER }),
      );
      expect(client.host).toHaveBeenCalledTimes(2);
    });
  });
});

describe('/host in German and French', () => {
  it('writes a host record in German: fields, summary, services and the age of the scan', async () => {
    const ctx = createContext({
      services: { hostscan: fakeHostscan(async () => GOOGLE_DNS) },
      language: 'de',
    });
    const reply = await invoke(host, { ip: '8.8.8.8' }, ctx);
    const embed = onlyEmbed(reply);
    // The scanner's own words (organisation, country name) come as it gives them.
    expect(reply.text).toBe('8.8.8.8: Google LLC, United States; 2 offene Ports, 2 bekannte Schwachstellen');
    expect(embed.title).toBe('Host-Daten zu 8.8.8.8');
    expect(embed.fields!.map((f) => f.name)).toEqual([
      'Betreiber',
      'Land',
      'Offene Ports',
      'Hostnamen',
      'Schwachstellen',
    ]);
    expect(embed.footer).toBe('Zuletzt gescannt vor 3 Tagen');
  });

  it('counts in German numbers and says what is left out in German', async () => {
    const many: HostRecord = {
      ...GOOGLE_DNS,
      org: undefined,
      ports: [],
      hostnames: [],
      vulns: Array.from({ length: 1234 }, (_, i) => `CVE-2020-${10000 + i}`),
      services: Array.from({ length: 17 }, (_, i) => ({
        port: 1000 + i,
        transport: 'tcp',
        product: undefined,
        version: undefined,
      })),
    };
    const ctx = createContext({ services: { hostscan: fakeHostscan(async () => many) }, language: 'de' });
    const reply = await invoke(host, { ip: '8.8.8.8' }, ctx);
    expect(reply.text).toBe(
      '8.8.8.8: unbekannter Betreiber, United States; 0 offene Ports, 1.234 bekannte Schwachstellen',
    );
    expect(field(reply, 'Offene Ports')).toBe('Keine gesehen');
    expect(field(reply, 'Hostnamen')).toBe('Keine');
    expect(field(reply, 'Schwachstellen')).toMatch(/^1\.234: CVE-2020-11233, .* und 1\.229 weitere$/);
    expect(onlyEmbed(reply).description).toContain('1000/tcp  unbekannter Dienst\n');
    expect(onlyEmbed(reply).description).toContain('\n… und 2 weitere\n');
  });

  it('writes an internal address and an unknown one in French', async () => {
    const ctx = createContext({
      services: { hostscan: fakeHostscan(async () => undefined) },
      language: 'fr',
    });
    const privateOne = await invoke(host, { ip: '10.1.2.3' }, ctx);
    expect(privateOne.text).toBe(
      "10.1.2.3 est une adresse privée (RFC 1918) ; aucun scanner d'internet ne peut la voir.",
    );
    expect(onlyEmbed(privateOne).title).toBe("10.1.2.3 n'est pas sur l'internet public");
    expect((await invoke(host, { ip: '::1' }, ctx)).text).toBe(
      "::1 est l'adresse de bouclage ; aucun scanner d'internet ne peut la voir.",
    );
    expect((await invoke(host, { ip: 'fe80::1' }, ctx)).text).toBe(
      "fe80::1 est une adresse lien-local (dans la plage fe80::/10) ; aucun scanner d'internet ne peut la voir.",
    );
    const unknown = await invoke(host, { ip: '1.2.3.4' }, ctx);
    expect(unknown.text).toBe('Aucune information disponible pour 1.2.3.4.');
    expect(onlyEmbed(unknown).title).toBe('Rien de connu sur 1.2.3.4');
  });
});
