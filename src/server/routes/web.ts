import type { Context } from 'koa';
import { endpoint } from '../../contracts/endpoints.js';
import type { Scope } from '../../contracts/scopes.js';
import { AppError, forbidden, unauthorized } from '../../errors.js';
import { authenticate } from '../auth.js';
import type { RateLimiter } from '../middleware/rate-limit.js';
import { route } from '../route.js';
import { SELF_KEY_SCOPES } from '../route-auth.js';
import type { Services } from '../services.js';
import { cookieRequestOf, cookieSession, SESSION_COOKIE } from '../web/cookie-credential.js';
import { type PageSession, pageSessionsOf } from '../web/page-sessions.js';

/** The page's answer for a live session; a session whose login token no longer stands is a 401. */
async function sessionBody(services: Services, s: PageSession) {
  await authenticate(services, s.token).catch(() => {
    throw unauthorized('The page session ended (password changed, user removed or expired); sign in again.');
  });
  return { user: services.users.profile(s.userId), csrf_token: s.csrf, expires_at: s.expiresAt };
}

function setSessionCookie(ctx: Context, sid: string, expiresAt: string): void {
  // HttpOnly: no script reads it; SameSite=Strict: no other site's page makes the browser send it.
  ctx.cookies.set(SESSION_COOKIE, sid, { httpOnly: true, sameSite: 'strict', path: '/', secure: false, overwrite: true, expires: new Date(expiresAt) });
}

const clearSessionCookie = (ctx: Context) =>
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', overwrite: true, expires: new Date(0) });

export const webRoutes = [
  route({
    ...endpoint('POST /app/codes'),
    tag: 'web',
    summary: 'A one-time link that signs the web page in (what `kairos open` opens)',
    description:
      'The code works once, for 60 seconds, and only signs in the calling user. The link carries it in its fragment, which no server log or Referer sees.',
    auth: { anyOf: SELF_KEY_SCOPES as readonly [Scope, ...Scope[]] },
    authNote: 'a person: a login token, or a key with `admin` made for no agent; agent keys get 403',
    handler: ({ principal, services, ctx }) => {
      const person = principal.via === 'token' || (principal.scopes.has('admin') && !principal.agentId);
      if (!person || principal.userId !== principal.authUserId)
        throw forbidden('Only the person (a login token, or an admin key made for no agent) may sign the page in.');
      const { code, expiresAt } = pageSessionsOf(services).newCode(principal.userId);
      return { code, url: `${ctx.protocol}://${ctx.host}/app/#code=${code}`, expires_at: expiresAt };
    },
  }),
  route({
    ...endpoint('POST /app/session'),
    tag: 'web',
    summary: "Sign the web page in with a one-time code or email and password; sets the page's session cookie",
    description:
      'The cookie is HttpOnly and SameSite=Strict; the answer carries the CSRF token every later request that changes something must send as X-CSRF-Token. Password sign-ins are limited like POST /user/login.',
    auth: 'none',
    handler: async ({ body, services, ctx }) => {
      const pages = pageSessionsOf(services);
      let opened: Awaited<ReturnType<typeof pages.open>>;
      if ('code' in body) {
        const userId = pages.takeCode(body.code);
        if (!userId) throw new AppError(401, 'code_invalid', 'This sign-in link is used, expired or unknown: run `kairos open` again.');
        opened = await pages.open(userId);
      } else {
        (ctx.state.limiter as RateLimiter).chargeLoginEmail(body.email);
        const t = await services.users.login(body.email, body.password);
        opened = pages.openWith(t.user_id, t.token, t.expires_at);
      }
      setSessionCookie(ctx, opened.sid, opened.session.expiresAt);
      return sessionBody(services, opened.session);
    },
  }),
  route({
    ...endpoint('GET /app/session'),
    tag: 'web',
    summary: "The web page's session of the cookie, with its CSRF token (401 when signed out)",
    auth: 'none',
    handler: async ({ services, ctx }) => {
      const s = cookieSession(services, cookieRequestOf(ctx));
      if (!s) throw unauthorized('The page is not signed in.');
      return sessionBody(services, s);
    },
  }),
  route({
    ...endpoint('DELETE /app/session'),
    tag: 'web',
    summary: 'Sign the web page out: the session ends on the daemon and the cookie is cleared',
    auth: 'none',
    handler: ({ services, ctx }) => {
      let known = false;
      try {
        known = cookieSession(services, cookieRequestOf(ctx)) !== undefined;
      } catch (e) {
        // A session that is gone already is signed out; a foreign origin or a missing CSRF token is refused.
        if (!(e instanceof AppError && e.status === 401)) throw e;
      }
      if (known) pageSessionsOf(services).end(ctx.cookies.get(SESSION_COOKIE));
      clearSessionCookie(ctx);
      return { signed_out: known };
    },
  }),
];
