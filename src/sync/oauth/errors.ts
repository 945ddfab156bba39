import { AppError } from '../../errors.js';

/**
 * The errors of the OAuth module. None of them carries a token, a secret or a server's raw
 * response: messages name the provider, the OAuth error code and the command that fixes it.
 */

export const reauthorizeCommand = (name: string) => `kairos cal oauth login ${name}`;

export const oauthNotFound = (name: string) =>
  new AppError(404, 'oauth_provider_not_found', `No OAuth provider named "${name}". Add one with: kairos cal oauth add ${name} --issuer URL --client-id ID`);

/** The grant is gone (revoked by the person or the provider, expired, or its refresh token was reused). */
export const grantRevoked = (name: string, error: string) =>
  new AppError(
    401,
    'oauth_grant_revoked',
    `The authorization kairos held for "${name}" was revoked or has expired (the provider answered ${error}). Authorize again with: ${reauthorizeCommand(name)}`,
  );

/** An access token ran out and there is no refresh token to get another. */
export const grantExpired = (name: string) =>
  new AppError(
    401,
    'oauth_grant_expired',
    `The access token for "${name}" has expired and the provider gave no refresh token. Authorize again with: ${reauthorizeCommand(name)}`,
  );

/** The person (or the provider) refused at the authorization step. */
export const authorizationDenied = (name: string, error: string, description?: string) =>
  new AppError(403, 'oauth_denied', `The provider "${name}" refused the authorization: ${error}${description ? ` (${description})` : ''}.`);

/** The provider answered something kairos cannot use: a protocol error, not the person's doing. */
export const providerFailed = (name: string, what: string, cause?: unknown) =>
  new AppError(502, 'oauth_provider_error', `The OAuth provider "${name}" failed: ${what}.`, { cause: sanitize(cause), expose: true });

export const providerUnreachable = (name: string, url: string, cause?: unknown) =>
  new AppError(502, 'oauth_provider_unreachable', `Cannot reach the OAuth provider "${name}" at ${url}: ${networkReason(cause)}.`, { expose: true });

export const authorizationTimedOut = (name: string, minutes: number) =>
  new AppError(408, 'oauth_timeout', `No authorization for "${name}" arrived within ${minutes} minutes; nothing was changed. Run the command again.`);

function networkReason(e: unknown): string {
  const c = (e as { cause?: { code?: string } })?.cause?.code ?? (e as NodeJS.ErrnoException)?.code;
  return c ?? (e instanceof Error ? e.message : 'unknown error');
}

/**
 * Keeps only the name and message of a library's error as the cause: oauth4webapi's errors hold
 * the whole Response or parsed body as their cause, which a log line could print.
 */
function sanitize(e: unknown): Error | undefined {
  if (!(e instanceof Error)) return undefined;
  const s = new Error(e.message);
  s.name = e.name;
  return s;
}
