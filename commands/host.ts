// /host ip: what the host intelligence service (S6) knows about one address. The input must be an
// IPv4 or IPv6 address, checked before any request; restricted to HOST_ALLOWED_USERS / _ROLES.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { UserError } from '../src/errors.ts';
import { hostAccess } from './access.ts';
import { formatRelative, listWithMore, plural, quote } from './format.ts';
import { describeInternal, formatServiceLines, sortCves } from './host-format.ts';
import { checkIpAddress } from './ip-address.ts';

export interface HostCommandOptions {
  users: readonly string[];
  roles: readonly string[];
}

const SHOWN_VULNS = 5;

export function createHostCommand(opts: HostCommandOptions) {
  return defineCommand({
    name: 'host',
    description: 'What the internet scanner knows about an IP address: ports, services, vulnerabilities',
    options: z.object({
      ip: z.string().trim().min(2).max(64).describe('An IPv4 or IPv6 address, e.g. 8.8.8.8'),
    }),
    positional: ['ip'],
    needs: ['hostscan'],
    access: [hostAccess(opts)],
    examples: ['/host 8.8.8.8', '/host 2001:4860:4860::8888'],
    async handler(input, ctx) {
      const checked = checkIpAddress(input.ip);
      if (checked.kind === 'invalid') {
        throw new UserError({
          code: 'invalid_input',
          message: `${quote(input.ip, 64)} is not an IP address; give an IPv4 address such as 8.8.8.8 or an IPv6 address such as 2001:4860:4860::8888 (host names are not looked up).`,
        });
      }
      if (checked.kind === 'internal') {
        const what = describeInternal(checked.address, checked.range);
        return {
          text: `${checked.address} is ${what}; no internet scanner can see it.`,
          embeds: [
            {
              title: `${checked.address} is not on the public internet`,
              description: `It is ${what}, so there is nothing to look up. Try the public address of the host instead.`,
              color: 'warning',
            },
          ],
        };
      }

      const host = await ctx.services.hostscan.host(checked.address, { signal: ctx.signal });
      if (host === undefined) {
        return {
          text: `No information is available for ${checked.address}.`,
          embeds: [
            {
              title: `Nothing known about ${checked.address}`,
              description:
                'The scanner has not seen any open service at this address. That is normal for most client and unused addresses.',
              color: 'warning',
            },
          ],
        };
      }

      const ports = [...new Set(host.ports)].sort((a, b) => a - b);
      const vulns = sortCves(host.vulns);
      const services = formatServiceLines(host.services);
      const vulnText =
        vulns.length === 0 ? 'None known' : `${vulns.length}: ${listWithMore(vulns, SHOWN_VULNS)}`;
      const fields = [
        { name: 'Organisation', value: host.org ?? 'Unknown', inline: true },
        { name: 'Country', value: host.countryName ?? 'Unknown', inline: true },
        {
          name: 'Open ports',
          value: ports.length > 0 ? listWithMore(ports.map(String), 20) : 'None seen',
          inline: true,
        },
        { name: 'Hostnames', value: host.hostnames.length > 0 ? listWithMore(host.hostnames, 5) : 'None' },
        { name: 'Vulnerabilities', value: vulnText },
      ];
      return {
        text: `${host.ip}: ${host.org ?? 'unknown organisation'}, ${host.countryName ?? 'unknown country'}; ${plural(ports.length, 'open port')}, ${plural(vulns.length, 'known vulnerability', 'known vulnerabilities')}`,
        embeds: [
          {
            title: `Host ${host.ip}`,
            description:
              services.length > 0 ? `\`\`\`\n${services.join('\n')}\n\`\`\`` : 'No service banners recorded.',
            color: vulns.length > 0 ? 'warning' : 'info',
            fields,
            ...(host.lastUpdate
              ? {
                  // The date itself is the timestamp: the footer gives the age only.
                  footer: `Last scanned ${formatRelative(host.lastUpdate, ctx.now())}`,
                  timestamp: host.lastUpdate.toISOString(),
                }
              : {}),
          },
        ],
      };
    },
  });
}
