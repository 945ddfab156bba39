import type { Scope } from '../contracts/scopes.js';
import { forbidden } from '../errors.js';

/** Who is calling: resolved once per request by the auth middleware, passed to every service call. */
export interface Principal {
  /** The user whose data the request acts on (the key's user, or the impersonated one). */
  userId: string;
  /** The user the credential belongs to. */
  authUserId: string;
  keyId: string | null;
  agentId: string | null;
  scopes: ReadonlySet<Scope>;
  via: 'key' | 'token';
}

export const hasScope = (p: Principal, s: Scope) => p.scopes.has(s) || p.scopes.has('admin');

export function requireScope(p: Principal, s: Scope): void {
  if (!hasScope(p, s)) throw forbidden(`This key lacks the "${s}" scope.`);
}

/**
 * The one place per-user isolation is decided: a request may name a user_id, and gets it only
 * when it is the caller's own (or the caller is admin). Every route that takes a user_id uses this.
 */
export function targetUser(p: Principal, requested?: string | null): string {
  if (!requested || requested === p.userId) return p.userId;
  if (p.scopes.has('admin')) return requested;
  throw forbidden('You can only access your own data.');
}

/** Guard on a record already loaded: 403 when it belongs to someone else. */
export function assertOwner(p: Principal, ownerId: string): void {
  if (ownerId !== p.userId && !p.scopes.has('admin')) throw forbidden('You can only access your own data.');
}

/** Who to record as the actor of a change (history entries, transitions, authored_by). */
export const actorOf = (p: Principal) => p.agentId ?? p.authUserId;
