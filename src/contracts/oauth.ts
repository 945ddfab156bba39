import { z } from 'zod';
import { AppError } from '../errors.js';
import { IsoDateTime } from './common.js';

/**
 * OAuth 2.0 for calendar providers: what kairos keeps of a provider and of the grant it
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

/**
 * A host a CalDAV account signed with the provider may reach: `host` (any port), `host:port`, or
 * `*.domain` (every name under it). Lowercase, as URLs carry them.
 */
export const OAuthHostPattern = z
  .string()
  .max(260)
  .regex(
    /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/,
    'a host is a lowercase name or address, optionally with :port, or *.domain',
  );

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
    /** Hosts the accounts using this provider may reach (`--allow-host`); absent: the issuer's hosts (`grantHosts` in sync/oauth/hosts.ts). */
    allowed_hosts: z.array(OAuthHostPattern).min(1).max(50).optional(),
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

/** The whole file `<home>/oauth/<name>.json`: the grant belongs to `owner`, a kairos user id. */
export const OAuthAccountFile = z.object({
  version: z.literal(2),
  owner: z.string().min(1),
  provider: OAuthProviderConfig,
  server: OAuthServerMetadata,
  grant: OAuthGrant,
});
export type OAuthAccountFile = z.infer<typeof OAuthAccountFile>;

/** The file as written before grants had an owner: read as the home's owner user's. */
export const OAuthAccountFileV1 = OAuthAccountFile.omit({ version: true, owner: true }).extend({ version: z.literal(1) });
export type OAuthAccountFileV1 = z.infer<typeof OAuthAccountFileV1>;

/**
 * Who may use a user's OAuth grants (attach one to an account, list or remove them): that user's
 * own login, or a credential with `admin` (acting for them with X-User-ID). An agent's key never:
 * a grant reaches the user's hosted calendar, which no API scope was given for.
 */
export function mayUseGrants(c: { via: 'key' | 'token'; scopes: Iterable<string> }): boolean {
  return c.via === 'token' || [...c.scopes].includes('admin');
}

export const grantForbidden = () =>
  new AppError(
    403,
    'oauth_grant_forbidden',
    "OAuth grants are used only with their user's own login (kairos user login) or an admin key; an agent's key cannot add, attach, list or remove them.",
  );

/** What `kairos cal oauth list` shows of an account: everything but the secrets. */
export const OAuthAccountSummary = z.object({
  name: OAuthProviderName,
  owner: z.string().describe('the kairos user the grant belongs to'),
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
  allowed_hosts: z.array(z.string()).describe('the hosts a CalDAV account signed with this provider may reach'),
});
export type OAuthAccountSummary = z.infer<typeof OAuthAccountSummary>;

export const OAuthProviderList = z.object({ providers: z.array(OAuthAccountSummary) });
export const OAuthProviderParams = z.object({ name: OAuthProviderName });
export const OAuthProviderRemoved = z.object({
  name: OAuthProviderName,
  removed: z.boolean().describe('its tokens and client secret were deleted'),
  revoked: z.boolean().describe('the provider was asked to revoke the grant and agreed'),
});
export type OAuthProviderRemoved = z.infer<typeof OAuthProviderRemoved>;
