import { describe, expect, it } from 'vitest';
import { checkIpAddress } from '../../commands/ip-address.ts';

describe('checkIpAddress', () => {
  it.each([
    ['8.8.8.8', 4],
    [' 1.1.1.1 ', 4],
    ['203.0.113.7', 4],
    ['2001:4860:4860::8888', 6],
    ['2a03:2880:f10c:83:face:b00c:0:25de', 6],
  ])('accepts the public address %s', (text, version) => {
    expect(checkIpAddress(text)).toEqual({ kind: 'public', address: text.trim(), version });
  });

  it.each([
    ['10.0.0.1', 'private (RFC 1918)'],
    ['172.16.5.4', 'private (RFC 1918)'],
    ['172.31.255.255', 'private (RFC 1918)'],
    ['192.168.1.10', 'private (RFC 1918)'],
    ['100.64.0.1', 'carrier-grade NAT (100.64.0.0/10)'],
    ['127.0.0.1', 'loopback (127.0.0.0/8)'],
    ['169.254.169.254', 'link-local (169.254.0.0/16)'],
    ['0.0.0.0', 'this-network (0.0.0.0/8)'],
    ['239.255.255.250', 'multicast (224.0.0.0/4)'],
    ['255.255.255.255', 'reserved (240.0.0.0/4)'],
    ['::', 'unspecified (::)'],
    ['::1', 'loopback (::1)'],
    ['0:0:0:0:0:0:0:1', 'loopback (::1)'],
    ['fe80::1ff:fe23:4567:890a', 'link-local (fe80::/10)'],
    ['fd12:3456:789a::1', 'unique local (fc00::/7)'],
    ['ff02::1', 'multicast (ff00::/8)'],
    ['::ffff:192.168.0.1', 'private (RFC 1918)'],
  ])('recognises %s as %s', (text, range) => {
    expect(checkIpAddress(text)).toEqual({ kind: 'internal', address: text, range });
  });

  it('does not mistake neighbours of the private ranges for private ones', () => {
    expect(checkIpAddress('172.32.0.1').kind).toBe('public');
    expect(checkIpAddress('100.128.0.1').kind).toBe('public');
    expect(checkIpAddress('11.0.0.1').kind).toBe('public');
  });

  it.each([
    ['999.1.1.1'],
    ['256.0.0.1'],
    ['example.com'],
    ['1.2.3'],
    ['1.2.3.4/32'],
    ['fe80::1%eth0'],
    [''],
    ['::g'],
  ])('rejects %j', (text) => {
    expect(checkIpAddress(text)).toEqual({ kind: 'invalid' });
  });
});
