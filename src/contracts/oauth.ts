import { z } from 'zod';
import { IsoDateTime } from './common.js';

/**
 * OAuth 2.0 for calendar providers (issue 21): what kairos keeps of a provider and of the grant it
 * holds there. Stored one file per provider in `<home>/oauth/` (mode 0600), never in db.json, so
 * exports and trace dumps cannot carry a token.
 */

/** A provider's name: what `kairos cal sync add --oauth <name>` refers to; also its file name. */
export const OAuthProviderName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, 'must be 1–63 characters: lowercase letters, digits, ".", "_" or "-", starting with a letter or digit');

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** Endpoints given by hand, for a provider that publishes no metadata. */
export const OAuthEndpoints = z.object({
  authorization_endpoint: HttpUrl.optional(),
  token_endpoint: HttpUrl,
  device_authorization_endpoint: HttpUrl.optional(),
  revocation_endpoint: HttpUrl.optional(),
});
export type OAuthEndpoints = z.infer<typeof OAuthEndpoints>;

/** How a provider is configured: an issuer (metadata discovered, RFC 8414 / OIDC) or explicit endpoints. */
export const OAuthProviderConfig = z
  .object({
    name: OAuthProviderName,
    issuer: HttpUrl.optional(),
    endpoints: OAuthEndpoints.optional(),
    client_id: z.string().min(1).max(512),
    /** Secret: kept in the 0600 file only, never shown. */
    client_secret: z.string().min(1).max(4096).optional(),
    scopes: z
      .array(
        z
          .string()
          .min(1)
          .max(512)
          .regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'a scope has no spaces or quotes'),
      )
      .max(50),
  })
  .refine((c) => c.issuer || c.endpoints, { message: 'give an issuer or the endpoints' });
export type OAuthProviderConfig = z.infer<typeof OAuthProviderConfig>;

/** The authorization server's metadata kairos uses, as discovered (or built from the endpoints) at authorization time. */
export const OAuthServerMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: HttpUrl.optional(),
  token_endpoint: HttpUrl,
  device_authorization_endpoint: HttpUrl.optional(),
  revocation_endpoint: HttpUrl.optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
});
export type OAuthServerMetadata = z.infer<typeof OAuthServerMetadata>;

/** The tokens of a grant. Secret: never leaves the file but as a bearer header. */
export const OAuthGrant = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  /** Absent when the server did not say (the token is then used until a 401). */
  expires_at: IsoDateTime.optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
  obtained_at: IsoDateTime,
  refreshed_at: IsoDateTime.optional(),
  /** Which grant made it: the loopback code flow or the device flow. */
  via: z.enum(['loopback', 'device']),
});
export type OAuthGrant = z.infer<typeof OAuthGrant>;

/** The whole file `<home>/oauth/<name>.json`. */
export const OAuthAccountFile = z.object({
  version: z.literal(1),
  provider: OAuthProviderConfig,
  server: OAuthServerMetadata,
  grant: OAuthGrant,
});
export type OAuthAccountFile = z.infer<typeof OAuthAccountFile>;

/** What `kairos cal oauth list` shows of an account: everything but the secrets. */
export const OAuthAccountSummary = z.object({
  name: OAuthProviderName,
  issuer: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  scopes: z.array(z.string()),
  granted_scope: z.string().nullable(),
  via: z.enum(['loopback', 'device']),
  obtained_at: IsoDateTime,
  refreshed_at: IsoDateTime.nullable(),
  access_token_expires_at: IsoDateTime.nullable(),
  has_refresh_token: z.boolean(),
});
export type OAuthAccountSummary = z.infer<typeof OAuthAccountSummary>;
