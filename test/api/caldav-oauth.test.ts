import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BearerProxy, startBearerProxy } from '../helpers/bearer-proxy.js';
import { browse } from '../helpers/browser.js';
import { BIN, cleanEnv, cliEnv, runCli, useDaemon } from '../helpers/daemon.js';
import { startAuthServer, type TestAuthServer } from '../helpers/oauth-server.js';
import { HAS_RADICALE, type Radicale, startRadicale, vevent } from '../helpers/radicale.js';

/**
 * A CalDAV account that signs in with an OAuth provider, end to end on loopback: the provider is
 * a real authorization server (oidc-provider, access tokens living 8 s, refresh tokens rotated),
 * authorized with the device grant by the spawned CLI into the daemon's home; the calendar is
 * Radicale behind a reverse proxy that accepts a request only with a Bearer token the
 * authorization server still honours (its userinfo endpoint). Skips with one line without radicale.
 */
if (!HAS_RADICALE) console.warn('skipping CalDAV-with-OAuth tests: radicale is not installed (apt-get install -y radicale)');
const suite = HAS_RADICALE ? describe : describe.skip;

const TOKEN_TTL_S = 8;
// DEBUG: /debug/trace-dump is served, and the log is as talkative as it gets.
const d = useDaemon({ env: { DEBUG: 'true' } });
let rad: Radicale;
let as: TestAuthServer;
let proxy: BearerProxy;
let team: string;

const cal = (args: string[]) => runCli(['cal', ...args], { env: cliEnv(d) });
const grant = () => JSON.parse(readFileSync(join(d.home, 'oauth', 'prov.json'), 'utf8')).grant as { access_token: string; refresh_token: string };
const events = async () => (await d.api('GET', '/calendar/events?expand=false')).json.events as { uid: string; title: string }[];
const serverFiles = () =>
  readdirSync(rad.storage('team'))
    .filter((f) => f.endsWith('.ics'))
    .sort();
const run = async () => {
  const r = await d.api('POST', '/calendar/sync/run?name=team');
  expect(r.status, r.text).toBe(200);
  return r.json.runs[0];
};
/** Whether the authorization server still honours a token (what the proxy asks). */
const honoured = async (token: string) => {
  const meta = await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json();
  const r = await fetch(meta.userinfo_endpoint, { headers: { authorization: `Bearer ${token}` } });
  await r.body?.cancel();
  return r.ok;
};

/** `kairos cal oauth add prov --device` in the daemon's home; the person signs in on "another device" (an HTTP client). */
async function authorizeProvider(): Promise<void> {
  const child = spawn(
    process.execPath,
    [BIN, 'cal', 'oauth', 'add', 'prov', '--issuer', as.issuer, '--client-id', as.publicClient, '--scope', 'openid offline_access', '--device'],
    { env: cleanEnv({ KAIROS_HOME: d.home, DISPLAY: undefined, WAYLAND_DISPLAY: undefined }), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<number | null>((ok) => child.once('exit', ok));
  const complete = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no device URL on stderr: ${stderr}`)), 20_000);
    child.stderr.on('data', (b) => {
      stderr += b;
      const m = /or open directly:\n {2}(\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
  });
  await browse(complete, { login: 'alice', password: 'any' });
  expect(await exited, stderr).toBe(0);
}

beforeAll(async () => {
  if (!HAS_RADICALE) return;
  rad = await startRadicale();
  as = await startAuthServer({ accessTokenTtl: TOKEN_TTL_S });
  proxy = await startBearerProxy({ target: rad.base, issuer: as.issuer, user: rad.user, password: rad.password });
  team = await rad.mkcalendar('team');
  await authorizeProvider();
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await as?.close();
  await rad?.stop();
});

suite('CalDAV with an OAuth provider', () => {
  it('refuses an unknown provider (404 naming it and `kairos cal oauth add`), both kinds of credentials, or neither; stores nothing', async () => {
    const unknown = await d.api('POST', '/calendar/sync/accounts', { body: { name: 'team', url: proxy.via(team), oauth: 'nosuch' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('oauth_provider_not_found');
    expect(unknown.json.error.message).toContain('"nosuch"');
    expect(unknown.json.error.message).toContain('kairos cal oauth add nosuch');
    const both = await d.api('POST', '/calendar/sync/accounts', {
      body: { name: 'team', url: proxy.via(team), oauth: 'prov', username: 'alice', password: 'x' },
    });
    expect(both.status).toBe(422);
    expect(both.json.error.message).toMatch(/either username and password, or oauth/);
    const neither = await d.api('POST', '/calendar/sync/accounts', { body: { name: 'team', url: proxy.via(team) } });
    expect(neither.status).toBe(422);
    expect((await d.api('GET', '/calendar/sync/accounts')).json.accounts).toEqual([]);

    const cliBoth = await cal(['sync', 'add', 'team', '--collection', proxy.via(team), '--oauth', 'prov', '--user', 'alice']);
    expect(cliBoth.code).toBe(2);
    expect(cliBoth.stderr).toContain('either --oauth <provider> or --user');
    const cliNeither = await cal(['sync', 'add', 'team', '--collection', proxy.via(team)]);
    expect(cliNeither.code).toBe(2);
    expect(cliNeither.stderr).toContain('--oauth <provider>');
    const cliUnknown = await cal(['sync', 'add', 'team', '--collection', proxy.via(team), '--oauth', 'nosuch']);
    expect(cliUnknown.code).toBe(5);
    expect(cliUnknown.stderr).toContain('kairos cal oauth add nosuch');
    expect(proxy.counts.requests).toBe(0);
  });

  it('kairos cal sync add --oauth: the account shows auth oauth and the provider, never a token; no password is stored', async () => {
    const add = await cal(['sync', 'add', 'team', '--collection', proxy.via(team), '--oauth', 'prov']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('signed in with the OAuth provider "prov"');
    const list = await d.api('GET', '/calendar/sync/accounts');
    expect(list.json.accounts[0]).toMatchObject({ name: 'team', auth: 'oauth', oauth_provider: 'prov', username: null });
    expect(proxy.counts.withoutBearer).toBe(0);
    expect(proxy.counts.forwarded).toBeGreaterThan(0);
    for (const t of [...proxy.tokens, grant().refresh_token]) expect(list.text + add.stdout).not.toContain(t);
    expect(existsSync(join(d.home, 'sync-secrets.json'))).toBe(false);
    const plain = await cal(['sync', 'list']);
    expect(plain.stdout).toMatch(/^team\t\S+\toauth:prov\t0\tnever/m);
  });

  it('syncs both ways with Bearer tokens: an event made on the server comes in, one made in kairos goes out', async () => {
    expect(
      (await rad.dav('PUT', `${team}phone-1.ics`, vevent('phone-1', 'Made on the phone', '20310901T090000Z'), { 'content-type': 'text/calendar' })).status,
    ).toBe(201);
    const mine = await d.api('POST', '/calendar/create', { body: { title: 'Made in kairos', scheduled_for: '2031-09-02T09:00:00Z', duration_minutes: 30 } });
    expect(mine.status).toBe(201);
    const r = await cal(['sync', 'run', 'team']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/team: 1 pulled, 1 pushed/);
    expect((await events()).map((e) => e.title)).toContain('Made on the phone');
    const out = await rad.dav('GET', `${team}${encodeURIComponent(mine.json.uid)}.ics`);
    expect(out.status).toBe(200);
    expect(out.text).toContain('SUMMARY:Made in kairos');
    expect(proxy.counts.withoutBearer).toBe(0);
  });

  it("a sync checks the provider's hosts again: an account off them fails with oauth_host_not_allowed, and no token is sent", async () => {
    const path = join(d.home, 'oauth', 'prov.json');
    const original = readFileSync(path, 'utf8');
    const f = JSON.parse(original);
    expect(f.owner).toBe(d.userId);
    writeFileSync(path, JSON.stringify({ ...f, provider: { ...f.provider, allowed_hosts: ['dav.example.org'] } }));
    try {
      const requests = proxy.counts.requests;
      const r = await run();
      expect(r.status).toBe('failed');
      expect(r.error.code).toBe('oauth_host_not_allowed');
      expect(r.error.message).toContain('dav.example.org');
      expect(proxy.counts.requests).toBe(requests);
    } finally {
      writeFileSync(path, original);
    }
    expect((await run()).status).toBe('ok');
  });

  it('an access token that expired is replaced by a refreshed one (the refresh token rotates) and the sync goes on', async () => {
    const before = grant();
    // Until the authorization server itself no longer honours it: a real expiry, not a clock trick.
    const deadline = Date.now() + (TOKEN_TTL_S + 60) * 1000;
    while ((await honoured(before.access_token)) && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 500));
    expect(await honoured(before.access_token)).toBe(false);
    await rad.dav('PUT', `${team}phone-2.ics`, vevent('phone-2', 'After the expiry', '20310903T090000Z'), { 'content-type': 'text/calendar' });
    const r = await run();
    expect(r).toMatchObject({ status: 'ok', counts: { pulled: 1, pushed: 0 } });
    const after = grant();
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(proxy.tokens).toContain(after.access_token);
    expect((await events()).map((e) => e.title)).toContain('After the expiry');
  });

  it('a 401 to a token the provider still honours: one refresh, one retry; refused again: a clear error and nothing changed', async () => {
    proxy.state.refuseNext = 1;
    await rad.dav('PUT', `${team}phone-3.ics`, vevent('phone-3', 'After one refusal', '20310904T090000Z'), { 'content-type': 'text/calendar' });
    const refusedBefore = proxy.counts.refused;
    const ok = await run();
    expect(ok).toMatchObject({ status: 'ok', counts: { pulled: 1 } });
    expect(proxy.counts.refused - refusedBefore).toBe(1);

    const local = await events();
    const remote = serverFiles();
    await d.api('POST', '/calendar/create', { body: { title: 'Waits for the server', scheduled_for: '2031-09-05T09:00:00Z', duration_minutes: 30 } });
    proxy.state.refuseAll = true;
    try {
      const requests = proxy.counts.requests;
      const failed = await run();
      expect(failed.status).toBe('failed');
      expect(failed.error.code).toBe('caldav_auth_failed');
      expect(failed.error.message).toContain('OAuth provider "prov"');
      expect(failed.error.message).toContain('kairos cal oauth login prov');
      expect(proxy.counts.requests - requests).toBe(2); // the request, and once more with a refreshed token
      expect(serverFiles()).toEqual(remote);
      expect((await events()).length).toBe(local.length + 1);
    } finally {
      proxy.state.refuseAll = false;
    }
    expect((await run()).counts.pushed).toBe(1);
  });

  it('a revoked grant: the run fails with oauth_grant_revoked and the command to authorize again (sync list, /agent/status); nothing changes on either side', async () => {
    const rev = await fetch(`${as.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: grant().refresh_token, client_id: as.publicClient }),
    });
    expect(rev.status).toBe(200);
    await rad.dav('PUT', `${team}phone-4.ics`, vevent('phone-4', 'Not while revoked', '20310906T090000Z'), { 'content-type': 'text/calendar' });
    await d.api('POST', '/calendar/create', { body: { title: 'Stays here while revoked', scheduled_for: '2031-09-07T09:00:00Z', duration_minutes: 30 } });
    const local = await events();
    const remote = serverFiles();
    const requests = proxy.counts.forwarded;

    const r = await run();
    expect(r.status).toBe('failed');
    expect(r.error.code).toBe('oauth_grant_revoked');
    expect(r.error.message).toContain('kairos cal oauth login prov');
    expect(proxy.counts.forwarded).toBe(requests);
    expect(await events()).toEqual(local);
    expect(serverFiles()).toEqual(remote);

    const list = await cal(['sync', 'list']);
    expect(list.stdout).toMatch(/oauth_grant_revoked: .*kairos cal oauth login prov/);
    const status = await d.api('GET', '/agent/status');
    expect(status.json.sync.accounts[0].last_error).toMatchObject({ code: 'oauth_grant_revoked' });
    expect(status.json.sync.accounts[0].last_error.message).toContain('kairos cal oauth login prov');
  });

  it('no token in the store, journal, log, exports or a trace dump; removing the account keeps the provider', async () => {
    const secrets = [...proxy.tokens, grant().refresh_token, grant().access_token];
    expect(secrets.length).toBeGreaterThan(3);
    const files = readdirSync(d.home, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.parentPath !== join(d.home, 'oauth'))
      .map((e) => join(e.parentPath, e.name));
    expect(files.some((f) => f.endsWith('daemon.log'))).toBe(true);
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      for (const t of secrets) expect(text.includes(t), `${f} holds a token`).toBe(false);
    }
    const exported = await d.api('GET', `/context/export?user_id=${d.userId}&export_format=full`);
    expect(exported.status).toBe(200);
    const synced = (await events()).find((e) => e.title === 'Made on the phone')!;
    const dump = await d.api('POST', '/debug/trace-dump', { body: { linked_event_uid: synced.uid } });
    expect(dump.status, dump.text).toBe(200);
    for (const t of secrets) expect(exported.text + dump.text + d.stdout() + d.stderr()).not.toContain(t);

    const rm = await cal(['sync', 'remove', 'team', '--yes']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toContain('The OAuth provider "prov" and its tokens are kept for other accounts');
    expect(rm.stdout).toContain('kairos cal oauth remove prov');
    expect(existsSync(join(d.home, 'oauth', 'prov.json'))).toBe(true);
    expect((await d.api('GET', '/calendar/sync/accounts')).json.accounts).toEqual([]);
  });
});
