// Pure formatting of an S6 host record for /host: the services one line per port, the
// vulnerabilities newest first.
import { timeValue, type Reply } from '../src/core/reply.ts';
import type { HostRecord, HostService } from '../src/services/hostscan/client.ts';
import { host as messages } from '../src/i18n/host.ts';
import { english, type Translate } from '../src/i18n/translate.ts';
import { formatNumber, formatRelative, listMore } from './format.ts';

const SHOWN_VULNS = 5;

/** One service per port and transport, sorted by port. */
export function servicesByPort(services: readonly HostService[]): HostService[] {
  const seen = new Map<string, HostService>();
  for (const s of services) {
    const key = `${s.port}/${s.transport}`;
    const known = seen.get(key);
    // Several banners for one port: keep the one that names the product.
    if (known === undefined || (known.product === undefined && s.product !== undefined)) seen.set(key, s);
  }
  return [...seen.values()].sort((a, b) => a.port - b.port || a.transport.localeCompare(b.transport));
}

/** "nginx 1.18": what runs on a port, as far as the scanner says. */
export function serviceProduct(s: HostService, t: Translate = english): string {
  return (
    [s.product, s.version].filter((part) => part !== undefined && part !== '').join(' ') ||
    t('host:unknownService')
  );
}

/** "443/tcp  nginx 1.18", one line per port and transport, sorted by port, at most `max` lines. */
function formatServiceLines(services: readonly HostService[], t: Translate, max = 15): string[] {
  const sorted = servicesByPort(services);
  // A loop, not Math.max(...): a spread of more than about 125,000 banners throws a RangeError.
  const width = sorted.reduce((w, s) => Math.max(w, `${s.port}/${s.transport}`.length), 0) + 2;
  const lines = sorted
    .slice(0, max)
    .map((s) => `${`${s.port}/${s.transport}`.padEnd(width)}${serviceProduct(s, t)}`.trimEnd());
  // Digits alone, as the code block writes ports: "… and 199985 more".
  if (sorted.length > max) lines.push(t('host:moreServices', { n: sorted.length - max }));
  return lines;
}

/** CVE ids newest first (by year, then number): the likeliest to matter. */
export function sortCves(ids: readonly string[]): string[] {
  // Each id is read once, not in every comparison: a regular expression per comparison took 1.9 s
  // of CPU for 300,000 ids (5 MiB, inside the body bound), against 0.3 to 0.5 s this way.
  const keyed = [...new Set(ids)].map((id) => {
    const m = /^CVE-(\d{4})-(\d+)$/i.exec(id);
    return { id, year: m ? Number(m[1]) : 0, number: m ? Number(m[2]) : 0 };
  });
  keyed.sort((a, b) => b.year - a.year || b.number - a.number || a.id.localeCompare(b.id));
  return keyed.map((k) => k.id);
}

type RangeName = keyof (typeof messages)['en-GB']['ranges']['a'];
type OneAddressRange = keyof (typeof messages)['en-GB']['ranges']['the'];
const isRangeName = (name: string): name is RangeName => Object.hasOwn(messages['en-GB'].ranges.a, name);
const isOneAddress = (name: string): name is OneAddressRange =>
  Object.hasOwn(messages['en-GB'].ranges.the, name);

/**
 * How /host names an address no scanner can see, from a range named like "loopback (::1)":
 * "a private address (in 10.0.0.0/8)", "a private address (RFC 1918)", "the loopback address"
 * (a one-address range is not repeated beside the address itself).
 */
export function describeInternal(address: string, range: string, t: Translate = english): string {
  const m = /^(.*?)\s*\(([^()]*)\)$/.exec(range);
  const [name, block] = m ? [m[1]!, m[2]!] : [range, ''];
  if (!isRangeName(name)) return range;
  const oneAddress = /^[0-9a-f:.]+$/i.test(block) && !block.includes('/');
  const what = oneAddress && isOneAddress(name) ? t(`host:ranges.the.${name}`) : t(`host:ranges.a.${name}`);
  if (block === '' || block.toLowerCase() === address.toLowerCase()) return what;
  return block.includes('/') ? t('host:internal.inBlock', { what, block }) : `${what} (${block})`;
}

/** The answer for a private, loopback or otherwise internal address: nothing to look up. */
export function internalAddressReply(address: string, range: string, t: Translate): Reply {
  const what = describeInternal(address, range, t);
  return {
    text: t('host:internal.text', { address, what }),
    outcome: 'refused',
    embeds: [
      {
        title: t('host:internal.title', { address }),
        description: t('host:internal.description', { what }),
        color: 'warning',
      },
    ],
  };
}

/** The answer when the scanner has no record of a public address. */
export function unknownHostReply(address: string, t: Translate): Reply {
  return {
    text: t('host:notFound.text', { address }),
    outcome: 'not-found',
    embeds: [
      {
        title: t('host:notFound.title', { address }),
        description: t('host:notFound.description'),
        color: 'warning',
      },
    ],
  };
}

/** A host record as a reply: a summary line and an embed of its services, ports and vulnerabilities. */
/** `zone`: the reader's, for the plain text of the scan's time. */
export function hostReply(host: HostRecord, now: Date, zone: string, t: Translate, locale: string): Reply {
  const ports = [...new Set(host.ports)].sort((a, b) => a - b);
  const vulns = sortCves(host.vulns);
  const services = formatServiceLines(host.services, t);
  const more = (items: readonly string[], shown: number) => listMore(items, shown, t, locale);
  const vulnText =
    vulns.length === 0
      ? t('host:noneKnown')
      : `${formatNumber(vulns.length, 0, locale)}: ${more(vulns, SHOWN_VULNS)}`;
  const fields = [
    { name: t('host:fields.organisation'), value: host.org ?? t('host:unknown'), inline: true },
    { name: t('host:fields.country'), value: host.countryName ?? t('host:unknown'), inline: true },
    {
      name: t('host:fields.openPorts'),
      value: ports.length > 0 ? more(ports.map(String), 20) : t('host:noneSeen'),
      inline: true,
    },
    {
      name: t('host:fields.hostnames'),
      value: host.hostnames.length > 0 ? more(host.hostnames, 5) : t('host:none'),
    },
    { name: t('host:fields.vulnerabilities'), value: vulnText },
  ];
  const org = host.org ?? t('host:unknownOrganisation');
  const country = host.countryName ?? t('host:unknownCountry');
  const portCount = t('host:ports', { count: ports.length, n: formatNumber(ports.length, 0, locale) });
  const vulnCount = t('host:vulnerabilities', {
    count: vulns.length,
    n: formatNumber(vulns.length, 0, locale),
  });
  return {
    text: `${host.ip}: ${org}, ${country}; ${portCount}, ${vulnCount}`,
    embeds: [
      {
        title: t('host:title', { ip: host.ip }),
        description: services.length > 0 ? `\`\`\`\n${services.join('\n')}\n\`\`\`` : t('host:noBanners'),
        color: vulns.length > 0 ? 'warning' : 'info',
        fields,
        ...(host.lastUpdate
          ? {
              // The date itself is the timestamp: the footer gives the age only.
              footer: t('host:lastScanned', { ago: formatRelative(host.lastUpdate, now, locale) }),
              timestamp: timeValue(host.lastUpdate, zone, 'f', locale),
            }
          : {}),
      },
    ],
  };
}
