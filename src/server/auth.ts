import type { Scope } from '../contracts/scopes.js';
import type { Principal } from '../domain/principal.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import type { Services } from './services.js';

/** Pull the secret out of `Authorization: Bearer …`; anything else is a 401. */
export function bearerOf(header: string | undefined): string {
  if (!header) throw unauthorized('Missing Authorization header; send "Authorization: Bearer <key>".');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('Malformed Authorization header; expected "Bearer <key>".');
  return m[1]!;
}

const looksLikeJwt = (s: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(s);

/**
 * Turn a presented credential (API key or login token) and the X-Agent-ID / X-User-ID headers into
 * a Principal. Used by HTTP requests and WebSocket upgrades alike.
 */
export async function resolvePrincipal(services: Services, credential: string, headers: { agentId?: string; userId?: string } = {}): Promise<Principal> {
  let p: Principal;
  if (looksLikeJwt(credential)) {
    const t = await services.users.verifyToken(credential);
    if (!t) throw unauthorized('The token is invalid or expired; log in again.');
    p = { userId: t.userId, authUserId: t.userId, keyId: null, agentId: null, scopes: new Set<Scope>(t.scopes), via: 'token' };
  } else {
    const k = services.keys.verify(credential);
    if (!k) throw unauthorized('The API key is unknown, revoked or expired.');
    p = { userId: k.user_id, authUserId: k.user_id, keyId: k.id, agentId: k.agent_id, scopes: new Set<Scope>(k.scopes), via: 'key' };
  }
  const agentHeader = headers.agentId?.trim();
  if (agentHeader) {
    if (p.agentId && agentHeader !== p.agentId) throw forbidden(`X-Agent-ID "${agentHeader}" does not match this key's agent "${p.agentId}".`);
    p.agentId = agentHeader;
  }
  const userHeader = headers.userId?.trim();
  if (userHeader && userHeader !== p.userId) {
    if (!p.scopes.has('admin')) throw forbidden('X-User-ID (impersonation) needs the admin scope.');
    if (!services.users.get(userHeader)) throw notFound(`No user ${userHeader}.`);
    p.userId = userHeader;
  }
  return p;
}
