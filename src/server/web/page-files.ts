import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';
import { AppError, notFound } from '../../errors.js';

/** Where `npm run build` puts the page (web/ built into dist/web/); KAIROS_WEB_DIR serves another build (page development, tests). */
export const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

/** The page's own paths that are API routes, not files. */
const API_PATHS = new Set(['/app/session', '/app/codes']);

/**
 * The page may run only its own files: no inline script or style, no other origin, no framing.
 * `connect-src 'self'` also covers the page's WebSocket to /ws.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A build's content-hashed file name (`main-3F2a9XbQ.js`): its bytes never change, so it may be cached for good. */
const HASHED = /[-.][A-Za-z0-9_]{8,}\.[a-z0-9]+$/;

/**
 * Serves the web page at /app/: `index.html` at `/app/`, the files beside it under `/app/…`.
 * Only regular files inside the folder, by their decoded path with no `..`, backslash or NUL; no
 * listings; every answer under /app carries the page's security headers.
 */
export function pageFiles(dir: string = process.env.KAIROS_WEB_DIR || WEB_DIR) {
  const root = resolve(dir);
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== '/app' && !ctx.path.startsWith('/app/')) return next();
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    if (API_PATHS.has(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (ctx.path === '/app') return ctx.redirect('/app/');
    let rel: string;
    try {
      rel = ctx.path === '/app/' ? 'index.html' : decodeURIComponent(ctx.path.slice('/app/'.length));
    } catch {
      throw notFound(`No page file ${ctx.path}.`);
    }
    if (rel.split('/').some((seg) => seg === '..' || seg === '.' || seg === '') || /[\\\0]/.test(rel)) throw notFound(`No page file ${ctx.path}.`);
    const file = resolve(join(root, rel));
    if (!file.startsWith(root + sep)) throw notFound(`No page file ${ctx.path}.`);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      if (rel === 'index.html') throw new AppError(503, 'web_not_built', `The web page is not built (no ${file}): run \`npm run build\` in the kairos folder.`);
      throw notFound(`No page file ${ctx.path}.`);
    }
    ctx.type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    ctx.length = info.size;
    ctx.lastModified = info.mtime;
    ctx.set('Cache-Control', HASHED.test(rel) ? 'public, max-age=31536000, immutable' : 'no-cache');
    // Koa tells freshness only of a 2xx answer.
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = ctx.method === 'HEAD' ? null : createReadStream(file);
  };
}
