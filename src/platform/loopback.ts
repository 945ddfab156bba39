import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Which hosts are this machine. One set of answers for the daemon (plain HTTP only on loopback),
 * its Host check (DNS rebinding), the CLI (where it may send a key), OAuth (plain http only to a
 * provider on loopback) and the outbound policy's host names.
 */

/** Lower case, no brackets around an IPv6 literal, no trailing dot of a fully qualified name. */
export function bareHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** An IPv6 literal in its one canonical spelling (`0:0::1` is `::1`; `::ffff:127.0.0.1` is `::ffff:7f00:1`). */
const canonicalV6 = (h: string) => new URL(`http://[${h}]/`).hostname.slice(1, -1);

/** `localhost`, or a loopback address (127.0.0.0/8, ::1 in any spelling, ::ffff:127.x.x.x). */
export function isLoopbackHost(host: string): boolean {
  const h = bareHost(host);
  if (h === 'localhost') return true;
  const v = isIP(h);
  if (v === 4) return h.startsWith('127.');
  if (v !== 6) return false;
  const c = canonicalV6(h);
  return c === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(c);
}

/** The any-address a server binds to listen on every interface (0.0.0.0, :: in any spelling). */
export function isWildcardAddress(host: string): boolean {
  const h = bareHost(host);
  const v = isIP(h);
  return v === 4 ? h === '0.0.0.0' : v === 6 && canonicalV6(h) === '::';
}

/** The addresses of this machine's interfaces, bare (see bareHost). */
export function interfaceAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(bareHost(a.address));
  return out;
}
