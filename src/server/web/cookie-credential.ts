import type { Context } from 'koa';
import { AppError, unauthorized } from '../../errors.js';
import { bearerOf } from '../auth.js';
import type { Services } from '../services.js';
import { csrfMatches, type PageSession, pageSessionsOf } from './page-sessions.js';

/** The page's session cookie. */
export const SESSION_COOKIE = 'kairos_session';

/** Methods that change nothing: the only ones a cookie alone may call. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a request shows of itself to the cookie checks (an HTTP request or a WebSocket upgrade). */
export interface CookieRequest {
  method: string;
  cookie: string | undefined;
  origin: string | undefined;
  host: string | undefined;
  csrf: string | undefined;
}

/** An HTTP request as the cookie checks see it. */
export const cookieRequestOf = (ctx: Context): CookieRequest => ({
  method: ctx.method,
  cookie: ctx.get('cookie') || undefined,
  origin: ctx.get('origin') || undefined,
  host: ctx.get('host') || undefined,
  csrf: ctx.get('x-csrf-token') || undefined,
});

/** One cookie's value from a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** An Origin that is this daemon as the request reached it (the Host header is checked before). */
const ownOrigin = (origin: string, host: string | undefined) => Boolean(host) && (origin === `http://${host}` || origin === `https://${host}`);

/** Refuses a request sent by a page of another origin (a request with no Origin is no page's). */
export function assertOwnOrigin(req: Pick<CookieRequest, 'origin' | 'host'>): void {
  if (req.origin !== undefined && !ownOrigin(req.origin, req.host))
    throw new AppError(403, 'forbidden_origin', `A page at ${req.origin} may not use this daemon's session; only the daemon's own page may.`);
}

/**
 * The page session a request's cookie stands for, or undefined when it carries none. A cookie is
 * the browser's doing, not the page's, so it counts only from the daemon's own origin, and a
 * request that changes something must also echo the session's CSRF token, which only the page
 * holds (in memory). A cookie that names no live session is a 401: the page signs in again.
 */
export function cookieSession(services: Pick<Services, 'clock' | 'users'>, req: CookieRequest): PageSession | undefined {
  const sid = cookieValue(req.cookie, SESSION_COOKIE);
  if (!sid) return undefined;
  assertOwnOrigin(req);
  const session = pageSessionsOf(services).get(sid);
  if (!session) throw unauthorized('The page session ended or is unknown; sign in again (kairos open).');
  if (!SAFE_METHODS.has(req.method.toUpperCase()) && !csrfMatches(session, req.csrf))
    throw new AppError(403, 'csrf_failed', 'Missing or wrong X-CSRF-Token: a request that changes something must carry the session token the page was given.');
  return session;
}

/**
 * The credential a request presents: its `Authorization: Bearer` header, or else the web page's
 * session cookie, which stands only after the cookie checks above. HTTP routes and the `/ws`
 * upgrade both take it from here.
 */
export function presentedCredential(services: Pick<Services, 'clock' | 'users'>, authorization: string | undefined, req: CookieRequest): string {
  if (authorization) return bearerOf(authorization);
  return cookieSession(services, req)?.token ?? bearerOf(undefined);
}
