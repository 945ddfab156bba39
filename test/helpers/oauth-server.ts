import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OAuth 2.0 / OpenID Connect authorization server on loopback: the certified
 * `oidc-provider`, with its development login and consent pages (any login is accepted), PKCE,
 * the device authorization grant (RFC 8628), refresh tokens rotated on every use, and token
 * revocation (RFC 7009). Two clients: a public native one (PKCE, any loopback port, RFC 8252)
 * and a confidential one with a secret.
 */
export interface TestAuthServer {
  issuer: string;
  provider: Provider;
  publicClient: string;
  confidentialClient: { id: string; secret: string };
  close(): Promise<void>;
}

/** oidc-provider's development warnings and notices, once per process: noise in a test's output. */
function quietProvider(): void {
  for (const level of ['warn', 'info', 'log'] as const) {
    const original = console[level];
    if ((original as { quieted?: boolean }).quieted) continue;
    const quiet = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider ')) return;
      original.apply(console, args);
    };
    quiet.quieted = true;
    console[level] = quiet;
  }
}

export async function startAuthServer(opts: { accessTokenTtl?: number } = {}): Promise<TestAuthServer> {
  quietProvider();
  const server: Server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const grantTypes = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'kairos-public',
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: grantTypes,
        response_types: ['code'],
      },
      {
        client_id: 'kairos-confidential',
        client_secret: 'confidential-secret-value-0123456789',
        token_endpoint_auth_method: 'client_secret_basic',
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: grantTypes,
        response_types: ['code'],
      },
    ],
    features: {
      devInteractions: { enabled: true },
      deviceFlow: { enabled: true },
      revocation: { enabled: true },
    },
    scopes: ['openid', 'offline_access', 'profile'],
    // Every grant that allows refresh_token gets one (no offline_access + prompt=consent dance).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: { AccessToken: opts.accessTokenTtl ?? 3600 },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });
  server.on('request', provider.callback());
  return {
    issuer,
    provider,
    publicClient: 'kairos-public',
    confidentialClient: { id: 'kairos-confidential', secret: 'confidential-secret-value-0123456789' },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
