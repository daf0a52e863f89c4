// Which hosts are this machine: plain http is allowed to them only (a local fake or proxy), so
// credentials never travel in clear text elsewhere.
/**
 * Loopback only: the IP literals 127.0.0.0/8 and ::1, and the name `localhost`. The URL parser has
 * already canonicalised the host (`127.1` and `0x7f.0.0.1` read as 127.0.0.1), so a name that merely
 * starts with `127.` (127.attacker.example) is not a dotted quad.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]' || hostname === '::1') return true;
  return /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(hostname);
}
