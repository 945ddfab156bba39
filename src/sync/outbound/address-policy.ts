import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import * as ipaddrNs from 'ipaddr.js';
import { bareHost } from '../../platform/loopback.js';

// ipaddr.js is CommonJS whose exports Node cannot list: under ESM its API is the default export.
type IP = ipaddrNs.IPv4 | ipaddrNs.IPv6;
const ipaddr = ((ipaddrNs as unknown as { default?: typeof ipaddrNs }).default ?? ipaddrNs) as typeof ipaddrNs;

/**
 * Which addresses kairos connects to. Only public unicast addresses by default: loopback, private
 * (RFC 1918, ULA), link-local (with the cloud metadata addresses), CGNAT, unspecified, multicast,
 * reserved and the IPv6 ranges that embed an IPv4 address are refused, because a URL given by an
 * agent key must not reach the machine itself or its network. `allowHosts` names exceptions: a
 * host name (every address it resolves to), an address, or a CIDR range.
 */
export interface AddressPolicy {
  /** Whether `address` may be connected to for `hostname` (the name as written in the URL). */
  allows(address: string, hostname: string): boolean;
}

export function createAddressPolicy(allowHosts: readonly string[] = []): AddressPolicy {
  const names = new Set<string>();
  const ranges: [IP, number][] = [];
  for (const raw of allowHosts) {
    const entry = normalizeHost(raw);
    if (!entry) continue;
    if (entry.includes('/') && ipaddr.isValidCIDR(entry)) ranges.push(unmapRange(ipaddr.parseCIDR(entry)));
    else if (isIP(entry)) ranges.push(unmapRange([ipaddr.parse(entry), isIP(entry) === 4 ? 32 : 128]));
    else names.add(entry);
  }
  return {
    allows(address, hostname) {
      if (names.has(normalizeHost(hostname))) return true;
      if (!ipaddr.isValid(address)) return false;
      const ip = ipaddr.process(address);
      if (ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return true;
      return ip.range() === 'unicast';
    },
  };
}

/** Lower case, no brackets around an IPv6 literal, no trailing dot of a fully qualified name. */
export const normalizeHost = bareHost;

function unmapRange([net, bits]: [IP, number]): [IP, number] {
  return net.kind() === 'ipv6' && (net as ipaddrNs.IPv6).isIPv4MappedAddress() && bits >= 96
    ? [(net as ipaddrNs.IPv6).toIPv4Address(), bits - 96]
    : [net, bits];
}

/** The error a refused address gives the socket: the client turns every connect failure into one error. */
export class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves the name, keeps only the addresses the policy allows and
 * hands those to the socket, so the address checked is the address connected to (no second DNS
 * answer between the check and the connect).
 */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: { family?: number | string; all?: boolean; hints?: number }, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    dnsLookup(hostname, { all: true, family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, []);
      const ok = addresses.filter((a) => policy.allows(a.address, hostname));
      if (ok.length === 0) return callback(new AddressRefused(`refused: ${hostname}`), []);
      if (options.all) return callback(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
