import type { Context, Next } from 'koa';
import { AppError } from '../../errors.js';
import { interfaceAddresses, isLoopbackHost, isWildcardAddress } from '../../platform/loopback.js';

/** The host part of a `Host` header, lower-cased, brackets and port removed; '' when malformed. */
export function hostName(header: string | undefined): string {
  const h = (header ?? '').trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return '';
    const rest = h.slice(end + 1);
    return rest === '' || /^:\d{1,5}$/.test(rest) ? h.slice(1, end) : '';
  }
  const m = /^([^:]+)(?::\d{1,5})?$/.exec(h);
  return m ? m[1]! : '';
}

/**
 * The names a request's `Host` may carry: loopback names and addresses, and the host the daemon
 * was configured to listen on. Bound to a wildcard address, the addresses of this machine's
 * interfaces count as configured. A DNS-rebinding page reaches us under its own name, which is
 * none of these.
 */
export function hostAllowed(configured: string): (name: string) => boolean {
  const c = hostName(configured.includes(':') && !configured.startsWith('[') ? `[${configured}]` : configured);
  const extra = c && isWildcardAddress(c) ? interfaceAddresses() : new Set(c ? [c] : []);
  return (name) => Boolean(name) && (isLoopbackHost(name) || extra.has(name));
}

export const forbiddenHost = (host: string | undefined) =>
  new AppError(403, 'forbidden_host', `Host "${host ?? ''}" is not served here: use localhost, a loopback address or the configured host.`);

/** 403 `forbidden_host` unless the Host header names this daemon (DNS rebinding defence). */
export function hostCheck(configured: string) {
  const allowed = hostAllowed(configured);
  // The answer for the Host headers seen last (almost always one or two): the check is a pure
  // function of the header, worked out once per value. Bounded, so hostile values cannot grow it.
  const seen = new Map<string, boolean>();
  return (ctx: Context, next: Next) => {
    const header = ctx.get('host');
    let ok = seen.get(header);
    if (ok === undefined) {
      ok = allowed(hostName(header));
      if (seen.size >= 64) seen.clear();
      seen.set(header, ok);
    }
    if (!ok) throw forbiddenHost(header);
    return next();
  };
}
