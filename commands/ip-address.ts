// Validates /host's input before any request: only an IPv4 or IPv6 address passes (node:net's
// isIP), and addresses no internet scanner can see (private, loopback, ...) are answered locally.
import { isIP } from 'node:net';

type IpCheck =
  | { kind: 'invalid' }
  /** A valid address that is not reachable from the internet; `range` names why. */
  | { kind: 'internal'; address: string; range: string }
  | { kind: 'public'; address: string; version: 4 | 6 };

// RFC 6890's special-purpose ranges that no internet scan can reach, by the first two octets.
function internalV4(octets: readonly number[]): string | undefined {
  const [a = 0, b = 0] = octets;
  if (a === 0) return 'this-network (0.0.0.0/8)';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private (RFC 1918)';
  if (a === 100 && b >= 64 && b <= 127) return 'carrier-grade NAT (100.64.0.0/10)';
  if (a === 127) return 'loopback (127.0.0.0/8)';
  if (a === 169 && b === 254) return 'link-local (169.254.0.0/16)';
  if (a === 192 && b === 0 && octets[2] === 0) return 'IETF protocol assignments (192.0.0.0/24)';
  if (a === 198 && (b === 18 || b === 19)) return 'benchmarking (198.18.0.0/15)';
  if (a >= 224 && a <= 239) return 'multicast (224.0.0.0/4)';
  if (a >= 240) return 'reserved (240.0.0.0/4)';
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (isIP said so), a dotted IPv4 tail included. */
function hextets(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const octetsOf = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];

/**
 * The IPv4 address an IPv6 form carries, and the form: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96), IPv4-compatible (::/96, deprecated), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 * A scanner asked about any of them reaches the IPv4 address, so that address decides.
 */
function embeddedV4(h: readonly number[]): number[] | undefined {
  const [h0, h1, h2, h3, h4, h5, h6 = 0, h7 = 0] = h;
  const zeroTo = (n: number) => h.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && h5 === 0xffff) return octetsOf(h6, h7);
  if (zeroTo(4) && h4 === 0xffff && h5 === 0) return octetsOf(h6, h7);
  if (zeroTo(6) && (h6 !== 0 || h7 > 1)) return octetsOf(h6, h7);
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0) return octetsOf(h6, h7);
  if (h0 === 0x2002) return octetsOf(h1 ?? 0, h2 ?? 0);
  return undefined;
}

function internalV6(address: string): string | undefined {
  const h = hextets(address);
  const v4 = embeddedV4(h);
  if (v4) return internalV4(v4);
  if (h.every((x) => x === 0)) return 'unspecified (::)';
  if (h.slice(0, 7).every((x) => x === 0) && h[7] === 1) return 'loopback (::1)';
  const first = h[0] ?? 0;
  if (first === 0x64 && h[1] === 0xff9b && h[2] === 1) return 'local-use NAT64 (64:ff9b:1::/48)';
  // Teredo hides its client's address (inverted) and names a relay: a scan reaches neither.
  if (first === 0x2001 && h[1] === 0) return 'Teredo (2001::/32)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((first & 0xfe00) === 0xfc00) return 'unique local (fc00::/7)';
  if ((first & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  return undefined;
}

export function checkIpAddress(text: string): IpCheck {
  const address = text.trim();
  // A zone id ("fe80::1%eth0") names a local interface; it has no meaning to a scanner.
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 4) {
    const range = internalV4(address.split('.').map(Number));
    return range ? { kind: 'internal', address, range } : { kind: 'public', address, version };
  }
  if (version === 6) {
    const range = internalV6(address);
    return range ? { kind: 'internal', address, range } : { kind: 'public', address, version };
  }
  return { kind: 'invalid' };
}
