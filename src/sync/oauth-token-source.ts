import type { TokenSource } from '../domain/sync/token-port.js';
import { createOAuth, type HomeOwner, reauthorizeCommand } from './oauth/index.js';

/**
 * The token source of the daemon: the OAuth providers kept in its home folder (`<home>/oauth/`).
 * A refresh takes the provider's file lock, so a `kairos cal oauth check` running at the same time
 * in another process never spends the same refresh token twice. The first use rewrites the files
 * written before grants had an owner as the home owner's.
 */
export function createOAuthTokenSource(home: string, homeOwner: HomeOwner): TokenSource {
  const oauth = createOAuth({ home, homeOwner });
  let migrated: Promise<unknown> | undefined;
  const ready = () => {
    migrated ??= oauth.migrate().catch(() => (migrated = undefined));
    return migrated;
  };
  return {
    async grant(provider) {
      await ready();
      if (!(await oauth.has(provider))) return undefined;
      const a = await oauth.get(provider);
      return { owner: a.owner, allowedHosts: a.allowed_hosts };
    },
    async list() {
      await ready();
      return oauth.list();
    },
    async remove(provider) {
      await ready();
      return oauth.forget(provider);
    },
    async accessToken(provider, o) {
      await ready();
      return oauth.accessToken(provider, { forceRefresh: o.refresh });
    },
    reauthorizeCommand,
  };
}
