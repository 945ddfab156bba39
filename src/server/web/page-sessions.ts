import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';

/** How long a `kairos open` link works: long enough for a browser to start, short enough to be useless in a log. */
export const CODE_TTL_MS = 60_000;
/** Codes not yet used and page sessions, at most: old ones give way, so no caller can grow them. */
const MAX_CODES = 64;
const MAX_SESSIONS = 1_000;

const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');
const secret = () => randomBytes(32).toString('base64url');

interface Code {
  userId: string;
  expiresMs: number;
}

/** A signed-in page: the login token it acts with and the CSRF token its requests must echo. */
export interface PageSession {
  userId: string;
  /** A login token of the user: verifying it on every request ends the session with the token (password change, user removed, expiry). */
  token: string;
  csrf: string;
  expiresAt: string;
}

/**
 * The web page's one-time codes and sessions, kept in the daemon's memory only, under the SHA-256
 * of their secrets: a copy of the heap or of a log holds nothing that signs in. A restart signs
 * every page out (the page then asks for a password or a new `kairos open`).
 */
export class PageSessions {
  private readonly codes = new Map<string, Code>();
  private readonly sessions = new Map<string, PageSession>();

  constructor(private readonly services: Pick<Services, 'clock' | 'users'>) {}

  /** A new one-time code for `userId`. */
  newCode(userId: string): { code: string; expiresAt: string } {
    const now = this.services.clock.now().getTime();
    this.sweepCodes(now);
    const code = secret();
    bounded(this.codes, MAX_CODES);
    this.codes.set(digest(code), { userId, expiresMs: now + CODE_TTL_MS });
    return { code, expiresAt: new Date(now + CODE_TTL_MS).toISOString() };
  }

  /** The user a code was made for, once: the code is gone after this call, used or not. */
  takeCode(code: string): string | undefined {
    const key = digest(code);
    const found = this.codes.get(key);
    this.codes.delete(key);
    if (!found || found.expiresMs <= this.services.clock.now().getTime()) return undefined;
    return found.userId;
  }

  /** Open a session for a user who proved who they are; returns its cookie value. */
  async open(userId: string): Promise<{ sid: string; session: PageSession }> {
    const t = await this.services.users.tokenFor(userId);
    return this.openWith(userId, t.token, t.expires_at);
  }

  /** Open a session with a login token just issued by a password login. */
  openWith(userId: string, token: string, expiresAt: string): { sid: string; session: PageSession } {
    const sid = secret();
    const session: PageSession = { userId, token, csrf: secret(), expiresAt };
    bounded(this.sessions, MAX_SESSIONS);
    this.sessions.set(digest(sid), session);
    return { sid, session };
  }

  /** The session of a cookie value, if it is one of ours and not past its time. */
  get(sid: string | undefined): PageSession | undefined {
    if (!sid || sid.length > 200) return undefined;
    const key = digest(sid);
    const s = this.sessions.get(key);
    if (s && Date.parse(s.expiresAt) <= this.services.clock.now().getTime()) {
      this.sessions.delete(key);
      return undefined;
    }
    return s;
  }

  /** Sign a page out; true when the cookie named a session. */
  end(sid: string | undefined): boolean {
    return Boolean(sid) && this.sessions.delete(digest(sid!));
  }

  private sweepCodes(now: number): void {
    for (const [k, c] of this.codes) if (c.expiresMs <= now) this.codes.delete(k);
  }
}

/** Whether `given` is the session's CSRF token, compared in constant time. */
export function csrfMatches(session: PageSession, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(session.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Make room for one more entry by dropping the oldest (Maps keep insertion order). */
function bounded<K, V>(map: Map<K, V>, max: number): void {
  while (map.size >= max) map.delete(map.keys().next().value as K);
}

const registries = new WeakMap<object, PageSessions>();

/** The one registry of a daemon (of its services). */
export function pageSessionsOf(services: Pick<Services, 'clock' | 'users'>): PageSessions {
  let s = registries.get(services);
  if (!s) registries.set(services, (s = new PageSessions(services)));
  return s;
}
