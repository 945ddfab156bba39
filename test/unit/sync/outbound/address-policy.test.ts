import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../../../src/sync/outbound/address-policy.js';

describe('the outbound address policy', () => {
  const none = createAddressPolicy();

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'IPv6 loopback'],
    ['10.1.2.3', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['192.168.1.10', 'RFC 1918'],
    ['fd12:3456::1', 'ULA'],
    ['169.254.169.254', 'metadata (link-local)'],
    ['fd00:ec2::254', 'metadata (ULA)'],
    ['fe80::1', 'IPv6 link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback mapped into IPv6'],
    ['::ffff:169.254.169.254', 'metadata mapped into IPv6'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of an IPv4 address'],
    ['2002:a9fe:a9fe::1', '6to4 of an IPv4 address'],
  ])('refuses %s (%s) by default', (address) => {
    expect(none.allows(address, address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::6810:85e5', '::ffff:8.8.8.8'])('lets the public address %s through', (address) => {
    expect(none.allows(address, 'example.com')).toBe(true);
  });

  it('lets through the hosts, addresses and ranges it is given, and nothing else', () => {
    const p = createAddressPolicy(['NAS.local.', '192.168.1.10', '10.20.0.0/16', '[fd00::5]']);
    expect(p.allows('192.168.1.77', 'nas.local')).toBe(true);
    expect(p.allows('192.168.1.10', 'calendar.lan')).toBe(true);
    expect(p.allows('::ffff:192.168.1.10', 'calendar.lan')).toBe(true);
    expect(p.allows('10.20.3.4', '10.20.3.4')).toBe(true);
    expect(p.allows('fd00::5', 'fd00::5')).toBe(true);
    expect(p.allows('192.168.1.11', 'calendar.lan')).toBe(false);
    expect(p.allows('10.21.0.1', 'other.lan')).toBe(false);
    expect(p.allows('127.0.0.1', 'localhost')).toBe(false);
  });
});
