import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthProviderConfig } from '../../../src/contracts/oauth.js';
import { AppError } from '../../../src/errors.js';
import { type AuthorizationPrompt, createOAuth } from '../../../src/sync/oauth/index.js';
import { type BrowseResult, browse } from '../../helpers/browser.js';
import { tempHome } from '../../helpers/daemon.js';
import { startAuthServer, type TestAuthServer } from '../../helpers/oauth-server.js';

/**
 * The OAuth module against a real authorization server (oidc-provider) on loopback: every grant
 * is obtained, refreshed and revoked over HTTP, and the browser is an HTTP client that signs in
 * and consents on the server's own pages.
 */

/** The kairos user the grants of these tests belong to. */
const OWNER = 'usr_owner';
let as: TestAuthServer;
const homes: string[] = [];
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(async () => {
  await as.close();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function home(): string {
  const h = tempHome();
  homes.push(h);
  return h;
}

const publicProvider = (name = 'test'): OAuthProviderConfig => ({ name, issuer: as.issuer, client_id: as.publicClient, scopes: ['openid', 'offline_access'] });

/** A clock that the test can move forward (the access tokens live an hour). */
function clock() {
  const c = { offsetMs: 0, now: () => new Date(Date.now() + c.offsetMs) };
  return c;
}

/** A person who signs in as `login` and consents, in a browser opened on the URL kairos gives. */
function person(login = 'alice') {
  const seen: { prompts: AuthorizationPrompt[]; browsed?: Promise<BrowseResult> } = { prompts: [] };
  return {
    seen,
    openUrl: async (url: string) => {
      seen.browsed = browse(url, { login, password: 'any' });
      return true;
    },
    prompt: (p: AuthorizationPrompt) => {
      seen.prompts.push(p);
      if (p.kind === 'device') seen.browsed = browse(p.verification_uri_complete!, { login, password: 'any' });
    },
  };
}

async function userinfo(token: string): Promise<{ status: number; sub?: string }> {
  const r = await fetch(`${as.issuer}/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, sub: r.status === 200 ? ((await r.json()) as { sub: string }).sub : undefined };
}

async function refreshDirectly(refreshToken: string): Promise<{ status: number; error?: string }> {
  const r = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: as.publicClient }),
  });
  return { status: r.status, error: ((await r.json()) as { error?: string }).error };
}

async function revokeAtServer(token: string, clientId = as.publicClient): Promise<void> {
  const r = await fetch(`${as.issuer}/token/revocation`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, client_id: clientId }),
  });
  expect(r.status).toBe(200);
}

const stored = (h: string, name: string) => JSON.parse(readFileSync(join(h, 'oauth', `${name}.json`), 'utf8'));

describe('authorization code + PKCE through a loopback redirect (RFC 8252)', () => {
  it('signs in at the provider, stores the grant 0600 in a 0700 folder, and the token works at the provider', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    const p = person('alice');
    const summary = await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    const page = await p.seen.browsed!;

    const url = new URL((p.seen.prompts[0] as { url: string }).url);
    expect(url.origin + url.pathname).toBe(`${as.issuer}/auth`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(page.visited.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    expect(page.body).toContain('kairos is authorized');

    expect(summary).toMatchObject({
      name: 'test',
      issuer: as.issuer,
      client_id: as.publicClient,
      via: 'loopback',
      has_refresh_token: true,
      has_client_secret: false,
    });
    expect(JSON.stringify(summary)).not.toMatch(/token"\s*:\s*"/);
    expect(statSync(join(h, 'oauth')).mode & 0o777).toBe(0o700);
    expect(statSync(join(h, 'oauth', 'test.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(h, 'oauth'))).toEqual(['test.json']); // no temporary file left behind

    const token = await o.accessToken('test');
    expect(token).toBe(stored(h, 'test').grant.access_token);
    expect(await userinfo(token)).toEqual({ status: 200, sub: 'alice' });
  });

  it('a callback with another state is refused and the wait goes on; the real one completes', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    let forged: Response | undefined;
    let browsed: Promise<BrowseResult> | undefined;
    const done = o.authorize(publicProvider(), {
      owner: OWNER,
      mode: 'loopback',
      openUrl: null,
      prompt: (pr) => {
        const redirect = new URL(new URL((pr as { url: string }).url).searchParams.get('redirect_uri')!);
        browsed = (async () => {
          forged = await fetch(`${redirect.href}?code=attacker-code&state=not-the-state`);
          return browse((pr as { url: string }).url, { login: 'bob', password: 'any' });
        })();
      },
    });
    await done;
    await browsed;
    expect(forged!.status).toBe(400);
    expect(await userinfo(await o.accessToken('test'))).toEqual({ status: 200, sub: 'bob' });
  });

  it('without a browser that answers, the wait ends with a clear timeout and nothing is stored', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    const err = await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', openUrl: null, prompt: () => {}, timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('oauth_timeout');
    expect(await o.list()).toEqual([]);
  });
});

describe('device authorization grant (RFC 8628)', () => {
  it('a confidential client: the person types nothing but signs in on the verification page; the secret is kept 0600 and never shown', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    const p = person('carol');
    const cfg = { ...publicProvider('dev'), client_id: as.confidentialClient.id, client_secret: as.confidentialClient.secret };
    const summary = await o.authorize(cfg, { owner: OWNER, mode: 'device', prompt: p.prompt });
    const page = await p.seen.browsed!;
    expect(page.body).toMatch(/Sign-in Success|success/i);
    const shown = p.seen.prompts[0] as Extract<AuthorizationPrompt, { kind: 'device' }>;
    expect(shown.kind).toBe('device');
    expect(shown.user_code).toBeTruthy();
    expect(shown.verification_uri).toBe(`${as.issuer}/device`);
    expect(summary).toMatchObject({ name: 'dev', via: 'device', has_client_secret: true, has_refresh_token: true });
    expect(JSON.stringify(summary)).not.toContain(as.confidentialClient.secret);
    expect(stored(h, 'dev').provider.client_secret).toBe(as.confidentialClient.secret);
    expect(await userinfo(await o.accessToken('dev'))).toEqual({ status: 200, sub: 'carol' });
  });
});

describe('refusals and providers without metadata', () => {
  it('the person aborts the device login: a clear denial, nothing stored', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    let page: Promise<BrowseResult> | undefined;
    const err = await o
      .authorize(publicProvider('dev'), {
        owner: OWNER,
        mode: 'device',
        prompt: (p) => {
          if (p.kind === 'device') page = browse(p.verification_uri_complete!, {}, { press: { abort: 'yes' } });
        },
      })
      .catch((e) => e);
    await page;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('oauth_denied');
    expect(err.message).toContain('access_denied');
    expect(await o.list()).toEqual([]);
  });

  it('endpoints given by hand instead of an issuer', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    const p = person('hana');
    const summary = await o.authorize(
      {
        name: 'manual',
        client_id: as.publicClient,
        scopes: ['openid', 'offline_access'],
        endpoints: { authorization_endpoint: `${as.issuer}/auth`, token_endpoint: `${as.issuer}/token`, revocation_endpoint: `${as.issuer}/token/revocation` },
      },
      { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl },
    );
    expect(summary).toMatchObject({ name: 'manual', issuer: as.issuer, has_refresh_token: true });
    expect(await userinfo(await o.accessToken('manual', { forceRefresh: true }))).toEqual({ status: 200, sub: 'hana' });
  });

  it('an issuer with no metadata, and a bad name, are clear errors before any login', async () => {
    const o = createOAuth({ home: home() });
    const none = await o
      .authorize({ ...publicProvider(), issuer: `${as.issuer}/nothing-here` }, { owner: OWNER, mode: 'loopback', prompt: () => {} })
      .catch((e) => e);
    expect(none.code).toBe('oauth_provider_error');
    expect(none.message).toContain('--token-endpoint');
    const bad = await o.authorize({ ...publicProvider(), name: '../../etc/passwd' }, { owner: OWNER, mode: 'loopback', prompt: () => {} }).catch((e) => e);
    expect(bad.code).toBe('usage');
  });
});

describe('refresh tokens', () => {
  it('an expired access token is refreshed; the rotated refresh token replaces the old one on disk, and the old one is spent', async () => {
    const h = home();
    const c = clock();
    const o = createOAuth({ home: h, now: c.now });
    const p = person('dave');
    await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    const before = stored(h, 'test').grant;
    expect(await o.accessToken('test')).toBe(before.access_token); // still valid: no refresh

    c.offsetMs = 2 * 3600_000; // two hours later
    const token = await o.accessToken('test');
    const after = stored(h, 'test').grant;
    expect(token).not.toBe(before.access_token);
    expect(after.access_token).toBe(token);
    expect(after.refresh_token).toBeTruthy();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.refreshed_at).toBeTruthy();
    expect(statSync(join(h, 'oauth', 'test.json')).mode & 0o777).toBe(0o600);
    expect(await userinfo(token)).toEqual({ status: 200, sub: 'dave' });

    // Twice more, the second forced (a 401 from the resource server): each rotates again.
    const forced = await o.accessToken('test', { forceRefresh: true });
    expect(forced).not.toBe(token);
    expect(stored(h, 'test').grant.refresh_token).not.toBe(after.refresh_token);

    // The first refresh token was consumed: the server refuses it.
    expect(await refreshDirectly(before.refresh_token)).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('two kairos processes refreshing at once spend the refresh token once (the grant survives)', async () => {
    const h = home();
    const c = clock();
    const p = person('erin');
    await createOAuth({ home: h, now: c.now }).authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    c.offsetMs = 2 * 3600_000;
    // Two module instances over one home stand for the daemon and a CLI command.
    const [a, b] = await Promise.all([createOAuth({ home: h, now: c.now }).accessToken('test'), createOAuth({ home: h, now: c.now }).accessToken('test')]);
    expect(a).toBe(b);
    expect(await userinfo(a)).toEqual({ status: 200, sub: 'erin' });
    expect(readdirSync(join(h, 'oauth'))).toEqual(['test.json']); // the lock is gone
  });

  it('a lock left by a process that died is taken over', async () => {
    const h = home();
    const p = person('ivan');
    const o = createOAuth({ home: h });
    await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(h, 'oauth', 'test.lock'), `${dead}\n`);
    const before = stored(h, 'test').grant.access_token;
    expect(await o.accessToken('test', { forceRefresh: true })).not.toBe(before);
    expect(readdirSync(join(h, 'oauth'))).toEqual(['test.json']);
  });
});

describe('a revoked grant', () => {
  it('gives a clear error naming the command to authorize again, with no token or secret in it; login restores it', async () => {
    const h = home();
    const c = clock();
    const o = createOAuth({ home: h, now: c.now });
    const p = person('frank');
    await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    const grant = stored(h, 'test').grant;
    await revokeAtServer(grant.refresh_token);

    c.offsetMs = 2 * 3600_000;
    const err = await o.accessToken('test').catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('oauth_grant_revoked');
    expect(err.status).toBe(401);
    expect(err.message).toContain('kairos cal oauth login test');
    expect(err.message).toContain('invalid_grant');
    for (const secret of [grant.refresh_token, grant.access_token]) {
      expect(err.message).not.toContain(secret);
      expect(JSON.stringify(err.cause ?? null)).not.toContain(secret);
    }
    expect(stored(h, 'test').grant.refresh_token).toBe(grant.refresh_token); // nothing half-written

    const again = person('frank');
    await o.login('test', { owner: OWNER, mode: 'loopback', prompt: again.prompt, openUrl: again.openUrl });
    expect(await userinfo(await o.accessToken('test'))).toEqual({ status: 200, sub: 'frank' });
  });
});

describe('the owner of a grant', () => {
  it("is recorded in the file; another user's provider of the same name is neither replaced nor logged in again", async () => {
    const h = home();
    const o = createOAuth({ home: h });
    const p = person('kim');
    const summary = await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    expect(summary).toMatchObject({ owner: OWNER, allowed_hosts: ['127.0.0.1'] });
    expect(stored(h, 'test')).toMatchObject({ version: 2, owner: OWNER });
    const before = stored(h, 'test').grant;
    const taken = await o.authorize(publicProvider(), { owner: 'usr_other', mode: 'loopback', prompt: () => {}, openUrl: null }).catch((e) => e);
    expect(taken.code).toBe('oauth_provider_exists');
    expect(taken.status).toBe(409);
    const login = await o.login('test', { owner: 'usr_other', mode: 'loopback', prompt: () => {}, openUrl: null }).catch((e) => e);
    expect(login.code).toBe('oauth_provider_not_found');
    expect(stored(h, 'test')).toMatchObject({ owner: OWNER, grant: before });
  });

  it('an allow-list given at add replaces the issuer hosts', async () => {
    const h = home();
    const p = person('lee');
    const summary = await createOAuth({ home: h }).authorize(
      { ...publicProvider(), allowed_hosts: ['dav.example.com', '*.example.net:8443'] },
      { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl },
    );
    expect(summary.allowed_hosts).toEqual(['dav.example.com', '*.example.net:8443']);
    const bad = await createOAuth({ home: h })
      .authorize({ ...publicProvider('bad'), allowed_hosts: ['https://dav.example.com/'] }, { owner: OWNER, mode: 'loopback', prompt: () => {} })
      .catch((e) => e);
    expect(bad.code).toBe('usage');
    expect(bad.message).toContain('allowed_hosts');
  });

  it("a file without an owner is the home owner's; migrate rewrites it under the lock, keeping the grant", async () => {
    const h = home();
    const p = person('max');
    await createOAuth({ home: h }).authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    const { owner: _o, ...old } = stored(h, 'test');
    writeFileSync(join(h, 'oauth', 'test.json'), JSON.stringify({ ...old, version: 1 }));
    const unknown = await createOAuth({ home: h })
      .get('test')
      .catch((e) => e);
    expect(unknown.code).toBe('oauth_owner_unknown');
    const o = createOAuth({ home: h, homeOwner: async () => 'usr_home' });
    expect((await o.get('test')).owner).toBe('usr_home');
    expect(stored(h, 'test').version).toBe(1);
    expect(await o.migrate()).toEqual(['test']);
    expect(stored(h, 'test')).toEqual({ ...old, version: 2, owner: 'usr_home' });
    expect(await o.migrate()).toEqual([]);
  });
});

describe('a damaged account file', () => {
  it('is a clear error naming the file and the fix, never its content; forget removes it', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    const p = person('jo');
    await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    const path = join(h, 'oauth', 'test.json');
    const secretish = 'half-written-token-0123456789';
    writeFileSync(path, `{"version":1,"grant":{"access_token":"${secretish}"`);
    const err = await o.accessToken('test').catch((e) => e);
    expect(err.code).toBe('oauth_file_invalid');
    expect(err.message).toContain(path);
    expect(err.message).toContain('kairos cal oauth remove test --yes');
    expect(err.message).not.toContain(secretish);
    expect(await o.has('test')).toBe(true);
    expect(await o.forget('test')).toEqual({ removed: true, revoked: false });
    expect(await o.has('test')).toBe(false);
  });
});

describe('forget', () => {
  it('deletes the file (tokens and secret) and revokes the grant at the provider', async () => {
    const h = home();
    const o = createOAuth({ home: h });
    const p = person('gina');
    await o.authorize(publicProvider(), { owner: OWNER, mode: 'loopback', prompt: p.prompt, openUrl: p.openUrl });
    const grant = stored(h, 'test').grant;
    expect(await o.forget('test')).toEqual({ removed: true, revoked: true });
    expect(readdirSync(join(h, 'oauth'))).toEqual([]);
    expect((await userinfo(grant.access_token)).status).toBe(401);
    expect(await refreshDirectly(grant.refresh_token)).toEqual({ status: 400, error: 'invalid_grant' });
    const err = await o.accessToken('test').catch((e) => e);
    expect(err.code).toBe('oauth_provider_not_found');
    expect(await o.forget('test')).toEqual({ removed: false, revoked: false });
  });
});
