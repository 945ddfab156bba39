import * as oauth from 'oauth4webapi';
import type { OAuthProviderConfig, OAuthServerMetadata } from '../../contracts/oauth.js';
import { AppError } from '../../errors.js';
import { isLoopbackHost } from '../../platform/loopback.js';
import { homeFetch } from '../outbound/home-outbound.js';
import { OutboundError } from '../outbound/outbound-error.js';
import { providerFailed, providerUnreachable } from './errors.js';

/** How long one request to the provider may take before it counts as unreachable. */
const REQUEST_TIMEOUT_MS = 30_000;

/** Plain http is allowed only to a provider on this machine (a self-hosted test server): RFC 8252 §8.3 asks TLS of the rest. */
export function isLoopbackUrl(url: string): boolean {
  return isLoopbackHost(new URL(url).hostname);
}

/**
 * The options every oauth4webapi request gets: a timeout, plain http only on loopback, and the
 * outbound client (address policy, body cap) as its fetch.
 */
export function requestOptions(url: string): {
  signal: () => AbortSignal;
  [oauth.customFetch]: typeof homeFetch;
  [oauth.allowInsecureRequests]?: boolean;
} {
  return {
    signal: () => AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    [oauth.customFetch]: homeFetch,
    ...(isLoopbackUrl(url) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/** oauth4webapi's view of the metadata kairos keeps. */
export function asServer(m: OAuthServerMetadata): oauth.AuthorizationServer {
  return { ...m };
}

export function asClient(p: OAuthProviderConfig): oauth.Client {
  return { client_id: p.client_id };
}

/**
 * How kairos authenticates to the token endpoint: a public client (PKCE alone, RFC 8252's
 * native app) sends its id only; with a secret, HTTP Basic unless the server lists only POST.
 */
export function clientAuth(p: OAuthProviderConfig, m: OAuthServerMetadata): oauth.ClientAuth {
  if (!p.client_secret) return oauth.None();
  const methods = m.token_endpoint_auth_methods_supported;
  if (methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')) return oauth.ClientSecretPost(p.client_secret);
  return oauth.ClientSecretBasic(p.client_secret);
}

/**
 * The provider's metadata: discovered from its issuer (OpenID Connect discovery first, which
 * Google, Microsoft and most hosted providers publish, then RFC 8414), or built from the
 * endpoints given by hand. The issuer in the document must be the one asked for (RFC 8414 §3.3).
 */
export async function resolveServer(p: OAuthProviderConfig): Promise<OAuthServerMetadata> {
  if (!p.issuer) {
    const e = p.endpoints!;
    return { issuer: new URL(e.token_endpoint).origin, ...e };
  }
  const issuer = new URL(p.issuer);
  let lastError: unknown;
  for (const algorithm of ['oidc', 'oauth2'] as const) {
    let res: Response;
    try {
      res = await oauth.discoveryRequest(issuer, { ...requestOptions(p.issuer), algorithm });
    } catch (e) {
      if (isNetworkFailure(e)) throw providerUnreachable(p.name, p.issuer, ownWords(e));
      throw providerFailed(p.name, `its metadata could not be fetched (${(e as Error).message})`, e);
    }
    try {
      const as = await oauth.processDiscoveryResponse(issuer, res);
      return pick(as, p);
    } catch (e) {
      lastError = e;
    }
  }
  throw providerFailed(
    p.name,
    `no usable metadata at ${p.issuer} (tried /.well-known/openid-configuration and /.well-known/oauth-authorization-server: ${(lastError as Error).message}); give the endpoints with --token-endpoint and --authorization-endpoint instead`,
    lastError,
  );
}

function pick(as: oauth.AuthorizationServer, p: OAuthProviderConfig): OAuthServerMetadata {
  if (!as.token_endpoint) throw providerFailed(p.name, 'its metadata names no token endpoint');
  const m: OAuthServerMetadata = {
    issuer: as.issuer,
    token_endpoint: as.token_endpoint,
    authorization_endpoint: as.authorization_endpoint,
    device_authorization_endpoint: as.device_authorization_endpoint,
    revocation_endpoint: as.revocation_endpoint,
    token_endpoint_auth_methods_supported: as.token_endpoint_auth_methods_supported,
    code_challenge_methods_supported: as.code_challenge_methods_supported,
    authorization_response_iss_parameter_supported: as.authorization_response_iss_parameter_supported,
  };
  // Endpoints given by hand win over discovered ones (a provider with a broken document).
  return { ...m, ...Object.fromEntries(Object.entries(p.endpoints ?? {}).filter(([, v]) => v)) };
}

/** Turns a failure of a token-endpoint call into kairos's error; the OAuth `error` code is kept for callers to act on. */
export function tokenEndpointError(name: string, url: string, e: unknown): AppError | oauth.ResponseBodyError {
  if (e instanceof oauth.ResponseBodyError) return e;
  if (e instanceof AppError) return e;
  if (isNetworkFailure(e)) return providerUnreachable(name, url, ownWords(e));
  return providerFailed(name, `its token endpoint answered something kairos cannot use (${(e as Error)?.message ?? String(e)})`, e);
}

/** A request that got no usable answer: refused address, network failure, deadline, or an answer over the cap. */
function isNetworkFailure(e: unknown): boolean {
  return e instanceof OutboundError || e instanceof TypeError || (e as Error)?.name === 'TimeoutError' || (e as Error)?.name === 'AbortError';
}

/** The outbound client's sentence as the reason, not its bare code. */
function ownWords(e: unknown): unknown {
  return e instanceof OutboundError ? new Error(e.message) : e;
}
