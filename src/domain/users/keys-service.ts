import { hash, randomBytes } from 'node:crypto';
import type { ApiKey } from '../../contracts/auth.js';
import { SCOPES, type Scope } from '../../contracts/scopes.js';
import { forbidden, notFound, validationFailed } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { Principal } from '../principal.js';

type StoredKey = ApiKey & { hash: string };

const SECRET_PREFIX = 'kairos_sk_';
/** One-shot `crypto.hash`: it runs on every authenticated request, and is several times cheaper than a Hash object. */
export const hashSecret = (secret: string) => hash('sha256', secret, 'hex');

export interface MintedKey {
  id: string;
  key: string;
  name: string;
  user_id: string;
  agent_id: string | null;
  scopes: Scope[];
  expires_at: string | null;
}

/** API keys: stored as SHA-256 hashes of high-entropy secrets; a secret is returned only at creation. */
export class KeysService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Mint a key (the route requires admin; `caller` null is the daemon's own bootstrap). */
  async create(
    caller: Principal | null,
    input: { name: string; agent_id?: string; scopes: Scope[]; ttl_seconds?: number; user_id?: string },
  ): Promise<MintedKey> {
    const userId = input.user_id ?? caller?.userId;
    if (!userId) throw validationFailed('user_id is required.', [{ path: 'user_id', message: 'required' }]);
    if (!this.store.get('users', userId)) throw notFound(`No user ${userId}.`);
    const now = this.clock.now();
    const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
    const doc: StoredKey = {
      id: newId('key', now.getTime()),
      name: input.name,
      user_id: userId,
      agent_id: input.agent_id ?? null,
      scopes: [...new Set(input.scopes)].sort((a, b) => SCOPES.indexOf(a) - SCOPES.indexOf(b)),
      prefix: secret.slice(0, SECRET_PREFIX.length + 6),
      hash: hashSecret(secret),
      created_at: now.toISOString(),
      expires_at: input.ttl_seconds ? new Date(now.getTime() + input.ttl_seconds * 1000).toISOString() : null,
      revoked_at: null,
    };
    await this.store.transact((tx) => tx.put('api_keys', doc));
    return { id: doc.id, key: secret, name: doc.name, user_id: userId, agent_id: doc.agent_id, scopes: doc.scopes, expires_at: doc.expires_at };
  }

  /** Every key for admin; otherwise only the calling key (a key sees no other key, not even its user's). */
  list(caller: Principal): ApiKey[] {
    if (caller.scopes.has('admin'))
      return this.store
        .all('api_keys')
        .map(publicKey)
        .sort((a, b) => a.id.localeCompare(b.id));
    const own = caller.keyId ? this.store.get('api_keys', caller.keyId) : undefined;
    return own ? [publicKey(own)] : [];
  }

  /** New secret for the same key; the old secret stops working at once. */
  async rotate(caller: Principal, id: string): Promise<MintedKey> {
    const key = this.owned(caller, id);
    const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
    const next: StoredKey = { ...key, hash: hashSecret(secret), prefix: secret.slice(0, SECRET_PREFIX.length + 6) };
    await this.store.transact((tx) => tx.put('api_keys', next));
    return { id: next.id, key: secret, name: next.name, user_id: next.user_id, agent_id: next.agent_id, scopes: next.scopes, expires_at: next.expires_at };
  }

  async revoke(caller: Principal, id: string): Promise<{ revoked: string; revoked_at: string }> {
    const key = this.owned(caller, id);
    const revoked_at = key.revoked_at ?? this.clock.now().toISOString();
    if (!key.revoked_at) await this.store.transact((tx) => tx.put('api_keys', { ...key, revoked_at }));
    return { revoked: id, revoked_at };
  }

  /** The daemon's own revocation (no caller): used at start on an owner key whose secret left credentials.json. */
  async retire(id: string, userId: string): Promise<void> {
    const key = this.store.get('api_keys', id);
    if (key && key.user_id === userId && !key.revoked_at)
      await this.store.transact((tx) => tx.put('api_keys', { ...key, revoked_at: this.clock.now().toISOString() }));
  }

  /** The live key for a presented secret, or undefined (unknown, revoked, expired, or its user gone). */
  verify(secret: string): StoredKey | undefined {
    const [key] = this.store.byIndex('api_keys', 'hash', hashSecret(secret));
    return key && this.live(key) ? key : undefined;
  }

  /**
   * Whether the key `id` still holds the secret whose hash is `hash`: not revoked, rotated or
   * expired, and its user still there. Long-lived sessions ask this again after every change.
   */
  stillHolds(id: string, hash: string): boolean {
    const key = this.store.get('api_keys', id);
    return key !== undefined && key.hash === hash && this.live(key);
  }

  private live(key: StoredKey): boolean {
    if (key.revoked_at) return false;
    if (key.expires_at && Date.parse(key.expires_at) <= this.clock.now().getTime()) return false;
    return Boolean(this.store.get('users', key.user_id));
  }

  /** The key `id`, if the caller may touch it: admin any key, anyone else only the key it is calling with. */
  private owned(caller: Principal, id: string): StoredKey {
    if (!caller.scopes.has('admin') && id !== caller.keyId) throw forbidden('A key may only act on itself; other keys need the admin scope.');
    const key = this.store.get('api_keys', id);
    if (!key) throw notFound(`No API key ${id}.`);
    return key;
  }
}

function publicKey(k: StoredKey): ApiKey {
  const { hash: _hash, ...rest } = k;
  return rest;
}
