import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import type { OAuthProviderConfig, OAuthServerMetadata } from '../../contracts/oauth.js';
import { authorizationDenied, authorizationTimedOut, providerFailed } from './errors.js';
import type { Prompter } from './prompt.js';
import { asClient, asServer, clientAuth, requestOptions, tokenEndpointError } from './server.js';

export interface LoopbackOptions {
  prompt: Prompter;
  /** Opens the URL in a browser; resolves false when it could not (the URL is then only shown). */
  openUrl?: (url: string) => Promise<boolean>;
  timeoutMs: number;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>\n`;

/**
 * The authorization code grant with PKCE and a loopback redirect (RFC 8252 §7.3, RFC 7636): a
 * one-shot server on `http://127.0.0.1:<random port>/callback` receives the browser's redirect;
 * a callback whose state is not ours is refused and the wait goes on (a page of another site
 * cannot end or hijack the flow); the code is exchanged with the verifier that never left this
 * process. The server listens only on 127.0.0.1 and closes once one callback is accepted.
 */
export async function loopbackGrant(p: OAuthProviderConfig, m: OAuthServerMetadata, o: LoopbackOptions): Promise<oauth.TokenEndpointResponse> {
  if (!m.authorization_endpoint) throw providerFailed(p.name, 'it has no authorization endpoint for a browser login (try --device)');
  const as = asServer(m);
  const client = asClient(p);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();

  let accept!: (params: URLSearchParams) => void;
  let refuse!: (e: unknown) => void;
  const callback = new Promise<URLSearchParams>((ok, fail) => {
    accept = ok;
    refuse = fail;
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, title: string, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
      res.end(PAGE(title, text));
    };
    if (req.method !== 'GET' || url.pathname !== '/callback') return reply(404, 'Not found', 'This is kairos waiting for an authorization.');
    if (url.searchParams.get('state') !== state) return reply(400, 'Wrong request', 'This answer is not for the authorization kairos started; it was ignored.');
    try {
      const params = oauth.validateAuthResponse(as, client, url.searchParams, state);
      reply(200, 'kairos is authorized', 'You can close this tab and go back to the terminal.');
      accept(params);
    } catch (e) {
      reply(400, 'Authorization refused', 'kairos was not authorized. See the terminal for what to do.');
      if (e instanceof oauth.AuthorizationResponseError) refuse(authorizationDenied(p.name, safeCode(e.error), undefined));
      else refuse(providerFailed(p.name, `its authorization response was not valid (${(e as Error).message})`, e));
    }
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = new URL(m.authorization_endpoint);
    url.searchParams.set('client_id', p.client_id);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('response_type', 'code');
    if (p.scopes.length) url.searchParams.set('scope', p.scopes.join(' '));
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');

    const opened = o.openUrl ? await o.openUrl(url.href).catch(() => false) : false;
    o.prompt({ kind: 'browser', url: url.href, opened });
    const timeout = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(authorizationTimedOut(p.name, Math.round(o.timeoutMs / 60_000))), o.timeoutMs);
    });
    const params = await Promise.race([callback, timeout]);
    try {
      const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth(p, m), params, redirectUri, verifier, requestOptions(m.token_endpoint));
      return await oauth.processAuthorizationCodeResponse(as, client, res);
    } catch (e) {
      const err = tokenEndpointError(p.name, m.token_endpoint, e);
      if (err instanceof oauth.ResponseBodyError) throw providerFailed(p.name, `it refused the authorization code (${safeCode(err.error)})`, err);
      throw err;
    }
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}

/** An OAuth error code as the provider sent it, kept to its grammar (RFC 6749 §5.2) so nothing else leaks into a message. */
export function safeCode(code: string): string {
  return /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(code) ? code : 'an unreadable error';
}
