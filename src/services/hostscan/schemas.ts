// Wire schemas of Shodan's host lookup (docs/SERVICES.md S6).
// The fields herald reads (z.object: the rest is dropped unread); the traps the real API sets are accepted: no `vulns` key when the host
// has none, `asn` as a string or a bare number, null scalars, no `data` with minify=true.
import { z } from 'zod';

const BannerResponse = z.object({
  port: z.number().int(),
  transport: z.string(),
  product: z.string().nullish(),
  version: z.string().nullish(),
  timestamp: z.string().nullish(),
});

export const HostResponse = z.object({
  ip_str: z.string(),
  ip: z.union([z.number(), z.string()]).nullish(),
  org: z.string().nullish(),
  isp: z.string().nullish(),
  asn: z.union([z.string(), z.number()]).nullish(),
  country_name: z.string().nullish(),
  country_code: z.string().nullish(),
  hostnames: z.array(z.string()).nullish(),
  ports: z.array(z.number().int()),
  /** A list of CVE ids at the top level; tolerated as a map (the per-banner shape) too. */
  vulns: z.union([z.array(z.string()), z.record(z.string(), z.unknown())]).optional(),
  data: z.array(BannerResponse).optional(),
  /** YYYY-MM-DDTHH:MM:SS.ffffff in UTC, without a zone suffix. */
  last_update: z.string().nullish(),
});

/** Shodan's error body; 401 may also be an HTML page from nginx. */
export const ShodanErrorResponse = z.object({
  error: z.string(),
});

export type HostWire = z.output<typeof HostResponse>;
