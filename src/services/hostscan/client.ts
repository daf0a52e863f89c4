// S6 host intelligence: Shodan's host lookup (docs/SERVICES.md S6).
// https://developer.shodan.io/api — GET /shodan/host/{ip}?key=…
import { isIP } from 'node:net';
import { type CallOptions, type ProviderErrorReader, bodyExcerpt } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { HostResponse, ShodanErrorResponse, type HostWire } from './schemas.ts';

export interface HostscanConfig {
  baseUrl: string;
  apiKey: string;
  /** The `provider` path segment, e.g. shodan. */
  provider: string;
}

export interface HostService {
  port: number;
  transport: string;
  product: string | undefined;
  version: string | undefined;
}

export interface HostRecord {
  ip: string;
  org: string | undefined;
  countryName: string | undefined;
  hostnames: string[];
  ports: number[];
  /** CVE ids; empty when the provider omits `vulns`. */
  vulns: string[];
  services: HostService[];
  lastUpdate: Date | undefined;
  /** "AS15169" form, whether Shodan sent a string or a bare number. */
  asn?: string | undefined;
}

export interface HostscanClient extends Closable {
  /** undefined when the provider has no information on the address (Shodan's 404). */
  host(ip: string, opts?: CallOptions): Promise<HostRecord | undefined>;
}

/** What Shodan knows about a host changes slowly, so an answer is kept for an hour. */
export const HOST_CACHE_TTL_MS = 60 * 60 * 1000;

/** Shodan's 404 for an address it has not seen: a normal outcome, not a failure. */
const NO_INFORMATION = /no information available/i;

/** `{"error": "..."}`, or nginx's HTML page for a missing key. */
const readHostscanError: ProviderErrorReader = ({ body, text }) => {
  const parsed = ShodanErrorResponse.safeParse(body);
  return { message: parsed.success ? parsed.data.error : bodyExcerpt(text) };
};

/** Shodan's timestamps carry no zone and are UTC; six fractional digits are cut to milliseconds. */
function parseShodanTime(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?\d*(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (!match) return undefined;
  const date = new Date(`${match[1]}${match[2] ?? ''}${match[3] ?? 'Z'}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function toHostRecord(w: HostWire): HostRecord {
  const vulns = Array.isArray(w.vulns) ? w.vulns : Object.keys(w.vulns ?? {});
  const services = (w.data ?? [])
    .map((b) => ({
      port: b.port,
      transport: b.transport,
      product: b.product ?? undefined,
      version: b.version ?? undefined,
    }))
    .sort((a, b) => a.port - b.port || a.transport.localeCompare(b.transport));
  return {
    ip: w.ip_str,
    org: w.org ?? undefined,
    countryName: w.country_name ?? undefined,
    hostnames: w.hostnames ?? [],
    // Shodan sends ports unsorted.
    ports: [...new Set(w.ports)].sort((a, b) => a - b),
    vulns: [...new Set(vulns)],
    services,
    lastUpdate: parseShodanTime(w.last_update),
    asn: w.asn === null || w.asn === undefined ? undefined : typeof w.asn === 'number' ? `AS${w.asn}` : w.asn,
  };
}

export function createHostscanClient(config: HostscanConfig, deps: ClientDeps = {}): HostscanClient {
  const http = createServiceHttp(deps, {
    secrets: [config.apiKey],
    service: 'hostscan',
    baseUrl: config.baseUrl,
    // Shodan takes the key in the `key` query parameter; the same key goes as X-API-Key too.
    headers: { 'x-api-key': config.apiKey },
    readError: readHostscanError,
  });

  return {
    async host(ip, opts) {
      const address = ip.trim();
      // A zone id (fe80::1%eth0) names a local interface; no public record can match it.
      if (isIP(address) === 0 || address.includes('%')) {
        throw new ServiceError({
          service: 'hostscan',
          operation: 'host',
          code: 'invalid_request',
          message: 'hostscan.host not sent: not an IPv4 or IPv6 address',
        });
      }
      try {
        return await http.send(
          {
            service: 'hostscan',
            operation: 'host',
            method: 'GET',
            path: path`/${config.provider}/host/${address}`,
            query: { key: config.apiKey },
            cacheTtlMs: HOST_CACHE_TTL_MS,
          },
          HostResponse,
          opts,
          toHostRecord,
        );
      } catch (err) {
        if (
          err instanceof ServiceError &&
          err.status === 404 &&
          NO_INFORMATION.test(err.providerMessage ?? '')
        ) {
          return undefined;
        }
        throw err;
      }
    },

    close: () => http.close(),
  };
}
