import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuth } from '../../src/sync/oauth/index.js';
import { browse } from '../helpers/browser.js';
import { useApp } from '../helpers/in-process.js';
import { startAuthServer, type TestAuthServer } from '../helpers/oauth-server.js';

/**
 * Who may use an OAuth grant, against the real daemon and a real authorization server
 * (oidc-provider) on loopback. The owner authorized the provider "prov"; an agent's key with
 * calendar:write, a second user's login and the owner with a URL off the provider's hosts each try
 * to attach it to an account on a server that counts what reaches it: each is refused before a
 * request leaves, so the owner's bearer token goes nowhere. A provider file of the format without
 * an owner ("legacy") is the home owner's.
 */

const d = useApp();
let as: TestAuthServer;
let trap: Server;
let trapHits = 0;
let trapPort = 0;
let agentKey: string;
let otherToken: string;
let otherUser: string;

const providerFile = (name: string) => join(d.home, 'oauth', `${name}.json`);
const readProvider = (name: string) => JSON.parse(readFileSync(providerFile(name), 'utf8'));
const attach = (key: string | undefined, url: string, name = 'stolen', oauth = 'prov') =>
  d.api('POST', '/calendar/sync/accounts', { body: { name, url, oauth }, ...(key ? { key } : {}) });

beforeAll(async () => {
  as = await startAuthServer();
  trap = createServer((req, res) => {
    trapHits++;
    req.resume();
    res.writeHead(207, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><multistatus xmlns="DAV:"/>');
  });
  await new Promise<void>((ok) => trap.listen(0, '127.0.0.1', ok));
  trapPort = (trap.address() as AddressInfo).port;

  await createOAuth({ home: d.home }).authorize(
    { name: 'prov', issuer: as.issuer, client_id: as.publicClient, scopes: ['openid', 'offline_access'] },
    {
      owner: d.userId,
      mode: 'loopback',
      prompt: () => {},
      openUrl: async (url) => {
        void browse(url, { login: 'alice', password: 'any' });
        return true;
      },
    },
  );
  // The same grant as written before grants had an owner.
  const { owner: _o, ...rest } = readProvider('prov');
  writeFileSync(providerFile('legacy'), JSON.stringify({ ...rest, version: 1, provider: { ...rest.provider, name: 'legacy' } }), { mode: 0o600 });

  const key = await d.api('POST', '/auth/keys', { body: { name: 'agent', agent_id: 'helper-bot', scopes: ['calendar:read', 'calendar:write'] } });
  expect(key.status, key.text).toBe(201);
  agentKey = key.json.key;
  const reg = await d.api('POST', '/user/register', { body: { email: 'bob@example.com', password: 'correct horse battery', display_name: 'Bob' } });
  expect(reg.status, reg.text).toBe(201);
  otherUser = reg.json.user_id;
  const login = await d.api('POST', '/user/login', { key: null, body: { email: 'bob@example.com', password: 'correct horse battery' } });
  expect(login.status, login.text).toBe(200);
  otherToken = login.json.token;
}, 60_000);
afterAll(async () => {
  trap?.closeAllConnections();
  await new Promise((ok) => trap?.close(ok));
  await as?.close();
});

describe('OAuth grants belong to a user', () => {
  it('an old-format provider is migrated to the home owner: listed as theirs, its file rewritten with the owner', async () => {
    expect(readProvider('legacy').version).toBe(1);
    const r = await d.api('GET', '/calendar/sync/oauth');
    expect(r.status, r.text).toBe(200);
    expect(r.json.providers.map((p: { name: string; owner: string }) => [p.name, p.owner])).toEqual([
      ['legacy', d.userId],
      ['prov', d.userId],
    ]);
    expect(r.json.providers[1].allowed_hosts).toEqual(['127.0.0.1']);
    const migrated = readProvider('legacy');
    expect(migrated).toMatchObject({ version: 2, owner: d.userId });
    expect(migrated.grant).toEqual(readProvider('prov').grant);
    for (const t of [migrated.grant.access_token, migrated.grant.refresh_token]) expect(r.text).not.toContain(t);
  });

  it("an agent's key with calendar:write cannot attach the owner's grant (403), nor list or remove it; nothing is sent", async () => {
    const r = await attach(agentKey, `http://127.0.0.1:${trapPort}/cal/`);
    expect(r.status, r.text).toBe(403);
    expect(r.json.error.code).toBe('oauth_grant_forbidden');
    expect(r.json.error.message).toContain("an agent's key cannot");
    const list = await d.api('GET', '/calendar/sync/oauth', { key: agentKey });
    expect(list.status).toBe(403);
    expect(list.json.error.code).toBe('oauth_grant_forbidden');
    const rm = await d.api('DELETE', '/calendar/sync/oauth/prov', { key: agentKey });
    expect(rm.status).toBe(403);
    expect(existsSync(providerFile('prov'))).toBe(true);
    expect(trapHits).toBe(0);
    expect((await d.api('GET', '/calendar/sync/accounts', { key: agentKey })).json.accounts).toEqual([]);
  });

  it("a second user's login does not see the owner's providers: attaching or removing one is 404, as for no provider", async () => {
    const r = await attach(otherToken, `http://127.0.0.1:${trapPort}/cal/`);
    expect(r.status, r.text).toBe(404);
    expect(r.json.error.code).toBe('oauth_provider_not_found');
    expect(r.json.error.message).toContain('"prov"');
    const legacy = await attach(otherToken, `http://127.0.0.1:${trapPort}/cal/`, 'old', 'legacy');
    expect(legacy.status).toBe(404);
    const list = await d.api('GET', '/calendar/sync/oauth', { key: otherToken });
    expect(list.status, list.text).toBe(200);
    expect(list.json.providers).toEqual([]);
    const rm = await d.api('DELETE', '/calendar/sync/oauth/prov', { key: otherToken });
    expect(rm.status).toBe(404);
    expect(rm.json.error.code).toBe('oauth_provider_not_found');
    expect(existsSync(providerFile('prov'))).toBe(true);
    expect(trapHits).toBe(0);
  });

  it("admin acting for the second user (X-User-ID) sees that user's providers, not the owner's", async () => {
    const list = await d.api('GET', '/calendar/sync/oauth', { headers: { 'x-user-id': otherUser } });
    expect(list.status, list.text).toBe(200);
    expect(list.json.providers).toEqual([]);
    const r = await d.api('POST', '/calendar/sync/accounts', {
      headers: { 'x-user-id': otherUser },
      body: { name: 'stolen', url: `http://127.0.0.1:${trapPort}/cal/`, oauth: 'prov' },
    });
    expect(r.status).toBe(404);
    expect(trapHits).toBe(0);
  });

  it('the owner cannot send the grant to a host the provider does not allow (422 naming the hosts and --allow-host)', async () => {
    const r = await attach(undefined, `http://localhost:${trapPort}/cal/`);
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('oauth_host_not_allowed');
    expect(r.json.error.message).toContain('127.0.0.1');
    expect(r.json.error.message).toContain(`--allow-host localhost:${trapPort}`);
    expect(trapHits).toBe(0);
    expect((await d.api('GET', '/calendar/sync/accounts')).json.accounts).toEqual([]);
  });

  it('the owner removes their provider: its file is gone and the provider is asked to revoke the grant', async () => {
    const r = await d.api('DELETE', '/calendar/sync/oauth/legacy');
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ name: 'legacy', removed: true, revoked: true });
    expect(existsSync(providerFile('legacy'))).toBe(false);
    expect((await d.api('GET', '/calendar/sync/oauth')).json.providers.map((p: { name: string }) => p.name)).toEqual(['prov']);
  });
});
