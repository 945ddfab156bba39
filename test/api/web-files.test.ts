import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/expect-error.js';
import { startApp, useApp } from '../helpers/in-process.js';

// A small built page in a folder of its own; the daemon's home (and its db.json) lies elsewhere.
const dir = mkdtempSync(join(tmpdir(), 'kairos-web-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>kairos</title><script type="module" src="assets/main-AbCd1234.js"></script>');
writeFileSync(join(dir, 'assets', 'main-AbCd1234.js'), 'console.log("page")');
writeFileSync(join(dir, 'app.css'), 'body{}');
writeFileSync(join(dir, 'secret.txt'), 'inside');
process.env.KAIROS_WEB_DIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const app = useApp();
const get = (path: string, headers: Record<string, string> = {}) => app.api('GET', path, { key: '', headers });
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'";

describe('GET /app/', () => {
  it('serves index.html with the page security headers, not cached', async () => {
    const r = await get('/app/');
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain('<title>kairos</title>');
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toContain(CSP);
    expect(r.headers.get('content-security-policy')).toContain("base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves files with their types; hashed names are cached for good', async () => {
    const js = await get('/app/assets/main-AbCd1234.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('immutable');
    const css = await get('/app/app.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('no-cache');
  });

  it('unknown files, folders and escapes are 404 JSON with the headers; nothing outside the folder', async () => {
    for (const path of [
      '/app/nope.js',
      '/app/assets/',
      '/app/assets',
      '/app/..%2f..%2fdb.json',
      '/app/%2e%2e/%2e%2e/db.json',
      '/app/assets/..%2f..%2fsecret.txt',
      '/app/..%5csecret.txt',
      '/app/%00',
    ]) {
      const r = await get(path);
      expectError(r, 404, 'not_found');
      expect(r.headers.get('content-security-policy'), path).toContain("default-src 'none'");
    }
  });

  it('/app redirects to /app/; a POST to a file is not served', async () => {
    const r = await fetch(`${app.base}/app`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/app/');
    expect((await app.api('POST', '/app/index.html', { key: '' })).status).toBe(404);
  });

  it('without a built page /app/ is 503 web_not_built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'kairos-web-empty-'));
    process.env.KAIROS_WEB_DIR = empty;
    const bare = await startApp();
    try {
      expectError(await bare.api('GET', '/app/', { key: '' }), 503, 'web_not_built');
    } finally {
      await bare.stop();
      rmSync(empty, { recursive: true, force: true });
      process.env.KAIROS_WEB_DIR = dir;
    }
  });
});
