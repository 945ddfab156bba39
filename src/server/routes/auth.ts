import { endpoint } from '../../contracts/endpoints.js';
import type { Scope } from '../../contracts/scopes.js';
import type { RateLimiter } from '../middleware/rate-limit.js';
import { route } from '../route.js';
import { SELF_KEY_SCOPES } from '../route-auth.js';

export const authRoutes = [
  route({
    ...endpoint('POST /auth/keys'),
    tag: 'auth',
    summary: 'Create an API key (the secret is shown once)',
    description: 'A key with agent_id acts as that agent. Only scopes the caller holds can be granted.',
    auth: 'admin',
    handler: ({ body, principal, services }) => services.keys.create(principal, body),
  }),
  route({
    ...endpoint('GET /auth/keys'),
    tag: 'auth',
    summary: 'List API keys (no secrets): all of them with admin, otherwise only the calling key',
    auth: { selfKey: true },
    handler: ({ principal, services }) => ({ keys: services.keys.list(principal) }),
  }),
  route({
    ...endpoint('GET /auth/whoami'),
    tag: 'auth',
    summary: 'The calling credential: its user, key, agent and scopes',
    description: 'What an MCP server or a script asks first, to offer only what the credential may do.',
    auth: { anyOf: SELF_KEY_SCOPES as readonly [Scope, ...Scope[]] },
    handler: ({ principal, services }) => ({
      user_id: principal.userId,
      via: principal.via,
      key_id: principal.keyId,
      agent_id: principal.agentId,
      scopes: [...principal.scopes].sort(),
      timezone: services.users.get(principal.userId)?.timezone ?? 'UTC',
    }),
  }),
  route({
    ...endpoint('POST /auth/keys/{id}/rotate'),
    tag: 'auth',
    summary: 'Give a key a new secret; the old one stops working at once',
    auth: { selfKey: true },
    handler: ({ params, principal, services }) => services.keys.rotate(principal, params.id),
  }),
  route({
    ...endpoint('DELETE /auth/keys/{id}'),
    tag: 'auth',
    summary: 'Revoke a key at once',
    auth: { selfKey: true },
    handler: ({ params, principal, services }) => services.keys.revoke(principal, params.id),
  }),
  route({
    ...endpoint('POST /user/login'),
    tag: 'user',
    summary: 'Exchange email and password for a 12-hour token',
    description: 'Limited per client address and per email (429 rate_limited). An unknown email costs the same time as a wrong password.',
    auth: 'none',
    handler: ({ body, services, ctx }) => {
      (ctx.state.limiter as RateLimiter).chargeLoginEmail(body.email);
      return services.users.login(body.email, body.password);
    },
  }),
];
