import type { Scope } from '../contracts/scopes.js';
import type { Principal } from '../domain/principal.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import type { Services } from './services.js';
import type { CredentialStamp } from './sessions.js';

/** Pull the secret out of `Authorization: Bearer …`; anything else is a 401. */
export function bearerOf(header: string | undefined): string {
  if (!header) throw unauthorized('Missing Authorization header; send "Authorization: Bearer <key>".');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('Malformed Authorization header; expected "Bearer <key>".');
  return m[1]!;
}

const looksLikeJwt = (s: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(s);

/** A resolved credential, with what a long-lived session needs to check it again later. */
export interface Authenticated {
  principal: Principal;
  stamp: CredentialStamp;
}

/**
 * Turn a presented credential (API key or login token) and the X-Agent-ID / X-User-ID headers into
 * a Principal. Used by HTTP requests, WebSocket upgrades and MCP sessions alike.
 */
export async function authenticate(services: Services, credential: string, headers: { agentId?: string; userId?: string } = {}): Promise<Authenticated> {
  let p: Principal;
  let stamp: CredentialStamp;
  if (looksLikeJwt(credential)) {
    const t = await services.users.verifyToken(credential);
    if (!t) throw unauthorized('The token is invalid or expired; log in again.');
    p = { userId: t.userId, authUserId: t.userId, keyId: null, agentId: null, scopes: new Set<Scope>(t.scopes), via: 'token' };
    stamp = { via: 'token', authUserId: t.userId, userId: t.userId, gen: t.gen, exp: t.exp };
  } else {
    const k = services.keys.verify(credential);
    if (!k) throw unauthorized('The API key is unknown, revoked or expired.');
    p = { userId: k.user_id, authUserId: k.user_id, keyId: k.id, agentId: k.agent_id, scopes: new Set<Scope>(k.scopes), via: 'key' };
    stamp = { via: 'key', authUserId: k.user_id, userId: k.user_id, keyId: k.id, hash: k.hash };
  }
  const agentHeader = headers.agentId?.trim();
  if (agentHeader) {
    if (p.agentId && agentHeader !== p.agentId) throw forbidden(`X-Agent-ID "${agentHeader}" does not match this key's agent "${p.agentId}".`);
    // A key minted for no agent may not name one: that would record its writes as any agent's and
    // sidestep per-agent budgets. A login token is a person, who may act through an agent.
    if (!p.agentId && p.via === 'key' && !p.scopes.has('admin'))
      throw forbidden('X-Agent-ID needs a key minted for that agent (`kairos keys create --agent`), or the admin scope.');
    p.agentId = agentHeader;
  }
  const userHeader = headers.userId?.trim();
  if (userHeader && userHeader !== p.userId) {
    if (!p.scopes.has('admin')) throw forbidden('X-User-ID (impersonation) needs the admin scope.');
    if (!services.users.get(userHeader)) throw notFound(`No user ${userHeader}.`);
    p.userId = userHeader;
    stamp.userId = userHeader;
  }
  return { principal: p, stamp };
}

/** The Principal of a credential (see `authenticate`). */
export async function resolvePrincipal(services: Services, credential: string, headers: { agentId?: string; userId?: string } = {}): Promise<Principal> {
  return (await authenticate(services, credential, headers)).principal;
}
