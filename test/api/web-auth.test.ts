import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useDaemon } from '../helpers/daemon.js';

// The web page's sign-in, cookie session and page headers, against the real daemon. The page
// files come from a folder of the test's own (KAIROS_WEB_DIR), so this holds whatever is built.
const webDir = mkdtempSync(join(tmpdir(), 'kairos-web-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>kairos</title><script src="main-AbCdEfGh12.js"></script>');
writeFileSync(join(webDir, 'main-AbCdEfGh12.js'), 'console.log(1)');
const d = useDaemon({ env: { KAIROS_WEB_DIR: webDir } });

/** A request as a browser on the daemon's own page makes it: its cookie, its Origin. */
async function page(method: string, path: string, opts: { cookie?: string; csrf?: string; origin?: string | null; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
  if (opts.origin !== null) headers.origin = opts.origin ?? d.base;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${d.base}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), redirect: 'manual' });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

/** A GET whose path goes on the wire exactly as written. */
const rawGet = (path: string) =>
  new Promise<{ status: number; text: string }>((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: d.port, path, method: 'GET' }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => ok({ status: res.statusCode!, text }));
    });
    req.on('error', fail);
    req.end();
  });

const code = async () => (await d.api('POST', '/app/codes')).json as { code: string; url: string; expires_at: string };

/** Sign in with a fresh code; the cookie as a browser would send it back. */
async function signIn() {
  const c = await code();
  const r = await page('POST', '/app/session', { body: { code: c.code } });
  expect(r.status, r.text).toBe(200);
  const set = r.headers.get('set-cookie')!;
  return { cookie: set.split(';')[0]!, set, csrf: r.json.csrf_token as string, body: r.json };
}

describe('the one-time link', () => {
  it('carries a long code in the fragment of the page URL and works once', async () => {
    const c = await code();
    expect(c.code.length).toBeGreaterThanOrEqual(43); // 32 random bytes in base64url
    expect(c.url).toBe(`${d.base}/app/#code=${c.code}`);
    const first = await page('POST', '/app/session', { body: { code: c.code } });
    expect(first.status).toBe(200);
    expect(first.json.user.user_id).toBe(d.userId);
    const again = await page('POST', '/app/session', { body: { code: c.code } });
    expect(again.status).toBe(401);
    expect(again.json.error.code).toBe('code_invalid');
  });

  it('is refused to an agent key, however many scopes it holds', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'agent', agent_id: 'claude', scopes: ['memory:read', 'memory:write', 'agent:plan'] } });
    const r = await d.api('POST', '/app/codes', { key: k.json.key });
    expect(r.status).toBe(403);
  });

  it('an unknown code signs nothing in', async () => {
    const r = await page('POST', '/app/session', { body: { code: 'x'.repeat(43) } });
    expect(r.status).toBe(401);
    expect(r.headers.get('set-cookie')).toBeNull();
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, for the whole daemon, and the CSRF token is only in the body', async () => {
    const s = await signIn();
    expect(s.set).toMatch(/^kairos_session=[\w-]{43};/);
    expect(s.set.toLowerCase()).toContain('httponly');
    expect(s.set.toLowerCase()).toContain('samesite=strict');
    expect(s.set.toLowerCase()).toContain('path=/;');
    expect(s.set).not.toContain(s.csrf);
    const again = await page('GET', '/app/session', { cookie: s.cookie });
    expect(again.status).toBe(200);
    expect(again.json.csrf_token).toBe(s.csrf);
  });

  it('reads the API with the cookie alone, and changes it only with the CSRF token', async () => {
    const s = await signIn();
    expect((await page('GET', '/auth/whoami', { cookie: s.cookie })).json.user_id).toBe(d.userId);
    const body = { content: 'pushed from the page', task_id: 'web', trace_type: 'observation' };
    const without = await page('POST', '/memory/push', { cookie: s.cookie, body });
    expect(without.status).toBe(403);
    expect(without.json.error.code).toBe('csrf_failed');
    const wrong = await page('POST', '/memory/push', { cookie: s.cookie, csrf: `${s.csrf.slice(0, -1)}A`, body });
    expect(wrong.json.error.code).toBe('csrf_failed');
    const ok = await page('POST', '/memory/push', { cookie: s.cookie, csrf: s.csrf, body });
    expect(ok.status, ok.text).toBeLessThan(300);
  });

  it('counts for nothing from another origin, even another port of the same host', async () => {
    const s = await signIn();
    const other = `http://127.0.0.1:${d.port === 65535 ? 1 : d.port + 1}`;
    const r = await page('GET', '/auth/whoami', { cookie: s.cookie, origin: other });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('forbidden_origin');
    const push = await page('POST', '/memory/push', { cookie: s.cookie, csrf: s.csrf, origin: other, body: { content: 'x', task_id: 'web' } });
    expect(push.status).toBe(403);
  });

  it('ends with sign-out, on the daemon and in the browser', async () => {
    const s = await signIn();
    const out = await page('DELETE', '/app/session', { cookie: s.cookie, csrf: s.csrf });
    expect(out.json).toEqual({ signed_out: true });
    expect(out.headers.get('set-cookie')).toMatch(/^kairos_session=;.*expires=Thu, 01 Jan 1970/i);
    expect((await page('GET', '/app/session', { cookie: s.cookie })).status).toBe(401);
    expect((await page('GET', '/auth/whoami', { cookie: s.cookie })).status).toBe(401);
  });

  it('a sign-out needs the CSRF token too', async () => {
    const s = await signIn();
    expect((await page('DELETE', '/app/session', { cookie: s.cookie })).json.error.code).toBe('csrf_failed');
    expect((await page('GET', '/app/session', { cookie: s.cookie })).status).toBe(200);
  });

  it('signs in with email and password, and ends when the password changes', async () => {
    const email = `page-${Date.now()}@example.com`;
    const reg = await d.api('POST', '/user/register', { body: { email, password: 'first password here', display_name: 'Page User' } });
    expect(reg.status, reg.text).toBe(201);
    const wrong = await page('POST', '/app/session', { body: { email, password: 'not it' } });
    expect(wrong.status).toBe(401);
    const r = await page('POST', '/app/session', { body: { email, password: 'first password here' } });
    expect(r.status, r.text).toBe(200);
    const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
    expect((await page('GET', '/auth/whoami', { cookie })).json.user_id).toBe(reg.json.user_id);
    const login = await d.api('POST', '/user/login', { key: null, body: { email, password: 'first password here' } });
    const changed = await d.api('POST', '/user/password', {
      key: login.json.token,
      body: { current_password: 'first password here', password: 'second password here' },
    });
    expect(changed.status, changed.text).toBeLessThan(300);
    expect((await page('GET', '/auth/whoami', { cookie })).status).toBe(401);
  });

  it('a Bearer header is used as it is, whatever the cookie says', async () => {
    const r = await d.api('GET', '/auth/whoami', { headers: { cookie: 'kairos_session=unknown', origin: 'http://evil.example' } });
    expect(r.status).toBe(200);
  });

  it('opens the live stream from the page (and not from another origin)', async () => {
    const s = await signIn();
    const ws = new WebSocket(`ws://127.0.0.1:${d.port}/ws`, { headers: { cookie: s.cookie, origin: d.base } });
    await new Promise((ok, fail) => {
      ws.once('open', ok);
      ws.once('error', fail);
    });
    ws.close();
    const foreign = new WebSocket(`ws://127.0.0.1:${d.port}/ws`, { headers: { cookie: s.cookie, origin: 'http://evil.example' } });
    const status = await new Promise<number>((ok) => {
      foreign.once('unexpected-response', (_req, res) => ok(res.statusCode ?? 0));
      foreign.once('open', () => ok(101));
    });
    expect(status).toBe(403);
  });
});

describe('the page files', () => {
  it('serves index.html at /app/ with a strict Content-Security-Policy', async () => {
    const r = await page('GET', '/app/', { origin: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.text).toContain('<title>kairos</title>');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect((await page('GET', '/app', { origin: null })).status).toBe(302);
  });

  it('caches hashed files for good and answers a conditional GET with 304', async () => {
    const r = await page('GET', '/app/main-AbCdEfGh12.js', { origin: null });
    expect(r.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(r.headers.get('cache-control')).toContain('immutable');
    const again = await fetch(`${d.base}/app/main-AbCdEfGh12.js`, { headers: { 'if-modified-since': r.headers.get('last-modified')! } });
    expect(again.status).toBe(304);
  });

  it('never leaves its folder', async () => {
    // Sent as raw request lines: fetch would resolve the dots before the daemon sees them.
    for (const path of [
      '/app/../db.json',
      '/app/..%2f..%2fdb.json',
      '/app/%2e%2e/%2e%2e/db.json',
      '/app/..%5cdb.json',
      '/app/x%00.js',
      '/app/%E0%A4%A',
      '/app/./index.html',
      '/app/a//b',
    ]) {
      const r = await rawGet(path);
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.text).error.code, path).toBe('not_found');
    }
  });

  it('a GET of the API paths under /app is still the API', async () => {
    expect((await page('GET', '/app/session', { origin: null })).status).toBe(401);
  });
});
