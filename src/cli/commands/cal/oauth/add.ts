import type { OAuthProviderConfig } from '../../../../contracts/oauth.js';
import { type CliDeps, type RunInput, usage } from '../../../command-runtime.js';
import { readSecret } from '../../../input/read-secret.js';
import { authorizeWith, type HowOptions } from './authorize.js';

interface AddOptions extends HowOptions {
  issuer?: string;
  clientId: string;
  clientSecretStdin?: boolean;
  scope?: string[];
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  deviceEndpoint?: string;
  revocationEndpoint?: string;
  allowHost?: string[];
}

export async function run({ args, opts }: RunInput<AddOptions>, deps: CliDeps): Promise<void> {
  const name = args[0]!;
  if (!opts.issuer && !opts.tokenEndpoint)
    throw usage('Give the provider with --issuer URL (its endpoints are discovered), or its endpoints with --token-endpoint and --authorization-endpoint.');
  // A secret never comes as an argument (argv is visible to every user of the machine and kept in shell history): piped in, or typed at a hidden prompt.
  const secret = opts.clientSecretStdin ? await readSecret(deps, !deps.streams.stdin.isTTY, 'Client secret:') : undefined;
  if (opts.clientSecretStdin && !secret) throw usage('--client-secret-stdin was given but stdin was empty.');
  const endpoints = opts.tokenEndpoint
    ? {
        token_endpoint: opts.tokenEndpoint,
        ...(opts.authorizationEndpoint ? { authorization_endpoint: opts.authorizationEndpoint } : {}),
        ...(opts.deviceEndpoint ? { device_authorization_endpoint: opts.deviceEndpoint } : {}),
        ...(opts.revocationEndpoint ? { revocation_endpoint: opts.revocationEndpoint } : {}),
      }
    : undefined;
  const config: OAuthProviderConfig = {
    name,
    ...(opts.issuer ? { issuer: opts.issuer } : {}),
    ...(endpoints ? { endpoints } : {}),
    client_id: opts.clientId,
    ...(secret ? { client_secret: secret } : {}),
    scopes: [...new Set((opts.scope ?? []).flatMap((s) => s.split(/\s+/)).filter(Boolean))],
    ...(opts.allowHost?.length ? { allowed_hosts: [...new Set(opts.allowHost.map((h) => h.trim().toLowerCase()))] } : {}),
  };
  await authorizeWith(deps, opts, (o, oauth) => oauth.authorize(config, o));
}
