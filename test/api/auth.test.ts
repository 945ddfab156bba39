import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();

async function mint(body: Record<string, unknown>, key?: string) {
  const r = await d.api('POST', '/auth/keys', { body, key });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; key: string; scopes: string[]; agent_id: string | null; expires_at: string | null };
}

async function newUser(email: string) {
  const reg = await d.api('POST', '/user/register', { body: { email, password: 'correct horse', display_name: email.split('@')[0] } });
  expect(reg.status, reg.text).toBe(201);
  const login = await d.api('POST', '/user/login', { key: null, body: { email, password: 'correct horse' } });
  expect(login.status, login.text).toBe(200);
  return { userId: reg.json.user_id as string, token: login.json.token as string };
}

describe('authentication: 401', () => {
  it.each([
    ['no Authorization header', {}],
    ['an unknown key', { authorization: 'Bearer kairos_sk_not-a-real-key' }],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['a forged token', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' }],
  ])('%s → 401 unauthorized', async (_what, headers) => {
    expectError(await d.api('GET', '/user/profile', { key: null, headers }), 401, 'unauthorized');
  });

  it('an expired key → 401', async () => {
    const k = await mint({ name: 'short', scopes: ['memory:read'], ttl_seconds: 1 });
    expect((await d.api('GET', '/memory/pull', { key: k.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expectError(await d.api('GET', '/memory/pull', { key: k.key }), 401, 'unauthorized');
  });

  it('a revoked key → 401 at once; revoking an unknown id → 404', async () => {
    const k = await mint({ name: 'gone', scopes: ['memory:read'] });
    const r = await d.api('DELETE', `/auth/keys/${k.id}`);
    expect(r.status).toBe(200);
    expect(r.json.revoked).toBe(k.id);
    expectError(await d.api('GET', '/memory/pull', { key: k.key }), 401, 'unauthorized');
    expectError(await d.api('DELETE', '/auth/keys/key_nope'), 404, 'not_found');
  });

  it('rotation: the old secret dies, the new one works, same id and scopes', async () => {
    const k = await mint({ name: 'rot', scopes: ['memory:read', 'tempo:read'] });
    const r = await d.api('POST', `/auth/keys/${k.id}/rotate`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: k.id, scopes: k.scopes, name: 'rot' });
    expect(r.json.key).not.toBe(k.key);
    expectError(await d.api('GET', '/memory/pull', { key: k.key }), 401, 'unauthorized');
    expect((await d.api('GET', '/memory/pull', { key: r.json.key })).status).toBe(200);
    expectError(await d.api('POST', '/auth/keys/key_nope/rotate'), 404, 'not_found');
  });
});

describe('authorization: 403', () => {
  it('a key without the scope → 403 forbidden', async () => {
    const k = await mint({ name: 'reader', scopes: ['memory:read'] });
    expectError(await d.api('POST', '/auth/keys', { key: k.key, body: { name: 'x', scopes: ['memory:read'] } }), 403, 'forbidden');
    expectError(
      await d.api('POST', '/user/register', { key: k.key, body: { email: 'z@example.com', password: 'longenough', display_name: 'z' } }),
      403,
      'forbidden',
    );
  });

  it('keys list never shows secrets or hashes', async () => {
    const k = await mint({ name: 'listed', scopes: ['memory:read'] });
    const r = await d.api('GET', '/auth/keys');
    expect(r.text).toContain(k.id);
    expect(r.text).not.toContain(k.key);
    expect(r.text).not.toContain('hash');
  });

  it('an agent key: X-Agent-ID that differs → 403; the same → fine', async () => {
    const k = await mint({ name: 'bot', agent_id: 'planner-bot', scopes: ['memory:read'] });
    expect(k.agent_id).toBe('planner-bot');
    expectError(await d.api('GET', '/memory/pull', { key: k.key, headers: { 'x-agent-id': 'other-bot' } }), 403, 'forbidden');
    expect((await d.api('GET', '/memory/pull', { key: k.key, headers: { 'x-agent-id': 'planner-bot' } })).status).toBe(200);
  });

  it("another user's data → 403; X-User-ID only with admin", async () => {
    const bob = await newUser('bob@example.com');
    // Bob's login token reads his own profile…
    const own = await d.api('GET', '/user/profile', { key: bob.token });
    expect(own.status).toBe(200);
    expect(own.json.user_id).toBe(bob.userId);
    // …but not the owner's, by user_id or by impersonation.
    expectError(await d.api('GET', `/user/profile?user_id=${d.userId}`, { key: bob.token }), 403, 'forbidden');
    expectError(await d.api('PATCH', '/user/update', { key: bob.token, body: { user_id: d.userId, updates: { display_name: 'pwned' } } }), 403, 'forbidden');
    expectError(await d.api('GET', '/user/profile', { key: bob.token, headers: { 'x-user-id': d.userId } }), 403, 'forbidden');
    // Nor mint keys (no admin) or see the owner's keys.
    expectError(await d.api('POST', '/auth/keys', { key: bob.token, body: { name: 'x', scopes: ['memory:read'] } }), 403, 'forbidden');
    // A login token is not a key: without admin it manages no key, not even to list.
    expectError(await d.api('GET', '/auth/keys', { key: bob.token }), 403, 'forbidden');
    // The owner (admin) may act as Bob.
    const imp = await d.api('GET', '/user/profile', { headers: { 'x-user-id': bob.userId } });
    expect(imp.json.user_id).toBe(bob.userId);
  });

  it('admin mints a key for another user; that key acts as that user only', async () => {
    const carol = await newUser('carol@example.com');
    const k = await mint({ name: 'carol-key', scopes: ['memory:read', 'profile:read'], user_id: carol.userId });
    expect((await d.api('GET', '/user/profile', { key: k.key })).json.user_id).toBe(carol.userId);
    expectError(await d.api('GET', `/user/profile?user_id=${d.userId}`, { key: k.key }), 403, 'forbidden');
  });
});

describe('users', () => {
  it('login: bad credentials → 401; a token carries the user id and expiry', async () => {
    await newUser('dave@example.com');
    expectError(await d.api('POST', '/user/login', { key: null, body: { email: 'dave@example.com', password: 'wrong password' } }), 401, 'unauthorized');
    expectError(await d.api('POST', '/user/login', { key: null, body: { email: 'nobody@example.com', password: 'whatever1' } }), 401, 'unauthorized');
    const ok = await d.api('POST', '/user/login', { key: null, body: { email: 'DAVE@example.com', password: 'correct horse' } });
    expect(ok.json).toMatchObject({ token_type: 'Bearer', user_id: expect.stringMatching(/^usr_/) });
    const hours = (Date.parse(ok.json.expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
  });

  it('register: a taken email → 409; a short password → 422', async () => {
    await newUser('erin@example.com');
    expectError(await d.api('POST', '/user/register', { body: { email: 'erin@example.com', password: 'longenough', display_name: 'e' } }), 409, 'conflict');
    expectError(
      await d.api('POST', '/user/register', { body: { email: 'frank@example.com', password: 'short', display_name: 'f' } }),
      422,
      'validation_failed',
    );
  });

  it('profile has every field; update changes it; a bad time zone → 422', async () => {
    const p = await d.api('GET', '/user/profile');
    for (const k of ['user_id', 'email', 'display_name', 'timezone', 'tempo', 'preferences', 'constraints', 'created_at']) expect(p.json).toHaveProperty(k);
    expect(p.json.user_id).toBe(d.userId);
    const u = await d.api('PATCH', '/user/update', {
      body: { user_id: d.userId, updates: { display_name: 'Ada', timezone: 'Europe/Berlin', preferences: { week_starts: 'monday' } } },
    });
    expect(u.status, u.text).toBe(200);
    expect(u.json).toMatchObject({ display_name: 'Ada', timezone: 'Europe/Berlin', preferences: { week_starts: 'monday' } });
    expectError(await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'Mars/Olympus' } } }), 422, 'validation_failed');
    expectError(await d.api('PATCH', '/user/update', { body: { updates: { user_id: 'usr_x' } } }), 422, 'validation_failed');
  });

  it('the owner sets a password, then logs in with an admin token', async () => {
    const r = await d.api('POST', '/user/password', { body: { email: 'owner@example.com', password: 'owner password' } });
    expect(r.status, r.text).toBe(200);
    const login = await d.api('POST', '/user/login', { key: null, body: { email: 'owner@example.com', password: 'owner password' } });
    expect(login.status).toBe(200);
    const k = await d.api('POST', '/auth/keys', { key: login.json.token, body: { name: 'via-token', scopes: ['memory:read'] } });
    expect(k.status).toBe(201);
  });
});
