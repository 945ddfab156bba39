import type { OAuthAccountFile } from '../../contracts/oauth.js';

/**
 * Where a provider's grant is spent when no allow-list was given: its issuer's hosts. A provider
 * whose calendar lives on another host than its issuer is listed here by issuer; any other needs
 * `kairos cal oauth add … --allow-host`.
 */
const RESOURCE_HOSTS: Record<string, string[]> = {
  'https://accounts.google.com': ['apidata.googleusercontent.com', 'www.googleapis.com'],
};

/** The hosts a CalDAV account signed with this grant may reach: the allow-list given at `add`, else the issuer's. */
export function grantHosts(a: Pick<OAuthAccountFile, 'provider' | 'server'>): string[] {
  if (a.provider.allowed_hosts?.length) return a.provider.allowed_hosts;
  const issuer = a.provider.issuer ?? a.server.issuer;
  const own = new URL(issuer).hostname.toLowerCase();
  return [own, ...(RESOURCE_HOSTS[issuer.replace(/\/+$/, '')] ?? [])];
}
