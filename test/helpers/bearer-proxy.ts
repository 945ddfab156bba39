import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A CalDAV server that wants OAuth 2.0 Bearer tokens, made of Radicale and this reverse proxy in
 * front of it: each request's token is checked at the authorization server's userinfo endpoint
 * (a token that expired or was revoked there is refused with 401 and `WWW-Authenticate: Bearer
 * error="invalid_token"`, RFC 6750), then the request goes on to Radicale with its htpasswd
 * credentials. The test can also make it refuse tokens that the authorization server still
 * accepts (`refuseNext`, `refuseAll`): a resource server that rotated its keys, say.
 */
export interface BearerProxy {
  base: string;
  /** Every distinct token presented, in order (for the test to compare, never to print). */
  tokens: string[];
  counts: { requests: number; refused: number; forwarded: number; withoutBearer: number };
  state: { refuseNext: number; refuseAll: boolean };
  /** Map a Radicale URL to the same collection behind the proxy. */
  via(radicaleUrl: string): string;
  close(): Promise<void>;
}

export async function startBearerProxy(o: { target: string; issuer: string; user: string; password: string }): Promise<BearerProxy> {
  const meta = (await (await fetch(`${o.issuer}/.well-known/openid-configuration`)).json()) as { userinfo_endpoint: string };
  const basic = `Basic ${Buffer.from(`${o.user}:${o.password}`).toString('base64')}`;
  const tokens: string[] = [];
  const counts = { requests: 0, refused: 0, forwarded: 0, withoutBearer: 0 };
  const state = { refuseNext: 0, refuseAll: false };
  const refuse = (res: import('node:http').ServerResponse, why: string) => {
    counts.refused++;
    res.writeHead(401, { 'www-authenticate': `Bearer error="invalid_token", error_description="${why}"` }).end();
  };
  const server: Server = createServer(async (req, res) => {
    counts.requests++;
    const parts: Buffer[] = [];
    for await (const b of req) parts.push(b as Buffer);
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!m) {
      counts.withoutBearer++;
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    const token = m[1]!;
    if (!tokens.includes(token)) tokens.push(token);
    if (state.refuseAll || state.refuseNext > 0) {
      state.refuseNext = Math.max(0, state.refuseNext - 1);
      refuse(res, 'refused by the test');
      return;
    }
    const info = await fetch(meta.userinfo_endpoint, { headers: { authorization: `Bearer ${token}` } });
    await info.body?.cancel();
    if (!info.ok) {
      refuse(res, `userinfo answered ${info.status}`);
      return;
    }
    counts.forwarded++;
    const t = new URL(o.target);
    const headers = { ...req.headers, host: t.host, authorization: basic };
    const up = request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    up.end(Buffer.concat(parts));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    tokens,
    counts,
    state,
    via: (url) => url.replace(o.target, base),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
