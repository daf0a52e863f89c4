// Validates /host's input before any request: only an IPv4 or IPv6 address passes (node:net's
// isIP), and addresses no internet scanner can see (private, loopback, ...) are answered locally.
import { isIP } from 'node:net';

export type IpCheck =
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
  if (a >= 224 && a <= 239) return 'multicast (224.0.0.0/4)';
  if (a >= 240) return 'reserved (240.0.0.0/4)';
  return undefined;
}

function internalV6(address: string): string | undefined {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return internalV4(mapped[1]!.split('.').map(Number));
  if (/^(0*:)*:?0*$/.test(lower)) return 'unspecified (::)';
  if (/^(0*:)*:?0*1$/.test(lower)) return 'loopback (::1)';
  const first = Number.parseInt(lower.split(':')[0] || '0', 16);
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
