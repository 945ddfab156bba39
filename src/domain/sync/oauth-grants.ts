import { grantForbidden, mayUseGrants, type OAuthAccountSummary, type OAuthProviderRemoved } from '../../contracts/oauth.js';
import { AppError } from '../../errors.js';
import type { Principal } from '../principal.js';
import { hostAllowed } from './grant-hosts.js';
import type { TokenSource } from './token-port.js';

const notFound = (name: string) =>
  new AppError(
    404,
    'oauth_provider_not_found',
    `You have no OAuth provider named "${name}". Add it first with: kairos cal oauth add ${name} --issuer URL --client-id ID`,
  );

/**
 * Who may use an OAuth grant: each provider belongs to the user who authorized it. Only that user's
 * own login, or `admin` acting for them (X-User-ID), attaches it to an account, lists it or
 * removes it; another user's provider is answered as one that does not exist. An account signed
 * with it reaches only the provider's hosts, checked when it is added and at every sync.
 */
export class OAuthGrants {
  constructor(private readonly tokens: TokenSource) {}

  async list(p: Principal): Promise<OAuthAccountSummary[]> {
    this.authority(p);
    return (await this.tokens.list()).filter((a) => a.owner === p.userId);
  }

  /** A damaged file names no owner: only `admin` removes it. */
  async remove(p: Principal, name: string): Promise<OAuthProviderRemoved> {
    this.authority(p);
    await this.owned(p.userId, name).catch((e: unknown) => {
      if (!(e instanceof AppError && e.code === 'oauth_file_invalid' && p.scopes.has('admin'))) throw e;
    });
    return { name, ...(await this.tokens.remove(name)) };
  }

  /** Refuses, before anything is sent, an account the caller may not sign with the provider. */
  async attach(p: Principal, name: string, url: string): Promise<void> {
    this.authority(p);
    await this.reach(p.userId, name, url);
  }

  /** At each sync: the provider is still the account owner's, and the account's URL one of its hosts. */
  async reach(userId: string, name: string, url: string): Promise<void> {
    const g = await this.owned(userId, name);
    if (!hostAllowed(url, g.allowedHosts))
      throw new AppError(
        422,
        'oauth_host_not_allowed',
        `The OAuth provider "${name}" may only be used for ${g.allowedHosts.join(', ')}; ${new URL(url).host} is not one of them. To allow it, add the provider again with --allow-host: kairos cal oauth add ${name} … --allow-host ${new URL(url).host}`,
        { details: [{ path: 'url', message: `allowed hosts: ${g.allowedHosts.join(', ')}` }] },
      );
  }

  private authority(p: Principal): void {
    if (!mayUseGrants(p)) throw grantForbidden();
  }

  private async owned(userId: string, name: string): Promise<{ owner: string; allowedHosts: string[] }> {
    const g = await this.tokens.grant(name);
    if (!g || g.owner !== userId) throw notFound(name);
    return g;
  }
}
