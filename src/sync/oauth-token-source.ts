import type { TokenSource } from '../domain/sync/token-port.js';
import { createOAuth, reauthorizeCommand } from './oauth/index.js';

/**
 * The token source of the daemon: the OAuth providers kept in its home folder (`<home>/oauth/`).
 * A refresh takes the provider's file lock, so a `kairos cal oauth check` running at the same time
 * in another process never spends the same refresh token twice.
 */
export function createOAuthTokenSource(home: string): TokenSource {
  const oauth = createOAuth({ home });
  return {
    has: (provider) => oauth.has(provider),
    accessToken: (provider, o) => oauth.accessToken(provider, { forceRefresh: o.refresh }),
    reauthorizeCommand,
  };
}
