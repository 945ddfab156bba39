import { describe, expect, it } from 'vitest';
import { PageSessions } from '../../src/server/web/page-sessions.js';
import type { ApiResult } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

const app = useApp();

/** A browser's request from the daemon's own page: its cookie, its Origin, and the CSRF token when given. */
async function page(
  method: string,
  path: string,
  o: { cookie?: string; csrf?: string; origin?: string | null; body?: unknown; key?: string } = {},
): Promise<ApiResult> {
  const headers: Record<string, string> = {};
  if (o.cookie) headers.cookie = o.cookie;
  if (o.csrf) headers['x-csrf-token'] = o.csrf;
  if (o.origin !== null) headers.origin = o.origin ?? app.base;
  return app.api(method, path, { key: o.key ?? '', headers, body: o.body });
}

async function newCode(): Promise<string> {
  const r = await app.api('POST', '/app/codes');
  expect(r.status, r.text).toBe(201);
  return r.json.code;
}

/** A signed-in page: its cookie header and its CSRF token. */
async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const r = await page('POST', '/app/session', { body: { code: await newCode() } });
  expect(r.status, r.text).toBe(200);
  const set = r.headers.get('set-cookie') ?? '';
  return { cookie: set.split(';')[0]!, csrf: r.json.csrf_token };
}

describe('one-time sign-in codes', () => {
  it('POST /app/codes: a 128-bit+ code, 60 s, in the fragment of a loopback /app/ URL', async () => {
    const r = await app.api('POST', '/app/codes');
    expect(r.status, r.text).toBe(201);
    expect(Buffer.from(r.json.code, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(r.json.url).toBe(`${app.base}/app/#code=${r.json.code}`);
    const ttl = Date.parse(r.json.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('a code signs in once: the cookie is HttpOnly, SameSite=Strict, Path=/, not Secure; the second use is 401', async () => {
    const code = await newCode();
    const first = await page('POST', '/app/session', { body: { code } });
    expect(first.status, first.text).toBe(200);
    expect(first.json.user.user_id).toBe(app.userId);
    expect(first.json.csrf_token.length).toBeGreaterThanOrEqual(22);
    const set = first.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^kairos_session=[\w-]{40,};/);
    expect(set.toLowerCase()).toContain('httponly');
    expect(set.toLowerCase()).toContain('samesite=strict');
    expect(set.toLowerCase()).toContain('path=/');
    expect(set.toLowerCase()).not.toContain('secure');
    expectError(await page('POST', '/app/session', { body: { code } }), 401, 'code_invalid');
    expectError(await page('POST', '/app/session', { body: { code: 'not-a-code' } }), 401, 'code_invalid');
  });

  it('a code expires after 60 s and is kept only as a hash', async () => {
    let now = Date.parse('2031-01-01T00:00:00Z');
    const pages = new PageSessions({ clock: { now: () => new Date(now) } as never, users: app.services.users });
    const { code } = pages.newCode(app.userId);
    expect(JSON.stringify([...(pages as any).codes.entries()])).not.toContain(code);
    now += 60_000;
    expect(pages.takeCode(code)).toBeUndefined();
    const second = pages.newCode(app.userId);
    now += 59_000;
    expect(pages.takeCode(second.code)).toBe(app.userId);
  });

  it('an agent key may not make a code', async () => {
    const k = await app.api('POST', '/auth/keys', { body: { name: 'bot', scopes: ['memory:read', 'memory:write', 'admin'], agent_id: 'web-bot' } });
    expect(k.status, k.text).toBe(201);
    expectError(await app.api('POST', '/app/codes', { key: k.json.key }), 403, 'forbidden');
    const plain = await app.api('POST', '/auth/keys', { body: { name: 'reader', scopes: ['memory:read'] } });
    expect((await app.api('POST', '/app/codes', { key: plain.json.key })).status).toBe(403);
  });
});

describe('the page session', () => {
  it('GET /app/session answers the session for the cookie, 401 without it; DELETE ends it', async () => {
    const s = await signIn();
    const got = await page('GET', '/app/session', { cookie: s.cookie });
    expect(got.status, got.text).toBe(200);
    expect(got.json.csrf_token).toBe(s.csrf);
    expectError(await page('GET', '/app/session'), 401, 'unauthorized');
    expectError(await page('DELETE', '/app/session', { cookie: s.cookie }), 403, 'csrf_failed');
    const out = await page('DELETE', '/app/session', { cookie: s.cookie, csrf: s.csrf });
    expect(out.status, out.text).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/kairos_session=;.*expires=Thu, 01 Jan 1970/i);
    expectError(await page('GET', '/app/session', { cookie: s.cookie }), 401, 'unauthorized');
    expectError(await page('GET', '/memory/pull', { cookie: s.cookie }), 401, 'unauthorized');
  });

  it('email and password sign the page in too; a wrong password is 401', async () => {
    const reg = await app.api('POST', '/user/register', { body: { email: 'page@example.com', password: 'correct horse battery', display_name: 'Page' } });
    expect(reg.status, reg.text).toBe(201);
    expectError(await page('POST', '/app/session', { body: { email: 'page@example.com', password: 'wrong horse battery' } }), 401, 'unauthorized');
    const r = await page('POST', '/app/session', { body: { email: 'page@example.com', password: 'correct horse battery' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.user.email).toBe('page@example.com');
    const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0]!;
    const pulled = await page('GET', '/memory/pull', { cookie });
    expect(pulled.status, pulled.text).toBe(200);
  });

  it('a password change ends the page session', async () => {
    await app.api('POST', '/user/register', { body: { email: 'changer@example.com', password: 'correct horse battery', display_name: 'C' } });
    const r = await page('POST', '/app/session', { body: { email: 'changer@example.com', password: 'correct horse battery' } });
    const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csrf = r.json.csrf_token;
    expect((await page('GET', '/memory/pull', { cookie })).status).toBe(200);
    const changed = await page('POST', '/user/password', {
      cookie,
      csrf,
      body: { password: 'another horse battery', current_password: 'correct horse battery' },
    });
    expect(changed.status, changed.text).toBe(200);
    expectError(await page('GET', '/memory/pull', { cookie }), 401, 'unauthorized');
  });
});

describe('the cookie on the public API', () => {
  const trace = { type: 'observation', task_id: 'web', timestamp: '2031-02-03T09:00:00Z', content: 'from the page' };

  it('reads with the cookie alone; writes only with the CSRF token', async () => {
    const s = await signIn();
    expect((await page('GET', '/memory/pull', { cookie: s.cookie })).status).toBe(200);
    expectError(await page('POST', '/memory/push', { cookie: s.cookie, body: { traces: [trace] } }), 403, 'csrf_failed');
    expectError(await page('POST', '/memory/push', { cookie: s.cookie, csrf: 'x'.repeat(43), body: { traces: [trace] } }), 403, 'csrf_failed');
    const ok = await page('POST', '/memory/push', { cookie: s.cookie, csrf: s.csrf, body: { traces: [trace] } });
    expect(ok.status, ok.text).toBe(201);
  });

  it('a foreign Origin is refused even with the right CSRF token; no Origin is a same-origin GET', async () => {
    const s = await signIn();
    expectError(await page('GET', '/memory/pull', { cookie: s.cookie, origin: 'http://evil.example' }), 403, 'forbidden_origin');
    expectError(
      await page('POST', '/memory/push', { cookie: s.cookie, csrf: s.csrf, origin: 'http://127.0.0.1:1', body: { traces: [trace] } }),
      403,
      'forbidden_origin',
    );
    expect((await page('GET', '/memory/pull', { cookie: s.cookie, origin: null })).status).toBe(200);
  });

  it('a Bearer header ignores the cookie', async () => {
    const s = await signIn();
    const r = await page('POST', '/memory/push', { cookie: s.cookie, key: app.key, origin: 'http://evil.example', body: { traces: [trace] } });
    expect(r.status, r.text).toBe(201);
    expectError(await page('GET', '/memory/pull', { cookie: s.cookie, key: 'kairos_sk_wrong' }), 401, 'unauthorized');
  });

  it('agent routes take the cookie with the person’s own scopes (an X-Agent-ID names the agent)', async () => {
    const s = await signIn();
    const r = await app.api('GET', '/agent/queue', { key: '', headers: { cookie: s.cookie, origin: app.base } });
    expect(r.status, r.text).toBe(200);
  });
});
