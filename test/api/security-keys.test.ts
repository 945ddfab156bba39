import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import { cliEnv, removeHome, runCli, startDaemon, useDaemon } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';
import { editStoredDb } from '../helpers/stored-home.js';

// Issue 14, item 1: a weak key must not take over the owner.
const d = useDaemon();

async function mint(scopes: string[], name = 'k') {
  const r = await d.api('POST', '/auth/keys', { body: { name, scopes } });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; key: string };
}

async function feedKey(): Promise<{ id: string; key: string }> {
  const r = await runCli(['--json', 'cal', 'subscribe-url'], { env: cliEnv(d) });
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { url: string; key_id: string };
  return { id: out.key_id, key: new URL(out.url).searchParams.get('key')! };
}

const ownerKeyId = () => JSON.parse(readFileSync(join(d.home, 'credentials.json'), 'utf8')).key_id as string;

function wsStatus(key: string, path = '/ws'): Promise<number> {
  return new Promise((ok) => {
    const ws = new WebSocket(`ws://127.0.0.1:${d.port}${path}`, { headers: { authorization: `Bearer ${key}` } });
    ws.on('open', () => {
      ws.close();
      ok(101);
    });
    ws.on('unexpected-response', (_req, res) => ok(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

describe('the feed key reads the feed, and nothing else', () => {
  it('cannot list, rotate or revoke the owner key, set a password or change the profile (the issue’s takeover)', async () => {
    const feed = await feedKey();
    const owner = ownerKeyId();
    expectError(await d.api('GET', '/auth/keys', { key: feed.key }), 403, 'forbidden');
    expectError(await d.api('POST', `/auth/keys/${owner}/rotate`, { key: feed.key }), 403, 'forbidden');
    expectError(await d.api('DELETE', `/auth/keys/${owner}`, { key: feed.key }), 403, 'forbidden');
    expectError(await d.api('POST', '/user/password', { key: feed.key, body: { email: 'evil@example.com', password: 'attacker password' } }), 403, 'forbidden');
    expectError(await d.api('PATCH', '/user/update', { key: feed.key, body: { updates: { email: 'evil@example.com' } } }), 403, 'forbidden');
    expectError(await d.api('GET', '/user/profile', { key: feed.key }), 403, 'forbidden');
    // Not even itself.
    expectError(await d.api('POST', `/auth/keys/${feed.id}/rotate`, { key: feed.key }), 403, 'forbidden');
    expectError(await d.api('DELETE', `/auth/keys/${feed.id}`, { key: feed.key }), 403, 'forbidden');
    // The owner is untouched and the feed still answers.
    const profile = await d.api('GET', '/user/profile');
    expect(profile.status).toBe(200);
    expect(profile.json.email).toBeNull();
    const ics = await d.api('GET', `/calendar/feed.ics?key=${encodeURIComponent(feed.key)}`, { key: null });
    expect(ics.status, ics.text).toBe(200);
    expect(ics.text).toContain('BEGIN:VCALENDAR');
  });

  it('an older subscription (a calendar:read key) keeps working; a key with neither scope gets 403', async () => {
    const old = await mint(['calendar:read']);
    expect((await d.api('GET', `/calendar/feed.ics?key=${encodeURIComponent(old.key)}`, { key: null })).status).toBe(200);
    const other = await mint(['memory:read']);
    expectError(await d.api('GET', `/calendar/feed.ics?key=${encodeURIComponent(other.key)}`, { key: null }), 403, 'forbidden');
    expectError(await d.api('GET', '/calendar/feed.ics?key=kairos_sk_nope', { key: null }), 401, 'unauthorized');
  });

  it('is refused on the WebSocket (403), which a key with a read scope opens', async () => {
    const feed = await feedKey();
    expect(await wsStatus(feed.key)).toBe(403);
    expect(await wsStatus((await mint(['calendar:read'])).key)).toBe(101);
  });
});

describe('keys act on themselves; other keys need admin', () => {
  it('a narrow key lists only itself, rotates and revokes itself, and gets 403 on any other key', async () => {
    const a = await mint(['memory:read'], 'a');
    const b = await mint(['memory:read'], 'b');
    const list = await d.api('GET', '/auth/keys', { key: a.key });
    expect(list.status, list.text).toBe(200);
    expect(list.json.keys.map((k: { id: string }) => k.id)).toEqual([a.id]);
    expectError(await d.api('POST', `/auth/keys/${b.id}/rotate`, { key: a.key }), 403, 'forbidden');
    expectError(await d.api('DELETE', `/auth/keys/${b.id}`, { key: a.key }), 403, 'forbidden');
    expect((await d.api('GET', '/memory/pull', { key: b.key })).status).toBe(200);

    const rot = await d.api('POST', `/auth/keys/${a.id}/rotate`, { key: a.key });
    expect(rot.status, rot.text).toBe(200);
    expectError(await d.api('GET', '/memory/pull', { key: a.key }), 401, 'unauthorized');
    const rev = await d.api('DELETE', `/auth/keys/${a.id}`, { key: rot.json.key });
    expect(rev.status, rev.text).toBe(200);
    expectError(await d.api('GET', '/memory/pull', { key: rot.json.key }), 401, 'unauthorized');
  });

  it('/agent/status needs an agent scope (or admin); the profile needs profile:read', async () => {
    expectError(await d.api('GET', '/agent/status', { key: (await mint(['memory:read'])).key }), 403, 'forbidden');
    expect((await d.api('GET', '/agent/status', { key: (await mint(['agent:execute'])).key })).status).toBe(200);
    expectError(await d.api('GET', '/user/profile', { key: (await mint(['memory:read'])).key }), 403, 'forbidden');
    expect((await d.api('GET', '/user/profile', { key: (await mint(['profile:read'])).key })).status).toBe(200);
  });
});

describe('email and password: admin, or a login token plus the current password', () => {
  it('a non-admin key with profile:write may rename but not change the email or the password', async () => {
    const k = await mint(['profile:write']);
    expect((await d.api('PATCH', '/user/update', { key: k.key, body: { updates: { display_name: 'Renamed' } } })).status).toBe(200);
    expectError(await d.api('PATCH', '/user/update', { key: k.key, body: { updates: { email: 'evil@example.com' } } }), 403, 'forbidden');
    expectError(await d.api('POST', '/user/password', { key: k.key, body: { email: 'evil@example.com', password: 'attacker password' } }), 403, 'forbidden');
  });

  it('a login token needs current_password; a password change ends earlier tokens', async () => {
    const reg = await d.api('POST', '/user/register', { body: { email: 'tok@example.com', password: 'first password', display_name: 'tok' } });
    expect(reg.status, reg.text).toBe(201);
    const login = async (password: string) =>
      (await d.api('POST', '/user/login', { key: null, body: { email: 'tok@example.com', password } })).json.token as string;
    const token = await login('first password');
    expectError(await d.api('POST', '/user/password', { key: token, body: { password: 'second password' } }), 403, 'forbidden');
    expectError(
      await d.api('POST', '/user/password', { key: token, body: { password: 'second password', current_password: 'wrong guess' } }),
      403,
      'forbidden',
    );
    expectError(await d.api('PATCH', '/user/update', { key: token, body: { updates: { email: 'tok2@example.com' } } }), 403, 'forbidden');
    const moved = await d.api('PATCH', '/user/update', { key: token, body: { updates: { email: 'tok2@example.com' }, current_password: 'first password' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.email).toBe('tok2@example.com');

    const other = await d.api('POST', '/user/login', { key: null, body: { email: 'tok2@example.com', password: 'first password' } });
    expect(other.status).toBe(200);
    const changed = await d.api('POST', '/user/password', { key: token, body: { password: 'second password', current_password: 'first password' } });
    expect(changed.status, changed.text).toBe(200);
    // Both tokens issued for the old password are dead; a new login works.
    expectError(await d.api('GET', '/user/profile', { key: token }), 401, 'unauthorized');
    expectError(await d.api('GET', '/user/profile', { key: other.json.token }), 401, 'unauthorized');
    const fresh = await d.api('POST', '/user/login', { key: null, body: { email: 'tok2@example.com', password: 'second password' } });
    expect((await d.api('GET', '/user/profile', { key: fresh.json.token })).status).toBe(200);
  });
});

describe('restart and migration', () => {
  it('a restart revokes an owner key whose secret was rotated away from credentials.json', async () => {
    const r = await d.api('POST', `/auth/keys/${ownerKeyId()}/rotate`);
    expect(r.status).toBe(200);
    const stolen = r.json.key as string;
    await d.restart();
    expectError(await d.api('GET', '/memory/pull', { key: stolen }), 401, 'unauthorized');
    expect((await d.api('GET', '/user/profile')).status).toBe(200); // the new owner key
  });

  it('schema 1 → 2: the owner’s admin key gains profile:read/profile:write written out; other keys do not', async () => {
    const old = await startDaemon();
    try {
      const narrow = await old.api('POST', '/auth/keys', { body: { name: 'narrow', scopes: ['memory:read', 'calendar:read'] } });
      await old.stop();
      const dbPath = join(old.home, 'db.json');
      await editStoredDb(old.home, (db) => {
        db.schema_version = 1;
        for (const k of db.collections.api_keys) k.scopes = k.scopes.filter((s: string) => !s.startsWith('profile:') && s !== 'calendar:feed');
      });
      const again = await startDaemon({ home: old.home });
      try {
        const keys = (await again.api('GET', '/auth/keys')).json.keys as { id: string; scopes: string[] }[];
        const owner = keys.find((k) => k.id === JSON.parse(readFileSync(join(old.home, 'credentials.json'), 'utf8')).key_id)!;
        expect(owner.scopes).toEqual(expect.arrayContaining(['profile:read', 'profile:write', 'admin']));
        expect(keys.find((k) => k.id === narrow.json.id)!.scopes).toEqual(['memory:read', 'calendar:read']);
        expect(JSON.parse(readFileSync(dbPath, 'utf8')).schema_version).toBe(SCHEMA_VERSION);
      } finally {
        await again.stop();
      }
    } finally {
      removeHome(old.home);
    }
  });
});
