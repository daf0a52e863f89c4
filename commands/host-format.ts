// Pure formatting of an S6 host record for /host: the services one line per port, the
// vulnerabilities newest first.
import type { HostService } from '../src/services/hostscan/client.ts';

/** "443/tcp  nginx 1.18", one line per port and transport, sorted by port, at most `max` lines. */
export function formatServiceLines(services: readonly HostService[], max = 15): string[] {
  const seen = new Map<string, HostService>();
  for (const s of services) {
    const key = `${s.port}/${s.transport}`;
    const known = seen.get(key);
    // Several banners for one port: keep the one that names the product.
    if (known === undefined || (known.product === undefined && s.product !== undefined)) seen.set(key, s);
  }
  const sorted = [...seen.values()].sort((a, b) => a.port - b.port || a.transport.localeCompare(b.transport));
  const width = Math.max(...sorted.map((s) => `${s.port}/${s.transport}`.length), 0) + 2;
  const lines = sorted.slice(0, max).map((s) => {
    const what = [s.product, s.version].filter((part) => part !== undefined && part !== '').join(' ');
    return `${`${s.port}/${s.transport}`.padEnd(width)}${what || 'unknown service'}`.trimEnd();
  });
  if (sorted.length > max) lines.push(`… and ${sorted.length - max} more`);
  return lines;
}

/** CVE ids newest first (by year, then number): the likeliest to matter. */
export function sortCves(ids: readonly string[]): string[] {
  const key = (id: string): [number, number] => {
    const m = /^CVE-(\d{4})-(\d+)$/i.exec(id);
    return m ? [Number(m[1]), Number(m[2])] : [0, 0];
  };
  return [...new Set(ids)].sort((a, b) => {
    const [ya, na] = key(a);
    const [yb, nb] = key(b);
    return yb - ya || nb - na || a.localeCompare(b);
  });
}

/**
 * How /host names an address no scanner can see, from a range named like "loopback (::1)":
 * "a private address (in 10.0.0.0/8)", "a private address (RFC 1918)", "the loopback address"
 * (a one-address range is not repeated beside the address itself).
 */
export function describeInternal(address: string, range: string): string {
  const m = /^(.*?)\s*\(([^()]*)\)$/.exec(range);
  const [name, block] = m ? [m[1]!, m[2]!] : [range, ''];
  const article = /^[aeiou]/i.test(name) ? 'an' : 'a';
  if (block === '') return `${article} ${name} address`;
  if (block.includes('/')) return `${article} ${name} address (in ${block})`;
  if (/^[0-9a-f:.]+$/i.test(block)) {
    return block.toLowerCase() === address.toLowerCase()
      ? `the ${name} address`
      : `the ${name} address (${block})`;
  }
  return `${article} ${name} address (${block})`;
}
