import type { OAuthAccountSummary } from '../../contracts/oauth.js';

/**
 * Where the access tokens of OAuth-authenticated CalDAV accounts come from: the OAuth providers of
 * the daemon's home folder (src/sync/oauth-token-source.ts, over src/sync/oauth). The domain only
 * ever holds a token for the length of one sync run; it never stores or shows one.
 */
export interface TokenSource {
  /** The provider's owner and the hosts its grant may be sent to; undefined when no provider has that name. */
  grant(provider: string): Promise<{ owner: string; allowedHosts: string[] } | undefined>;
  /** Every provider of the home (no token, no secret), whoever owns it. */
  list(): Promise<OAuthAccountSummary[]>;
  /** Deletes the provider's tokens and client secret, then asks the provider to revoke the grant. */
  remove(provider: string): Promise<{ removed: boolean; revoked: boolean }>;
  /**
   * A valid access token of the provider's grant, refreshed (and its refresh token rotated) when it
   * runs out soon, or always with `refresh` (the resource server refused the last one). Fails with
   * an AppError: `oauth_grant_revoked` / `oauth_grant_expired` (its message names the command that
   * authorizes again), `oauth_provider_not_found`, `oauth_provider_unreachable`, …
   */
  accessToken(provider: string, o: { refresh: boolean }): Promise<string>;
  /** The command that authorizes the provider again, for messages. */
  reauthorizeCommand(provider: string): string;
}
