import { SCOPES, type Scope } from '../contracts/scopes.js';
import { hasScope, type Principal } from '../domain/principal.js';
import { forbidden } from '../errors.js';
import type { RouteAuth } from './route.js';

/**
 * The scopes that let a key act on itself (list, rotate, revoke): all but the feed's. The feed key
 * sits in a calendar app's settings, often synced to other services; it must not be able to turn
 * itself into anything, or even learn its own id.
 */
export const SELF_KEY_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'calendar:feed' && s !== 'admin');

/** The scopes any one of which passes a route's baseline (admin always does); null when public. */
export function acceptedScopes(auth: RouteAuth): Scope[] | null {
  if (auth === 'none') return null;
  if (typeof auth === 'string') return [auth];
  if ('anyOf' in auth) return [...auth.anyOf];
  return [...SELF_KEY_SCOPES];
}

/** The machine-readable form published in /openapi.json as `x-kairos-auth` (the route×scope test reads it). */
export function authSpec(auth: RouteAuth, note?: string): { public: true } | { any_of: Scope[]; key_in?: 'query'; self_key?: true; note?: string } {
  const scopes = acceptedScopes(auth);
  if (!scopes) return { public: true };
  return {
    ...(note ? { note } : {}),
    any_of: scopes,
    ...(typeof auth === 'object' && 'keyIn' in auth && auth.keyIn ? { key_in: auth.keyIn } : {}),
    ...(typeof auth === 'object' && 'selfKey' in auth ? { self_key: true as const } : {}),
  };
}

/** One line for humans (OpenAPI descriptions, docs/security.md). */
export function describeAuth(auth: RouteAuth): string {
  if (auth === 'none') return 'public';
  if (typeof auth === 'string') return `\`${auth}\``;
  if ('selfKey' in auth) return '`admin`; or the calling API key on itself, if it holds any scope but `calendar:feed`';
  const any = auth.anyOf.length === 1 ? `\`${auth.anyOf[0]}\`` : `one of ${auth.anyOf.map((s) => `\`${s}\``).join(', ')}`;
  return auth.keyIn === 'query' ? `${any} (API key in \`?key=\`)` : any;
}

/**
 * The route table's check, run before the body is read. Throws 403 when the principal does not
 * meet the declared baseline. `params` are the raw path parameters (for the self-key rule).
 */
export function authorize(p: Principal, auth: RouteAuth, params: Record<string, string | undefined>): void {
  if (auth === 'none' || hasScope(p, 'admin')) return;
  if (typeof auth === 'string') {
    if (!hasScope(p, auth)) throw forbidden(`This key lacks the "${auth}" scope.`);
    return;
  }
  if ('anyOf' in auth) {
    if (!auth.anyOf.some((s) => hasScope(p, s))) throw forbidden(`This key needs one of the scopes ${auth.anyOf.join(', ')}.`);
    return;
  }
  if (p.via !== 'key' || !p.keyId) throw forbidden('Managing API keys with a login token needs the admin scope.');
  if (!SELF_KEY_SCOPES.some((s) => p.scopes.has(s))) throw forbidden('This key may only read the calendar feed.');
  if (params.id !== undefined && params.id !== p.keyId) throw forbidden('A key may only act on itself; other keys need the admin scope.');
}
