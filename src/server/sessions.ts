import type { Services } from './services.js';

/**
 * What a long-lived session keeps of the credential it was opened with: enough to tell later,
 * without the secret, that the credential no longer stands.
 */
export type CredentialStamp = {
  /** The credential's user, and the user it acts for (the same unless impersonating). */
  authUserId: string;
  userId: string;
} & ({ via: 'key'; keyId: string; hash: string } | { via: 'token'; gen: number; exp: number });

/** How often open sessions are checked for expiry, which no commit announces. */
const EXPIRY_SWEEP_MS = 30_000;

interface Entry {
  stamp: CredentialStamp;
  end: () => void;
}

/**
 * The daemon's open sessions (`/ws` connections, MCP sessions) and the credentials behind them.
 * A session ends at once when its key is revoked or rotated, its token is outdated by a password
 * change, or its user (or the user it acts for) is removed: the store's change feed of `api_keys`
 * and `users` is the push, so no session waits for a poll. Expiry, which no commit marks, is
 * checked on a timer that runs only while sessions are open.
 */
export class Sessions {
  private readonly open = new Set<Entry>();
  private sweep: NodeJS.Timeout | undefined;
  private pending = false;

  constructor(private readonly services: Pick<Services, 'store' | 'clock' | 'keys' | 'users'>) {
    // A follower runs inside the commit: it only notes that a check is due, and the check runs
    // (and closes sockets) on a later turn.
    const due = () => this.checkSoon();
    services.store.changes('api_keys', due);
    services.store.changes('users', due);
  }

  /** Whether the credential behind `stamp` still stands. */
  valid(stamp: CredentialStamp): boolean {
    const { users, keys, clock } = this.services;
    if (!users.get(stamp.userId)) return false;
    if (stamp.via === 'key') return keys.stillHolds(stamp.keyId, stamp.hash);
    return users.tokenGenerationValid(stamp.authUserId, stamp.gen) && stamp.exp * 1000 > clock.now().getTime();
  }

  /** Follow a session: `end` is called once, when its credential stops standing. Returns how to stop following. */
  add(stamp: CredentialStamp, end: () => void): () => void {
    const entry: Entry = { stamp, end };
    this.open.add(entry);
    if (!this.sweep) {
      this.sweep = setInterval(() => this.check(), EXPIRY_SWEEP_MS);
      this.sweep.unref();
    }
    // The credential may have ended while the session was being opened.
    if (!this.valid(stamp)) this.checkSoon();
    return () => this.remove(entry);
  }

  /** End every session whose credential no longer stands. */
  private check(): void {
    for (const e of [...this.open]) {
      if (this.valid(e.stamp)) continue;
      this.remove(e);
      e.end();
    }
  }

  private checkSoon(): void {
    if (this.pending || !this.open.size) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.check();
    });
  }

  private remove(e: Entry): void {
    this.open.delete(e);
    if (!this.open.size) this.stopSweep();
  }

  private stopSweep(): void {
    clearInterval(this.sweep);
    this.sweep = undefined;
  }
}

const registries = new WeakMap<object, Sessions>();

/** The one registry of a daemon (of its services): `/ws` and `/mcp` share it. */
export function sessionsOf(services: Pick<Services, 'store' | 'clock' | 'keys' | 'users'>): Sessions {
  let s = registries.get(services);
  if (!s) registries.set(services, (s = new Sessions(services)));
  return s;
}
