// /host ip: what the host intelligence service (S6) knows about one address. The input must be an
// IPv4 or IPv6 address, checked before any request; restricted to HOST_ALLOWED_USERS / _ROLES.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { hostAccess } from './access.ts';
import { quote } from './format.ts';
import type { CommandWatch, WatchItem } from '../src/core/watch-contract.ts';
import type { HostRecord } from '../src/services/hostscan/client.ts';
import {
  hostReply,
  internalAddressReply,
  serviceProduct,
  servicesByPort,
  sortCves,
  unknownHostReply,
} from './host-format.ts';
import { checkIpAddress } from './ip-address.ts';

interface HostCommandOptions {
  users: readonly string[];
  roles: readonly string[];
}

/**
 * What a watch of /host compares: one fact per service (port, transport, product and version) and
 * one per vulnerability id, each with the line its diff shows.
 */
function hostFacts(host: HostRecord): WatchItem[] {
  const services = servicesByPort(host.services).map((s) => ({
    key: JSON.stringify(['service', s.port, s.transport, s.product ?? null, s.version ?? null]),
    text: `${s.port}/${s.transport} ${serviceProduct(s)}`,
  }));
  const vulns = sortCves(host.vulns.map((id) => id.toUpperCase())).map((id) => ({
    key: JSON.stringify(['vulnerability', id]),
    text: id,
  }));
  return [...services, ...vulns];
}

/** A watch of /host posts the record first, then the facts added (+) and gone (−). */
const hostWatch: CommandWatch<HostRecord> = { mode: 'diff', items: hostFacts };

export function createHostCommand(opts: HostCommandOptions) {
  return defineCommand({
    name: 'host',
    description: 'What the internet scanner knows about an IP address: ports, services, vulnerabilities',
    options: z.object({
      ip: z
        .string()
        .trim()
        .min(2)
        .max(64)
        // In the schema, not the handler: a typed line, Discord's options and /schedule add refuse alike.
        .refine((text) => checkIpAddress(text).kind !== 'invalid', {
          error: (issue) =>
            `${quote(String(issue.input), 64)} is not an IP address; give an IPv4 address such as 8.8.8.8 or an IPv6 address such as 2001:4860:4860::8888 (host names are not looked up).`,
        })
        .describe('An IPv4 or IPv6 address, e.g. 8.8.8.8'),
    }),
    positional: ['ip'],
    needs: ['hostscan'],
    access: [hostAccess(opts)],
    examples: ['/host 8.8.8.8', '/host 2001:4860:4860::8888'],
    watch: hostWatch,
    async handler(input, ctx) {
      const checked = checkIpAddress(input.ip);
      if (checked.kind === 'invalid') throw new Error('the option schema let an invalid address through');
      const { t, locale } = ctx;
      if (checked.kind === 'internal') return internalAddressReply(checked.address, checked.range, t);
      const host = await ctx.services.hostscan.host(checked.address, { signal: ctx.signal });
      if (host === undefined) return unknownHostReply(checked.address, t);
      return { reply: hostReply(host, ctx.now(), ctx.preferences.timezone, t, locale), data: host };
    },
  });
}
