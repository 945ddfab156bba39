import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { SCOPES, type Scope } from '../../contracts/scopes.js';
import type { StoredUser } from '../../contracts/stored.js';
import type { UserProfile } from '../../contracts/users.js';
import { AppError, conflict, forbidden, notFound, unauthorized } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { type Principal, targetUser } from '../principal.js';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';

export type { StoredUser };

const TOKEN_TTL_S = 12 * 3600;
const ISSUER = 'kairos';
/** A login token carries every scope over the user's own data; the owner's also admin. */
const tokenScopes = (u: StoredUser): Scope[] => SCOPES.filter((s) => s !== 'admin' || u.is_owner);

export const systemTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Parts of the profile other areas own (tempo profile, agent constraints), given at composition. */
export interface ProfileParts {
  tempo(userId: string): Record<string, unknown>;
  constraints(userId: string): Record<string, unknown>;
}

export class UsersService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly parts: ProfileParts,
  ) {}

  get(userId: string): StoredUser | undefined {
    return this.store.get('users', userId);
  }

  owner(): StoredUser | undefined {
    return this.store.all('users').find((u) => u.is_owner);
  }

  /** First start: the owner user and the token-signing secret. Idempotent. */
  async bootstrapOwner(): Promise<StoredUser> {
    const existing = this.owner();
    if (existing && this.store.getMeta('jwt_secret')) return existing;
    const now = this.clock.now().toISOString();
    const owner: StoredUser = existing ?? {
      user_id: newId('usr'),
      email: null,
      display_name: 'owner',
      timezone: systemTimeZone(),
      preferences: {},
      password_hash: null,
      is_owner: true,
      created_at: now,
      updated_at: now,
    };
    await this.store.transact((tx) => {
      if (!existing) tx.put('users', owner);
      if (!tx.getMeta('jwt_secret')) tx.setMeta('jwt_secret', randomBytes(32).toString('base64url'));
    });
    return owner;
  }

  async register(input: { email: string; password: string; display_name: string; timezone?: string }): Promise<UserProfile> {
    const email = input.email.toLowerCase();
    if (this.store.byIndex('users', 'email', email).length) throw conflict(`A user with email ${email} exists already.`);
    const now = this.clock.now().toISOString();
    const user: StoredUser = {
      user_id: newId('usr'),
      email,
      display_name: input.display_name,
      timezone: input.timezone ?? systemTimeZone(),
      preferences: {},
      password_hash: await hashPassword(input.password),
      is_owner: false,
      created_at: now,
      updated_at: now,
    };
    await this.store.transact((tx) => {
      // Checked again inside the transaction: two registrations may race past the first check.
      if (tx.byIndex('users', 'email', email).length) throw conflict(`A user with email ${email} exists already.`);
      tx.put('users', user);
    });
    return this.profile(user.user_id);
  }

  async login(email: string, password: string): Promise<{ token: string; token_type: 'Bearer'; expires_at: string; user_id: string }> {
    const [found] = this.store.byIndex('users', 'email', email.toLowerCase());
    // Same answer, and the same scrypt cost, whether the email is unknown or the password wrong.
    const ok = await verifyPassword(password, found?.password_hash);
    if (!found || !ok) throw unauthorized('Wrong email or password.');
    let user = found;
    if (needsRehash(user.password_hash!)) user = await this.rehash(user, password);
    return this.issueToken(user);
  }

  /**
   * A login token for a user who proved who they are another way (the web page's one-time code,
   * made by the user's own credential). Same lifetime and scopes as a password login.
   */
  async tokenFor(userId: string): Promise<{ token: string; token_type: 'Bearer'; expires_at: string; user_id: string }> {
    const user = this.get(userId);
    if (!user) throw unauthorized('The user no longer exists.');
    return this.issueToken(user);
  }

  private async issueToken(user: StoredUser): Promise<{ token: string; token_type: 'Bearer'; expires_at: string; user_id: string }> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const token = await new SignJWT({ scp: tokenScopes(user), gen: user.token_gen ?? 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.user_id)
      .setIssuer(ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_TTL_S)
      .setJti(randomBytes(9).toString('base64url'))
      .sign(this.jwtKey());
    return { token, token_type: 'Bearer', expires_at: new Date((now + TOKEN_TTL_S) * 1000).toISOString(), user_id: user.user_id };
  }

  /** Whether a token of `userId` stamped with `gen` still stands (a password change raises the user's). */
  tokenGenerationValid(userId: string, gen: number): boolean {
    const user = this.get(userId);
    return user !== undefined && (user.token_gen ?? 0) === gen;
  }

  /**
   * The principal of a login token, or undefined when it is not a valid, unexpired kairos token.
   * `gen` and `exp` let a session opened with the token tell later that it no longer stands.
   */
  async verifyToken(token: string): Promise<{ userId: string; scopes: Scope[]; gen: number; exp: number } | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.jwtKey(), { issuer: ISSUER, algorithms: ['HS256'], currentDate: this.clock.now() });
      const user = payload.sub ? this.get(payload.sub) : undefined;
      if (!user) return undefined;
      // A password change since the token was issued ends it.
      const gen = typeof payload.gen === 'number' ? payload.gen : 0;
      if (gen !== (user.token_gen ?? 0)) return undefined;
      // Scopes are recomputed from the user, so a token cannot outlive a change of role.
      return { userId: user.user_id, scopes: tokenScopes(user), gen, exp: payload.exp ?? 0 };
    } catch {
      return undefined;
    }
  }

  profile(userId: string): UserProfile {
    const u = this.get(userId);
    if (!u) throw notFound(`No user ${userId}.`);
    return {
      user_id: u.user_id,
      email: u.email,
      display_name: u.display_name,
      timezone: u.timezone,
      tempo: this.parts.tempo(userId),
      preferences: u.preferences,
      constraints: this.parts.constraints(userId),
      created_at: u.created_at,
    };
  }

  async update(
    caller: Principal,
    requested: string | undefined,
    updates: { email?: string; display_name?: string; timezone?: string; preferences?: Record<string, unknown> },
    currentPassword?: string,
  ): Promise<UserProfile> {
    const userId = targetUser(caller, requested);
    if (updates.email !== undefined) await this.requireCredentialAuthority(caller, userId, currentPassword, 'Changing the email');
    await this.store.transact((tx) => {
      const u = tx.get('users', userId);
      if (!u) throw notFound(`No user ${userId}.`);
      const next: StoredUser = { ...u, updated_at: this.clock.now().toISOString() };
      if (updates.email !== undefined) {
        const email = updates.email.toLowerCase();
        if (tx.byIndex('users', 'email', email).some((o) => o.user_id !== userId)) throw conflict(`Another user has the email ${email}.`);
        next.email = email;
      }
      if (updates.display_name !== undefined) next.display_name = updates.display_name;
      if (updates.timezone !== undefined) next.timezone = updates.timezone;
      if (updates.preferences !== undefined) next.preferences = { ...u.preferences, ...updates.preferences };
      tx.put('users', next);
    });
    return this.profile(userId);
  }

  /** Set the caller's email and password (the owner has none until `kairos user passwd`). */
  async setPassword(caller: Principal, input: { email?: string; password: string; current_password?: string }): Promise<UserProfile> {
    await this.requireCredentialAuthority(caller, caller.userId, input.current_password, 'Setting the password');
    const hash = await hashPassword(input.password);
    await this.store.transact((tx) => {
      const u = tx.get('users', caller.userId);
      if (!u) throw notFound(`No user ${caller.userId}.`);
      const email = input.email?.toLowerCase() ?? u.email;
      if (!email)
        throw new AppError(422, 'validation_failed', 'An email is required the first time a password is set.', {
          details: [{ path: 'email', message: 'required' }],
        });
      if (tx.byIndex('users', 'email', email).some((o) => o.user_id !== u.user_id)) throw conflict(`Another user has the email ${email}.`);
      tx.put('users', { ...u, email, password_hash: hash, token_gen: (u.token_gen ?? 0) + 1, updated_at: this.clock.now().toISOString() });
    });
    return this.profile(caller.userId);
  }

  /**
   * Whoever changes how an account logs in (its email, its password) must be admin, or hold a
   * login token of that account and know its current password: a leaked API key, or a token left
   * on a shared screen, cannot take the account over.
   */
  private async requireCredentialAuthority(caller: Principal, userId: string, currentPassword: string | undefined, what: string): Promise<void> {
    if (caller.scopes.has('admin')) return;
    if (caller.via !== 'token' || caller.authUserId !== userId) throw forbidden(`${what} needs the admin scope, or a login token plus current_password.`);
    if (currentPassword === undefined) throw forbidden(`${what} with a login token needs current_password.`);
    const u = this.get(userId);
    if (!(await verifyPassword(currentPassword, u?.password_hash))) throw forbidden('current_password is wrong.');
  }

  /** Replace a hash made with older parameters, now that the password is known to be right. */
  private async rehash(user: StoredUser, password: string): Promise<StoredUser> {
    const password_hash = await hashPassword(password);
    let next = user;
    await this.store.transact((tx) => {
      const u = tx.get('users', user.user_id);
      // Changed meanwhile (a password change raced the login): leave it alone.
      if (!u || u.password_hash !== user.password_hash) return;
      next = { ...u, password_hash };
      tx.put('users', next);
    });
    return next;
  }

  private jwtKey(): Uint8Array {
    const secret = this.store.getMeta<string>('jwt_secret');
    if (!secret) throw new Error('jwt secret missing: bootstrapOwner() was not run');
    return Buffer.from(secret, 'base64url');
  }
}
