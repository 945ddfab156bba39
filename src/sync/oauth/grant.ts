import type * as oauth from 'oauth4webapi';
import type { OAuthGrant } from '../../contracts/oauth.js';

/**
 * The grant kairos keeps from a token response. A response without a refresh token keeps the
 * one held before (RFC 6749 §6: the server MAY issue a new one); one with a new refresh token
 * replaces it (rotation).
 */
export function grantFrom(res: oauth.TokenEndpointResponse, now: Date, via: OAuthGrant['via'], previous?: OAuthGrant): OAuthGrant {
  const expires = typeof res.expires_in === 'number' && res.expires_in > 0 ? new Date(now.getTime() + res.expires_in * 1000).toISOString() : undefined;
  const refresh = res.refresh_token ?? previous?.refresh_token;
  return {
    access_token: res.access_token,
    token_type: res.token_type,
    ...(expires ? { expires_at: expires } : {}),
    ...(refresh ? { refresh_token: refresh } : {}),
    ...((res.scope ?? previous?.scope) ? { scope: res.scope ?? previous?.scope } : {}),
    obtained_at: previous?.obtained_at ?? now.toISOString(),
    ...(previous ? { refreshed_at: now.toISOString() } : {}),
    via,
  };
}
