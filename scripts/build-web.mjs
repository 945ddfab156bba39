#!/usr/bin/env node
// `dist/web/`: the page the daemon serves at /app/ (web/), one minified script, its stylesheet
// and index.html. Everything is local: the page loads nothing from another origin.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';

const ROOT = join(import.meta.dirname, '..');
const WEB = join(ROOT, 'web');
export const WEB_DIR = join(ROOT, 'dist', 'web');
/** The page's JavaScript budget, gzipped (docs/web.md). */
export const SCRIPT_BUDGET_BYTES = 150 * 1024;

/** Gzipped size of the built script, in bytes. */
export function scriptGzipBytes() {
  return gzipSync(readFileSync(join(WEB_DIR, 'app.js')), { level: 9 }).length;
}

/** Build dist/web/; throws on a build error or when the script is over its budget. */
export async function buildWeb() {
  rmSync(WEB_DIR, { recursive: true, force: true });
  mkdirSync(WEB_DIR, { recursive: true });
  const build = await rolldown({ input: join(WEB, 'src', 'main.ts'), platform: 'browser', cwd: ROOT, logLevel: 'warn' });
  await build.write({ file: join(WEB_DIR, 'app.js'), format: 'esm', minify: true, sourcemap: false });
  await build.close();
  for (const f of ['index.html', 'app.css']) copyFileSync(join(WEB, f), join(WEB_DIR, f));
  const size = scriptGzipBytes();
  if (size > SCRIPT_BUDGET_BYTES) throw new Error(`dist/web/app.js is ${size} bytes gzipped, over the budget of ${SCRIPT_BUDGET_BYTES}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await buildWeb();
