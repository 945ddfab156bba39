import { ApiError, request, setCsrf } from './api.js';

/** What `/app/session` answers once signed in. */
export interface Session {
  user: { user_id: string; email?: string | null; display_name?: string } & Record<string, unknown>;
  csrf_token: string;
  expires_at: string;
}

/** The one-time code of a `kairos open` link (`/app/#code=…`), or undefined. */
export function codeOf(hash: string): string | undefined {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get('code');
  return code || undefined;
}

function started(s: Session): Session {
  setCsrf(s.csrf_token);
  return s;
}

/**
 * Sign in without asking: the link's code (taken out of the address bar first, so it is neither
 * bookmarked nor reused), else the session cookie. Undefined when neither works: the page then
 * shows the email and password form.
 */
export async function resume(): Promise<{ session?: Session; error?: string }> {
  const code = codeOf(location.hash);
  if (code) {
    history.replaceState(null, '', location.pathname + location.search);
    try {
      return { session: started(await request<Session>('POST', '/app/session', { code })) };
    } catch (e) {
      // A used or expired link falls back to the cookie, then to the form.
      const error = e instanceof ApiError ? `This sign-in link no longer works (${e.code}): run kairos open again, or sign in below.` : String(e);
      return { ...(await fromCookie()), error };
    }
  }
  return fromCookie();
}

async function fromCookie(): Promise<{ session?: Session }> {
  try {
    return { session: started(await request<Session>('GET', '/app/session')) };
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return {};
    throw e;
  }
}

/** Email and password sign-in. */
export async function signIn(email: string, password: string): Promise<Session> {
  return started(await request<Session>('POST', '/app/session', { email, password }));
}

/** End the session on the server and forget the CSRF token. */
export async function signOut(): Promise<void> {
  try {
    await request('DELETE', '/app/session');
  } finally {
    setCsrf(undefined);
  }
}
