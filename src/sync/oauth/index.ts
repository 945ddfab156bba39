import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { type OAuthAccountFile, type OAuthAccountSummary, OAuthProviderConfig } from '../../contracts/oauth.js';
import { AppError } from '../../errors.js';
import { AccountFiles, type HomeOwner, oauthDir, summarize } from './accounts.js';
import { deviceGrant } from './device.js';
import { grantExpired, grantRevoked, oauthNotFound, providerFailed } from './errors.js';
import { withFileLock } from './file-lock.js';
import { grantFrom } from './grant.js';
import { loopbackGrant, safeCode } from './loopback.js';
import { hasDisplay, openBrowser } from './open-browser.js';
import type { Prompter } from './prompt.js';
import { asClient, asServer, clientAuth, requestOptions, resolveServer, tokenEndpointError } from './server.js';

export type { HomeOwner } from './accounts.js';
export { oauthNotFound, reauthorizeCommand } from './errors.js';
export { hasDisplay } from './open-browser.js';
export type { AuthorizationPrompt, Prompter } from './prompt.js';

export interface OAuthDeps {
  /** The kairos home: accounts live in `<home>/oauth/`. */
  home: string;
  /** The home's owner user, who owns the grants written before grants had an owner. */
  homeOwner?: HomeOwner;
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
}

export interface AuthorizeOptions {
  /** The kairos user the grant is for: a new provider becomes theirs; `login` refuses a provider of another user. */
  owner: string;
  /** `loopback`: authorization code + PKCE through a browser; `device`: RFC 8628, for a terminal without one. */
  mode: 'loopback' | 'device';
  /** Shows the person what to do (the URL, or the device code). */
  prompt: Prompter;
  /**
   * Opens the authorization URL. Default: the platform's opener when there is a display, else
   * none (the URL is only shown). `null`: never open.
   */
  openUrl?: ((url: string) => Promise<boolean>) | null;
  /** How long the loopback flow waits for the browser. Default 5 minutes. */
  timeoutMs?: number;
  /** Sleep between device-grant polls (tests may not shorten the server's interval; this is for them to observe it). */
  sleep?: (ms: number) => Promise<void>;
}

export interface AccessTokenOptions {
  /** Refresh when the token has fewer seconds left than this. Default 60. */
  minValiditySeconds?: number;
  /** Refresh even if the token looks valid: the resource server answered 401 to it. */
  forceRefresh?: boolean;
}

/** The OAuth side of calendar sync, over the accounts kept in one home. */
export interface OAuthAccounts {
  /** Runs the authorization with the person, then stores the provider and its grant (replacing one of the same name). */
  authorize(config: OAuthProviderConfig, o: AuthorizeOptions): Promise<OAuthAccountSummary>;
  /** Authorizes again with a provider's stored configuration (after a revoked grant). */
  login(name: string, o: AuthorizeOptions): Promise<OAuthAccountSummary>;
  /** A valid access token for the account, refreshed (and the refresh token rotated) when needed. */
  accessToken(name: string, o?: AccessTokenOptions): Promise<string>;
  /** Deletes the account's file (tokens and client secret), then asks the provider to revoke the grant. */
  forget(name: string): Promise<{ removed: boolean; revoked: boolean }>;
  /** Whether a provider of that name is stored (even with a damaged file). */
  has(name: string): Promise<boolean>;
  /** Every provider of the home, whoever owns it: callers show a user only theirs. */
  list(): Promise<OAuthAccountSummary[]>;
  get(name: string): Promise<OAuthAccountSummary>;
  /** Rewrites the files written before grants had an owner as the home owner's; returns their names. */
  migrate(): Promise<string[]>;
}

/** Builds the OAuth module for one kairos home. Nothing runs until a method is called. */
export function createOAuth(deps: OAuthDeps): OAuthAccounts {
  const files = new AccountFiles(deps.home, deps.homeOwner);
  const now = deps.now ?? (() => new Date());
  const env = deps.env ?? process.env;
  const inflight = new Map<string, Promise<string>>();
  const lockPath = (name: string) => join(oauthDir(deps.home), `${name}.lock`);

  async function authorize(input: OAuthProviderConfig, o: AuthorizeOptions): Promise<OAuthAccountSummary> {
    const parsed = OAuthProviderConfig.safeParse(input);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new AppError(400, 'usage', `The OAuth provider is not valid: ${i.path.join('.') || 'config'} ${i.message}.`);
    }
    const p = parsed.data;
    files.path(p.name); // refuses a bad name before any network
    await assertNameFree(p.name, o.owner);
    const m = await resolveServer(p);
    const openUrl = o.openUrl === null ? undefined : (o.openUrl ?? (hasDisplay(env) ? (u: string) => openBrowser(u) : undefined));
    const res =
      o.mode === 'device'
        ? await deviceGrant(p, m, { prompt: o.prompt, sleep: o.sleep })
        : await loopbackGrant(p, m, { prompt: o.prompt, openUrl, timeoutMs: o.timeoutMs ?? 5 * 60_000 });
    const account: OAuthAccountFile = { version: 2, owner: o.owner, provider: p, server: m, grant: grantFrom(res, now(), o.mode) };
    // Under the refresh lock: a refresh of the old grant running elsewhere must not write over the new one.
    await withFileLock(lockPath(p.name), `refreshing the token of "${p.name}"`, async () => {
      await assertNameFree(p.name, o.owner);
      await files.write(account);
    });
    return summarize(account);
  }

  /** A provider's name is one file for the whole home: another user's provider of that name is never replaced. */
  async function assertNameFree(name: string, owner: string): Promise<void> {
    const existing = await files.read(name).catch(() => undefined);
    if (existing && existing.owner !== owner)
      throw new AppError(409, 'oauth_provider_exists', `Another user of this kairos has an OAuth provider named "${name}"; choose another name.`);
  }

  function needsRefresh(a: OAuthAccountFile, minValidity: number): boolean {
    if (!a.grant.expires_at) return false;
    return new Date(a.grant.expires_at).getTime() - now().getTime() < minValidity * 1000;
  }

  async function refresh(name: string, seen: string, force: boolean, minValidity: number): Promise<string> {
    return withFileLock(lockPath(name), `refreshing the token of "${name}"`, async () => {
      // Another process may have refreshed while this one waited for the lock.
      const a = await files.get(name);
      if (force ? a.grant.access_token !== seen : !needsRefresh(a, minValidity)) return a.grant.access_token;
      if (!a.grant.refresh_token) throw grantExpired(name);
      const as = asServer(a.server);
      const client = asClient(a.provider);
      let res: oauth.TokenEndpointResponse;
      try {
        const r = await oauth.refreshTokenGrantRequest(
          as,
          client,
          clientAuth(a.provider, a.server),
          a.grant.refresh_token,
          requestOptions(a.server.token_endpoint),
        );
        res = await oauth.processRefreshTokenResponse(as, client, r);
      } catch (e) {
        const err = tokenEndpointError(name, a.server.token_endpoint, e);
        if (err instanceof oauth.ResponseBodyError) {
          if (err.error === 'invalid_grant') throw grantRevoked(name, 'invalid_grant');
          throw providerFailed(name, `it refused to refresh the token (${safeCode(err.error)})`, err);
        }
        throw err;
      }
      // The rotated refresh token is on disk before the new access token is handed out: the old one is spent.
      const grant = grantFrom(res, now(), a.grant.via, a.grant);
      await files.write({ ...a, grant });
      return grant.access_token;
    });
  }

  return {
    authorize,

    async login(name, o) {
      const a = await files.get(name);
      if (a.owner !== o.owner) throw oauthNotFound(name);
      return authorize(a.provider, o);
    },

    async accessToken(name, o = {}) {
      const minValidity = o.minValiditySeconds ?? 60;
      const a = await files.get(name);
      if (!o.forceRefresh && !needsRefresh(a, minValidity)) return a.grant.access_token;
      // One refresh per account at a time in this process; the file lock covers other processes.
      const running = inflight.get(name);
      if (running) return running;
      const p = refresh(name, a.grant.access_token, Boolean(o.forceRefresh), minValidity).finally(() => inflight.delete(name));
      inflight.set(name, p);
      return p;
    },

    async forget(name) {
      // A damaged file is removed all the same (there is then nothing to revoke with).
      const a = await files.read(name).catch((e) => {
        if (e instanceof AppError && e.code === 'oauth_file_invalid') return undefined;
        throw e;
      });
      const removed = await files.remove(name);
      return { removed, revoked: a && removed ? await revoke(a) : false };
    },

    async has(name) {
      files.path(name);
      return (await files.names()).includes(name);
    },

    async list() {
      const out: OAuthAccountSummary[] = [];
      for (const n of await files.names()) {
        // A damaged file names no owner to show it to; using or removing it by name says what is wrong.
        const a = await files.read(n).catch(() => undefined);
        if (a) out.push(summarize(a));
      }
      return out;
    },

    async get(name) {
      return summarize(await files.get(name));
    },

    async migrate() {
      const done: string[] = [];
      for (const name of await files.names()) {
        // Under the refresh lock, reading again inside it: a refresh elsewhere may be rotating this grant.
        const migrated = await withFileLock(lockPath(name), `refreshing the token of "${name}"`, async () => {
          const l = await files.load(name).catch(() => undefined);
          if (!l?.legacy) return false;
          await files.write(l.account);
          return true;
        });
        if (migrated) done.push(name);
      }
      return done;
    },
  };
}

/** Best effort (RFC 7009): revoking the refresh token ends the grant at most providers; false when the provider has no revocation endpoint or refused. */
async function revoke(a: OAuthAccountFile): Promise<boolean> {
  const endpoint = a.server.revocation_endpoint;
  if (!endpoint) return false;
  const as = asServer(a.server);
  const client = asClient(a.provider);
  const auth = clientAuth(a.provider, a.server);
  let ok = true;
  for (const token of [a.grant.refresh_token, a.grant.access_token]) {
    if (!token) continue;
    try {
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, token, requestOptions(endpoint)));
    } catch {
      ok = false;
    }
  }
  return ok;
}
