import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OAuthAccountFile, OAuthAccountFileV1, type OAuthAccountSummary, OAuthProviderName } from '../../contracts/oauth.js';
import { AppError } from '../../errors.js';
import { oauthNotFound } from './errors.js';
import { grantHosts } from './hosts.js';
import { removeSecretFile, writeSecretFile } from './secret-file.js';

/** The folder of OAuth accounts in a kairos home: one 0600 file per provider, in a 0700 folder. */
export const oauthDir = (home: string) => join(home, 'oauth');

/** The home's owner user: the owner of grants written before grants had one. */
export type HomeOwner = () => Promise<string | undefined> | string | undefined;

/**
 * The files of OAuth accounts: `<home>/oauth/<name>.json`, each holding the provider's
 * configuration, its metadata, the grant's tokens and the user it belongs to. Only this module
 * reads or writes them.
 */
export class AccountFiles {
  constructor(
    private readonly home: string,
    private readonly homeOwner: HomeOwner = () => undefined,
  ) {}

  path(name: string): string {
    const n = OAuthProviderName.safeParse(name);
    if (!n.success) throw new AppError(400, 'usage', `"${name}" is not a provider name: ${n.error.issues[0]!.message}.`);
    return join(oauthDir(this.home), `${name}.json`);
  }

  /** The account, or undefined when there is none. A damaged file is an error that says which file. */
  async read(name: string): Promise<OAuthAccountFile | undefined> {
    return (await this.load(name))?.account;
  }

  /** The account and whether its file is still in the format without an owner (`legacy`). */
  async load(name: string): Promise<{ account: OAuthAccountFile; legacy: boolean } | undefined> {
    const path = this.path(name);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const r = OAuthAccountFile.safeParse(parsed);
    if (r.success) return { account: r.data, legacy: false };
    const old = OAuthAccountFileV1.safeParse(parsed);
    // The message names the file and the fix, never its content (it holds tokens).
    if (!old.success)
      throw new AppError(422, 'oauth_file_invalid', `${path} is damaged. Remove it with \`kairos cal oauth remove ${name} --yes\` and add the provider again.`);
    const owner = await this.homeOwner();
    if (!owner)
      throw new AppError(
        409,
        'oauth_owner_unknown',
        `${path} was written before OAuth grants had an owner, and this home has no owner user yet: start the daemon once (kairos daemon start), then try again.`,
      );
    return { account: { ...old.data, version: 2, owner }, legacy: true };
  }

  async get(name: string): Promise<OAuthAccountFile> {
    const a = await this.read(name);
    if (!a) throw oauthNotFound(name);
    return a;
  }

  async write(account: OAuthAccountFile): Promise<void> {
    await writeSecretFile(this.path(account.provider.name), JSON.stringify(OAuthAccountFile.parse(account), null, 2) + '\n');
  }

  async remove(name: string): Promise<boolean> {
    return removeSecretFile(this.path(name));
  }

  /** The names of every account, sorted. */
  async names(): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(oauthDir(this.home));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    return entries
      .filter((f) => f.endsWith('.json') && OAuthProviderName.safeParse(f.slice(0, -5)).success)
      .map((f) => f.slice(0, -5))
      .sort();
  }
}

/** What may be shown of an account: no token, no secret. */
export function summarize(a: OAuthAccountFile): OAuthAccountSummary {
  return {
    name: a.provider.name,
    owner: a.owner,
    issuer: a.server.issuer,
    client_id: a.provider.client_id,
    has_client_secret: Boolean(a.provider.client_secret),
    scopes: a.provider.scopes,
    granted_scope: a.grant.scope ?? null,
    via: a.grant.via,
    obtained_at: a.grant.obtained_at,
    refreshed_at: a.grant.refreshed_at ?? null,
    access_token_expires_at: a.grant.expires_at ?? null,
    has_refresh_token: Boolean(a.grant.refresh_token),
    allowed_hosts: grantHosts(a),
  };
}
