import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

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
}

export interface HostscanClient extends Closable {
  /** undefined when the provider has no information on the address (Shodan's 404). */
  host(ip: string, opts?: CallOptions): Promise<HostRecord | undefined>;
}

export declare function createHostscanClient(config: HostscanConfig, deps?: ClientDeps): HostscanClient;
