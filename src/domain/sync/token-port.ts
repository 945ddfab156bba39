/**
 * Where the access tokens of OAuth-authenticated CalDAV accounts come from: the OAuth providers of
 * the daemon's home folder (src/sync/oauth-token-source.ts, over src/sync/oauth). The domain only
 * ever holds a token for the length of one sync run; it never stores or shows one.
 */
export interface TokenSource {
  /** Whether a provider of that name is set up (`kairos cal oauth add`). */
  has(provider: string): Promise<boolean>;
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
