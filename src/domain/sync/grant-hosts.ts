/**
 * Whether a URL is on one of a grant's hosts: `host` matches that name on any port, `host:port`
 * only that port (the scheme's default when the URL names none), `*.domain` any name under it.
 */
export function hostAllowed(url: string, patterns: readonly string[]): boolean {
  const u = new URL(url);
  const host = u.hostname.toLowerCase();
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return patterns.some((raw) => {
    const p = raw.toLowerCase();
    const colon = p.startsWith('[') ? p.indexOf(':', p.indexOf(']')) : p.indexOf(':');
    const [name, want] = colon === -1 ? [p, undefined] : [p.slice(0, colon), p.slice(colon + 1)];
    if (want !== undefined && want !== port) return false;
    return name.startsWith('*.') ? host.endsWith(name.slice(1)) : host === name;
  });
}
