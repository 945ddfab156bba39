import * as oauth from 'oauth4webapi';
import type { OAuthProviderConfig, OAuthServerMetadata } from '../../contracts/oauth.js';
import { authorizationDenied, authorizationTimedOut, providerFailed } from './errors.js';
import { safeCode } from './loopback.js';
import type { Prompter } from './prompt.js';
import { asClient, asServer, clientAuth, requestOptions, tokenEndpointError } from './server.js';

export interface DeviceOptions {
  prompt: Prompter;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/**
 * The device authorization grant (RFC 8628), for a terminal with no browser: the person opens
 * the verification URL on any device and types the code; kairos polls the token endpoint at the
 * interval the server asks, slowing down when told (§3.5), until the grant is given, refused or
 * the code expires.
 */
export async function deviceGrant(p: OAuthProviderConfig, m: OAuthServerMetadata, o: DeviceOptions): Promise<oauth.TokenEndpointResponse> {
  if (!m.device_authorization_endpoint)
    throw providerFailed(p.name, 'it does not offer the device authorization grant (run without --device to log in with a browser)');
  const as = asServer(m);
  const client = asClient(p);
  const auth = clientAuth(p, m);
  const sleep = o.sleep ?? pause;
  let start: oauth.DeviceAuthorizationResponse;
  try {
    const res = await oauth.deviceAuthorizationRequest(
      as,
      client,
      auth,
      p.scopes.length ? { scope: p.scopes.join(' ') } : {},
      requestOptions(m.device_authorization_endpoint),
    );
    start = await oauth.processDeviceAuthorizationResponse(as, client, res);
  } catch (e) {
    const err = tokenEndpointError(p.name, m.device_authorization_endpoint, e);
    if (err instanceof oauth.ResponseBodyError) throw providerFailed(p.name, `it refused to start a device login (${safeCode(err.error)})`, err);
    throw err;
  }
  o.prompt({
    kind: 'device',
    verification_uri: start.verification_uri,
    verification_uri_complete: start.verification_uri_complete,
    user_code: start.user_code,
    expires_in: start.expires_in,
  });
  const deadline = Date.now() + start.expires_in * 1000;
  let interval = (start.interval ?? 5) * 1000;
  for (;;) {
    if (Date.now() > deadline) throw authorizationTimedOut(p.name, Math.max(1, Math.round(start.expires_in / 60)));
    await sleep(interval);
    try {
      const res = await oauth.deviceCodeGrantRequest(as, client, auth, start.device_code, requestOptions(m.token_endpoint));
      return await oauth.processDeviceCodeResponse(as, client, res);
    } catch (e) {
      const err = tokenEndpointError(p.name, m.token_endpoint, e);
      if (!(err instanceof oauth.ResponseBodyError)) throw err;
      if (err.error === 'authorization_pending') continue;
      if (err.error === 'slow_down') {
        interval += 5000;
        continue;
      }
      if (err.error === 'access_denied') throw authorizationDenied(p.name, 'access_denied', 'the code was refused');
      if (err.error === 'expired_token') throw authorizationTimedOut(p.name, Math.max(1, Math.round(start.expires_in / 60)));
      throw providerFailed(p.name, `it refused the device login (${safeCode(err.error)})`, err);
    }
  }
}
