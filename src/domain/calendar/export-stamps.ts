import type { Commit } from '../../store/commit.js';
import type { Store } from '../../store/store.js';
import type { Clock } from '../clock.js';

interface Stamp {
  /** Whole seconds (ms), as an HTTP date carries it. */
  at: number;
  /** Whether a response has carried `at` since it was set. */
  served: boolean;
}

const second = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * When each user's calendar export last changed, for `Last-Modified` on the feed and export.ics.
 * A committed write to a user's events or user record moves their stamp to now; a delete (whose
 * owner the operation does not carry) moves everyone's. An HTTP date has whole seconds, so a
 * change in the same second as a served stamp moves it one second on: a poller that already
 * holds that stamp then sees the change. Kept in memory: after a restart every stamp is the start.
 */
export class ExportStamps {
  private readonly stamps = new Map<string, Stamp>();
  private readonly start: number;

  constructor(
    store: Store,
    private readonly clock: Clock,
  ) {
    this.start = second(clock.now().getTime());
    store.commits((commit) => this.follow(commit));
  }

  /** The user's stamp as a response carries it. The body's time zones span years from now's, so a new year is a change too. */
  serve(userId: string): Date {
    const s = this.stamp(userId);
    s.served = true;
    const now = this.clock.now();
    return new Date(Math.max(s.at, Date.UTC(now.getUTCFullYear(), 0, 1)));
  }

  private stamp(userId: string): Stamp {
    let s = this.stamps.get(userId);
    if (!s) this.stamps.set(userId, (s = { at: this.start, served: false }));
    return s;
  }

  private touch(s: Stamp): void {
    s.at = Math.max(second(this.clock.now().getTime()), s.served ? s.at + 1000 : s.at);
    s.served = false;
  }

  private follow(commit: Commit): void {
    for (const c of ['events', 'users'] as const) {
      for (const change of commit.changes(c)) {
        if (change.op === 'put') this.touch(this.stamp(change.doc.user_id));
        else for (const s of this.stamps.values()) this.touch(s);
      }
    }
  }
}
